// ServerLogView::attach on a real file: the server's series into the record's intervals, and the warnings a
// record gets when the log cannot be read or holds clearly fewer operations than the client completed (a server
// that buffers its log).
#include "core/common/runrecord.h"
#include "core/workload/serverlogtail.h"
#include "core/workload/serverlogview.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

constexpr uint64_t kStartNs = 1796119200ull * 1000000000ull; // 2026-12-01T10:00:00Z

// n searches answered 1 ms apart from 10:00:00.100 (389-ds lines, nanosecond stamps).
QByteArray log389(int n)
{
    QByteArray out;
    for (int i = 0; i < n; ++i) {
        const QByteArray stamp = "[01/Dec/2026:10:00:00." + QByteArray::number(100000000 + i * 1000000) + " +0000] ";
        out += stamp + "conn=1 op=" + QByteArray::number(i) + " SRCH base=\"dc=x\" scope=2 filter=\"(uid=u"
            + QByteArray::number(i) + ")\" attrs=ALL\n";
        out += stamp + "conn=1 op=" + QByteArray::number(i)
            + " RESULT err=0 tag=101 nentries=1 wtime=0.000010 optime=0.000020 etime=0.000030\n";
    }
    return out;
}

RunRecord record(double clientOps)
{
    RunRecord r;
    r.kind = QStringLiteral("ldap-load");
    r.summary = { { "ops", clientOps },
        { "window_epoch_ns",
            QJsonObject {
                { "start", QString::number(kStartNs) }, { "end", QString::number(kStartNs + 2000000000ull) } } } };
    r.intervals = { QJsonObject { { "t", 1 }, { "latency_ms", QJsonObject { { "p50", 0.1 } } } },
        QJsonObject { { "t", 2 }, { "latency_ms", QJsonObject { { "p50", 0.1 } } } } };
    return r;
}

} // namespace

class TstServerLogAttach : public QObject
{
    Q_OBJECT
private slots:
    void seriesBesideTheClient();
    void fewerThanTheClientLags();
    void monitorReadsAreNotTheLoad();
    void unreadableIsAWarning();
    void tailFollowsTheLog();

private:
    QString write(const QByteArray& bytes)
    {
        QString path = m_dir.filePath(QStringLiteral("access"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
            return {};
        return path;
    }
    QTemporaryDir m_dir;
};

void TstServerLogAttach::seriesBesideTheClient()
{
    RunRecord r = record(50);
    const QString path = write(log389(50));
    QVERIFY(!path.isEmpty());
    const auto view = ServerLogView::attach(path, 0, r);
    QVERIFY(view);
    QCOMPARE(r.extra.value("server_log").toObject(), *view);
    const QJsonArray intervals = view->value("intervals").toArray();
    QCOMPARE(intervals.size(), 2);
    QCOMPARE(intervals.at(0).toObject().value("ops").toInt(), 50); // all in the first second
    QCOMPARE(intervals.at(1).toObject().value("ops").toInt(), 0);
    QCOMPARE(intervals.at(0).toObject().value("etime_ms").toObject().value("p50").toDouble(), 0.03);
    QVERIFY(r.warnings.isEmpty());
}

// DirBench's own reads of cn=monitor each interval (389-ds: cn=monitor, cn=snmp,cn=monitor, the backend's
// cn=monitor,cn=userRoot,...) are in the server's log beside the load: counted apart, not as the load's.
void TstServerLogAttach::monitorReadsAreNotTheLoad()
{
    QByteArray log = log389(20);
    const char* const bases[] = { "cn=monitor", "cn=snmp,cn=monitor",
        "cn=monitor,cn=userRoot,cn=ldbm database,cn=plugins,cn=config", "cn=Monitor" };
    int op = 100;
    for (const char* base : bases) {
        const QByteArray stamp = "[01/Dec/2026:10:00:00.500000000 +0000] conn=2 op=" + QByteArray::number(op++);
        log += stamp + " SRCH base=\"" + base + "\" scope=0 filter=\"(objectClass=*)\" attrs=ALL\n";
        log += stamp + " RESULT err=0 tag=101 nentries=1 wtime=0.000010 optime=0.000020 etime=0.000030\n";
    }
    // Not a monitor: a user whose RDN only contains the word.
    log += "[01/Dec/2026:10:00:00.600000000 +0000] conn=2 op=200 SRCH base=\"cn=monitoring team,dc=x\" scope=0 "
           "filter=\"(objectClass=*)\" attrs=ALL\n";
    log += "[01/Dec/2026:10:00:00.600000000 +0000] conn=2 op=200 RESULT err=0 tag=101 nentries=1 etime=0.000030\n";
    RunRecord r = record(21);
    const QString path = write(log);
    QVERIFY(!path.isEmpty());
    const auto view = ServerLogView::attach(path, 0, r);
    QVERIFY(view);
    const QJsonObject summary = view->value("summary").toObject();
    QCOMPARE(summary.value("ops").toInt(), 21);
    QCOMPARE(summary.value("monitor_reads_excluded").toInt(), 4);
    QCOMPARE(view->value("intervals").toArray().at(0).toObject().value("ops").toInt(), 21);
}

void TstServerLogAttach::fewerThanTheClientLags()
{
    RunRecord r = record(1000); // the client completed 1000, the log holds 50
    const QString path = write(log389(50));
    QVERIFY(ServerLogView::attach(path, 0, r));
    QVERIFY(r.hasWarning("server-log-lags"));
    QVERIFY(r.extra.contains("server_log")); // the series is kept, said to lag
}

void TstServerLogAttach::unreadableIsAWarning()
{
    RunRecord r = record(10);
    QVERIFY(!ServerLogView::attach(m_dir.filePath("none"), 0, r));
    QVERIFY(r.hasWarning("server-log"));
    QVERIFY(!r.extra.contains("server_log"));
    RunRecord noWindow;
    noWindow.kind = QStringLiteral("ldap-load");
    QVERIFY(!ServerLogView::attach(write(log389(3)), 0, noWindow));
    QVERIFY(noWindow.hasWarning("server-log"));
}

// The live tail (ServerLogTail): each poll gives what the server answered since the last; a line still being
// written waits for the next poll, a request and its result join across two polls; what was there before the
// offset is not the load's; the slice survives its status sample.
void TstServerLogAttach::tailFollowsTheLog()
{
    const QByteArray before = log389(3), load = log389(10);
    const QString path = write(before);
    QVERIFY(!path.isEmpty());
    ServerLogTail tail(path, before.size());
    QVERIFY(!tail.poll()); // nothing new
    QFile f(path);
    QVERIFY(f.open(QIODevice::Append));
    const qsizetype cut = load.indexOf("RESULT", load.indexOf("op=4 RESULT") - 1) + 3; // inside op 4's result
    f.write(load.left(cut));
    f.flush();
    const auto first = tail.poll();
    QVERIFY(first);
    QCOMPARE(first->ops, uint64_t(4)); // ops 0-3; op 4's result is not whole yet
    QCOMPARE(first->etimeP50Ms, 0.03);
    QCOMPARE(first->fromEpochNs, kStartNs + 100000000);
    QCOMPARE(first->toEpochNs, kStartNs + 103000000);
    f.write(load.mid(cut));
    f.flush();
    const auto second = tail.poll();
    QVERIFY(second);
    QCOMPARE(second->ops, uint64_t(6)); // op 4 joined to its request of the first poll, and 5-9
    QCOMPARE(second->fromEpochNs, kStartNs + 104000000);
    QVERIFY(!tail.poll());
    const auto back = ServerLogTail::Slice::fromSample(second->toSample());
    QVERIFY(back && back->ops == 6 && back->etimeP99Ms == second->etimeP99Ms);
    QVERIFY(second->toSample().isStatus());
    QVERIFY(!ServerLogTail::Slice::fromSample(Sample {}));
}

QTEST_GUILESS_MAIN(TstServerLogAttach)
#include "tst_serverlogattach.moc"
