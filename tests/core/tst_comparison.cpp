#include "core/ldap/loadresult.h"
#include "core/store/comparison.h"
#include "tests/common/loadfigures.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

// The headline metric of each kind and its direction, and the comparison of two records.
class TstComparison : public QObject
{
    Q_OBJECT
private slots:
    void headlinePerKind_data();
    void headlinePerKind();
    void deltasAndDirection();
    void olderLoadRecordHasADerivedHeadline();
    void allErrorRunHasHeadlineZero();
    void mixedRunHasRowsPerOperation();
    void coalescedReadsAreNamedBesideLatency();
    void olderSweepPointsAreDerived();
    void suiteScoreIsGeometricMean();
    void comparableRefusesOtherKindOrProfile();
    void verdictOnlyBeyondTheRunsSpread();
    void settingsThatDiffer();
};

static RunRecord rec(const QString& kind, const QJsonObject& summary, const QJsonObject& spec = {})
{
    RunRecord r;
    r.kind = kind;
    r.summary = summary;
    r.spec = spec;
    return r;
}

static QJsonObject lat(const char* key, double p50, double p99)
{
    return { { key, QJsonObject { { "p50", p50 }, { "p99", p99 }, { "mean", p50 } } } };
}

static QJsonObject load(double ok, double errors, double seconds, double p50 = 0.5, double p99 = 2.0)
{
    return testLoadSummary(ok, errors, seconds, p50, p99);
}

// A summary as DirBench wrote it before successes were counted apart: no `ok`, no `ok_per_s`.
static QJsonObject olderLoad(double ops, double errors, double seconds)
{
    QJsonObject o = lat("latency_ms", 0.5, 2.0);
    o.insert("ops", ops);
    o.insert("errors", errors);
    o.insert("ops_per_s", ops / seconds);
    o.insert("seconds", seconds);
    return o;
}

void TstComparison::headlinePerKind_data()
{
    QTest::addColumn<RunRecord>("record");
    QTest::addColumn<QString>("key");
    QTest::addColumn<double>("value");
    QTest::addColumn<bool>("higherIsBetter");
    QJsonObject seq { { "test", "seq-write" }, { "mb_per_s", 812.5 }, { "iops", 812.0 } };
    QTest::newRow("seq-write") << rec("disk", seq) << "mb_per_s" << 812.5 << true;
    QJsonObject rnd { { "test", "rand-read qd32" }, { "mb_per_s", 300.0 }, { "iops", 75000.0 } };
    QTest::newRow("rand-read") << rec("disk", rnd, { { "profile", "rand-read" } }) << "iops" << 75000.0 << true;
    // Successes per second, not completions: 1,000 of the 235,567 operations failed.
    QTest::newRow("ldap-search") << rec("ldap-search", load(234567, 1000, 10)) << "ok_per_s" << 23456.7 << true;
    QTest::newRow("ldap-search, older record")
        << rec("ldap-search", olderLoad(20000, 500, 10)) << "ok_per_s" << 1950.0 << true;
    QTest::newRow("probe") << rec("ldap-probe",
        { { "timings_ms", QJsonObject { { "connect", 0.5 }, { "bind", 1.5 }, { "tls", QJsonValue::Null } } } })
                           << "probe_ms" << 2.0 << false;
    QJsonArray pts { QJsonObject { { "ok_per_s", 1000.0 }, { "ops_per_s", 1100.0 } },
        QJsonObject { { "ok_per_s", 3000.0 }, { "ops_per_s", 3000.0 } } };
    QTest::newRow("curve") << rec("curve", { { "points", pts } }) << "mean_ok_per_s" << 2000.0 << true;
    QJsonArray older { QJsonObject { { "ops_per_s", 1000.0 } }, QJsonObject { { "ops_per_s", 3000.0 } } };
    QTest::newRow("curve, older record") << rec("curve", { { "points", older } }) << "mean_ok_per_s" << 2000.0 << true;
    QTest::newRow("tls-cost") << rec("tls-cost", { { "tls_ms_per_bind", 3.2 }, { "plain_ms_per_bind", 0.9 } })
                              << "tls_ms_per_bind" << 3.2 << false;
    QTest::newRow("threads") << rec("thread-sweep", { { "best_ok_per_s", 8900.0 }, { "best_ops_per_s", 9000.0 } })
                             << "best_ok_per_s" << 8900.0 << true;
    QJsonObject consumers { { "ldap://127.0.0.1:2/", QJsonObject { { "lag_ms", QJsonObject { { "p99", 4.5 } } } } },
        { "ldap://127.0.0.1:3/", QJsonObject { { "lag_ms", QJsonObject { { "p99", 12.25 } } } } },
        { "ldap://127.0.0.1:4/", QJsonObject { { "lag_ms", QJsonValue::Null } } } };
    QTest::newRow("replication: the worst consumer's p99 lag")
        << rec("replication", { { "consumers", consumers } }) << "lag_p99_ms" << 12.25 << false;
    QTest::newRow("threads, older record")
        << rec("thread-sweep", { { "best_ops_per_s", 9000.0 } }) << "best_ok_per_s" << 9000.0 << true;
}

void TstComparison::headlinePerKind()
{
    QFETCH(RunRecord, record);
    QFETCH(QString, key);
    QFETCH(double, value);
    QFETCH(bool, higherIsBetter);
    const auto h = Comparison::headline(record);
    QVERIFY(h);
    QCOMPARE(h->key, key);
    QCOMPARE(*h->value, value);
    QCOMPARE(h->higherIsBetter, higherIsBetter);
    // A record without numbers (a failed run, a sizing run) has none.
    QVERIFY(!Comparison::headline(rec(record.kind, {})));
    QVERIFY(!Comparison::headline(rec("sizing", { { "recommendations", QJsonArray() } })));
}

void TstComparison::deltasAndDirection()
{
    const QJsonObject a = load(10000, 0, 10, 0.5, 2.0);
    const QJsonObject b = load(8000, 2000, 10, 0.5, 3.0); // as many completed, a fifth of them failed
    const auto d = Comparison::compare(rec("ldap-search", a), rec("ldap-search", b));
    QVERIFY(d.size() >= 5);
    QCOMPARE(d.first().key, QStringLiteral("ok_per_s")); // the headline first: successes
    QCOMPARE(d.first().label, QStringLiteral("ok/s"));
    QCOMPARE(*d.first().deltaPct, -20.0);
    QCOMPARE(*d.first().gainPct, -20.0);
    QCOMPARE(d.first().verdict(), QStringLiteral("no spread")); // no intervals, no repeats: nothing to judge by
    QVERIFY(!d.first().aDerived && !d.first().bDerived);
    QCOMPARE(d.at(1).key, QStringLiteral("ops_per_s")); // completed operations: the same
    QCOMPARE(d.at(1).verdict(), QStringLiteral("same"));
    QCOMPARE(d.at(2).key, QStringLiteral("errors"));
    QCOMPARE(d.at(2).verdict(), QStringLiteral("")); // A has none: no ratio
    QCOMPARE(*d.at(2).b, 2000.0);
    const auto p99 = std::find_if(d.begin(), d.end(), [](const auto& x) { return x.key == "latency_ms/p99"; });
    QVERIFY(p99 != d.end());
    QCOMPARE(*p99->deltaPct, 50.0); // latency up 50 %: lower is better, so worse
    QCOMPARE(*p99->gainPct, -50.0);
    QCOMPARE(p99->verdict(), QStringLiteral("no spread")); // a percentile has no spread of its own to judge by
    const auto p50 = std::find_if(d.begin(), d.end(), [](const auto& x) { return x.key == "latency_ms/p50"; });
    QCOMPARE(p50->verdict(), QStringLiteral("same"));
    // Reversed, the same numbers are better.
    const auto r = Comparison::compare(rec("ldap-search", b), rec("ldap-search", a));
    QCOMPARE(r.first().verdict(), QStringLiteral("no spread"));
    QCOMPARE(*r.first().deltaPct, 25.0);
}

// A record from before `ok` existed: the headline is ops − errors, and it says it was derived.
void TstComparison::olderLoadRecordHasADerivedHeadline()
{
    const RunRecord old = rec("ldap-search", olderLoad(20000, 500, 10));
    const auto h = Comparison::headline(old);
    QVERIFY(h);
    QCOMPARE(h->key, QStringLiteral("ok_per_s"));
    QCOMPARE(*h->value, 1950.0); // (20,000 − 500) / 10 s
    QVERIFY(h->derived);
    QCOMPARE(h->intervalKey, QStringLiteral("ops_per_s")); // its intervals have no ok_per_s to chart
    QCOMPARE(Comparison::formatValue(*h), QStringLiteral("1,950.0 ok/s (derived: ops − errors)"));
    const auto ops = Comparison::metrics(old).at(1);
    QCOMPARE(ops.key, QStringLiteral("ops_per_s"));
    QCOMPARE(*ops.value, 2000.0); // completed operations stay as they were recorded
    QVERIFY(!ops.derived);
    // Compared with a new record: the same key, A marked as derived.
    const auto d = Comparison::compare(old, rec("ldap-search", load(19500, 0, 10)));
    QCOMPARE(d.first().key, QStringLiteral("ok_per_s"));
    QVERIFY(d.first().aDerived);
    QVERIFY(!d.first().bDerived);
    QCOMPARE(d.first().verdict(), QStringLiteral("same"));
    // A new record is not marked.
    const auto fresh = Comparison::headline(rec("ldap-search", load(19500, 500, 10)));
    QVERIFY(!fresh->derived);
    QCOMPARE(Comparison::formatValue(*fresh), QStringLiteral("1,950.0 ok/s"));
}

// A run in which every operation failed completed many: its throughput is still zero.
void TstComparison::allErrorRunHasHeadlineZero()
{
    RunRecord failed = rec("ldap-search", load(0, 50000, 10));
    failed.status = QStringLiteral("failed");
    const auto h = Comparison::headline(failed);
    QVERIFY(h);
    QCOMPARE(*h->value, 0.0);
    QCOMPARE(*Comparison::metrics(failed).at(1).value, 5000.0); // 5,000 completed per second, none succeeded
    const auto d = Comparison::compare(rec("ldap-search", load(40000, 0, 10)), failed);
    QCOMPARE(*d.first().gainPct, -100.0);
    QCOMPARE(d.first().verdict(), QStringLiteral("worse"));
    // The same from a record older than `ok`: every operation an error, so ops − errors = 0.
    const auto old = Comparison::headline(rec("ldap-search", olderLoad(50000, 50000, 10)));
    QCOMPARE(*old->value, 0.0);
    QVERIFY(old->derived);
}

void TstComparison::mixedRunHasRowsPerOperation()
{
    LoadSummary s = LoadSummary::fromJson(load(9000, 100, 10));
    OpFigures search, modify;
    search.ok = 8100, search.ops = 8100, search.okPerS = 810, search.opsPerS = 810, search.latencyMs.p99 = 1.5;
    modify.ok = 900, modify.errors = 100, modify.ops = 1000, modify.okPerS = 90, modify.opsPerS = 100;
    modify.latencyMs.p99 = 9.0;
    s.byOperation = { { "search", search }, { "modify", modify } };
    const QList<Comparison::Metric> ms = Comparison::metrics(rec("ldap-mixed", s.toJson()));
    QCOMPARE(ms.first().key, QStringLiteral("ok_per_s"));
    QCOMPARE(*ms.first().value, 900.0);
    QHash<QString, Comparison::Metric> byKey;
    for (const auto& m : ms)
        byKey.insert(m.key, m);
    QCOMPARE(*byKey.value("search/ok_per_s").value, 810.0);
    QCOMPARE(byKey.value("search/ok_per_s").label, QStringLiteral("search ok/s"));
    QCOMPARE(*byKey.value("modify/ok_per_s").value, 90.0);
    QCOMPARE(*byKey.value("modify/errors").value, 100.0);
    QVERIFY(!byKey.value("modify/errors").higherIsBetter);
    QCOMPARE(*byKey.value("modify/latency_ms/p99").value, 9.0);
    QCOMPARE(byKey.value("modify/latency_ms/p99").label, QStringLiteral("modify p99 latency"));
    // The whole run's rows come first, then each operation's.
    int lastAll = -1, firstKind = int(ms.size());
    for (int i = 0; i < ms.size(); ++i) {
        if (ms.at(i).key.contains(u'/') && !ms.at(i).key.startsWith(u"latency_ms"))
            firstKind = std::min(firstKind, i);
        else
            lastAll = i;
    }
    QVERIFY(lastAll < firstKind);
}

void TstComparison::coalescedReadsAreNamedBesideLatency()
{
    RunRecord r = rec("ldap-search", load(1000, 0, 1), { { "coalesce_reads", true } });
    QVERIFY(Comparison::coalescedReads(r));
    for (const auto& m : Comparison::metrics(r))
        if (m.key.startsWith(u"latency_ms/"))
            QVERIFY2(m.label.endsWith(" (coalesced reads)"), qPrintable(m.label));
    // An experiment's load, or the warning the engine adds.
    QVERIFY(Comparison::coalescedReads(
        rec("thread-sweep", {}, { { "load", QJsonObject { { "coalesce_reads", true } } } })));
    RunRecord warned = rec("curve", {});
    warned.addWarning("coalesce-reads", "point 1/2: held");
    QVERIFY(Comparison::coalescedReads(warned));
    r.spec = {};
    QVERIFY(!Comparison::coalescedReads(r));
    for (const auto& m : Comparison::metrics(r))
        QVERIFY2(!m.label.contains("coalesced"), qPrintable(m.label));
}

// A sweep's points from before ok_per_s: ops_per_s less the errors per second of the point.
void TstComparison::olderSweepPointsAreDerived()
{
    const QJsonArray pts { QJsonObject { { "threads", 1 }, { "ops_per_s", 1000.0 }, { "errors", 500.0 } },
        QJsonObject { { "threads", 2 }, { "ops_per_s", 1500.0 }, { "errors", 0.0 } } };
    const RunRecord old
        = rec("thread-sweep", { { "points", pts }, { "best_ops_per_s", 1500.0 } }, { { "seconds_per_point", 10.0 } });
    const auto h = Comparison::headline(old);
    QVERIFY(h);
    QCOMPARE(h->key, QStringLiteral("best_ok_per_s"));
    QCOMPARE(*h->value, 1500.0);
    QVERIFY(h->derived);
    const RunRecord db = rec("database-size", { { "points", pts } }, { { "seconds_per_point", 10.0 } });
    QCOMPARE(*Comparison::headline(db)->value, (950.0 + 1500.0) / 2); // 1,000 − 500 errors / 10 s
    QVERIFY(Comparison::headline(db)->derived);
}

void TstComparison::suiteScoreIsGeometricMean()
{
    const QJsonObject tests { { "seq-write", QJsonObject { { "mb_per_s", 400.0 } } },
        { "rand-read qd1", QJsonObject { { "iops", 100.0 } } } };
    const auto h = Comparison::headline(rec("disk", { { "tests", tests } }));
    QVERIFY(h);
    QCOMPARE(h->key, QStringLiteral("score"));
    QVERIFY(qAbs(*h->value - 200.0) < 1e-9); // sqrt(400 × 100)
    QCOMPARE(Comparison::metrics(rec("disk", { { "tests", tests } })).size(), 3);
}

void TstComparison::comparableRefusesOtherKindOrProfile()
{
    const RunRecord base
        = rec("disk", { { "test", "seq-write" }, { "mb_per_s", 100.0 } }, { { "profile", "seq-write" } });
    QString why;
    QVERIFY(Comparison::comparable(base, "disk", { { "profile", "seq-write" } }, &why));
    QVERIFY(!Comparison::comparable(base, "disk", { { "profile", "rand-read" } }, &why));
    QVERIFY2(why.contains("rand-read"), qPrintable(why));
    QVERIFY(!Comparison::comparable(base, "ldap-search", {}, &why));
    QVERIFY2(why.contains("ldap-search"), qPrintable(why));
    QVERIFY(!Comparison::comparable(rec("disk", {}), "disk", {}, &why)); // nothing to compare against
}

// A load's ok/s with intervals around its mean: 2 × sd / √n of them is its spread.
static RunRecord loadWithIntervals(double ok, const QList<double>& perInterval)
{
    RunRecord r = rec("ldap-search", load(ok * 10, 0, 10));
    for (double v : perInterval)
        r.intervals.append(QJsonObject { { "ok_per_s", v } });
    return r;
}

void TstComparison::verdictOnlyBeyondTheRunsSpread()
{
    // intervals 900..1100 around 1000 (sd ≈ 81.6, n = 6): spread ≈ 6.7 % each, noise ≈ 9.4 %
    const QList<double> a { 900, 1100, 1000, 900, 1100, 1000 };
    const RunRecord ra = loadWithIntervals(1000, a);
    const auto spread = Comparison::spreadPct(ra, *Comparison::headline(ra));
    QVERIFY(spread);
    QVERIFY2(std::abs(*spread - 2 * std::sqrt(40000.0 / 6 * 6 / 5) / std::sqrt(6.0) / 1000 * 100) < 1e-6,
        qPrintable(QString::number(*spread)));
    QList<double> b5;
    for (double v : a)
        b5 << v * 1.05;
    auto d = Comparison::compare(ra, loadWithIntervals(1050, b5));
    QVERIFY(d.first().noisePct && *d.first().noisePct > 5);
    QCOMPARE(d.first().verdict(), QStringLiteral("within noise")); // +5 % inside the spread
    QList<double> b30;
    for (double v : a)
        b30 << v * 1.3;
    d = Comparison::compare(ra, loadWithIntervals(1300, b30));
    QCOMPARE(d.first().verdict(), QStringLiteral("better")); // +30 %: beyond it
    // repeats: half the range over the median
    QJsonObject rep = load(10000, 0, 10);
    QJsonArray reps;
    for (double ok : { 9500.0, 10000.0, 10500.0 })
        reps.append(load(ok, 0, 10));
    rep.insert("repeats", reps);
    const RunRecord rr = rec("ldap-search", rep);
    QCOMPARE(Comparison::spreadPct(rr, *Comparison::headline(rr)).value_or(-1), 5.0);
    // a curve's points are different loads, not noise
    QJsonArray pts { QJsonObject { { "ok_per_s", 1000.0 } }, QJsonObject { { "ok_per_s", 3000.0 } } };
    RunRecord curve = rec("curve", { { "points", pts } });
    curve.intervals = pts;
    QVERIFY(!Comparison::spreadPct(curve, *Comparison::headline(curve)));
}

void TstComparison::settingsThatDiffer()
{
    const RunRecord a
        = rec("ldap-search", {}, { { "threads", 8 }, { "target", QJsonObject { { "uri", "ldap://a" } } } });
    const RunRecord b = rec(
        "ldap-search", {}, { { "threads", 16 }, { "target", QJsonObject { { "uri", "ldap://a" } } }, { "rate", 500 } });
    const auto diffs = Comparison::settingsDiffer(a, b);
    QCOMPARE(diffs.size(), 2);
    QCOMPARE(diffs.at(0).key, QStringLiteral("rate"));
    QCOMPARE(diffs.at(0).a, QStringLiteral("–"));
    QCOMPARE(diffs.at(1).key, QStringLiteral("threads"));
    QCOMPARE(diffs.at(1).b, QStringLiteral("16"));
    QVERIFY(Comparison::settingsDiffer(a, a).isEmpty());
}

QTEST_GUILESS_MAIN(TstComparison)
#include "tst_comparison.moc"
