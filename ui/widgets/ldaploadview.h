#pragma once

#include "core/common/sample.h"

#include <QHash>
#include <QJsonValue>
#include <QList>
#include <QPointF>
#include <QWidget>

class LiveChartView;
class QLabel;
class QTableView;
class ResultCodeModel;
class RunStatusLabel;
class WarningsLabel;
struct RunRecord;

// What an LDAP load shows while it runs and when it ends: ops/s (the client's, and the server's own completed
// operations/s from cn=monitor), latency p50/p95/p99 in ms, the server's threads, waiters and connections, all on
// one time axis; the result codes; a summary line and the warnings. What the server does not expose is written
// "not exposed", never drawn as 0.
class LdapLoadView final : public QWidget
{
    Q_OBJECT
public:
    explicit LdapLoadView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapLoadView)

    void clear();
    void showRunning(const QString& text);
    void addSamples(const SampleBatch& samples);
    // Redraws from the record's intervals, takes the totals and shows how the run ended. Returns the summary line.
    QString finish(const RunRecord& record);

    LiveChartView* opsChart() const { return m_opsChart; }
    LiveChartView* latencyChart() const { return m_latencyChart; }
    LiveChartView* serverChart() const { return m_serverChart; }
    ResultCodeModel* resultModel() const { return m_codes; }
    QString summaryText() const;
    QString countersText() const;

    static QString summaryLine(const RunRecord& record);

private:
    void addSample(const Sample& s, QHash<QString, QList<QPointF>>& ops, QHash<QString, QList<QPointF>>& latency,
        QHash<QString, QList<QPointF>>& gauges);
    void showCounters(const QJsonValue& server);

    RunStatusLabel* m_status = nullptr;
    WarningsLabel* m_warnings = nullptr;
    LiveChartView* m_opsChart = nullptr;
    LiveChartView* m_latencyChart = nullptr;
    LiveChartView* m_serverChart = nullptr;
    QLabel* m_countersLabel = nullptr;
    ResultCodeModel* m_codes = nullptr;
    QTableView* m_codeTable = nullptr;
    double m_lastT = 0;
    bool m_serverSeen = false; // some interval had the server's counters
};
