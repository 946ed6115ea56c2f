#include "ui/pages/replicationpage.h"

#include "core/common/units.h"
#include "core/experiments/replicationfigures.h"
#include "core/sandbox/sandboxinfo.h"
#include "ui/demodirectory.h"
#include "ui/formmemory.h"
#include "ui/offthread.h"
#include "ui/pages/replicationform.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/replicationlagcharts.h"
#include "ui/widgets/replicationtopologyview.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/stalenote.h"
#include "ui/widgets/warningslabel.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QVBoxLayout>

ReplicationPage::ReplicationPage(ProbeRunner* runner, DemoDirectory* demo, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_demo(demo)
    , m_form(new ReplicationForm(this))
    , m_demoNote(new QLabel(this))
    , m_startButton(new QPushButton(tr("Start"), this))
    , m_stopButton(new QPushButton(tr("Stop"), this))
    , m_progress(new QProgressBar(this))
    , m_statusLabel(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_topology(new ReplicationTopologyView(this))
    , m_charts(new ReplicationLagCharts(this))
    , m_verdicts(new QLabel(this))
    , m_articleNote(new QLabel(this))
    , m_run(new PageRun(runner, m_progress, this, [this](const QString& t) { emit statusMessage(t); }))
{
    setObjectName(QStringLiteral("replicationPage"));
    m_form->setObjectName(QStringLiteral("replicationForm"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(buildLeft());
    layout->addWidget(buildResults(), 1);

    connect(m_startButton, &QPushButton::clicked, this, &ReplicationPage::start);
    addRunButtons({ m_startButton }, m_stopButton);
    connect(m_runner, &ProbeRunner::samplesArrived, this, &ReplicationPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &ReplicationPage::onFinished);
    connect(m_demo, &DemoDirectory::started, this, &ReplicationPage::onDemoStarted);
    if (const auto info = m_demo->info(); info && m_demo->isRunning())
        onDemoStarted(*info);
    setRunning(false);
}

QWidget* ReplicationPage::buildLeft()
{
    m_demoNote->setObjectName(QStringLiteral("replicationDemoNote"));
    m_demoNote->setWordWrap(true);
    m_demoNote->setText(tr("To try it here: on the LDAP page, start the demo directory with a replica; this form "
                           "is then filled in with its supplier and consumer."));
    NoteStyle::apply(m_demoNote);
    auto* formPage = new QWidget(this);
    auto* formLayout = new QVBoxLayout(formPage);
    formLayout->addWidget(m_form);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    formLayout->addWidget(m_savedInputs, 1);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &ReplicationPage::closeSaved);
    formLayout->addWidget(m_demoNote);
    m_stale = new StaleNote(m_form, this); // in the scrolled form: it never raises the page's height
    formLayout->addWidget(m_stale);
    formLayout->addStretch(1);
    m_startButton->setObjectName(QStringLiteral("startReplicationButton"));
    m_startButton->setDefault(true);
    m_startButton->setToolTip(tr("Writes markers on the supplier and watches every consumer for them"));
    m_stopButton->setObjectName(QStringLiteral("stopReplicationButton"));
    m_stopButton->setToolTip(tr("Stops the probe; the marker entry is removed (or its values put back)"));
    m_progress->setObjectName(QStringLiteral("replicationProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_stopButton);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(Scrolled::vertically(formPage, this), 1);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_progress);
    left->setFixedWidth(400);
    return left;
}

QWidget* ReplicationPage::buildResults()
{
    m_verdicts->setObjectName(QStringLiteral("replicationVerdicts"));
    m_verdicts->setWordWrap(true);
    m_verdicts->setTextFormat(Qt::RichText);
    m_verdicts->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_articleNote->setObjectName(QStringLiteral("edirectoryNote"));
    m_articleNote->setWordWrap(true);
    m_articleNote->setText(tr("eDirectory's errors -625 and -626 in ndstrace and ndsrepair: synchronization failing "
                              "because NCP timed out (in the article, on a slow cloud disk). "
                              "<a href=\"disk\">The disk tests</a> (commit) show whether the disk is why."));
    m_articleNote->setToolTip(ReplicationFigures::edirectoryNote());
    NoteStyle::apply(m_articleNote);
    connect(m_articleNote, &QLabel::linkActivated, this, &ReplicationPage::diskTestsRequested);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_statusLabel);
    topLayout->addWidget(m_warnings);
    topLayout->addWidget(m_topology);
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_charts, 1);
    bottomLayout->addWidget(m_verdicts);
    bottomLayout->addWidget(m_articleNote);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("replicationSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    return split;
}

QString ReplicationPage::verdictText() const
{
    return m_verdicts->text();
}

void ReplicationPage::start()
{
    if (isRunning())
        return;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to measure your own servers"));
        return;
    }
    m_form->clearError();
    ReplicationSpec spec;
    if (const ProbeError e = m_form->readSpec(&spec); e.isError()) {
        m_form->showError(e);
        emit statusMessage(m_form->errorText());
        return;
    }
    const int ticket = m_run->beginCheck(tr("checking…"));
    setRunning(true);
    OffThread::run<ProbeError>(
        this, [spec] { return ReplicationForm::check(spec); },
        [this, ticket, spec](const ProbeError& e) {
            if (!m_run->endCheck(ticket))
                return; // cancelled meanwhile
            if (!e.isError()) {
                launch(spec);
                return;
            }
            m_run->checkRefused();
            setRunning(false);
            m_form->showError(e);
            emit statusMessage(m_form->errorText());
        });
}

void ReplicationPage::launch(const ReplicationSpec& spec)
{
    QStringList uris;
    for (const LdapTarget& c : spec.consumers)
        uris << c.uri;
    m_topology->setServers(spec.supplier.uri, uris, spec.watch);
    m_charts->setConsumers(uris);
    m_statusLabel->showInfo(uris.size() == 1
            ? tr("Writing markers on %1 and watching its consumer…").arg(spec.supplier.uri)
            : tr("Writing markers on %1 and watching %2 consumers…").arg(spec.supplier.uri).arg(uris.size()));
    m_warnings->setWarnings({});
    m_verdicts->clear();
    m_stale->resultMade(); // what follows belongs to the inputs on the form now
    m_run->started(
        m_runner->start(Experiments::makeReplicationJob(spec)), QStringLiteral("replication"), spec.toJson());
    setRunning(true);
    emit statusMessage(tr("Measuring replication lag from %1").arg(spec.supplier.uri));
}

void ReplicationPage::cancel()
{
    const PageRun::Cancelled cancelled = m_run->cancel(tr("stopping… (the marker entry is cleaned up)"));
    if (cancelled == PageRun::Cancelled::Run)
        cancelRequested();
    else if (cancelled == PageRun::Cancelled::Check)
        setRunning(false); // the check's answer will be dropped
}

void ReplicationPage::onSamples(int runId, const SampleBatch& samples)
{
    if (!m_run->owns(runId))
        return;
    for (const Sample& s : samples) {
        QJsonObject interval = s.values;
        interval.insert(QStringLiteral("t"), s.t);
        m_charts->addInterval(interval);
        m_topology->showInterval(interval);
    }
}

void ReplicationPage::onFinished(int runId, const RunRecord& record)
{
    if (!m_run->owns(runId))
        return;
    m_run->finished(record);
    m_lastRecord = record;
    showResult(record);
    emit statusMessage(m_statusLabel->showOutcome(record, tr("Done: %1").arg(ReplicationFigures::headline(record))));
    setRunning(false);
    emit runFinished(record);
}

void ReplicationPage::showResult(const RunRecord& record)
{
    m_topology->showRecord(record);
    m_charts->markKnee(ReplicationFigures::kneeRate(record.summary));
    m_warnings->setWarnings(record.warnings);
    m_verdicts->setText(verdictHtml(record));
}

// The verdict sentences, each with a green ✓ or a red ✗ (the nth sentence is the nth lag verdict's), the knee first.
QString ReplicationPage::verdictHtml(const RunRecord& record)
{
    QList<bool> passed;
    for (const Verdict& v : record.verdicts)
        if (v.requirementId == u"replication-p99-lag")
            passed << v.passed;
    QStringList lines;
    if (const auto knee = ReplicationFigures::kneeRate(record.summary))
        lines << tr("The knee of the write ramp: %1.").arg(ReplicationLagCharts::kneeName(*knee)).toHtmlEscaped();
    else if (const auto top = ReplicationFigures::rampTopRate(record.summary))
        lines << tr("No knee: every consumer kept up through the write ramp, up to %1 writes/s.")
                     .arg(Units::formatNumber(*top, 0))
                     .toHtmlEscaped();
    const QStringList sentences = ReplicationFigures::verdictSentences(record);
    for (qsizetype i = 0; i < sentences.size(); ++i) {
        const bool ok = passed.value(i, true);
        const QString badge = i >= passed.size()
            ? QString()
            : QStringLiteral("<span style=\"color:%1\">%2</span> ")
                  .arg((ok ? NoteStyle::passColourNow() : NoteStyle::errorColourNow()).name(),
                      ok ? QStringLiteral("✓") : QStringLiteral("✗"));
        lines << badge + sentences.at(i).toHtmlEscaped();
    }
    if (lines.isEmpty())
        return tr("No verdict: give a max p99 lag for one per consumer.");
    return lines.join(QStringLiteral("<br>"));
}

bool ReplicationPage::showRecord(const RunRecord& record, QString* error)
{
    if (!showsKind(record.kind) || isRunning()) {
        if (error)
            *error = isRunning() ? tr("a replication probe is running; open the saved run when it has finished")
                                 : tr("the Replication page cannot show a saved \"%1\" run").arg(record.kind);
        return false;
    }
    m_charts->setConsumers(ReplicationFigures::consumerUris(record));
    m_charts->addIntervals(record.intervals);
    showResult(record);
    m_statusLabel->showOutcome(record, tr("Saved run: %1").arg(ReplicationFigures::headline(record)));
    m_progress->setValue(0);
    m_progress->setFormat(tr("saved run"));
    // The run's own inputs, read-only, where the form (the user's current servers) was.
    m_stale->clear();
    showSavedInputs(m_savedInputs, m_form, record);
    m_demoNote->hide();
    return true;
}

void ReplicationPage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_form))
        return;
    m_demoNote->setVisible(!m_demoNote->text().isEmpty());
    m_charts->setConsumers({});
    m_warnings->setWarnings({});
    m_verdicts->clear();
    m_statusLabel->reset();
    m_progress->setFormat(tr("idle"));
}

void ReplicationPage::onDemoStarted(const SandboxInfo& info)
{
    if (info.replicas.isEmpty() || isRunning())
        return;
    const FormMemory::Snapshot before = FormMemory::snapshot(m_form); // shown, never remembered over the user's
    m_form->fillFrom(info, DemoDirectory::readPassword(info));
    FormMemory::adoptChanged(m_form, before);
    m_demoNote->setText(info.topology == u"mirror"
            ? tr("Filled in from the demo directory (a mirror pair: written to the first, watched "
                 "on the second).")
            : info.replicas.size() == 1
            ? tr("Filled in from the demo directory (a supplier and its consumer).")
            : tr("Filled in from the demo directory (a supplier and %1 consumers).").arg(info.replicas.size()));
}

void ReplicationPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    runStateChanged();
}
