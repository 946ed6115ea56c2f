#pragma once

#include "core/agents/coordinator.h"
#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/ldap/loadspec.h"
#include "core/run/proberunner.h"
#include "ui/pages/page.h"

#include <functional>
#include <optional>

class AgentStrip;
class DemoDirectory;
class DemoDirectoryBox;
class LdapAgentsForm;
class LdapConnectionForm;
class LdapLoadForm;
class LdapLoadView;
class ProbeView;
class QProgressBar;
class QPushButton;
class QTabWidget;
struct ProbeSpec;
class SavedRunInputs;
struct SandboxInfo;

// The LDAP page: a connection (with profiles and the demo directory) and a load form on the left; Probe, Start and
// Cancel; on the right the live load view (ops/s, latency, server counters, result codes) and the probe view. With
// "these hosts" (or both) on the Hosts tab the load runs from agents (Agents::runAgents, as `ldap --agents`), a
// strip above the charts showing each agent's state and figures live.
// Every engine call (probe, load, sandbox) is a job on the shared ProbeRunner; the page ignores every run id but
// its own. Loads that write ask first.
class LdapPage final : public Page
{
    Q_OBJECT
public:
    LdapPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapPage)

    QString title() const override { return tr("LDAP"); }
    // Running from Start or Probe on, the off-thread check of the connection's files included.
    bool isRunning() const override { return m_runId != 0 || m_checkTicket != 0; }
    bool isProbing() const { return m_runId != 0 && m_probing; }
    int currentRunId() const { return m_runId; }

    LdapConnectionForm* connectionForm() const { return m_connection; }
    LdapLoadForm* loadForm() const { return m_loadForm; }
    LdapAgentsForm* agentsForm() const { return m_agentsForm; }
    AgentStrip* agentStrip() const { return m_strip; }
    LdapLoadView* loadView() const { return m_loadView; }
    ProbeView* probeView() const { return m_probeView; }
    DemoDirectoryBox* demoBox() const { return m_demoBox; }
    DemoDirectory* demo() const { return m_demo; }

    // The load the forms describe, checked (CompiledLoad::compile) but not started; nullopt with the error shown
    // next to its field and *error set to the sentence. For the Disk page's "under LDAP load".
    std::optional<LdapLoadSpec> loadSpec(QString* error);
    void setUri(const QString& uri);

    RunRecord lastRecord() const { return m_lastRecord; }
    RunRecord lastProbe() const { return m_lastProbe; }
    // A saved probe or load: the probe view or the load view shows it (lastRecord()/lastProbe() stay as they were).
    bool showsKind(const QString& kind) const override;
    bool showRecord(const RunRecord& record, QString* error) override;
    // While a saved run is shown its inputs stand read-only in place of the forms (which keep the user's own);
    // Probe and Start wait until it is closed.
    SavedRunInputs* savedInputs() const { return m_savedInputs; }
    void closeSaved();
    QString errorField() const;
    QString errorText() const;

public slots:
    void start() override; // a load
    void cancel() override;
    void probe();

signals:
    void runFinished(const RunRecord& record);
    void probeFinished(const RunRecord& record);

protected:
    void changeEvent(QEvent* event) override;

private:
    void fitLeftColumn();
    void launchLoad(const LdapLoadSpec& spec);
    void startChecked(const LdapLoadSpec& spec);
    void startWithAgents(const LdapLoadSpec& spec);
    void launchProbe(const ProbeSpec& spec);
    void checkOffThread(std::function<ProbeError()> check, std::function<void()> then);
    void showError(const ProbeError& error);
    void clearErrors();
    void onProgress(int runId, double fraction, const QString& phase);
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void onDemoStarted(const SandboxInfo& info);
    void fillFromDemo(const SandboxInfo& info);
    void showSavedProbe(const RunRecord& record);
    void showSavedLoad(const RunRecord& record);
    void setRunning(bool running); // on a change only
    void lockInputs(bool running); // the inputs, always

    ProbeRunner* m_runner;
    DemoDirectory* m_demo;
    SavedRunInputs* m_savedInputs = nullptr;
    LdapConnectionForm* m_connection = nullptr;
    DemoDirectoryBox* m_demoBox = nullptr;
    LdapLoadForm* m_loadForm = nullptr;
    LdapAgentsForm* m_agentsForm = nullptr;
    AgentStrip* m_strip = nullptr;
    QTabWidget* m_formTabs = nullptr;
    QPushButton* m_probeButton = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QProgressBar* m_progress = nullptr;
    QTabWidget* m_resultTabs = nullptr;
    LdapLoadView* m_loadView = nullptr;
    ProbeView* m_probeView = nullptr;

    int m_runId = 0;
    int m_checkTicket = 0; // the pending check's; 0 = none
    int m_lastTicket = 0;
    QWidget* m_leftColumn = nullptr;
    bool m_locked = false; // the inputs are disabled (a check or a run); setRunning acts on a change only
    bool m_probing = false;
    QString m_runLabel;
    QString m_serverLog; // the next load's server access log, once checked (empty: none)
    std::optional<Agents::CoordinatorSpec> m_agentsRun; // the next load's agents, once checked
    RunRecord m_lastRecord;
    RunRecord m_lastProbe;
};
