#pragma once

#include "core/common/sample.h"

#include <QJsonArray>
#include <QWidget>

class LiveChartView;
class QLabel;
class QPlainTextEdit;
class QTableWidget;
class VerdictList;
struct ReplaySummary;
struct RunRecord;

// What a replay shows beside the load's charts (LdapLoadView): the rate against the log's schedule as it goes (the
// operations per second the schedule asked for, those answered, and the send lag's p99 on the right axis); at the
// end the fidelity table (per template: logged against replayed counts and shares, result codes, the log's etime
// against the replay's latency), the sentences of ReplaySummary (rate, connections, send lag, writes and their
// undo), the drift and the verdicts.
class ReplayResultView final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayResultView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplayResultView)

    void clear();
    void addSamples(const SampleBatch& samples);
    void showRecord(const RunRecord& record);
    // The dry run's text (what would be sent), shown in place of the fidelity until a run ends.
    void showPreview(const QString& text);

    LiveChartView* scheduleChart() const { return m_chart; }
    QTableWidget* fidelityTable() const { return m_table; }
    QString figuresText() const;
    QString previewText() const;
    VerdictList* verdicts() const { return m_verdicts; }

    static QString scheduledSeries();
    static QString answeredSeries();
    static QString sendLagSeries();

private:
    void addInterval(const QJsonObject& values);
    void fillTable(const ReplaySummary& summary);

    LiveChartView* m_chart = nullptr;
    QTableWidget* m_table = nullptr;
    QLabel* m_figures = nullptr;
    QPlainTextEdit* m_preview = nullptr; // in the table's place while it shows
    VerdictList* m_verdicts = nullptr;
};
