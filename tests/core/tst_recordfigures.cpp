// The typed readings of record kinds (no server): replication (summary, intervals, the write ramp), curve, guided
// experiments, merged agents and a load's server_log, each from a constructed record as core writes it.
#include "core/agents/agentsrecord.h"
#include "core/experiments/curvesummary.h"
#include "core/experiments/experimentsummary.h"
#include "core/experiments/replicationsummary.h"
#include "core/ldap/loadrecordfacts.h"
#include "core/workload/serverlogfigures.h"

#include <QJsonArray>
#include <QTest>

namespace {

QJsonObject lagJson(double p50, double p99, double max, bool maxAtLeast = false)
{
    ReplicationLag::Figures f;
    f.count = 10;
    f.p50 = p50;
    f.p99 = p99;
    f.max = max;
    f.maxAtLeast = maxAtLeast;
    return f.toJson();
}

} // namespace

class TstRecordFigures : public QObject
{
    Q_OBJECT
private slots:
    void replicationSummary();
    void replicationInterval();
    void curveSummary();
    void experimentSummary();
    void agentsFigures();
    void serverLogFigures();
    void pointRateIsOneRule();
};

void TstRecordFigures::replicationSummary()
{
    RunRecord r;
    r.summary = QJsonObject { { "markers_written", 40 }, { "write_ok_per_s", 12.5 }, { "marker_write_ok_per_s", 2.0 },
        { "write_errors", 1 }, { "method", "sync" },
        { "consumers",
            QJsonObject { { "ldap://c1",
                QJsonObject { { "lag_ms", lagJson(1, 2.5, 9.1, true) }, { "markers_seen", 39 }, { "unseen", 1 },
                    { "behind_for_at_least_s", 0.4 }, { "reachable", false },
                    { "vendor", QJsonObject { { "lag_ms", 1000 }, { "lag_source", "last-reading" } } } } } } },
        { "steps",
            QJsonArray { QJsonObject { { "step", 0 }, { "target_rate", 20 }, { "write_rate", 21.5 },
                { "consumers",
                    QJsonObject { { "ldap://c1",
                        QJsonObject { { "p50_ms", 1.0 }, { "p99_ms", QJsonValue() }, { "unseen", 2 },
                            { "knee", true } } } } } } } },
        { "knee_write_rate", 21.5 }, { "knee_step", 0 }, { "knee_consumer", "ldap://c1" } };
    const ReplicationFigures::Summary s = ReplicationFigures::Summary::of(r);
    QCOMPARE(s.markerRate(), 2.0);
    QCOMPARE(*s.markersWritten, 40.0);
    QVERIFY(!s.markersMissed);
    QCOMPARE(ReplicationFigures::cell(s.markersMissed), QString("n/a"));
    QCOMPARE(s.consumers.size(), qsizetype(1));
    const ReplicationFigures::ConsumerFigures& c = s.consumers.first();
    QCOMPARE(ReplicationFigures::lagTriple(c.lagFigures), QString("1.0/2.5/> 9.1"));
    QCOMPARE(ReplicationFigures::lagTriple(c.lagFromSendFigures), QString("-"));
    QVERIFY(!c.reachable);
    QCOMPARE(c.vendorLag, QString(" vendor 1,000.0 ms (last reading)"));
    QCOMPARE(s.consumer("ldap://c1"), &s.consumers.first());
    QVERIFY(!s.consumer("ldap://c2"));
    QVERIFY(s.ramped && !s.load);
    QCOMPARE(s.steps.size(), qsizetype(1));
    QCOMPARE(*s.steps[0].targetRate, 20.0);
    QVERIFY(!s.steps[0].consumers[0].p99Ms);
    QVERIFY(s.steps[0].consumers[0].knee);
    QCOMPARE(*s.kneeWriteRate, 21.5);

    r.summary.remove("marker_write_ok_per_s"); // a record without a load beside: write_ok_per_s is the markers'
    QCOMPARE(ReplicationFigures::Summary::of(r).markerRate(), 12.5);
}

void TstRecordFigures::replicationInterval()
{
    const ReplicationFigures::Interval iv
        = ReplicationFigures::Interval::fromJson(QJsonObject { { "t", 3.0 }, { "write_ok_per_s", 9.5 },
            { "consumers",
                QJsonObject { { "ldap://c1", QJsonObject { { "behind", 2 }, { "oldest_unseen_s", 1.5 } } } } } });
    QCOMPARE(iv.t, 3.0);
    QCOMPARE(iv.writeOkPerS, 9.5);
    QCOMPARE(iv.consumers.size(), qsizetype(1));
    QCOMPARE(iv.consumers[0].behind, 2.0);
    QCOMPARE(iv.consumers[0].oldestUnseenS, 1.5);
    QVERIFY(iv.consumers[0].reachable);
    QVERIFY(iv.consumers[0].vendorLag.isEmpty());
}

void TstRecordFigures::curveSummary()
{
    RunRecord r;
    r.summary = QJsonObject { { "mode", "working-set" }, { "entries", 1000 }, { "access", "uniform" },
        { "t_hit_us", 10.5 }, { "t_miss_us", 80.0 },
        { "points",
            QJsonArray { QJsonObject { { "series", "point 1/2: 10 %" }, { "target", 0.1 }, { "coverage", 0.12 },
                             { "hit_ratio", QJsonValue() }, { "ok_per_s", 100.0 }, { "ops_per_s", 101.0 },
                             { "working_set", 120 } },
                QJsonObject { { "series", "point 2/2: 50 %" }, { "coverage", 0.5 }, { "ops_per_s", 300.0 },
                    { "cache_entries", QJsonValue() }, { "working_set", 500 } } } },
        { "fit", QJsonObject { { "method", "lsq" }, { "t_hit_us", 10.5 }, { "policy", "lru" } } } };
    r.extra = QJsonObject { { "bytes_per_entry", 2048 } };
    const CurveRecord::Summary s = CurveRecord::Summary::of(r);
    QCOMPARE(s.points.size(), qsizetype(2));
    QCOMPARE(*s.points[0].cached, 120.0); // the working set
    QVERIFY(!s.points[1].cached); // cache_entries present (null) wins over the working set
    QVERIFY(!s.points[0].hitRatio);
    QCOMPARE(s.points[0].ratePerS(), 100.0);
    QCOMPARE(s.points[1].ratePerS(), 300.0); // predates ok/s
    QVERIFY(s.completed());
    QCOMPARE(s.curvePoints().at(1).opsPerSec, 300.0);
    QCOMPARE(s.fitMethod, QString("lsq"));
    QCOMPARE(s.bytesPerEntry, 2048.0);
    QCOMPARE(s.modelRows.size(), qsizetype(8)); // entries, access, t_hit, t_miss and the fit's four
    QCOMPARE(s.modelRows.last().last(), QString("lru"));
}

void TstRecordFigures::experimentSummary()
{
    RunRecord r;
    r.summary = QJsonObject { { "points",
                                  QJsonArray { QJsonObject { { "threads", 4 }, { "ok_per_s", 50.0 },
                                      { "latency_ms", QJsonObject { { "p50", 1.5 } } }, { "status", "ok" },
                                      { "server_threads_running", 8 } } } },
        { "reference", QJsonObject { { "source", "guide" }, { "note", "Table 2" } } }, { "tls_extra_ms", 0.75 } };
    const ExperimentSummary s = ExperimentSummary::of(r, "threads");
    QCOMPARE(s.points.size(), qsizetype(1));
    QCOMPARE(*s.points[0].x, 4.0);
    QCOMPARE(*s.points[0].latencyMs.p50, 1.5);
    QVERIFY(!s.points[0].latencyMs.p99);
    QCOMPARE(*s.points[0].serverThreadsRunning, 8);
    QVERIFY(!s.completed());
    QVERIFY(s.hasReference);
    QCOMPARE(s.referenceNote, QString("Table 2"));
    QCOMPARE(s.tlsExtraMs, 0.75);
}

void TstRecordFigures::agentsFigures()
{
    RunRecord r;
    r.extra
        = QJsonObject { { "agents",
                            QJsonArray { QJsonObject { { "name", "a" }, { "start_ns", 2e9 }, { "status", "ok" },
                                             { "share", QJsonObject { { "threads", 2 }, { "rate", QJsonValue() } } } },
                                QJsonObject { { "name", "b" }, { "start_ns", 1.5e9 }, { "status", "lost" },
                                    { "failure", "gone" }, { "cpu_s", QJsonValue() } } } },
              { "start_spread_ms", 500 } };
    const Agents::AgentsFigures f = Agents::AgentsFigures::of(r);
    QCOMPARE(f.agents.size(), qsizetype(2));
    QCOMPARE(*f.firstStartNs(), 1.5e9);
    QCOMPARE(f.agents[0].threads, 2);
    QVERIFY(!f.agents[0].rate && !f.agents[0].failure);
    QCOMPARE(*f.agents[1].failure, QString("gone"));
    QVERIFY(!f.agents[1].cpuS);
    QCOMPARE(*f.startSpreadMs, 500.0);
}

void TstRecordFigures::serverLogFigures()
{
    const ServerLogFigures f = ServerLogFigures::fromJson(QJsonObject { { "format", "389-access" },
        { "summary", QJsonObject { { "ops", 10 }, { "etime_ms", QJsonObject { { "p50", 0.5 }, { "p99", 2 } } } } },
        { "intervals",
            QJsonArray { QJsonObject { { "t", 1 } },
                QJsonObject { { "t", 2 }, { "etime_ms", QJsonObject { { "p50", 0.4 }, { "p99", 1.9 } } } } } } });
    QCOMPARE(f.format, QString("389-access"));
    QCOMPARE(f.ops, 10.0);
    QCOMPARE(f.etimeP99Ms, 2.0);
    QCOMPARE(f.allIntervals, qsizetype(2));
    QCOMPARE(f.intervals.size(), qsizetype(1)); // the interval without a logged operation is left out
    QCOMPARE(f.intervals[0].t, 2.0);
}

// ok/s when a point has it, else its completed ops/s (a point older than ok/s), else nothing: the same for a curve's
// point, an experiment's point and a report's chart of either.
void TstRecordFigures::pointRateIsOneRule()
{
    const QJsonObject both { { "ok_per_s", 90.0 }, { "ops_per_s", 100.0 } };
    const QJsonObject older { { "ops_per_s", 100.0 } };
    const QJsonObject none { { "errors", 3.0 } };
    QCOMPARE(LoadRecordFacts::pointRate(both).perS, 90.0);
    QVERIFY(!LoadRecordFacts::pointRate(both).completed);
    QCOMPARE(LoadRecordFacts::pointRate(older).perS, 100.0);
    QVERIFY(LoadRecordFacts::pointRate(older).completed);
    QVERIFY(!LoadRecordFacts::pointRate(none).present);
    for (const QJsonObject& o : { both, older, none }) {
        const LoadRecordFacts::PointRate r = LoadRecordFacts::pointRate(o);
        const CurveRecord::PointFigures curve = CurveRecord::PointFigures::fromJson(o);
        QCOMPARE(curve.ratePerS(), r.perS);
        QCOMPARE(curve.rateCompleted(), r.completed);
        QCOMPARE(curve.ratePresent(), r.present);
        RunRecord sweep;
        sweep.kind = "thread-sweep";
        sweep.summary = QJsonObject { { "points", QJsonArray { o } } };
        const ExperimentPoint p = ExperimentSummary::of(sweep, QStringLiteral("threads")).points.constFirst();
        QCOMPARE(p.ratePerS(), r.perS);
        QCOMPARE(p.rateCompleted(), r.completed);
    }
}

QTEST_GUILESS_MAIN(TstRecordFigures)
#include "tst_recordfigures.moc"
