#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/experiments/replication.h"
#include "core/run/proberunner.h"
#include "ui/pages/page.h"
#include "ui/pages/pagerun.h"

class DemoDirectory;
class QLabel;
class SavedRunInputs;
class StaleNote;
class QProgressBar;
class QPushButton;
class ReplicationForm;
class ReplicationLagCharts;
class ReplicationTopologyView;
class RunStatusLabel;
class WarningsLabel;
struct SandboxInfo;

// How long until a write is everywhere (issue 13): the marker probe (core/experiments/replication) as a job on the
// shared ProbeRunner. The form on the left (the supplier's connection, the consumers, the marker); on the right the
// topology with each consumer's state, a lag chart per consumer beside the write rate (the knee after a ramp), the
// verdict sentences, and the eDirectory article's -625/-626 explained next to a pointer to the disk tests. The demo
// directory started with a replica fills the form. Saved replication records show read-only.
class ReplicationPage final : public Page
{
    Q_OBJECT
public:
    ReplicationPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplicationPage)

    QString title() const override { return tr("Replication"); }
    bool isRunning() const override { return m_run->isBusy(); }

    ReplicationForm* form() const { return m_form; }
    ReplicationTopologyView* topology() const { return m_topology; }
    ReplicationLagCharts* lagCharts() const { return m_charts; }
    QString verdictText() const; // the verdict sentences as shown (rich text: a coloured ✓ or ✗ each)
    RunRecord lastRecord() const { return m_lastRecord; }

    bool showsKind(const QString& kind) const override { return kind == u"replication"; }
    bool showRecord(const RunRecord& record, QString* error) override;
    // While a saved run is shown its inputs stand read-only in place of the form (which keeps the user's own);
    // a run waits until it is closed.
    SavedRunInputs* savedInputs() const { return m_savedInputs; }
    // Shown over the results once the form no longer holds the inputs they were made with.
    StaleNote* staleNote() const { return m_stale; }
    void closeSaved();

public slots:
    void start() override;
    void cancel() override;

signals:
    void runFinished(const RunRecord& record);
    void diskTestsRequested();

private:
    QWidget* buildLeft();
    QWidget* buildResults();
    void launch(const ReplicationSpec& spec);
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void onDemoStarted(const SandboxInfo& info);
    void showResult(const RunRecord& record);
    static QString verdictHtml(const RunRecord& record);
    void setRunning(bool running);

    ProbeRunner* m_runner;
    DemoDirectory* m_demo;
    ReplicationForm* m_form = nullptr;
    QLabel* m_demoNote = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QProgressBar* m_progress = nullptr;
    RunStatusLabel* m_statusLabel = nullptr;
    SavedRunInputs* m_savedInputs = nullptr;
    StaleNote* m_stale = nullptr;
    WarningsLabel* m_warnings = nullptr;
    ReplicationTopologyView* m_topology = nullptr;
    ReplicationLagCharts* m_charts = nullptr;
    QLabel* m_verdicts = nullptr;
    QLabel* m_articleNote = nullptr;
    PageRun* m_run = nullptr;
    RunRecord m_lastRecord;
};
