// The round trip of issue 14: capture -> analyze -> replay -> capture again, on a real 389-ds sandbox with its
// access log on. A Zipf-skewed search and compare load over several connections is logged, analysed and saved
// (anonymised); the saved workload is replayed against the same server (values mapped onto its uid=userN keys);
// the part of the log the replay wrote is analysed again. The second log matches the first: operation mix and
// template shares within 2 percentage points, connections within 5 %, the fitted Zipf alpha within 0.1. And the
// server's own view of a load (ldap --server-log) beside the client's latency.
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdsandbox.h"
#include "tests/common/clirun.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

namespace {

using CliRun::Result;

Result cli(const QStringList& args)
{
    return CliRun::run(args, 300000);
}

QJsonObject analyze(const QString& log, const QStringList& extra = {})
{
    const Result r = cli(QStringList { "workload", "analyze", "--log", log, "--json", "-" } + extra);
    if (r.code != 0)
        qWarning("workload analyze: %s", r.err.constData());
    return QJsonDocument::fromJson(r.out).object();
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QJsonDocument::fromJson(f.readAll()).object() : QJsonObject();
}

QJsonObject templateOf(const QJsonObject& analysis, const QString& kind, const QString& text)
{
    const QJsonArray templates = analysis.value("templates").toArray();
    for (const auto& v : templates)
        if (v.toObject().value("kind").toString() == kind && v.toObject().value("template").toString() == text)
            return v.toObject();
    return {};
}

double opCount(const QJsonObject& analysis, const QString& kind)
{
    return analysis.value("operations").toObject().value(kind).toDouble();
}

double opTotal(const QJsonObject& analysis)
{
    double n = 0;
    const QJsonObject ops = analysis.value("operations").toObject();
    for (auto it = ops.constBegin(); it != ops.constEnd(); ++it)
        n += it.value().toDouble();
    return n;
}

// The bytes the server appended to its log since `offset`, once it holds at least `searches` searches with
// their results (the server writes each RESULT as it answers: the last may trail the client a moment).
QString tailOf(const QString& log, qint64 offset, const QString& out, double searches)
{
    QElapsedTimer waited;
    waited.start();
    do {
        QFile in(log), tail(out);
        if (!in.open(QIODevice::ReadOnly) || !tail.open(QIODevice::WriteOnly | QIODevice::Truncate))
            return {};
        in.seek(offset);
        tail.write(in.readAll());
        tail.close();
        if (opCount(analyze(out), "search") >= searches)
            break;
        QTest::qWait(200);
    } while (waited.elapsed() < 20000);
    return out;
}

} // namespace

class TstRoundTrip : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void captureAnalyzeReplayCapture();
    void serverLogBesideClient();
    void openldapServerLog();

private:
    QTemporaryDir m_dir;
};

void TstRoundTrip::captureAnalyzeReplayCapture()
{
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 2000;
    o.accessLog = true;
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds.isValid(), qPrintable(e.detail));
    const SandboxInfo& s = ds.info();
    const QString log = Ds389Sandbox::accessLogPath(ds.info().dir);
    const qint64 start = QFileInfo(log).size(); // the sandbox's own setup is not the traffic under test

    // 1. The traffic: searches and compares, Zipf-skewed keys, 8 connections, at a rate a sanitizer build keeps.
    const QString uids = QStringLiteral("uid=user[0-1999]");
    const Result load = cli({ "ldap", "mixed", "--uri", s.uri, "--bind-dn", s.bindDn, "--password-file", s.passwordFile,
        "--mix", "search=80,compare=20", "--base", s.peopleBase, "--filter", uids, "--dn", uids + u',' + s.peopleBase,
        "--attr", "objectClass", "--value", "person", "--access", "zipf:1.0", "--rate", "400", "--duration", "4",
        "--threads", "2", "--connections", "4", "--no-server-counters", "--no-history" });
    QVERIFY2(load.code == 0, load.err.constData());
    const QString first = tailOf(log, start, m_dir.filePath("first.log"), 100);
    const qint64 replayStart = QFileInfo(log).size();
    const QJsonObject a = analyze(first);
    const QJsonObject searchA = templateOf(a, "search", "(uid=?1)");
    QVERIFY2(searchA.value("count").toDouble() > 200, qPrintable(QJsonDocument(a).toJson()));
    QCOMPARE(searchA.value("skew").toObject().value("model").toString(), QStringLiteral("zipf"));

    // 2. Saved (anonymised) and replayed: the same timing, the values mapped onto the server's keys.
    const QString saved = m_dir.filePath("w.dbwl");
    const Result save = cli({ "workload", "analyze", "--log", first, "--save", saved });
    QVERIFY2(save.code == 0, save.err.constData());
    const Result replay = cli({ "replay", "--workload", saved, "--uri", s.uri, "--shared-password-file", s.passwordFile,
        "--key-space", uids + u',' + s.peopleBase, "--no-server-counters", "--no-history", "--quiet", "--json",
        m_dir.filePath("replay.json") });
    QVERIFY2(replay.code == 0, replay.err.constData());
    qInfo("%s", replay.out.constData());

    // 3. The replay's own log, analysed.
    const QString second = tailOf(log, replayStart, m_dir.filePath("second.log"), opCount(a, "search"));
    const QJsonObject b = analyze(second);
    const double totalA = opTotal(a), totalB = opTotal(b);
    QVERIFY(totalA > 0 && totalB > 0);
    const QJsonObject opsA = a.value("operations").toObject();
    for (auto it = opsA.constBegin(); it != opsA.constEnd(); ++it) {
        const double shareA = 100 * it.value().toDouble() / totalA, shareB = 100 * opCount(b, it.key()) / totalB;
        qInfo("%-8s logged %5.1f %%, replayed %5.1f %%", qPrintable(it.key()), shareA, shareB);
        QVERIFY2(std::abs(shareA - shareB) <= 2.0, qPrintable(it.key()));
    }
    const QJsonArray templates = a.value("templates").toArray();
    for (const auto& v : templates) {
        const QJsonObject t = v.toObject();
        const QJsonObject u = templateOf(b, t.value("kind").toString(), t.value("template").toString());
        const double shareA = 100 * t.value("share").toDouble(), shareB = 100 * u.value("share").toDouble();
        qInfo("%-8s %-45s logged %5.1f %%, replayed %5.1f %%", qPrintable(t.value("kind").toString()),
            qPrintable(t.value("template").toString()), shareA, shareB);
        if (shareA >= 1.0)
            QVERIFY2(std::abs(shareA - shareB) <= 2.0, qPrintable(t.value("template").toString()));
    }
    // The server's log holds the replay's own setup connection too (the record counts it): the replayed ones are
    // the others, one per logged connection.
    const QJsonObject rec = readJson(m_dir.filePath("replay.json"));
    const double setup = rec.value("summary").toObject().value("connections").toObject().value("setup").toDouble(-1);
    QCOMPARE(setup, 1.0);
    // The log's connections (those opened in it and those it saw working) are the workload's; the replay opens each
    // once. Its own log's connects, less the replay's setup connection, are those. (Connections seen there are
    // not: the window also holds the first load's last unbinds, trailing behind its client.)
    const double logged = a.value("connections").toDouble();
    const double planned = rec.value("summary").toObject().value("connections").toObject().value("logged").toDouble();
    const double opened = b.value("churn").toObject().value("connects").toDouble() - setup;
    qInfo("connections: logged %.0f, in the workload %.0f, replayed %.0f (and the replay's setup connection)", logged,
        planned, opened);
    // The window starts at an arbitrary byte of the log: an operation of the sandbox's own setup may have its
    // request before it and its result inside (one run of the loaded full suite logged a modify so). The analysis
    // counts that result's connection as seen working; the workload, which can replay only requests, has no such
    // connection. Each result without its request accounts for at most one connection, and is counted.
    const double orphans = a.value("unmatched").toObject().value("results_without_request").toDouble();
    if (orphans > 0)
        qInfo("the window opens with %.0f result(s) of a request before it", orphans);
    QVERIFY2(planned <= logged && logged - planned <= orphans,
        qPrintable(QStringLiteral("logged %1, planned %2, orphan results %3").arg(logged).arg(planned).arg(orphans)));
    QCOMPARE(opened, planned);
    const double alphaA = searchA.value("skew").toObject().value("alpha").toDouble();
    const QJsonObject searchB = templateOf(b, "search", "(uid=?1)");
    QCOMPARE(searchB.value("skew").toObject().value("model").toString(), QStringLiteral("zipf"));
    const double alphaB = searchB.value("skew").toObject().value("alpha").toDouble();
    qInfo("Zipf alpha of (uid=?1): logged %.3f, replayed %.3f", alphaA, alphaB);
    QVERIFY2(std::abs(alphaA - alphaB) <= 0.1, qPrintable(QString::number(alphaB)));
}

// The server's own view (ldap --server-log): the access log's operations fall into the load's intervals; in the
// whole window the server answered what the client counted (give or take the operations at each edge), and its etime is
// no larger than the client's latency (which holds it) at the median.
namespace {

// The record's server_log against the client's own figures: an interval of the server's per interval of the
// client's, each logged operation in exactly one, their sum the client's count within the window's edges.
void checkServerView(const QJsonObject& r, const QString& format)
{
    QVERIFY(!r.isEmpty());
    const QJsonObject view = r.value("server_log").toObject();
    QCOMPARE(view.value("format").toString(), format);
    const QJsonArray intervals = view.value("intervals").toArray();
    QCOMPARE(intervals.size(), r.value("intervals").toArray().size());
    double sum = 0;
    for (const auto& v : intervals)
        sum += v.toObject().value("ops").toDouble();
    const QJsonObject summary = view.value("summary").toObject();
    QCOMPARE(sum, summary.value("ops").toDouble()); // each logged operation in exactly one interval
    const double client = r.value("summary").toObject().value("ops").toDouble();
    const double monitor = summary.value("monitor_reads_excluded").toDouble(-1);
    qInfo("%s: server answered %.0f in the window, the client counted %.0f (the run's own cn=monitor reads, %.0f, "
          "apart)",
        qPrintable(format), sum, client, monitor);
    QVERIFY(summary.value("monitor_reads_excluded").isDouble()); // the count of those reads is in the view
    // The edges: operations in flight when the window opens and closes, and the server's stamp (taken as it logs
    // the result, before the client reads it) against the window's wall clock: 2 % of the count. (A loaded
    // machine's 389-ds sandbox answered 376 in one CI-like run, well below the rate asked: still enough to compare.)
    QVERIFY2(client > 200, qPrintable(QString::number(client)));
    QVERIFY2(std::abs(sum - client) <= std::max(4.0, 0.02 * client), qPrintable(QString::number(sum - client)));
    const double etime = summary.value("etime_ms").toObject().value("p50").toDouble();
    const double latency = r.value("summary").toObject().value("latency_ms").toObject().value("p50").toDouble();
    QVERIFY2(etime > 0 && etime <= latency * 1.1, qPrintable(QString("%1 vs %2").arg(etime).arg(latency)));
    for (const auto& w : r.value("warnings").toArray()) // written as it answers: no lag
        QVERIFY2(!w.toObject().value("code").toString().startsWith("server-log"), qPrintable(w.toString()));
}

} // namespace

void TstRoundTrip::serverLogBesideClient()
{
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 2000;
    o.accessLog = true;
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds.isValid(), qPrintable(e.detail));
    const SandboxInfo& s = ds.info();
    const QString rec = m_dir.filePath("serverlog.json");
    const Result load = cli({ "ldap", "search", "--uri", s.uri, "--bind-dn", s.bindDn, "--password-file",
        s.passwordFile, "--base", s.peopleBase, "--filter", "uid=user[0-1999]", "--duration", "3", "--threads", "2",
        "--rate", "300", "--server-log", Ds389Sandbox::accessLogPath(s.dir), "--no-history", "--json", rec });
    QVERIFY2(load.code == 0, load.err.constData());
    QVERIFY2(load.out.contains("server's own view (389-access)"), load.out.constData());
    const QJsonObject r = readJson(rec);
    checkServerView(r, QStringLiteral("389-access"));
    const QJsonObject summary = r.value("server_log").toObject().value("summary").toObject();
    QCOMPARE(summary.value("wtime_ms").toObject().value("count").toDouble(), summary.value("ops").toDouble());
}

// `sandbox start --access-log` (OpenLDAP): slapd -d stats with its stderr appended to a file in the sandbox, read
// by --server-log after an unthrottled load (the most lines per second the sandbox writes).
void TstRoundTrip::openldapServerLog()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd)");
    const Result started = cli({ "sandbox", "start", "--access-log", "--entries", "2000", "--dir", m_dir.path() });
    QVERIFY2(started.code == 0, started.err.constData());
    QMap<QString, QString> kv;
    for (const QByteArray& line : started.out.split('\n'))
        if (const qsizetype eq = line.indexOf('='); eq > 0)
            kv.insert(QString::fromUtf8(line.left(eq)), QString::fromUtf8(line.mid(eq + 1)));
    SandboxGuard guard(SlapdSandbox::load(kv.value("DIR")));
    QVERIFY2(guard, started.out.constData());
    const QString log = kv.value("ACCESS_LOG");
    QCOMPARE(log, SlapdSandbox::accessLogPath(kv.value("DIR")));
    QVERIFY2(QFileInfo(log).isFile(), qPrintable(log));
    const QString rec = m_dir.filePath("openldap-serverlog.json");
    const Result load = cli({ "ldap", "search", "--uri", kv.value("URI"), "--bind-dn", kv.value("BIND_DN"),
        "--password-file", kv.value("PASSWORD_FILE"), "--base", kv.value("PEOPLE_BASE"), "--filter", "uid=user[0-1999]",
        "--duration", "3", "--threads", "2", "--server-log", log, "--no-history", "--json", rec });
    QVERIFY2(load.code == 0, load.err.constData());
    QVERIFY2(load.out.contains("server's own view (openldap-stats)"), load.out.constData());
    const QJsonObject r = readJson(rec);
    checkServerView(r, QStringLiteral("openldap-stats"));
    const QJsonObject summary = r.value("server_log").toObject().value("summary").toObject();
    QCOMPARE(summary.value("qtime_ms").toObject().value("count").toDouble(), summary.value("ops").toDouble());
}

QTEST_GUILESS_MAIN(TstRoundTrip)
#include "tst_roundtrip.moc"
