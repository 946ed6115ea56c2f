// Real access logs through `workload analyze`: a 389-ds sandbox with its access log on (unbuffered), and a slapd
// sandbox run in the foreground with `-d 256` (OpenLDAP stats lines with their nanosecond stamps, stderr into a
// file), each driven by `dirbench-cli ldap mixed`. Inside the load's measured window the log's per-template counts
// match the load's record. And the 389-ds sandbox driven by another client, 389-ds-base's own ldclt.
#include "core/ldap/ldaptarget.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/workload/workloadfile.h"
#include "ldapfixture.h"
#include "tests/common/clirun.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <cmath>
#include <csignal>

namespace {

using CliRun::Result;

Result cli(const QStringList& args)
{
    return CliRun::run(args, 180000);
}

QJsonObject templateOf(const QJsonObject& analysis, const QString& kind, const QString& text)
{
    for (const auto& v : analysis.value("templates").toArray())
        if (v.toObject().value("kind").toString() == kind && v.toObject().value("template").toString() == text)
            return v.toObject();
    return {};
}

const QString kSearch = QStringLiteral("search (uid=?1)");
const QString kModify = QStringLiteral("modify uid=?1,ou=people,dc=example,dc=com");

// What the load's record says: by_operation per kind and its measured window on the wall clock.
struct Load
{
    QMap<QString, int> ops, ok; // kSearch, kModify
    uint64_t start = 0, end = 0;
};

// Two connections, one operation in flight on each: at each edge of the window at most two operations are
// ambiguous (the load counts by completion on the client, the log by the server's RESULT line just before).
void runLoad(const SandboxInfo& s, const QString& rec, Load* out)
{
    const QString uids = QStringLiteral("uid=user[0-1999]");
    const Result load = cli({ "ldap", "mixed", "--uri", s.uri, "--bind-dn", s.bindDn, "--password-file", s.passwordFile,
        "--mix", "search=80,modify=20", "--base", s.peopleBase, "--filter", uids, "--dn", uids + u',' + s.peopleBase,
        "--attr", "description", "--value", "capture [0-99]", "--duration", "3", "--threads", "2", "--connections", "1",
        "--outstanding", "1", "--json", rec, "--no-history" });
    QVERIFY2(load.code == 0, load.err.constData());
    QFile f(rec);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject summary = QJsonDocument::fromJson(f.readAll()).object().value("summary").toObject();
    const QJsonObject byOp = summary.value("by_operation").toObject();
    out->ops[kSearch] = byOp.value("search").toObject().value("ops").toInt();
    out->ok[kSearch] = byOp.value("search").toObject().value("ok").toInt();
    out->ops[kModify] = byOp.value("modify").toObject().value("ops").toInt();
    out->ok[kModify] = byOp.value("modify").toObject().value("ok").toInt();
    out->start = summary.value("window_epoch_ns").toObject().value("start").toString().toULongLong();
    out->end = summary.value("window_epoch_ns").toObject().value("end").toString().toULongLong();
    QVERIFY(out->start > 0 && out->end > out->start);
    QVERIFY2(out->ops[kSearch] > 100 && out->ops[kModify] > 10, qPrintable(QString::number(out->ops[kSearch])));
}

// The whole log, analysed, once the load's searches are all in it (the server writes a RESULT line as it
// answers: the last ones may trail the client a moment).
QJsonObject analyzeAll(const QString& log, int searchesAtLeast)
{
    QJsonObject analysis;
    QElapsedTimer waited;
    waited.start();
    do {
        const Result r = cli({ "workload", "analyze", "--log", log, "--json", "-" });
        analysis = QJsonDocument::fromJson(r.out).object();
        const QJsonObject t = templateOf(analysis, "search", "(uid=?1)");
        if (t.value("count").toInt() - t.value("without_result").toInt() >= searchesAtLeast)
            break;
        QTest::qWait(200);
    } while (waited.elapsed() < 15000);
    return analysis;
}

// The saved workload (values kept): operations per "kind template" whose result is inside the window.
void countInWindow(const QString& log, const QString& saved, const Load& load, const QString& format)
{
    const Result keptRun = cli({ "workload", "analyze", "--log", log, "--save", saved, "--keep-values" });
    QVERIFY2(keptRun.code == 0, keptRun.err.constData());
    QString error;
    const auto all = WorkloadFile::read(saved, &error);
    QVERIFY2(all, qPrintable(error));
    QCOMPARE(all->source.format, format);
    QVERIFY(all->valuesKept);
    QMap<QString, int> inWindow, okInWindow;
    for (const WorkloadConnection& c : all->connections)
        for (const WorkloadOp& op : c.ops) {
            if (!op.resultOffsetNs || op.templateId < 0)
                continue;
            const uint64_t t = all->source.firstEpochNs + *op.resultOffsetNs;
            if (t < load.start || t > load.end)
                continue;
            const QString key = workloadOpName(op.kind) + u' ' + all->templates[size_t(op.templateId)].text;
            ++inWindow[key];
            okInWindow[key] += op.resultCode == 0;
        }
    qInfo("%s in the window: the log has %d searches, %d modifies; the record %d, %d", qPrintable(format),
        inWindow.value(kSearch), inWindow.value(kModify), load.ops.value(kSearch), load.ops.value(kModify));
    for (const QString& k : { kSearch, kModify }) {
        QVERIFY2(std::abs(inWindow.value(k) - load.ops.value(k)) <= 4,
            qPrintable(k + ": " + QString::number(inWindow.value(k) - load.ops.value(k))));
        QVERIFY2(std::abs(okInWindow.value(k) - load.ok.value(k)) <= 4, qPrintable(k));
    }
    // Anonymised by default: no value of the log in the file.
    const Result anon = cli({ "workload", "analyze", "--log", log, "--save", saved });
    QVERIFY2(anon.code == 0, anon.err.constData());
    const auto back = WorkloadFile::read(saved, &error);
    QVERIFY2(back && back->anonymised, qPrintable(error));
    QCOMPARE(back->operationCount(), all->operationCount());
    QFile file(saved);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray text = file.readAll();
    QVERIFY(!text.contains("\"user1") && !text.contains("127.0.0.1"));
}

void checkWholeLog(const QJsonObject& analysis, const Load& load, const QString& format, bool serverTimes = true)
{
    QCOMPARE(analysis.value("source").toObject().value("format").toString(), format);
    const QJsonObject search = templateOf(analysis, "search", "(uid=?1)");
    const QJsonObject modify = templateOf(analysis, "modify", "uid=?1,ou=people,dc=example,dc=com");
    // The whole log has the warm-up and the tail too: at least what the record counted.
    QVERIFY(search.value("result_codes").toObject().value("0").toInt() >= load.ok.value(kSearch));
    QVERIFY(modify.value("result_codes").toObject().value("0").toInt() >= load.ok.value(kModify));
    QCOMPARE(search.value("entries").toObject().value("mean").toDouble(), 1.0); // each uid=userN exists once
    QCOMPARE(search.value("etime_ms").toObject().value("p50").toDouble() > 0, serverTimes);
    QCOMPARE(search.value("skew").toObject().value("model").toString(), QString("uniform")); // the load's keys
    QVERIFY(analysis.value("connections").toInt() >= 2);
    // Every result joined to its request. One run in a loaded full suite found one result of `slapd -d 256`
    // without its request (cause not found; six runs alone found none): that format may have one, never more.
    const QJsonObject unmatched = analysis.value("unmatched").toObject();
    const int orphans = unmatched.value("results_without_request").toInt();
    if (orphans)
        qWarning("%s: %d results without a request: %s", qPrintable(format), orphans,
            QJsonDocument(unmatched).toJson(QJsonDocument::Compact).constData());
    QVERIFY(orphans <= (format == u"openldap-stats" ? 1 : 0));
    QVERIFY(analysis.value("per_second").toArray().size() >= 3);
    const QJsonObject lines = analysis.value("lines").toObject();
    const QJsonObject churn = analysis.value("churn").toObject();
    qInfo("%s: %d lines, %d ignored, %d cut; %d connects, %d closes", qPrintable(format), lines.value("total").toInt(),
        lines.value("ignored").toInt(), lines.value("cut").toInt(), churn.value("connects").toInt(),
        churn.value("closes").toInt());
    QCOMPARE(lines.value("cut").toInt(), 0);
}

} // namespace

class TstWorkloadCapture : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void ds389MixedLoad();
    void ds389Logconv();
    void ds389Ldclt();
    void openldapStatsLog();
    void openldapAccesslogLdif();

private:
    QTemporaryDir m_dir;
    QString m_ds389Log; // ds389MixedLoad's access log, kept for ds389Logconv
};

void TstWorkloadCapture::ds389MixedLoad()
{
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 2000;
    o.accessLog = true;
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds.isValid(), qPrintable(e.detail));
    const QString log = Ds389Sandbox::accessLogPath(ds.info().dir);
    QVERIFY2(QFile::exists(log), qPrintable(log));
    Load load;
    runLoad(ds.info(), m_dir.filePath("389.json"), &load);
    if (QTest::currentTestFailed())
        return;
    const QJsonObject analysis = analyzeAll(log, load.ok.value(kSearch));
    checkWholeLog(analysis, load, "389-access");
    const QJsonObject search = templateOf(analysis, "search", "(uid=?1)");
    QVERIFY(search.value("wtime_ms").toObject().value("count").toInt() > 0); // 389: wtime and optime too
    QVERIFY(search.value("optime_ms").toObject().value("count").toInt() > 0);
    if (QTest::currentTestFailed())
        return;
    countInWindow(log, m_dir.filePath("389.dbwl"), load, "389-access");
    m_ds389Log = m_dir.filePath("389-access.log");
    QVERIFY(QFile::copy(log, m_ds389Log));
}

namespace {

// The number logconv prints after "Label:" at the start of a line; -1 when it prints none.
qint64 logconvFigure(const QByteArray& report, const char* label)
{
    const QRegularExpression re(
        QStringLiteral("^%1:\\s+(\\d+)").arg(QLatin1String(label)), QRegularExpression::MultilineOption);
    const QRegularExpressionMatch m = re.match(QString::fromUtf8(report));
    return m.hasMatch() ? m.captured(1).toLongLong() : -1;
}

} // namespace

// 389-ds-base's own analyser, logconv, and `workload analyze` on the same 389-ds log (ds389MixedLoad's: binds,
// searches, modifies, unbinds on several connections, and the sandbox's own setup) report the same numbers. The
// definitions differ where neither log nor load has a case here: logconv's "Total Operations" leaves unbinds
// out (DirBench counts them, by kind), counts an AUTOBIND line as a bind and an internal operation's SRCH line as
// a search (DirBench reads the AUTOBIND's RESULT as the bind and skips internal operations), and counts each VLV
// line as an operation besides its search.
void TstWorkloadCapture::ds389Logconv()
{
    const QString logconv = QStandardPaths::findExecutable("logconv").isEmpty()
        ? QStandardPaths::findExecutable("logconv.pl")
        : QStandardPaths::findExecutable("logconv");
    if (logconv.isEmpty())
        QSKIP("no logconv (389-ds-base's access-log analyser) on PATH");
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    QVERIFY2(!m_ds389Log.isEmpty(), "ds389MixedLoad kept no log");
    QProcess run;
    run.setWorkingDirectory(m_dir.path());
    run.start(logconv, { m_ds389Log });
    QVERIFY(run.waitForFinished(180000));
    const QByteArray report = run.readAllStandardOutput();
    QVERIFY2(run.exitStatus() == QProcess::NormalExit && run.exitCode() == 0, run.readAllStandardError().constData());
    const Result ours = cli({ "workload", "analyze", "--log", m_ds389Log, "--json", "-" });
    QVERIFY2(ours.code == 0, ours.err.constData());
    const QJsonObject a = QJsonDocument::fromJson(ours.out).object();
    const QJsonObject ops = a.value("operations").toObject();
    const qint64 total = a.value("operations_total").toInteger(), unbinds = ops.value("unbind").toInteger();
    const qint64 searches = ops.value("search").toInteger(), binds = ops.value("bind").toInteger();
    const qint64 connections = a.value("connections").toInteger();
    qInfo("logconv: %lld operations, %lld searches, %lld binds, %lld connections; DirBench: %lld operations (%lld "
          "unbinds), %lld searches, %lld binds, %lld connections",
        logconvFigure(report, "Total Operations"), logconvFigure(report, "Searches"), logconvFigure(report, "Binds"),
        logconvFigure(report, "Total Connections"), total, unbinds, searches, binds, connections);
    QVERIFY2(searches > 100 && binds > 0, ours.out.left(2000).constData());
    QCOMPARE(logconvFigure(report, "Total Operations"), total - unbinds);
    QCOMPARE(logconvFigure(report, "Searches"), searches);
    QCOMPARE(logconvFigure(report, "Binds"), binds);
    QCOMPARE(logconvFigure(report, "Total Connections"), connections);
}

// ldclt's exact searches (-e esearch,random) of uid=userXXXX, XXXX a random number of 0..1999 zero-padded to
// four digits: the part of the access log written while it ran, analysed, is ldclt's searches exactly.
void TstWorkloadCapture::ds389Ldclt()
{
    const QString ldclt = QStandardPaths::findExecutable("ldclt");
    if (ldclt.isEmpty())
        QSKIP("no ldclt (389-ds-base's load client) on PATH");
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 2000;
    o.accessLog = true;
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds.isValid(), qPrintable(e.detail));
    const QString log = Ds389Sandbox::accessLogPath(ds.info().dir);
    const qint64 before = QFileInfo(log).size();
    const int threads = 2, perThread = 300;
    QProcess run;
    run.setProcessChannelMode(QProcess::MergedChannels);
    // Anonymous (the sandbox's ACI lets anyone read); -N 1: one 10 s sample, by when the 600 searches are done.
    run.start(ldclt,
        { "-h", "127.0.0.1", "-p", QString::number(QUrl(ds.info().uri).port()), "-b", ds.info().peopleBase, "-f",
            "uid=userXXXX", "-r", "0", "-R", "1999", "-e", "esearch,random", "-n", QString::number(threads), "-T",
            QString::number(perThread), "-N", "1" });
    QVERIFY(run.waitForFinished(60000));
    const QByteArray said = run.readAll();
    QVERIFY2(run.exitCode() == 0, said.constData());
    QVERIFY2(said.contains("total:    600"), said.constData()); // ldclt's own count
    QFile f(log);
    QVERIFY(f.open(QIODevice::ReadOnly) && f.seek(before));
    const QByteArray part = f.readAll();
    const int logged = int(part.count("SRCH base=\"ou=people,dc=example,dc=com\" scope=2 filter=\"(uid=user"));
    QCOMPARE(logged, threads * perThread); // the server's own count of them
    const QString partFile = m_dir.filePath("ldclt-access");
    QFile out(partFile);
    QVERIFY(out.open(QIODevice::WriteOnly) && out.write(part) == part.size());
    out.close();
    const Result r = cli({ "workload", "analyze", "--log", partFile, "--json", "-" });
    QVERIFY2(r.code == 0, r.err.constData());
    const QJsonObject analysis = QJsonDocument::fromJson(r.out).object();
    const QJsonObject search = templateOf(analysis, "search", "(uid=?1)");
    QCOMPARE(search.value("count").toInt(), logged);
    QCOMPARE(search.value("without_result").toInt(), 0);
    QCOMPARE(search.value("result_codes").toObject().value("0").toInt(), logged);
    // userNNNN zero-padded: user0000..user0999 name no entry (the sandbox's are user0..user1999), half the range.
    const double none = search.value("entries").toObject().value("zero_share").toDouble();
    QVERIFY2(std::abs(none - 0.5) < 0.1, qPrintable(QString::number(none)));
    // 600 uniform draws of 2000 keys: 2000 (1 - (1 - 1/2000)^600) = 518 distinct expected, HyperLogLog within 5 %.
    const QJsonObject skew = search.value("skew").toObject();
    const double expected = 2000 * (1 - std::pow(1 - 1 / 2000.0, logged));
    qInfo("ldclt: %d searches logged; %.0f keys estimated, %.0f expected; top key share %.3f", logged,
        skew.value("keys_estimated").toDouble(), expected, skew.value("top_key_share").toDouble());
    QCOMPARE(skew.value("model").toString(), QString("uniform"));
    QVERIFY(std::abs(skew.value("keys_estimated").toDouble() - expected) < 0.08 * expected);
    QVERIFY(skew.value("top_key_share").toDouble() < 0.02);
}

void TstWorkloadCapture::openldapStatsLog()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    QString why;
    SandboxGuard sbx = LdapFixture::start(2000, false, &why);
    QVERIFY2(sbx, qPrintable(LdapFixture::notStarted(why)));
    // The sandbox's daemon, replaced by the same slapd in the foreground logging `stats` (-d 256) to a file.
    const QStringList argv = LdapFixture::cmdline(sbx->pid);
    QVERIFY(!argv.isEmpty());
    QVERIFY(::kill(pid_t(sbx->pid), SIGTERM) == 0);
    QVERIFY(LdapFixture::waitGone(sbx->pid));
    const QString log = m_dir.filePath("slapd-stats.log");
    QProcess fg;
    fg.setStandardInputFile(QProcess::nullDevice());
    fg.setStandardOutputFile(QProcess::nullDevice());
    fg.setStandardErrorFile(log);
    fg.start(argv.first(), argv.mid(1) + QStringList { "-d", "256" });
    QVERIFY(fg.waitForStarted());
    QVERIFY(LdapFixture::waitListening(sbx->uri));
    Load load;
    runLoad(sbx.info(), m_dir.filePath("openldap.json"), &load);
    const QJsonObject analysis = analyzeAll(log, load.ok.value(kSearch));
    fg.terminate();
    QVERIFY(fg.waitForFinished(15000));
    if (QTest::currentTestFailed())
        return;
    checkWholeLog(analysis, load, "openldap-stats");
    QVERIFY(analysis.value("source").toObject().value("first").toString().contains('.')); // ns stamps
    if (QTest::currentTestFailed())
        return;
    countInWindow(log, m_dir.filePath("openldap.dbwl"), load, "openldap-stats");
}

// slapo-accesslog on the sandbox's database (logops writes reads session, into cn=accesslog), the entries
// exported with ldapsearch as LDIF (folded lines and all) after the load.
void TstWorkloadCapture::openldapAccesslogLdif()
{
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    QString why;
    SandboxGuard sbx = LdapFixture::start(2000, false, &why);
    QVERIFY2(sbx, qPrintable(LdapFixture::notStarted(why)));
    const QString conf = sbx->dir + "/slapd.conf";
    QFile f(conf);
    QVERIFY(f.open(QIODevice::ReadOnly));
    QByteArray text = f.readAll();
    f.close();
    if (!SlapdConfig::hasModule(SlapdConfig::locateModuleDir(), QStringLiteral("accesslog")))
        QSKIP("the accesslog overlay (accesslog.so) is not installed: slapd's modules are built in here");
    QVERIFY2(text.contains("moduleload back_mdb"), "the sandbox's slapd.conf loads no module: accesslog cannot join");
    const QByteArray admin = sbx->bindDn.toUtf8();
    const QString logDir = sbx->dir + "/accesslog";
    QVERIFY(QDir().mkpath(logDir));
    text.replace("moduleload back_mdb\n", "moduleload back_mdb\nmoduleload accesslog\n");
    const QByteArray logDb = "\ndatabase mdb\nsuffix \"cn=accesslog\"\ndirectory \"" + logDir.toUtf8()
        + "\"\nmaxsize 268435456\nindex reqStart eq\nlimits dn.exact=\"" + admin
        + "\" size=unlimited time=unlimited\naccess to * by dn.exact=\"" + admin + "\" read by * none\n";
    const qsizetype mainDb = text.indexOf("\ndatabase mdb\n");
    QVERIFY(mainDb > 0);
    text.insert(mainDb, logDb);
    const qsizetype monitor = text.indexOf("\ndatabase monitor\n");
    QVERIFY(monitor > 0);
    text.insert(monitor, QByteArray("overlay accesslog\nlogdb \"cn=accesslog\"\nlogops writes reads session\n"));
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(text);
    f.close();
    const QStringList argv = LdapFixture::cmdline(sbx->pid);
    QVERIFY(!argv.isEmpty());
    QVERIFY(::kill(pid_t(sbx->pid), SIGTERM) == 0);
    QVERIFY(LdapFixture::waitGone(sbx->pid));
    QVERIFY2(LdapFixture::restart(argv, sbx->uri), "slapd with slapo-accesslog did not start");

    Load load;
    runLoad(sbx.info(), m_dir.filePath("accesslog.json"), &load);
    if (QTest::currentTestFailed())
        return;
    const QString ldif = m_dir.filePath("accesslog.ldif");
    QProcess dump;
    dump.setStandardOutputFile(ldif);
    dump.start("ldapsearch",
        { "-x", "-H", sbx->uri, "-D", sbx->bindDn, "-y", sbx->passwordFile, "-b", "cn=accesslog", "-LLL",
            "(reqType=*)" });
    QVERIFY(dump.waitForFinished(120000));
    QCOMPARE(dump.exitCode(), 0);
    const QJsonObject analysis = analyzeAll(ldif, 0);
    checkWholeLog(analysis, load, "accesslog-ldif", false);
    // slapd's reqStart/reqEnd are seconds plus a sequence number, not microseconds: the load's window cannot be
    // cut out to the operation. Every logged entry is counted, though: the LDIF's own entries, counted here.
    QFile exported(ldif);
    QVERIFY(exported.open(QIODevice::ReadOnly));
    const QByteArray all = exported.readAll().replace("\n ", ""); // unfold
    int searchEntries = 0, modifyEntries = 0;
    for (const QByteArray& block : QByteArray(all).replace("\n\n", "\x1e").split('\x1e')) {
        if (block.contains("\nreqType: search") && block.contains("\nreqFilter: (uid=user"))
            ++searchEntries;
        if (block.contains("\nreqType: modify") && block.contains(",ou=people,dc=example,dc=com\n"))
            ++modifyEntries;
    }
    const QJsonObject search = templateOf(analysis, "search", "(uid=?1)");
    const QJsonObject modify = templateOf(analysis, "modify", "uid=?1,ou=people,dc=example,dc=com");
    qInfo("accesslog: %d search and %d modify entries; analysed %d and %d; the record %d and %d", searchEntries,
        modifyEntries, search.value("count").toInt(), modify.value("count").toInt(), load.ops.value(kSearch),
        load.ops.value(kModify));
    QCOMPARE(search.value("count").toInt(), searchEntries);
    QCOMPARE(modify.value("count").toInt(), modifyEntries);
    QVERIFY(searchEntries >= load.ops.value(kSearch) && modifyEntries >= load.ops.value(kModify));
    QVERIFY(analysis.value("gaps").toArray().contains(
        QJsonValue("timestamps to the second (reqStart/reqEnd fractions are slapd's sequence numbers within the "
                   "second, not microseconds): no server times")));
    const Result keptRun
        = cli({ "workload", "analyze", "--log", ldif, "--save", m_dir.filePath("accesslog.dbwl"), "--keep-values" });
    QVERIFY2(keptRun.code == 0, keptRun.err.constData());
    // The write values came with the workload: the modify's new description.
    QString error;
    const auto kept = WorkloadFile::read(m_dir.filePath("accesslog.dbwl"), &error);
    QVERIFY2(kept, qPrintable(error));
    int withValues = 0;
    for (const WorkloadConnection& c : kept->connections)
        for (const WorkloadOp& op : c.ops)
            if (op.kind == WorkloadOpKind::Modify && op.templateId >= 0
                && kept->templates[size_t(op.templateId)].text == "uid=?1,ou=people,dc=example,dc=com"
                && !op.writeValues.empty() && op.writeValues.front().first == "description"
                && op.writeValues.front().second.value(0).startsWith("capture "))
                ++withValues;
    QVERIFY(withValues >= load.ops.value(kModify));
    QCOMPARE(modify.value("count").toInt(), withValues);
}

QTEST_GUILESS_MAIN(TstWorkloadCapture)
#include "tst_workloadcapture.moc"
