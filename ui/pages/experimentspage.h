#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/ldap/loadspec.h"
#include "core/run/proberunner.h"
#include "ui/pages/page.h"
#include "ui/pages/pagerun.h"

#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>

class ExperimentForm;
class LiveChartView;
class QLabel;
class QAbstractButton;
class SavedRunInputs;
class StaleNote;
class QProgressBar;
class QPushButton;
class QTableWidget;
class RunStatusLabel;
class WarningsLabel;

// The guide's experiments, one click each (HP-UX DS 8.1 tuning guide): thread sweep (Table 2: client threads, or
// 389-ds's nsslapd-threadnumber), TLS cost (Table 7), database size (Table 5), and cache coverage (Figure 3: the
// Curve page). Each runs over the LDAP page's connection and search (a provider, so the pages stay apart) as a job
// on the shared ProbeRunner; every point's ops/s is live on one time axis, and the points come out as a chart
// (ops/s against the experiment's axis) and a table, with the guide's reference and the record's warnings.
class ExperimentsPage final : public Page
{
    Q_OBJECT
public:
    enum class Kind
    {
        Threads,
        Tls,
        DatabaseSize
    };

    explicit ExperimentsPage(ProbeRunner* runner, QWidget* parent = nullptr);
    ~ExperimentsPage() override;
    Q_DISABLE_COPY_MOVE(ExperimentsPage)

    QString title() const override { return tr("Experiments"); }
    bool isRunning() const override { return m_run->isBusy(); }

    using LdapLoadProvider = std::function<std::optional<LdapLoadSpec>(QString* error)>;
    void setLdapLoadProvider(LdapLoadProvider provider) { m_ldapProvider = std::move(provider); }

    ExperimentForm* form() const { return m_form; }
    LiveChartView* liveChart() const { return m_liveChart; }
    LiveChartView* pointsChart() const { return m_pointsChart; }
    QTableWidget* pointsTable() const { return m_table; }
    RunRecord lastRecord() const { return m_lastRecord; }
    QString referenceText() const;

    // A saved thread sweep, TLS cost or database-size run: its points chart, table and warnings (lastRecord() stays).
    bool showsKind(const QString& kind) const override;
    bool showRecord(const RunRecord& record, QString* error) override;
    // While a saved run is shown its inputs stand read-only in place of the form (which keeps the user's own);
    // a run waits until it is closed.
    SavedRunInputs* savedInputs() const { return m_savedInputs; }
    // Shown over the results once the form no longer holds the inputs they were made with.
    StaleNote* staleNote() const { return m_stale; }
    void closeSaved();

    // Validates and starts one experiment; false (nothing started) when an input is refused.
    bool run(Kind kind);

public slots:
    void start() override;
    void cancel() override;

signals:
    void runFinished(const RunRecord& record);
    void curveRequested();

private:
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void showPoints(const RunRecord& record);
    static QString outcomeText(const RunRecord& record, const QString& what);
    void setRunning(bool running);
    std::optional<LdapLoadSpec> ldapSpec();

    ProbeRunner* m_runner;
    ExperimentForm* m_form = nullptr;
    QList<QAbstractButton*> m_runButtons;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    RunStatusLabel* m_statusLabel = nullptr;
    SavedRunInputs* m_savedInputs = nullptr;
    StaleNote* m_stale = nullptr;
    WarningsLabel* m_warnings = nullptr;
    QLabel* m_reference = nullptr;
    LiveChartView* m_liveChart = nullptr;
    LiveChartView* m_pointsChart = nullptr;
    QTableWidget* m_table = nullptr;
    LdapLoadProvider m_ldapProvider;
    Kind m_kind = Kind::Threads;
    PageRun* m_run = nullptr;
    RunRecord m_lastRecord;
    std::unique_ptr<QTemporaryDir> m_scratch; // the database-size demo directories
};
