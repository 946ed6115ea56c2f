// The LDAP load view and its models without a server: what the server does not expose is "not exposed", never 0;
// result codes add up; a record's intervals redraw the charts.
#include "core/common/runrecord.h"
#include "ui/charts/livechartview.h"
#include "ui/models/resultcodemodel.h"
#include "ui/widgets/ldaploadview.h"

#include <QJsonArray>
#include <QLabel>
#include <QTest>

namespace {

Sample interval(double t, const QJsonValue& server)
{
    Sample s;
    s.t = t;
    s.values = { { QStringLiteral("t"), t }, { QStringLiteral("ops"), 500.0 }, { QStringLiteral("ops_per_s"), 1000.0 },
        { QStringLiteral("latency_ms"),
            QJsonObject { { QStringLiteral("mean"), 0.5 }, { QStringLiteral("p50"), 0.4 },
                { QStringLiteral("p95"), 0.9 }, { QStringLiteral("p99"), 1.5 }, { QStringLiteral("max"), 3.0 } } },
        { QStringLiteral("errors"), 2.0 },
        { QStringLiteral("result_codes"), QJsonObject { { QStringLiteral("0"), 498 }, { QStringLiteral("32"), 2 } } },
        { QStringLiteral("server"), server } };
    return s;
}

} // namespace

class TestLdapLoadView : public QObject
{
    Q_OBJECT
private slots:
    void serverNotExposedIsNeverZero();
    void partlyExposedServer();
    void resultCodesAddUp();
    void finishRedrawsFromTheRecord();
};

void TestLdapLoadView::serverNotExposedIsNeverZero()
{
    LdapLoadView view;
    view.addSamples({ interval(0.5, QJsonValue::Null), interval(1.0, QJsonValue::Null) });
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("client ops/s")), 2);
    QCOMPARE(view.opsChart()->seriesNames(), QStringList { QStringLiteral("client ops/s") }); // no server line
    QCOMPARE(view.serverChart()->pointCount(), 0);
    QVERIFY(view.serverChart()->isPlaceholderVisible());
    QVERIFY(view.serverChart()->placeholderText().startsWith(QStringLiteral("Not exposed")));
    QVERIFY2(view.countersText().contains(QStringLiteral("not exposed")), qPrintable(view.countersText()));
    QCOMPARE(view.latencyChart()->pointCount(QStringLiteral("p99")), 2);
}

void TestLdapLoadView::partlyExposedServer()
{
    LdapLoadView view;
    const QJsonObject server { { QStringLiteral("all_completed_per_s"), 1003.0 },
        { QStringLiteral("search_completed_per_s"), 1000.0 }, { QStringLiteral("threads_active"), 2.0 } };
    view.addSamples({ interval(0.5, server), interval(1.0, server) });
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("server: operations/s")), 2);
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("server: searches/s")), 2);
    QCOMPARE(view.serverChart()->pointCount(QStringLiteral("threads active")), 2);
    QVERIFY(!view.serverChart()->seriesNames().contains(QStringLiteral("read waiters"))); // absent, not 0
    const QString counters = view.countersText();
    QVERIFY2(counters.contains(QStringLiteral("read waiters: <span style=\"color:#8a6d1a\">not exposed")),
        qPrintable(counters));
    QVERIFY(counters.contains(QStringLiteral("threads active: <b>2</b>")));
    QVERIFY(!view.serverChart()->isPlaceholderVisible());
}

void TestLdapLoadView::resultCodesAddUp()
{
    ResultCodeModel model;
    model.addCounts({ { QStringLiteral("32"), 3 }, { QStringLiteral("0"), 100 } });
    model.addCounts({ { QStringLiteral("0"), 50 }, { QStringLiteral("51"), 1 } });
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, ResultCodeModel::Code).data().toInt(), 0); // sorted by code
    QCOMPARE(model.count(0), 150);
    QCOMPARE(model.count(32), 3);
    QCOMPARE(model.count(49), 0);
    QCOMPARE(model.rowOfCode(49), -1);
    QCOMPARE(model.total(), 154);
    QCOMPARE(model.index(0, ResultCodeModel::Name).data().toString(), ResultCodeModel::codeName(0));
    QVERIFY(!ResultCodeModel::codeName(32).isEmpty());
    model.setCounts({ { QStringLiteral("49"), 7 } });
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.count(49), 7);
}

void TestLdapLoadView::finishRedrawsFromTheRecord()
{
    LdapLoadView view;
    view.addSamples({ interval(0.5, QJsonValue::Null) });
    RunRecord rec;
    rec.kind = QStringLiteral("ldap-search");
    for (double t : { 0.5, 1.0, 1.5 })
        rec.intervals.append(interval(t, QJsonValue::Null).values);
    rec.summary = { { QStringLiteral("ops"), 1500.0 }, { QStringLiteral("ops_per_s"), 1000.0 },
        { QStringLiteral("errors"), 6.0 },
        { QStringLiteral("result_codes"), QJsonObject { { QStringLiteral("0"), 1494 }, { QStringLiteral("32"), 6 } } },
        { QStringLiteral("latency_ms"), QJsonObject { { QStringLiteral("p99"), 1.5 } } },
        { QStringLiteral("client_cpu_us_per_op"), 12.5 } };
    rec.addWarning(QStringLiteral("no-entry"), QStringLiteral("6 searches returned no entry"));
    const QString line = view.finish(rec);
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("client ops/s")), 3);
    QCOMPARE(view.resultModel()->count(0), 1494);
    QVERIFY2(line.contains(QStringLiteral("1,000")) || line.contains(QStringLiteral("1000")), qPrintable(line));
    QVERIFY(line.contains(QStringLiteral("12.5 µs/op")));
    auto* warnings = view.findChild<QLabel*>(QStringLiteral("ldapWarningsLabel"));
    QVERIFY(warnings && !warnings->isHidden());
    QVERIFY(warnings->text().contains(QStringLiteral("no-entry")));
}

QTEST_MAIN(TestLdapLoadView)
#include "tst_ldaploadview.moc"
