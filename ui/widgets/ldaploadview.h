#pragma once

#include "core/common/sample.h"
#include "core/workload/serverlogtail.h"

#include <QHash>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QPointF>
#include <QWidget>

class LiveChartView;
class OperationModel;
class QLabel;
class QTableView;
class ResultCodeModel;
class RunStatusLabel;
class WarningsLabel;
struct LdapLoadSpec;
struct LoadInterval;
struct RunRecord;

// What an LDAP load shows while it runs and when it ends: successes/s ("ok/s", the headline; completed ops/s and
// errors/s join it once an operation fails), the server's own completed operations/s from cn=monitor, latency
// p50/p95/p99 in ms (and p99 per kind of operation in a mix), the server's threads, waiters and connections, all
// on one time axis; a table of the figures per kind of operation; the result codes; a summary line and the
// warnings; with the record's server_log, the server's etime p50/p99 dashed beside the client's (ServerLogSeries).
// Latency figures say "(coalesced reads)" when the run held responses in the socket. What the server does
// not expose is written "not exposed", never drawn as 0.
class DrawQueue;

class LdapLoadView final : public QWidget
{
    Q_OBJECT
public:
    explicit LdapLoadView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapLoadView)

    void clear();
    // clear(), then what the spec says about the run to come: its operation's name, whether reads are coalesced.
    void begin(const LdapLoadSpec& spec);
    // clear(), then a replay to come: a mix of the logged kinds, its planned length (0: unknown, the axis grows).
    void beginReplay(double plannedSeconds);
    // Off: the run's warnings are not shown here (a page that shows them above this view, once).
    void setWarningsShown(bool shown) { m_warningsShown = shown; }
    void showRunning(const QString& text);
    void addSamples(const SampleBatch& samples);
    // The server's own etime while the load runs (the page's Server access log, followed live): drawn at the
    // load's time of its results, as far as the batches' arrival tells it; the record's exact view replaces it.
    void addServerSlice(const ServerLogTail::Slice& slice);
    // Redraws from the record's intervals, takes the totals and shows how the run ended. Returns the summary line.
    QString finish(const RunRecord& record);

    LiveChartView* opsChart() const { return m_opsChart; }
    LiveChartView* latencyChart() const { return m_latencyChart; }
    LiveChartView* serverChart() const { return m_serverChart; }
    ResultCodeModel* resultModel() const { return m_codes; }
    OperationModel* operationModel() const { return m_operations; }
    QString operationsCaption() const;
    QString summaryText() const;
    QString countersText() const;

    // The series of the ops chart.
    static QString okSeries();
    static QString completedSeries();
    static QString errorsSeries();
    // "search p99": a mix's latency series per kind.
    static QString kindLatencySeries(const QString& kind);
    static QString summaryLine(const RunRecord& record);

private:
    using Points = QHash<QString, QList<QPointF>>;
    void resetCharts();
    void drawRecord(const SampleBatch& samples);
    void setCoalescedReads(bool on);
    void addSample(const Sample& s, const LoadInterval& i, Points& ops, Points& latency, Points& gauges);
    void appendRates(const QList<QPointF>& completed, const QList<QPointF>& errors, bool failed);
    // axisEnd: where the time axis ends (the newest t, or a live run's planned length)
    void drawOps(const Points& ops, bool failed, double axisEnd);
    void drawLatency(const Points& latency, const QStringList& kinds, double axisEnd);
    void drawServer(const Points& gauges, double axisEnd);
    void showOperations(const LoadInterval& last);
    void showLastInterval(const LoadInterval& last);
    void showCounters(const QJsonValue& server);
    void fitOperationTable();

    RunStatusLabel* m_status = nullptr;
    WarningsLabel* m_warnings = nullptr;
    LiveChartView* m_opsChart = nullptr;
    LiveChartView* m_latencyChart = nullptr;
    LiveChartView* m_serverChart = nullptr;
    QLabel* m_countersLabel = nullptr;
    QLabel* m_operationsLabel = nullptr;
    ResultCodeModel* m_codes = nullptr;
    QTableView* m_codeTable = nullptr;
    OperationModel* m_operations = nullptr;
    QTableView* m_operationTable = nullptr;
    QString m_operationName; // the row of a single-operation run
    QList<QJsonObject> m_drawn; // the intervals the charts show, in order
    QStringList m_kinds; // a mix's kinds of operation, in the order their series appeared
    QList<QPointF> m_completedSoFar, m_errorsSoFar; // drawn from the first failed operation on
    double m_lastT = 0;
    double m_plannedT = 0; // a live run's planned length: its time axis spans it from the start (0: unknown)
    double m_liveStartEpochMs = 0; // the live load's measured start, on this clock (0: no batch yet)
    QList<ServerLogTail::Slice> m_pendingSlices; // slices that came before the first batch
    bool m_serverSeen = false; // some interval had the server's counters
    bool m_failuresShown = false;
    bool m_coalesced = false;
    bool m_derived = false;
    bool m_warningsShown = true;
    bool m_live = false; // a run is in progress: batches are drawn in steps (m_draw)
    DrawQueue* m_draw = nullptr;
};
