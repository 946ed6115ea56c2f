#pragma once

#include "core/agents/remoterun.h"
#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/disk/diskspec.h"
#include "core/experiments/diskunderload.h"
#include "core/run/proberunner.h"
#include "ui/pages/diskform.h"
#include "ui/pages/page.h"

#include <QHash>
#include <QList>
#include <QPointF>
#include <QStringList>

#include <functional>
#include <optional>

class DiskDeviceView;
class DiskHostRow;
class DiskLdapView;
class DiskResultModel;
class DiskSteadyLabel;
class LiveChartView;
class QCheckBox;
class QDoubleSpinBox;
class SavedRunInputs;
class StaleNote;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class RunStatusLabel;
class VerdictList;
class WarningsLabel;

// The Disk page: a form that builds a DiskSpec, a run through the shared ProbeRunner, a live chart (MB/s or IOPS,
// one line per series), a latency readout, the result table, verdicts and warnings. It ignores every run id but
// its own. "Under LDAP load" turns the run into a disk-under-load experiment with the load the LDAP page describes
// (given by a provider, so the pages stay apart); a second chart then shows the LDAP ops/s on the same time axis.
class DiskPage final : public Page
{
    Q_OBJECT
public:
    explicit DiskPage(ProbeRunner* runner, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskPage)

    QString title() const override { return tr("Disk"); }
    // Running from Start until the run ends, the directory check (off the GUI thread) included.
    bool isRunning() const override { return m_runId != 0 || m_checkTicket != 0; }
    int currentRunId() const { return m_runId; }
    bool isCheckingDirectory() const { return m_checkTicket != 0; }

    // A saved disk or disk-under-load run shown as the result (lastRecord() stays the last run made here).
    bool showsKind(const QString& kind) const override;
    bool showRecord(const RunRecord& record, QString* error) override;
    // While a saved run is shown its inputs stand read-only in place of the form (which keeps the user's own);
    // Start waits until it is closed.
    SavedRunInputs* savedInputs() const { return m_savedInputs; }
    // Shown over the results once the form no longer holds the inputs they were made with.
    StaleNote* staleNote() const { return m_stale; }
    void closeSaved();

    DiskForm* form() const { return m_form; }
    DiskHostRow* hostRow() const { return m_hostRow; }
    void setDirectory(const QString& dir) { m_form->setDirectory(dir); }
    void setProfile(DiskProfile profile) { m_form->setProfile(profile); }
    void setSizeText(const QString& text) { m_form->setSizeText(text); }
    void setBlockText(const QString& text) { m_form->setBlockText(text); }
    void setDurationText(const QString& text) { m_form->setDurationText(text); }

    RunRecord lastRecord() const { return m_lastRecord; }
    int chartPointCount() const;
    DiskResultModel* resultModel() const { return m_model; }
    // The field named by the last validation error ("dir", "size", ...) and the message shown; empty when none.
    QString errorField() const { return m_form->errorField(); }
    QString errorText() const { return m_form->errorText(); }

    // What start() runs for a validated spec; Disk::makeJob unless a test puts a scripted job in its place.
    using JobFactory = std::function<ProbeRunner::Job(const DiskSpec&)>;
    void setJobFactory(JobFactory factory) { m_jobFactory = std::move(factory); }

    // The check of a spec before it runs (DiskSpec::validate: it stats the directory). It runs on a thread of its
    // own, never the GUI's; a test may put a check of its own in its place.
    using SpecCheck = std::function<ProbeError(const DiskSpec&)>;
    void setSpecCheck(SpecCheck check) { m_specCheck = std::move(check); }

    // The LDAP load for "under LDAP load", checked; nullopt with *error set when the LDAP page cannot give one.
    using LdapLoadProvider = std::function<std::optional<LdapLoadSpec>(QString* error)>;
    void setLdapLoadProvider(LdapLoadProvider provider);
    void setUnderLdapLoad(bool on);
    bool underLdapLoad() const;
    // Experiments::makeDiskUnderLoadJob unless a test puts a scripted job in its place.
    using UnderLoadJobFactory = std::function<ProbeRunner::Job(const DiskUnderLoadSpec&)>;
    void setUnderLoadJobFactory(UnderLoadJobFactory factory) { m_underLoadJobFactory = std::move(factory); }
    int ldapChartPointCount() const;
    DiskLdapView* ldapView() const { return m_ldapView; }
    DiskDeviceView* deviceView() const { return m_devices; }

    enum class Metric
    {
        MbPerSec,
        Iops
    };
    void setMetric(Metric metric);

public slots:
    void start() override;
    void cancel() override;

signals:
    void runFinished(const RunRecord& record);
    // The off-thread check of a Start is done: ok, or the error is shown next to its field.
    void specChecked(bool ok);

private:
    struct SeriesPoints
    {
        QList<QPointF> mbPerSec;
        QList<QPointF> iops;
    };

    void onProgress(int runId, double fraction, const QString& phase);
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void launch(ProbeRunner::Job job, const QString& where);
    void checkThenStart(const DiskSpec& spec, const std::optional<DiskUnderLoadSpec>& underLoad);
    void updateUnderLoadEnabled();
    void onSpecChecked(
        const DiskSpec& spec, const std::optional<DiskUnderLoadSpec>& underLoad, const ProbeError& error);
    bool refuse(const ProbeError& error);
    std::optional<DiskUnderLoadSpec> underLoadSpec(const DiskSpec& spec);
    void startUnderLoad(const DiskUnderLoadSpec& u);
    QString showResult(const RunRecord& record);
    void addSamples(const SampleBatch& samples, bool toChart);
    void redrawChart();
    void appendDeviceSeries(const QString& series, const QList<QPointF>& points);
    void resetResults();
    void setRunning(bool running);
    bool seriesWrites(const QString& series) const;
    QString seriesLabel(const QString& series) const;

    ProbeRunner* m_runner;
    DiskForm* m_form = nullptr;
    DiskHostRow* m_hostRow = nullptr;
    std::optional<Agents::RemoteRunSpec> m_remote; // the test being checked or run is on this host
    QPushButton* m_startButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QComboBox* m_metricCombo = nullptr;
    QWidget* m_underLoadRow = nullptr; // the check and the lead
    QCheckBox* m_underLoadCheck = nullptr;
    QDoubleSpinBox* m_leadSpin = nullptr;
    LiveChartView* m_chart = nullptr;
    DiskLdapView* m_ldapView = nullptr;
    SavedRunInputs* m_savedInputs = nullptr;
    StaleNote* m_stale = nullptr;
    DiskDeviceView* m_devices = nullptr;
    RunStatusLabel* m_statusLabel = nullptr;
    WarningsLabel* m_warningsLabel = nullptr;
    QLabel* m_latencyLabel = nullptr;
    DiskSteadyLabel* m_steadyLabel = nullptr;
    DiskResultModel* m_model = nullptr;
    QTableView* m_table = nullptr;
    VerdictList* m_verdicts = nullptr;

    JobFactory m_jobFactory;
    UnderLoadJobFactory m_underLoadJobFactory;
    LdapLoadProvider m_ldapProvider;
    SpecCheck m_specCheck;
    int m_checkTicket = 0; // the pending check's; 0 = none (a cancelled check's result is dropped)
    int m_lastTicket = 0;
    int m_runId = 0;
    QString m_profileName;
    Metric m_metric = Metric::MbPerSec;
    QStringList m_seriesOrder;
    QHash<QString, SeriesPoints> m_points;
    RunRecord m_lastRecord;
};
