// Real access logs through `workload analyze`: a 389-ds sandbox with its access log on (unbuffered) driven by
// `dirbench-cli ldap mixed`; the log's per-template counts match the load's own record exactly.
#include "core/sandbox/ds389sandbox.h"
#include "core/workload/workloadfile.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Result
{
    int code = -1;
    QByteArray out, err;
};

Result cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    p.waitForFinished(180000);
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput(),
        p.readAllStandardError() };
}

QJsonObject templateOf(const QJsonObject& analysis, const QString& kind, const QString& text)
{
    for (const auto& v : analysis.value("templates").toArray())
        if (v.toObject().value("kind").toString() == kind && v.toObject().value("template").toString() == text)
            return v.toObject();
    return {};
}

} // namespace

class TstWorkloadCapture : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void ds389MixedLoad();

private:
    QTemporaryDir m_dir;
    std::unique_ptr<Ds389Guard> m_389;
};

void TstWorkloadCapture::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable("no 389-ds: " + why));
    Ds389Options o;
    o.entries = 2000;
    o.accessLog = true;
    ProbeError e;
    m_389 = std::make_unique<Ds389Guard>(Ds389Sandbox::start(o, &e));
    QVERIFY2(m_389->isValid(), qPrintable(e.detail));
}

void TstWorkloadCapture::ds389MixedLoad()
{
    const SandboxInfo& s = m_389->info();
    const QString log = Ds389Sandbox::accessLogPath(s.dir);
    QVERIFY2(QFile::exists(log), qPrintable(log));
    const QString rec = m_dir.filePath("mixed.json");
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
    const uint64_t windowStart = summary.value("window_epoch_ns").toObject().value("start").toString().toULongLong();
    const uint64_t windowEnd = summary.value("window_epoch_ns").toObject().value("end").toString().toULongLong();
    QVERIFY(windowStart > 0 && windowEnd > windowStart);
    const int searches = byOp.value("search").toObject().value("ops").toInt();
    const int searchOk = byOp.value("search").toObject().value("ok").toInt();
    const int modifies = byOp.value("modify").toObject().value("ops").toInt();
    const int modifyOk = byOp.value("modify").toObject().value("ok").toInt();
    QVERIFY2(
        searches > 100 && modifies > 10, qPrintable(QString("%1 searches, %2 modifies").arg(searches).arg(modifies)));

    // The whole log: every operation the load sent, its warm-up and its last in-flight ones too.
    QJsonObject analysis;
    auto analyze = [&] {
        const Result r = cli({ "workload", "analyze", "--log", log, "--json", "-" });
        analysis = QJsonDocument::fromJson(r.out).object();
        const QJsonObject t = templateOf(analysis, "search", "(uid=?1)");
        return t.value("count").toInt() - t.value("without_result").toInt();
    };
    // The server writes an operation's RESULT line as it answers: the last ones may trail the client a moment.
    QElapsedTimer waited;
    waited.start();
    while (analyze() < searchOk && waited.elapsed() < 15000)
        QTest::qWait(200);
    QCOMPARE(analysis.value("source").toObject().value("format").toString(), QString("389-access"));
    const QJsonObject search = templateOf(analysis, "search", "(uid=?1)");
    const QJsonObject modify = templateOf(analysis, "modify", "uid=?1,ou=people,dc=example,dc=com");
    QVERIFY(search.value("result_codes").toObject().value("0").toInt() >= searchOk);
    QVERIFY(modify.value("result_codes").toObject().value("0").toInt() >= modifyOk);
    QCOMPARE(search.value("entries").toObject().value("mean").toDouble(), 1.0); // each uid=userN exists once
    QVERIFY(search.value("etime_ms").toObject().value("p50").toDouble() > 0);
    QVERIFY(search.value("wtime_ms").toObject().value("count").toInt() > 0);
    QCOMPARE(search.value("skew").toObject().value("model").toString(), QString("uniform")); // the load's keys
    QVERIFY(analysis.value("connections").toInt() >= 2);
    QCOMPARE(analysis.value("unmatched").toObject().value("results_without_request").toInt(), 0);
    QVERIFY(analysis.value("per_second").toArray().size() >= 3);

    // Inside the load's measured window (it counts an operation by its completion on the client, the log by the
    // server's RESULT line a few microseconds earlier): the same operations, up to the one in flight on each of
    // the two connections at each edge of the window.
    const QString kept = m_dir.filePath("kept.dbwl");
    const Result keptRun = cli({ "workload", "analyze", "--log", log, "--save", kept, "--keep-values" });
    QVERIFY2(keptRun.code == 0, keptRun.err.constData());
    QString error;
    const auto all = WorkloadFile::read(kept, &error);
    QVERIFY2(all, qPrintable(error));
    QMap<QString, int> inWindow, okInWindow;
    for (const WorkloadConnection& c : all->connections)
        for (const WorkloadOp& op : c.ops) {
            if (!op.resultOffsetNs || op.templateId < 0)
                continue;
            const uint64_t t = all->source.firstEpochNs + *op.resultOffsetNs;
            if (t < windowStart || t > windowEnd)
                continue;
            const QString key = workloadOpName(op.kind) + u' ' + all->templates[size_t(op.templateId)].text;
            ++inWindow[key];
            okInWindow[key] += op.resultCode == 0;
        }
    const int logSearches = inWindow.value("search (uid=?1)");
    const int logModifies = inWindow.value("modify uid=?1,ou=people,dc=example,dc=com");
    qInfo("in the window: the log has %d searches, %d modifies; the record %d, %d", logSearches, logModifies, searches,
        modifies);
    QVERIFY2(std::abs(logSearches - searches) <= 4, qPrintable(QString::number(logSearches - searches)));
    QVERIFY2(std::abs(logModifies - modifies) <= 4, qPrintable(QString::number(logModifies - modifies)));
    QVERIFY(std::abs(okInWindow.value("search (uid=?1)") - searchOk) <= 4);

    // Saved and read back, anonymised.
    const QString w = m_dir.filePath("w.dbwl");
    const Result saved = cli({ "workload", "analyze", "--log", log, "--save", w });
    QVERIFY2(saved.code == 0, saved.err.constData());
    const auto back = WorkloadFile::read(w, &error);
    QVERIFY2(back, qPrintable(error));
    QVERIFY(back->anonymised);
    QVERIFY(back->operationCount() >= uint64_t(searches + modifies));
    QFile file(w);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QVERIFY(!file.readAll().contains("\"user1"));
}

QTEST_GUILESS_MAIN(TstWorkloadCapture)
#include "tst_workloadcapture.moc"
