#include "ui/pages/replaypage.h"

#include "core/ldap/loadresult.h"
#include "core/replay/replayrun.h"
#include "core/replay/replaysummary.h"
#include "core/sandbox/demosandbox.h"
#include "core/sandbox/sandboxinfo.h"
#include "ui/demodirectory.h"
#include "ui/formmemory.h"
#include "ui/offthread.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/pagerun.h"
#include "ui/pages/replayform.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/replayresultview.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/stalenote.h"
#include "ui/widgets/warningslabel.h"

#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QTabWidget>
#include <QVBoxLayout>

ReplayPage::ReplayPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_demo(demo)
    , m_form(new ReplayForm(this))
    , m_demoNote(new QLabel(this))
    , m_previewButton(new QPushButton(tr("Preview"), this))
    , m_startButton(new QPushButton(tr("Start"), this))
    , m_stopButton(new QPushButton(tr("Stop"), this))
    , m_progress(new QProgressBar(this))
    , m_statusLabel(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_result(new ReplayResultView(this))
    , m_load(new LdapLoadView(this))
    , m_run(new PageRun(runner, m_progress, this, [this](const QString& t) { emit statusMessage(t); }))
{
    setObjectName(QStringLiteral("replayPage"));
    m_form->setObjectName(QStringLiteral("replayForm"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(buildLeft());
    layout->addWidget(Scrolled::vertically(buildResults(), this), 1); // the warnings and charts, taller than the room
    connect(m_startButton, &QPushButton::clicked, this, &ReplayPage::start);
    connect(m_previewButton, &QPushButton::clicked, this, &ReplayPage::preview);
    addRunButtons({ m_previewButton, m_startButton }, m_stopButton);
    connect(m_runner, &ProbeRunner::samplesArrived, this, &ReplayPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &ReplayPage::onFinished);
    connect(m_demo, &DemoDirectory::started, this, &ReplayPage::onDemoStarted);
    if (const auto info = m_demo->info(); info && m_demo->isRunning())
        onDemoStarted(*info);
    setRunning(false);
}

QWidget* ReplayPage::buildLeft()
{
    m_demoNote->setObjectName(QStringLiteral("replayDemoNote"));
    m_demoNote->setWordWrap(true);
    m_demoNote->setText(tr("Replays an access log (or a workload saved on the Workload page) against a server: the "
                           "logged connections, their operations in log order and their timing."));
    NoteStyle::apply(m_demoNote);
    auto* formPage = new QWidget(this);
    auto* formLayout = new QVBoxLayout(formPage);
    formLayout->addWidget(m_demoNote);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->addWidget(m_form, 1);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    formLayout->addWidget(m_savedInputs, 1);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &ReplayPage::closeSaved);
    m_stale = new StaleNote(m_form, this);
    formLayout->addWidget(m_stale);
    m_previewButton->setObjectName(QStringLiteral("previewReplayButton"));
    m_previewButton->setProperty("cliOption", QStringLiteral("dry-run"));
    m_previewButton->setToolTip(tr("Reads the workload and shows what would be sent, per template and connection; "
                                   "sends nothing (--dry-run)"));
    m_startButton->setObjectName(QStringLiteral("startReplayButton"));
    m_startButton->setDefault(true);
    m_startButton->setToolTip(tr("Replays the workload against the target"));
    m_stopButton->setObjectName(QStringLiteral("stopReplayButton"));
    m_stopButton->setToolTip(tr("Stops the replay; the writes it made are undone"));
    m_progress->setObjectName(QStringLiteral("replayProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_previewButton);
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_stopButton);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(Scrolled::vertically(formPage, this), 1); // a saved run's inputs: taller than the room
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_progress);
    left->setFixedWidth(400);
    return left;
}

QWidget* ReplayPage::buildResults()
{
    m_tabs->setObjectName(QStringLiteral("replayResultTabs"));
    m_tabs->addTab(m_result, tr("Schedule and fidelity"));
    m_tabs->addTab(m_load, tr("Load"));
    m_load->setObjectName(QStringLiteral("replayLoadView"));
    m_load->setWarningsShown(false); // the page shows them, above both tabs
    m_result->setObjectName(QStringLiteral("replayResultView"));
    auto* right = new QWidget(this);
    auto* layout = new QVBoxLayout(right);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_statusLabel);
    layout->addWidget(m_warnings);
    layout->addWidget(m_tabs, 1);
    return right;
}

QString ReplayPage::statusText() const
{
    return m_statusLabel->text();
}

void ReplayPage::start()
{
    prepareThen(true);
}

void ReplayPage::preview()
{
    prepareThen(false);
}

// Reads the workload, checks the spec against it and makes the plan off the GUI thread; then runs or previews.
void ReplayPage::prepareThen(bool run)
{
    if (isRunning())
        return;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to replay a workload of your own"));
        return;
    }
    m_form->clearError();
    ReplaySpec spec;
    m_form->readSpec(&spec);
    spec.dryRun = !run;
    const int ticket = m_run->beginCheck(tr("reading the workload…"));
    setRunning(true);
    OffThread::run<ReplayPrepared>(
        this,
        [spec]() -> ReplayPrepared {
            if (const ProbeError e = spec.target.validate(); e.isError()) {
                ReplayPrepared refused;
                refused.error = e;
                return refused;
            }
            return Replay::prepare(spec);
        },
        [this, ticket, spec, run](const ReplayPrepared& p) {
            if (m_run->endCheck(ticket)) // else cancelled meanwhile
                prepared(spec, p, run);
        });
}

void ReplayPage::prepared(const ReplaySpec& spec, const ReplayPrepared& p, bool run)
{
    if (!p.ok()) {
        m_run->checkRefused();
        setRunning(false);
        m_form->showError(p.error);
        emit statusMessage(m_form->errorText());
        emit previewShown(false);
        return;
    }
    if (run) {
        launch(spec, p);
        return;
    }
    m_run->checkRefused(); // a preview: nothing runs
    setRunning(false);
    m_result->clear();
    m_result->showPreview(p.preview);
    m_tabs->setCurrentWidget(m_result);
    m_statusLabel->showInfo(tr("Preview: nothing was sent. %1").arg(p.warnings.join(QStringLiteral(" "))).trimmed());
    emit statusMessage(tr("Preview of the replay shown"));
    emit previewShown(true);
}

void ReplayPage::launch(const ReplaySpec& spec, const ReplayPrepared& p)
{
    m_warnings->setWarnings({});
    m_result->clear();
    m_load->beginReplay(spec.durationSec);
    m_tabs->setCurrentWidget(m_result);
    m_stale->resultMade();
    m_statusLabel->showInfo(tr("Replaying against %1…").arg(spec.target.uri));
    m_run->started(
        m_runner->start(Replay::makeReplayJob(spec, p.workload, p.passwords)), QStringLiteral("replay"), spec.toJson());
    setRunning(true);
    emit statusMessage(tr("Replaying the workload against %1").arg(spec.target.uri));
}

void ReplayPage::cancel()
{
    const PageRun::Cancelled cancelled = m_run->cancel(tr("stopping… (the writes are undone)"));
    if (cancelled == PageRun::Cancelled::Run)
        cancelRequested();
    else if (cancelled == PageRun::Cancelled::Check)
        setRunning(false); // the check's answer will be dropped
}

void ReplayPage::onSamples(int runId, const SampleBatch& samples)
{
    if (!m_run->owns(runId))
        return;
    m_result->addSamples(samples);
    m_load->addSamples(samples);
}

void ReplayPage::onFinished(int runId, const RunRecord& record)
{
    if (!m_run->owns(runId))
        return;
    m_run->finished(record);
    m_lastRecord = record;
    showResult(record);
    emit statusMessage(m_statusLabel->showOutcome(record, tr("Done: %1").arg(ReplaySummary::of(record).countsLine())));
    setRunning(false);
    emit runFinished(record);
}

void ReplayPage::showResult(const RunRecord& record)
{
    m_load->finish(record);
    m_result->showRecord(record);
    m_warnings->setWarnings(record.warnings);
}

bool ReplayPage::showRecord(const RunRecord& record, QString* error)
{
    if (!showsKind(record.kind) || isRunning()) {
        if (error)
            *error = isRunning() ? tr("a replay is running; open the saved run when it has finished")
                                 : tr("the Replay page cannot show a saved \"%1\" run").arg(record.kind);
        return false;
    }
    m_load->clear();
    showResult(record);
    m_statusLabel->showOutcome(record, tr("Saved run: %1").arg(ReplaySummary::of(record).countsLine()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("saved run"));
    m_stale->clear();
    showSavedInputs(m_savedInputs, m_form, record);
    return true;
}

void ReplayPage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_form))
        return;
    m_load->clear();
    m_result->clear();
    m_warnings->setWarnings({});
    m_statusLabel->reset();
    m_progress->setFormat(tr("idle"));
}

// The demo directory: its admin is the target's bind, its people the key space, its password every user's.
void ReplayPage::onDemoStarted(const SandboxInfo& info)
{
    if (isRunning())
        return;
    const FormMemory::Snapshot before = FormMemory::snapshot(m_form);
    LdapTarget t;
    t.uri = info.uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    t.password = DemoDirectory::readPassword(info);
    m_form->connection()->setTarget(t);
    m_form->setText(QStringLiteral("key-space"),
        QStringLiteral("uid=user[0-%1],%2").arg(std::max(0, info.entries - 1)).arg(info.peopleBase));
    m_form->setText(QStringLiteral("shared-password-file"), info.passwordFile);
    // Started with its access log (a local file in the sandbox's own directory): the log to replay.
    const QString log = DemoSandbox::accessLogPath(info);
    const bool hasLog = info.replicas.isEmpty() && QFileInfo::exists(log);
    if (hasLog)
        m_form->setLogs({ log });
    FormMemory::adoptChanged(m_form, before);
    m_demoNote->setText(hasLog ? tr("Filled in for the demo directory and its access log: put it under a load on the "
                                    "LDAP page first, then replay what the log recorded.")
                               : tr("Filled in for the demo directory: its people are the key space, its password "
                                    "every bind's. Choose an access log (or a saved workload) to replay."));
}

void ReplayPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    runStateChanged();
}
