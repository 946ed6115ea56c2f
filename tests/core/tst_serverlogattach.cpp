// ServerLogView::attach on a real file: the server's series into the record's intervals, and the warnings a
// record gets when the log cannot be read or holds clearly fewer operations than the client completed (a server
// that buffers its log).
#include "core/common/runrecord.h"
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
    void unreadableIsAWarning();

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

QTEST_GUILESS_MAIN(TstServerLogAttach)
#include "tst_serverlogattach.moc"
