#pragma once

#include "core/ldap/accessdistribution.h"
#include "core/run/proberunner.h"
#include "core/workload/workloadanalyze.h"
#include "core/workload/workloadsummary.h"
#include "ui/pages/page.h"

#include <QJsonObject>

#include <memory>
#include <optional>

class LiveChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class WorkloadForm;
class WorkloadTemplateModel;

// The Workload page (issue 14, "Understand"): access logs in, WorkloadAnalyze::run as a job on the shared
// ProbeRunner (progress in bytes read), and the dirbench.workload/1 analysis out: a summary line, the operation mix
// per second (a line per kind, operations in flight on the right axis), the templates table (sortable), connection
// churn and concurrency as text. An analysis is not a run: nothing goes in the history. "Save workload…" writes the
// Workload the analysis built (anonymised unless "keep values" was ticked when it ran); "Export JSON…" the analysis.
// "Use this skew on the Curve page" hands the selected (or the busiest) template's fitted key skew to the Curve page.
// WorkloadAnalyze::run takes no stop flag: Cancel lets the page go (it forgets the job, which reads on to the end of
// the files in the background and whose result is dropped).
class WorkloadPage final : public Page
{
    Q_OBJECT
public:
    explicit WorkloadPage(ProbeRunner* runner, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(WorkloadPage)

    QString title() const override { return tr("Workload"); }
    bool isRunning() const override { return m_runId != 0; }
    // A saved dirbench.workload/1 analysis (workload analyze --json, Export JSON) shown as if just made; false with
    // *error while an analysis runs.
    bool showAnalysisFile(const QJsonObject& analysis, const QString& name, QString* error);

    WorkloadForm* form() const { return m_form; }
    WorkloadTemplateModel* templateModel() const { return m_model; }
    QTableView* templateView() const { return m_table; }
    LiveChartView* mixChart() const { return m_chart; }
    const QJsonObject& analysis() const { return m_analysis; }
    bool hasWorkload() const { return m_result && m_result->workload.has_value(); }
    QString summaryText() const;
    QString figuresText() const;
    QString errorField() const;
    QString errorText() const;

    bool saveWorkload(const QString& path, QString* error = nullptr);
    bool exportJson(const QString& path, QString* error = nullptr);
    // The skew "Use this skew" hands over: the selected template's, else the busiest template's with a fit.
    std::optional<AccessDistribution> curveSkew(QString* origin = nullptr) const;

public slots:
    void start() override;
    void cancel() override;
    void useSkewOnCurve();

signals:
    void analyzed(bool ok);
    void skewForCurve(const AccessDistribution& access, const QString& origin);

private:
    QWidget* buildLeft();
    QWidget* buildResults();
    void onFinished(int runId, const RunRecord& record);
    void showAnalysis();
    void showMix();
    void setRunning(bool running);
    void chooseSave();
    void chooseExport();

    ProbeRunner* m_runner;
    WorkloadForm* m_form;
    QPushButton* m_analyzeButton;
    QPushButton* m_cancelButton;
    QPushButton* m_saveButton;
    QPushButton* m_exportButton;
    QPushButton* m_skewButton;
    QProgressBar* m_progress;
    QLabel* m_status;
    QLabel* m_summary;
    LiveChartView* m_chart;
    WorkloadTemplateModel* m_model;
    QSortFilterProxyModel* m_proxy;
    QTableView* m_table;
    QLabel* m_figures;
    int m_runId = 0;
    std::shared_ptr<AnalyzeResult> m_pending;
    std::shared_ptr<AnalyzeResult> m_result;
    QJsonObject m_analysis; // the document, as exported
    WorkloadSummary m_values; // what the page shows of it
};
