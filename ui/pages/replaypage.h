#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/replay/replayprepare.h"
#include "core/run/proberunner.h"
#include "ui/pages/page.h"
#include "ui/pages/pagerun.h"

class DemoDirectory;
class LdapLoadView;
class QLabel;
class QProgressBar;
class QPushButton;
class QTabWidget;
class ReplayForm;
class ReplayResultView;
class RunStatusLabel;
class SavedRunInputs;
class StaleNote;
class WarningsLabel;
struct SandboxInfo;

// A workload replayed against a server (`dirbench-cli replay`) as a job on the shared ProbeRunner. The form on the
// left (ReplayForm); Preview reads the workload and shows what would be sent (the dry run), Start replays it. Before
// either, the workload is read, the spec checked against it and the plan made off the GUI thread (Replay::prepare,
// the command line's own step). On the right, two tabs: "Schedule and fidelity" (the rate against the log's
// schedule and the send lag as they go; at the end the fidelity table, the verdicts, the writes and their undo) and
// "Load" (the load's charts: ok/s, latency per kind of operation, the server's counters). Saved replay records
// open here read-only. With the demo directory running, the form is filled for it (its key space, its admin,
// its password file for every bind).
class ReplayPage final : public Page
{
    Q_OBJECT
public:
    ReplayPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplayPage)

    QString title() const override { return tr("Replay"); }
    bool isRunning() const override { return m_run->isBusy(); }

    ReplayForm* form() const { return m_form; }
    LdapLoadView* loadView() const { return m_load; }
    ReplayResultView* resultView() const { return m_result; }
    QTabWidget* resultTabs() const { return m_tabs; }
    RunRecord lastRecord() const { return m_lastRecord; }
    QString statusText() const;

    bool showsKind(const QString& kind) const override { return kind == u"replay"; }
    bool showRecord(const RunRecord& record, QString* error) override;
    SavedRunInputs* savedInputs() const { return m_savedInputs; }
    void closeSaved();

public slots:
    void start() override;
    void cancel() override;
    void preview();

signals:
    void runFinished(const RunRecord& record);
    void previewShown(bool ok);

private:
    QWidget* buildLeft();
    QWidget* buildResults();
    void prepareThen(bool run);
    void prepared(const ReplaySpec& spec, const ReplayPrepared& p, bool run);
    void launch(const ReplaySpec& spec, const ReplayPrepared& p);
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void onDemoStarted(const SandboxInfo& info);
    void showResult(const RunRecord& record);
    void setRunning(bool running);

    ProbeRunner* m_runner;
    DemoDirectory* m_demo;
    ReplayForm* m_form = nullptr;
    QLabel* m_demoNote = nullptr;
    QPushButton* m_previewButton = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QProgressBar* m_progress = nullptr;
    RunStatusLabel* m_statusLabel = nullptr;
    SavedRunInputs* m_savedInputs = nullptr;
    StaleNote* m_stale = nullptr;
    WarningsLabel* m_warnings = nullptr;
    QTabWidget* m_tabs = nullptr;
    ReplayResultView* m_result = nullptr;
    LdapLoadView* m_load = nullptr;
    PageRun* m_run = nullptr;
    RunRecord m_lastRecord;
};
