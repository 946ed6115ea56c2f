#include "ui/pages/ldappage.h"

#include "core/ldap/loadgenerator.h"
#include "core/ldap/probe.h"
#include "core/sandbox/sandboxinfo.h"
#include "core/store/runrecorder.h"
#include "ui/demodirectory.h"
#include "ui/offthread.h"
#include "ui/pages/ldapagentsform.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/serverlogjob.h"
#include "ui/textsize.h"
#include "ui/widgets/agentstrip.h"
#include "ui/widgets/demodirectorybox.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/probeview.h"
#include "ui/widgets/runprogress.h"
#include "ui/widgets/runqueue.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/writeconfirmation.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <tuple>

LdapPage::LdapPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_demo(demo)
    , m_connection(new LdapConnectionForm(this))
    , m_demoBox(new DemoDirectoryBox(demo, this))
    , m_loadForm(new LdapLoadForm(this))
    , m_agentsForm(new LdapAgentsForm(this))
    , m_strip(new AgentStrip(this))
    , m_formTabs(new QTabWidget(this))
    , m_probeButton(new QPushButton(tr("Probe"), this))
    , m_startButton(new QPushButton(tr("Start load"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_resultTabs(new QTabWidget(this))
    , m_loadView(new LdapLoadView(this))
    , m_probeView(new ProbeView(this))
{
    setObjectName(QStringLiteral("ldapPage"));
    m_connection->setObjectName(QStringLiteral("ldapConnectionForm"));
    m_loadForm->setObjectName(QStringLiteral("ldapLoadForm"));
    m_formTabs->setObjectName(QStringLiteral("ldapFormTabs"));
    m_probeButton->setObjectName(QStringLiteral("probeButton"));
    m_probeButton->setToolTip(tr("Which server is it, how long does each step of one request take, which TLS?"));
    m_startButton->setObjectName(QStringLiteral("startLoadButton"));
    m_startButton->setDefault(true);
    m_cancelButton->setObjectName(QStringLiteral("cancelLoadButton"));
    m_progress->setObjectName(QStringLiteral("ldapProgressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("idle"));
    m_progress->setValue(0);
    m_resultTabs->setObjectName(QStringLiteral("ldapResultTabs"));
    m_loadView->setObjectName(QStringLiteral("ldapLoadView"));
    m_probeView->setObjectName(QStringLiteral("probeView"));

    auto* connectionPage = new QWidget(this);
    auto* connectionLayout = new QVBoxLayout(connectionPage);
    connectionLayout->addWidget(m_connection);
    connectionLayout->addWidget(m_demoBox);
    connectionLayout->addStretch(1);
    auto* loadPage = new QWidget(this);
    auto* loadLayout = new QVBoxLayout(loadPage);
    loadLayout->addWidget(m_loadForm);
    loadLayout->addStretch(1);
    m_formTabs->addTab(Scrolled::vertically(connectionPage, this), tr("Connection"));
    m_formTabs->addTab(Scrolled::vertically(loadPage, this), tr("Load"));
    auto* hostsPage = new QWidget(this);
    auto* hostsLayout = new QVBoxLayout(hostsPage);
    hostsLayout->addWidget(m_agentsForm);
    hostsLayout->addStretch(1);
    m_formTabs->addTab(Scrolled::vertically(hostsPage, this), tr("Hosts"));

    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_probeButton);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    auto* left = new QVBoxLayout;
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(m_formTabs, 1);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    left->addWidget(m_savedInputs, 1);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &LdapPage::closeSaved);
    left->addLayout(buttons);
    left->addWidget(m_progress);
    m_leftColumn = new QWidget(this);
    m_leftColumn->setLayout(left);
    fitLeftColumn();

    m_resultTabs->addTab(m_loadView, tr("Load"));
    m_resultTabs->addTab(m_probeView, tr("Server"));
    // The results scroll when the window is lower than they need (the fullest state at a larger text size).
    auto* rightWidget = new QWidget(this);
    auto* right = new QVBoxLayout(rightWidget);
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(m_strip);
    right->addWidget(m_resultTabs, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(m_leftColumn);
    layout->addWidget(Scrolled::vertically(rightWidget, this), 1);

    m_probeView->setFieldNamer(
        [](const QString& field) -> QString { return u'"' + LdapConnectionForm::fieldLabel(field) + u'"'; });
    connect(m_probeButton, &QPushButton::clicked, this, &LdapPage::probe);
    connect(m_startButton, &QPushButton::clicked, this, &LdapPage::start);
    addRunButtons({ m_probeButton, m_startButton }, m_cancelButton);
    connect(
        m_agentsForm, &LdapAgentsForm::checkRequested, this, [this] { m_agentsForm->runCheck(m_connection->uri()); });
    connect(m_runner, &ProbeRunner::progressChanged, this, &LdapPage::onProgress);
    RunQueue::follow(
        m_runner, m_progress, this, [this] { return m_runId; }, [this](const QString& t) { emit statusMessage(t); });
    connect(m_runner, &ProbeRunner::samplesArrived, this, &LdapPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &LdapPage::onFinished);
    connect(m_demo, &DemoDirectory::started, this, &LdapPage::onDemoStarted);
    connect(m_demo, &DemoDirectory::stateChanged, this, [this](DemoDirectory::State s) {
        if (s == DemoDirectory::State::Starting)
            emit statusMessage(m_demo->server() == DemoSandbox::Server::Ds389
                    ? tr("Starting the demo directory (a private 389 Directory Server)…")
                    : tr("Starting the demo directory (a private slapd)…"));
    });
    connect(m_demo, &DemoDirectory::stopped, this, [this] { emit statusMessage(tr("Demo directory stopped.")); });
    connect(m_demo, &DemoDirectory::failed, this,
        [this](const QString& why) { emit statusMessage(tr("Demo directory: %1").arg(why)); });
    lockInputs(false);
}

void LdapPage::setUri(const QString& uri)
{
    m_connection->setUri(uri);
}

QString LdapPage::errorField() const
{
    for (const QString& f : { m_connection->errorField(), m_loadForm->errorField(), m_agentsForm->errorField() })
        if (!f.isEmpty())
            return f;
    return {};
}

QString LdapPage::errorText() const
{
    for (const QString& t : { m_connection->errorText(), m_loadForm->errorText(), m_agentsForm->errorText() })
        if (!t.isEmpty())
            return t;
    return {};
}

void LdapPage::clearErrors()
{
    m_connection->clearError();
    m_loadForm->clearError();
    m_agentsForm->clearError();
}

void LdapPage::showError(const ProbeError& error)
{
    clearErrors();
    if (LdapConnectionForm::ownsField(error.field)) {
        m_connection->showError(error);
        m_formTabs->setCurrentIndex(0);
    } else if (LdapAgentsForm::ownsField(error.field)) {
        m_agentsForm->showError(error);
        m_formTabs->setCurrentIndex(2);
    } else {
        m_loadForm->showError(error);
        m_formTabs->setCurrentIndex(1);
    }
    emit statusMessage(errorText());
}

std::optional<LdapLoadSpec> LdapPage::loadSpec(QString* error)
{
    clearErrors();
    LdapLoadSpec spec;
    ProbeError e = m_loadForm->readSpec(&spec);
    m_connection->readTarget(&spec.target);
    if (!e.isError())
        std::ignore = CompiledLoad::compile(spec, &e); // only its verdict matters here: the engine compiles again
    if (e.isError()) {
        showError(e);
        if (error)
            *error = errorText();
        return std::nullopt;
    }
    return spec;
}

void LdapPage::start()
{
    if (isRunning())
        return;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to run your own load"));
        return;
    }
    clearErrors();
    LdapLoadSpec spec;
    if (const ProbeError e = m_loadForm->readSpec(&spec); e.isError()) {
        showError(e);
        return;
    }
    m_connection->readTarget(&spec.target);
    m_agentsRun.reset();
    const QString serverLog = m_loadForm->text(QStringLiteral("server-log"));
    if (m_agentsForm->usesAgents()) {
        if (serverLog.isEmpty())
            startWithAgents(spec);
        else // the agents' record is put together elsewhere: the server's view is for a load from here
            showError(ProbeError::invalid(
                QStringLiteral("server-log"), tr("only for a load from this machine, not from agents")));
        return;
    }
    checkOffThread(
        [spec, serverLog] {
            ProbeError e;
            std::ignore = CompiledLoad::compile(spec, &e); // only its verdict matters here: the engine compiles again
            return e.isError() ? e : ServerLogJob::check(serverLog);
        },
        [this, spec, serverLog] {
            m_serverLog = serverLog;
            startChecked(spec);
        });
}

// The connection's files (CA, client certificate and key) are read on a thread of their own: a hung mount keeps that
// thread, not the window. What comes next (a probe, a load) waits for the answer; Cancel drops it. A check that
// passes goes straight on to the run, the inputs still disabled: enabling every input and disabling it again a
// moment later restyled and laid out the whole page twice, inside the first stall of a load.
void LdapPage::checkOffThread(std::function<ProbeError()> check, std::function<void()> then)
{
    const int ticket = m_checkTicket = ++m_lastTicket;
    setRunning(true);
    m_progress->setFormat(tr("checking…"));
    OffThread::run<ProbeError>(this, std::move(check), [this, ticket, then = std::move(then)](const ProbeError& e) {
        if (ticket != m_checkTicket)
            return; // cancelled meanwhile
        m_checkTicket = 0;
        if (e.isError())
            showError(e);
        else
            then();
        if (!isRunning()) { // refused, or waiting for the user (a write load's confirmation)
            setRunning(false);
            m_progress->setFormat(tr("idle"));
        }
    });
}

void LdapPage::startChecked(const LdapLoadSpec& spec)
{
    if (WriteConfirmation::isWriteLoad(spec)) {
        emit statusMessage(tr("This load writes to the directory: confirm or cancel."));
        WriteConfirmation::ask(this, spec, [this, spec] {
            if (!isRunning())
                launchLoad(spec);
        });
        return;
    }
    launchLoad(spec);
}

void LdapPage::launchLoad(const LdapLoadSpec& spec)
{
    m_loadView->begin(spec); // its operation, and whether reads are coalesced
    m_resultTabs->setCurrentWidget(m_loadView);
    m_probing = false;
    m_runLabel = spec.kindName();
    QStringList agentNames;
    if (const auto agents = std::exchange(m_agentsRun, std::nullopt)) {
        for (const Agents::AgentHost& h : agents->hosts)
            agentNames << h.name;
        m_runId = m_runner->start([agents = *agents](RunContext& ctx) { return Agents::runAgents(agents, ctx); });
    } else {
        m_runId = m_runner->start(ServerLogJob::wrap(Ldap::makeLoadJob(spec), std::exchange(m_serverLog, {})));
    }
    m_strip->begin(agentNames);
    RunRecorder::of(m_runner)->track(m_runId, spec.kindName(), spec.toJson()); // saved in the history as it goes
    m_loadView->showRunning(tr("Connecting to %1…").arg(spec.target.uri));
    m_progress->setFormat(tr("starting…"));
    setRunning(true);
    emit statusMessage(tr("Running %1 against %2").arg(m_runLabel, spec.target.uri));
}

void LdapPage::probe()
{
    if (isRunning())
        return;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to probe your own server"));
        return;
    }
    clearErrors();
    ProbeSpec spec;
    m_connection->readTarget(&spec.target);
    if (m_loadForm->uses(QStringLiteral("base")))
        spec.searchBase = m_loadForm->text(QStringLiteral("base"));
    checkOffThread([target = spec.target] { return target.validate(); }, [this, spec] { launchProbe(spec); });
}

void LdapPage::launchProbe(const ProbeSpec& spec)
{
    m_probing = true;
    m_runLabel = tr("probe");
    m_runId = m_runner->start(Ldap::makeProbeJob(spec));
    RunRecorder::of(m_runner)->track(m_runId, QStringLiteral("ldap-probe"), spec.toJson());
    m_resultTabs->setCurrentWidget(m_probeView);
    m_progress->setFormat(tr("probing…"));
    setRunning(true);
    emit statusMessage(tr("Probing %1").arg(spec.target.uri));
}

void LdapPage::cancel()
{
    if (m_checkTicket != 0) { // a check of the connection's files that may never return: drop it
        m_checkTicket = 0;
        setRunning(false);
        m_progress->setFormat(tr("idle"));
        return;
    }
    if (!isRunning())
        return;
    m_runner->cancel(m_runId);
    cancelRequested();
    m_progress->setFormat(tr("cancelling…"));
    emit statusMessage(tr("Cancelling the %1…").arg(m_runLabel));
}

void LdapPage::onProgress(int runId, double fraction, const QString& phase)
{
    if (runId != m_runId || runId == 0)
        return;
    showRunProgress(m_progress, fraction, phase);
}

void LdapPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    QString message;
    if (m_probing) {
        m_lastProbe = record;
        m_probeView->setRecord(record);
        message = record.status == u"ok" ? tr("Probe: %1").arg(m_probeView->serverText().simplified())
                                         : tr("Probe %1: %2").arg(record.status, record.failure);
    } else {
        m_lastRecord = record;
        m_strip->finish(record);
        message = m_runLabel + QStringLiteral(": ") + m_loadView->finish(record);
    }
    m_progress->setValue(record.status == u"ok" ? m_progress->maximum() : m_progress->value());
    m_progress->setFormat(record.status == u"ok" ? tr("done") : record.status);
    setRunning(false);
    emit statusMessage(message);
    if (m_probing)
        emit probeFinished(record);
    else
        emit runFinished(record);
}

void LdapPage::setRunning(bool running)
{
    if (running != m_locked)
        lockInputs(running);
    // Always: a check that goes straight on to the load keeps the inputs locked, but the run id changed meanwhile.
    runStateChanged();
}

void LdapPage::lockInputs(bool running)
{
    m_locked = running;
    m_connection->setInputsEnabled(!running);
    m_loadForm->setInputsEnabled(!running);
    m_agentsForm->setInputsEnabled(!running);
}

// The forms' column: 400 px at the usual text size, wider as the text grows (View → Text size: 450 and 500 px),
// so no field or label is cut.
void LdapPage::fitLeftColumn()
{
    // Half the text's growth: the fields stretch, and the charts beside them keep room for their labels.
    const double factor = TextSize::factor(TextSize::current());
    m_leftColumn->setFixedWidth(int(std::lround(400 * (1 + (factor - 1) / 2))));
}

void LdapPage::changeEvent(QEvent* event)
{
    Page::changeEvent(event);
    if (event->type() == QEvent::FontChange && m_leftColumn)
        fitLeftColumn();
}
