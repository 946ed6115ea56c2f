#include "core/store/comparison.h"

#include <QTest>

// The headline metric of each kind and its direction, and the comparison of two records.
class TstComparison : public QObject
{
    Q_OBJECT
private slots:
    void headlinePerKind_data();
    void headlinePerKind();
    void deltasAndDirection();
    void suiteScoreIsGeometricMean();
    void comparableRefusesOtherKindOrProfile();
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
    QJsonObject load = lat("latency_ms", 0.4, 2.5);
    load.insert("ops_per_s", 23456.7);
    QTest::newRow("ldap-search") << rec("ldap-search", load) << "ops_per_s" << 23456.7 << true;
    QTest::newRow("probe") << rec("ldap-probe",
        { { "timings_ms", QJsonObject { { "connect", 0.5 }, { "bind", 1.5 }, { "tls", QJsonValue::Null } } } })
                           << "probe_ms" << 2.0 << false;
    QJsonArray pts { QJsonObject { { "ops_per_s", 1000.0 } }, QJsonObject { { "ops_per_s", 3000.0 } } };
    QTest::newRow("curve") << rec("curve", { { "points", pts } }) << "mean_ops_per_s" << 2000.0 << true;
    QTest::newRow("tls-cost") << rec("tls-cost", { { "tls_ms_per_bind", 3.2 }, { "plain_ms_per_bind", 0.9 } })
                              << "tls_ms_per_bind" << 3.2 << false;
    QTest::newRow("threads") << rec("thread-sweep", { { "best_ops_per_s", 9000.0 } }) << "best_ops_per_s" << 9000.0
                             << true;
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
    QJsonObject a = lat("latency_ms", 0.5, 2.0);
    a.insert("ops_per_s", 1000.0);
    QJsonObject b = lat("latency_ms", 0.5, 3.0);
    b.insert("ops_per_s", 800.0);
    const auto d = Comparison::compare(rec("ldap-search", a), rec("ldap-search", b));
    QVERIFY(d.size() >= 3);
    QCOMPARE(d.first().key, QStringLiteral("ops_per_s")); // the headline first
    QCOMPARE(*d.first().deltaPct, -20.0);
    QCOMPARE(*d.first().gainPct, -20.0);
    QCOMPARE(d.first().verdict(), QStringLiteral("worse"));
    const auto p99 = std::find_if(d.begin(), d.end(), [](const auto& x) { return x.key == "latency_ms/p99"; });
    QVERIFY(p99 != d.end());
    QCOMPARE(*p99->deltaPct, 50.0); // latency up 50 %: lower is better, so worse
    QCOMPARE(*p99->gainPct, -50.0);
    QCOMPARE(p99->verdict(), QStringLiteral("worse"));
    const auto p50 = std::find_if(d.begin(), d.end(), [](const auto& x) { return x.key == "latency_ms/p50"; });
    QCOMPARE(p50->verdict(), QStringLiteral("same"));
    // Reversed, the same numbers are better.
    const auto r = Comparison::compare(rec("ldap-search", b), rec("ldap-search", a));
    QCOMPARE(r.first().verdict(), QStringLiteral("better"));
    QCOMPARE(*r.first().deltaPct, 25.0);
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

QTEST_GUILESS_MAIN(TstComparison)
#include "tst_comparison.moc"
