// The LDAP load view and its models without a server: ok/s is the headline, completed ops/s and errors/s appear
// with the first failed operation; a mix has a row and a latency series per kind; an old record's ok/s is marked
// derived; coalesced reads are marked beside latency; what the server does not expose is "not exposed", never 0;
// result codes add up; a record's intervals redraw the charts. Intervals are written by the core's own
// LoadInterval::toJson, as the engine writes them.
#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadspec.h"
#include "tests/common/loadfigures.h"
#include "ui/charts/livechartview.h"
#include "ui/models/operationmodel.h"
#include "ui/models/resultcodemodel.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/notestyle.h"

#include <QJsonArray>
#include <QLabel>
#include <QPointer>
#include <QSignalSpy>
#include <QTest>
#include <QVBoxLayout>
#include <QtCharts/QChart>
#include <QtCharts/QChartView>
#include <QtCharts/QValueAxis>

#include <algorithm>

namespace {

constexpr auto figures = &testFigures;

LoadInterval interval(double t, double errors = 2, const QJsonValue& server = QJsonValue::Null)
{
    LoadInterval i;
    i.t = t;
    i.seconds = 0.5;
    i.all = figures(500, errors, 0.5, 1.5);
    i.server = server;
    return i;
}

// A mix of searches (90 %) and modifies (10 %) over 0.5 s; the modifies slower.
LoadInterval mixedInterval(double t)
{
    LoadInterval i;
    i.t = t;
    i.seconds = 0.5;
    i.byOperation[QStringLiteral("search")] = figures(450, 0, 0.5, 1.0);
    i.byOperation[QStringLiteral("modify")] = figures(50, 1, 0.5, 8.0);
    i.all = figures(500, 1, 0.5, 7.5);
    return i;
}

Sample sample(const LoadInterval& i)
{
    Sample s;
    s.t = i.t;
    s.values = i.toJson();
    return s;
}

RunRecord record(const QString& kind, const QList<LoadInterval>& intervals, const LoadSummary& summary)
{
    RunRecord rec;
    rec.kind = kind;
    rec.status = QStringLiteral("ok");
    for (const LoadInterval& i : intervals)
        rec.intervals.append(i.toJson());
    rec.summary = summary.toJson();
    return rec;
}

LoadSummary summaryOf(const OpFigures& all, double seconds)
{
    LoadSummary s;
    s.all = all;
    s.seconds = seconds;
    s.loadCpuS = all.ops * 12.5e-6; // 12.5 µs per operation
    s.clientCpuS = all.ops * 20e-6;
    return s;
}

// Drops what an older engine did not write: ok, ok_per_s, entries_per_s.
QJsonObject older(QJsonObject o)
{
    for (const char* k : { "ok", "ok_per_s", "entries_per_s" })
        o.remove(QLatin1String(k));
    return o;
}

// Counts the layout requests a widget receives (a window's: each one lays out every page of it again).
class LayoutRequests : public QObject
{
public:
    explicit LayoutRequests(QWidget* w) { w->installEventFilter(this); }
    int count = 0;

protected:
    bool eventFilter(QObject*, QEvent* e) override
    {
        count += e->type() == QEvent::LayoutRequest ? 1 : 0;
        return false;
    }
};

} // namespace

class TestLdapLoadView : public QObject
{
    Q_OBJECT
private slots:
    void okPerSecondIsTheHeadline();
    void failuresAddCompletedAndErrorRates();
    void serverNotExposedIsNeverZero();
    void partlyExposedServer();
    void resultCodesAddUp();
    void finishRedrawsFromTheRecord();
    void finishKeepsWhatTheRunDrew();
    void mixedRecordHasARowAndASeriesPerKind();
    void oldRecordIsMarkedDerived();
    void coalescedReadsAreMarked();
    void liveBatchesLayOutNothingAbove();
    void liveTimeAxisSpansThePlannedRun();
};

void TestLdapLoadView::okPerSecondIsTheHeadline()
{
    LdapLoadView view;
    view.addSamples({ sample(interval(0.5, 0)), sample(interval(1.0, 0)) });
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::okSeries()), 2);
    QCOMPARE(LdapLoadView::okSeries(), QStringLiteral("ok/s"));
    // Nothing failed: completed ops/s would lie on ok/s and errors/s on 0.
    QCOMPARE(view.opsChart()->seriesNames(), QStringList { QStringLiteral("ok/s") });
    QVERIFY2(
        view.summaryText().startsWith(QStringLiteral("Last interval: 1,000.0 ok/s")), qPrintable(view.summaryText()));
    // A single operation: one row, named by the spec's operation.
    QCOMPARE(view.operationModel()->rowCount(), 1);
    QCOMPARE(view.operationModel()->operation(0), QStringLiteral("all"));
    LdapLoadSpec spec;
    spec.mix = { { LdapOpKind::Modify, 100 } };
    view.begin(spec);
    QCOMPARE(view.opsChart()->pointCount(), 0);
    view.addSamples({ sample(interval(0.5, 0)) });
    // Live (after begin), a batch is drawn in steps over the next event-loop turns: the tables last.
    QCOMPARE(view.operationModel()->rowCount() == 0 || view.operationModel()->operation(0) != u"modify", true);
    QTRY_COMPARE(view.operationModel()->operation(0), QStringLiteral("modify"));
    QCOMPARE(view.operationModel()->index(0, OperationModel::OkPerS).data().toString(), QStringLiteral("1,000.0"));
}

void TestLdapLoadView::failuresAddCompletedAndErrorRates()
{
    LdapLoadView view;
    view.addSamples({ sample(interval(0.5, 0)), sample(interval(1.0, 0)) });
    QVERIFY(!view.opsChart()->hasRightAxis());
    view.addSamples({ sample(interval(1.5, 50)) }); // 50 of 500 failed in 0.5 s
    // From the first failure on, with every interval before it.
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::okSeries()), 3);
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::completedSeries()), 3);
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::errorsSeries()), 3);
    QVERIFY(view.opsChart()->hasRightAxis()); // errors/s on a scale of their own
    QCOMPARE(view.opsChart()->rightRange().second >= 100.0, true);
    QVERIFY2(view.summaryText().contains(QStringLiteral("900.0 ok/s · 1,000.0 ops/s")), qPrintable(view.summaryText()));
    QVERIFY(view.summaryText().contains(QStringLiteral("50 errors")));
    view.addSamples({ sample(interval(2.0, 0)) });
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::errorsSeries()), 4);
    const int errorsRow = OperationModel::Errors;
    QCOMPARE(view.operationModel()->index(0, errorsRow).data().toString(), QStringLiteral("0"));
}

void TestLdapLoadView::serverNotExposedIsNeverZero()
{
    LdapLoadView view;
    view.addSamples({ sample(interval(0.5)), sample(interval(1.0)) });
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("ok/s")), 2);
    for (const QString& s : view.opsChart()->seriesNames())
        QVERIFY2(!s.startsWith(QStringLiteral("server")), qPrintable(s)); // no server line
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
    view.addSamples({ sample(interval(0.5, 2, server)), sample(interval(1.0, 2, server)) });
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("server: operations/s")), 2);
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("server: searches/s")), 2);
    QCOMPARE(view.serverChart()->pointCount(QStringLiteral("threads active")), 2);
    QVERIFY(!view.serverChart()->seriesNames().contains(QStringLiteral("read waiters"))); // absent, not 0
    const QString counters = view.countersText();
    QVERIFY2(counters.contains(QStringLiteral("read waiters: <span style=\"color:%1\">not exposed")
                                   .arg(NoteStyle::warnColourNow().name())),
        qPrintable(counters));
    QVERIFY(counters.contains(QStringLiteral("threads active: <b>2</b>")));
    QVERIFY(!view.serverChart()->isPlaceholderVisible());
}

void TestLdapLoadView::resultCodesAddUp()
{
    ResultCodeModel model;
    model.addCounts({ { 32, 3 }, { 0, 100 } });
    model.addCounts({ { 0, 50 }, { 51, 1 } });
    QCOMPARE(model.rowCount(), 3);
    QCOMPARE(model.index(0, ResultCodeModel::Code).data().toInt(), 0); // sorted by code
    QCOMPARE(model.count(0), 150);
    QCOMPARE(model.count(32), 3);
    QCOMPARE(model.count(49), 0);
    QCOMPARE(model.rowOfCode(49), -1);
    QCOMPARE(model.total(), 154);
    QCOMPARE(model.index(0, ResultCodeModel::Name).data().toString(), ResultCodeModel::codeName(0));
    QVERIFY(!ResultCodeModel::codeName(32).isEmpty());
    model.setCounts({ { 49, 7 } });
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.count(49), 7);
}

void TestLdapLoadView::finishRedrawsFromTheRecord()
{
    LdapLoadView view;
    view.addSamples({ sample(interval(0.5)) });
    const RunRecord rec = record(QStringLiteral("ldap-search"), { interval(0.5), interval(1.0), interval(1.5) },
        summaryOf(figures(1500, 6, 1.5, 1.5), 1.5));
    const QString line = view.finish(rec);
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("ok/s")), 3);
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::completedSeries()), 3);
    QCOMPARE(view.resultModel()->count(0), 1494);
    // ok/s first, then completed ops/s, p99, the errors with their codes, the load's CPU per operation.
    QVERIFY2(
        line.startsWith(QStringLiteral("Done: 996.0 ok/s · 1,000.0 ops/s completed · p99 1.50 ms · 6 errors (6 × ")),
        qPrintable(line));
    QVERIFY2(line.contains(QStringLiteral("(32))")), qPrintable(line));
    QVERIFY(line.contains(QStringLiteral("load CPU 12.5 µs/op")));
    QVERIFY(view.summaryText().contains(line));
    QCOMPARE(view.operationModel()->operation(0), QStringLiteral("search"));
    QVERIFY2(view.operationsCaption().contains(QStringLiteral("whole run")), qPrintable(view.operationsCaption()));
    QCOMPARE(view.operationModel()->index(0, OperationModel::Ops).data().toString(), QStringLiteral("1,500"));
    QCOMPARE(view.operationModel()->index(0, OperationModel::Errors).data(Qt::ToolTipRole).toString().isEmpty(), false);
    auto* warnings = view.findChild<QLabel*>(QStringLiteral("ldapWarningsLabel"));
    RunRecord warned = rec;
    warned.addWarning(QStringLiteral("errors"), QStringLiteral("6 operations failed"));
    view.finish(warned);
    QVERIFY(warnings && !warnings->isHidden());
    QVERIFY(warnings->text().contains(QStringLiteral("errors")));
}

namespace {

// The charts' series as QtCharts holds them: the same objects when nothing was redrawn.
QList<QAbstractSeries*> seriesOf(LiveChartView* chart)
{
    auto* view = chart->findChild<QChartView*>(QStringLiteral("chartView"));
    return view ? view->chart()->series() : QList<QAbstractSeries*> {};
}

} // namespace

void TestLdapLoadView::finishKeepsWhatTheRunDrew()
{
    LdapLoadView view;
    const QList<LoadInterval> run { interval(0.5), interval(1.0), interval(1.5) };
    view.addSamples({ sample(run.at(0)), sample(run.at(1)) });
    const QList<QAbstractSeries*> ops = seriesOf(view.opsChart());
    const QList<QAbstractSeries*> latency = seriesOf(view.latencyChart());
    QVERIFY(!ops.isEmpty() && !latency.isEmpty());
    QList<QPointer<QAbstractSeries>> kept; // null once deleted (a new series may reuse an address)
    for (QAbstractSeries* s : ops + latency)
        kept << s;
    const LoadSummary summary = summaryOf(figures(1500, 6, 1.5, 1.5), 1.5);
    view.finish(record(QStringLiteral("ldap-search"), run, summary));
    // Not rebuilt: the same series, with the interval the live run had not drawn yet.
    QVERIFY(std::all_of(kept.cbegin(), kept.cend(), [](const auto& s) { return !s.isNull(); }));
    QCOMPARE(seriesOf(view.opsChart()), ops);
    QCOMPARE(seriesOf(view.latencyChart()), latency);
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::okSeries()), 3);
    QCOMPARE(view.latencyChart()->pointCount(QStringLiteral("p99")), 3);
    QCOMPARE(view.opsChart()->xRange().second, 1.5);
    QCOMPARE(view.resultModel()->count(0), 1494);
    // A record that does not start with what was drawn is drawn anew.
    view.finish(record(QStringLiteral("ldap-search"), { interval(0.25), interval(0.75) }, summary));
    QCOMPARE(view.opsChart()->pointCount(LdapLoadView::okSeries()), 2);
    QCOMPARE(view.opsChart()->xRange().second, 0.75);
}

void TestLdapLoadView::mixedRecordHasARowAndASeriesPerKind()
{
    LdapLoadView view;
    view.addSamples({ sample(mixedInterval(0.5)) });
    // Live: a row per kind (sorted) and "all", from the last interval.
    QCOMPARE(view.operationModel()->rowCount(), 3);
    QCOMPARE(view.latencyChart()->pointCount(LdapLoadView::kindLatencySeries(QStringLiteral("modify"))), 1);

    LoadSummary s = summaryOf(figures(1000, 2, 1.0, 7.5), 1.0);
    s.byOperation[QStringLiteral("search")] = figures(900, 0, 1.0, 1.0);
    s.byOperation[QStringLiteral("modify")] = figures(100, 2, 1.0, 8.0);
    view.finish(record(QStringLiteral("ldap-mixed"), { mixedInterval(0.5), mixedInterval(1.0) }, s));
    const OperationModel* m = view.operationModel();
    QCOMPARE(m->rowCount(), 3);
    QCOMPARE(m->operation(0), QStringLiteral("modify"));
    QCOMPARE(m->operation(1), QStringLiteral("search"));
    QCOMPARE(m->operation(2), QStringLiteral("all"));
    const int modify = m->rowOfOperation(QStringLiteral("modify"));
    QCOMPARE(m->index(modify, OperationModel::Ops).data().toString(), QStringLiteral("100"));
    QCOMPARE(m->index(modify, OperationModel::OkPerS).data().toString(), QStringLiteral("98.0"));
    QCOMPARE(m->index(modify, OperationModel::Errors).data().toString(), QStringLiteral("2"));
    QCOMPARE(m->index(modify, OperationModel::P99).data().toString(), QStringLiteral("8.00 ms"));
    QCOMPARE(m->index(modify, OperationModel::Max).data().toString(), QStringLiteral("16.0 ms"));
    QCOMPARE(m->index(m->rowOfOperation(QStringLiteral("search")), OperationModel::Ops).data().toString(),
        QStringLiteral("900"));
    // A latency series per kind, redrawn from the record's intervals.
    for (const char* kind : { "search", "modify" })
        QCOMPARE(view.latencyChart()->pointCount(LdapLoadView::kindLatencySeries(QLatin1String(kind))), 2);
    QCOMPARE(view.latencyChart()->pointCount(QStringLiteral("p99")), 2);
}

void TestLdapLoadView::oldRecordIsMarkedDerived()
{
    RunRecord rec = record(
        QStringLiteral("ldap-search"), { interval(0.5), interval(1.0) }, summaryOf(figures(1000, 10, 1.0, 1.5), 1.0));
    for (qsizetype i = 0; i < rec.intervals.size(); ++i)
        rec.intervals[i] = older(rec.intervals.at(i).toObject());
    rec.summary = older(rec.summary);
    LdapLoadView view;
    const QString line = view.finish(rec);
    QVERIFY2(line.startsWith(QStringLiteral("Done: 990.0 ok/s (derived: ops − errors) · 1,000.0 ops/s completed")),
        qPrintable(line));
    QCOMPARE(view.opsChart()->pointCount(QStringLiteral("ok/s")), 2);
    QVERIFY2(view.opsChart()->title().contains(QStringLiteral("derived: ops − errors")),
        qPrintable(view.opsChart()->title()));
    QCOMPARE(
        view.operationModel()->index(0, OperationModel::OkPerS).data().toString(), QStringLiteral("990.0 (derived)"));
    QVERIFY(view.operationModel()
                ->index(0, OperationModel::OkPerS)
                .data(Qt::ToolTipRole)
                .toString()
                .contains(QStringLiteral("ops − errors")));
    // A record of today is not marked.
    LdapLoadView fresh;
    QVERIFY(
        !fresh.finish(record(QStringLiteral("ldap-search"), { interval(0.5) }, summaryOf(figures(500, 0, 0.5, 1), 0.5)))
             .contains(QStringLiteral("derived")));
    QVERIFY(!fresh.opsChart()->title().contains(QStringLiteral("derived")));
}

void TestLdapLoadView::coalescedReadsAreMarked()
{
    LdapLoadView view;
    LdapLoadSpec spec;
    spec.coalesceReads = true;
    view.begin(spec); // live: marked from the start
    QVERIFY2(view.latencyChart()->title().contains(QStringLiteral("(coalesced reads)")),
        qPrintable(view.latencyChart()->title()));
    view.addSamples({ sample(interval(0.5)) });
    QTRY_VERIFY2(
        view.summaryText().contains(QStringLiteral("p99 1.50 ms (coalesced reads)")), qPrintable(view.summaryText()));
    QVERIFY(view.operationsCaption().contains(QStringLiteral("coalesced reads")));

    RunRecord rec = record(QStringLiteral("ldap-search"), { interval(0.5) }, summaryOf(figures(500, 0, 0.5, 1.5), 0.5));
    rec.spec = spec.toJson();
    LdapLoadView done;
    const QString line = done.finish(rec);
    QVERIFY2(line.contains(QStringLiteral("p99 1.50 ms (coalesced reads)")), qPrintable(line));
    QVERIFY(done.latencyChart()->title().contains(QStringLiteral("(coalesced reads)")));
    QVERIFY(done.operationsCaption().contains(QStringLiteral("coalesced reads")));
    // Not coalesced: no mark.
    rec.spec.insert(QStringLiteral("coalesce_reads"), false);
    QVERIFY(!done.finish(rec).contains(QStringLiteral("coalesced")));
    QVERIFY(!done.latencyChart()->title().contains(QStringLiteral("coalesced")));
    QVERIFY(!done.operationsCaption().contains(QStringLiteral("coalesced")));
}

// Live, the time axis spans the planned run from the first batch and is not set again at the next ones (each
// change lays the axis and its text labels out again); the record's own span replaces it at the end.
void TestLdapLoadView::liveTimeAxisSpansThePlannedRun()
{
    LdapLoadView view;
    LdapLoadSpec spec;
    spec.durationSec = 30;
    view.begin(spec);
    view.addSamples({ sample(interval(0.5, 0)) });
    QTRY_COMPARE(view.opsChart()->xRange(), std::make_pair(0.0, 30.0));
    QTRY_COMPARE(view.latencyChart()->xRange(), std::make_pair(0.0, 30.0));
    auto* chartView = view.opsChart()->findChild<QChartView*>(QStringLiteral("chartView"));
    QVERIFY(chartView);
    auto* xAxis = qobject_cast<QValueAxis*>(chartView->chart()->axes(Qt::Horizontal).value(0));
    QVERIFY(xAxis);
    QSignalSpy xChanged(xAxis, &QValueAxis::rangeChanged);
    const QList<LoadInterval> run { interval(0.5, 0), interval(1.0, 0), interval(1.5, 0) };
    view.addSamples({ sample(run.at(1)) });
    view.addSamples({ sample(run.at(2)) });
    QTRY_COMPARE(view.opsChart()->pointCount(LdapLoadView::okSeries()), 3);
    QCOMPARE(xChanged.count(), 0);
    view.finish(record(QStringLiteral("ldap-search"), run, summaryOf(figures(1500, 0, 1.5, 1.5), 1.5)));
    QCOMPARE(view.opsChart()->xRange(), std::make_pair(0.0, 1.5));
    QCOMPARE(view.serverChart()->xRange().second, 1.5);
}

QTEST_MAIN(TestLdapLoadView)
#include "tst_ldaploadview.moc"

// A live batch changes the status line and the server's counters: new texts of the same height stay inside the
// view (StableHeightBox), the window above is not laid out again; a status that needs more lines does reach it,
// and the line is as tall as its text.
void TestLdapLoadView::liveBatchesLayOutNothingAbove()
{
    QWidget window;
    auto* layout = new QVBoxLayout(&window);
    auto* view = new LdapLoadView(&window);
    layout->addWidget(view);
    window.resize(1200, 800);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QJsonObject server { { "threads_active", 3 }, { "connections_current", 4 } };
    view->begin(LdapLoadSpec {});
    view->addSamples({ sample(interval(0.5, 0, server)) });
    QTRY_VERIFY(view->summaryText().startsWith(QStringLiteral("Last interval")));
    QCoreApplication::sendPostedEvents(); // the first batch shows the line: that is a new height
    auto* status = view->findChild<QLabel*>(QStringLiteral("ldapStatusLabel"));
    QVERIFY(status && status->isVisible());
    const int oneLine = status->height();
    LayoutRequests above(&window);
    for (int i = 2; i <= 6; ++i) {
        const QJsonObject more { { "threads_active", 3 + i }, { "connections_current", 4 + i } };
        view->addSamples({ sample(interval(0.5 * i, 0, more)) });
        const QString before = view->countersText();
        QTRY_VERIFY(view->countersText() != before);
        QCoreApplication::sendPostedEvents();
    }
    QCOMPARE(above.count, 0);
    QCOMPARE(status->height(), oneLine);
    // A failed run's reason of several lines: the line grows, and the window lays out for it.
    window.resize(400, 800);
    QCoreApplication::sendPostedEvents();
    RunRecord failed;
    failed.kind = QStringLiteral("ldap-search");
    failed.status = QStringLiteral("failed");
    failed.failure = QString(QStringLiteral("the server went away while the load ran ")).repeated(6);
    view->finish(failed);
    QCoreApplication::sendPostedEvents();
    QVERIFY2(status->height() > 2 * oneLine, qPrintable(QString::number(status->height())));
    QCOMPARE(status->height(), status->heightForWidth(status->width()));
}
