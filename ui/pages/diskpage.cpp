#include "ui/pages/diskpage.h"

#include "core/common/units.h"
#include "core/disk/diskengine.h"
#include "core/disk/diskrecordfacts.h"
#include "core/disk/diskresult.h"
#include "core/store/runrecorder.h"
#include "ui/charts/livechartview.h"
#include "ui/models/diskresultmodel.h"
#include "ui/models/intervalsamples.h"
#include "ui/offthread.h"
#include "ui/pages/diskform.h"
#include "ui/pages/diskhostrow.h"
#include "ui/widgets/diskdeviceview.h"
#include "ui/widgets/diskldapview.h"
#include "ui/widgets/disksteadylabel.h"
#include "ui/widgets/runprogress.h"
#include "ui/widgets/runqueue.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/stalenote.h"
#include "ui/widgets/verdictlist.h"
#include "ui/widgets/warningslabel.h"
#include "ui/widgets/writeconfirmation.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

DiskPage::DiskPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new DiskForm(this))
    , m_hostRow(new DiskHostRow(this))
    , m_startButton(new QPushButton(tr("Start"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_metricCombo(new QComboBox(this))
    , m_underLoadRow(new QWidget(this))
    , m_underLoadCheck(new QCheckBox(tr("Under LDAP load"), m_underLoadRow))
    , m_leadSpin(new QDoubleSpinBox(m_underLoadRow))
    , m_chart(new LiveChartView(this))
    , m_ldapView(new DiskLdapView(this))
    , m_devices(new DiskDeviceView(this))
    , m_statusLabel(new RunStatusLabel(this))
    , m_warningsLabel(new WarningsLabel(this))
    , m_latencyLabel(new QLabel(this))
    , m_steadyLabel(new DiskSteadyLabel(this))
    , m_model(new DiskResultModel(this))
    , m_table(new QTableView(this))
    , m_verdicts(new VerdictList(this))
    , m_jobFactory([](const DiskSpec& spec) { return Disk::makeJob(spec); })
    , m_underLoadJobFactory([](const DiskUnderLoadSpec& spec) { return Experiments::makeDiskUnderLoadJob(spec); })
{
    setObjectName(QStringLiteral("diskPage"));
    m_form->setObjectName(QStringLiteral("diskForm"));
    m_startButton->setObjectName(QStringLiteral("startButton"));
    m_startButton->setDefault(true);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setFormat(tr("idle"));
    m_metricCombo->setObjectName(QStringLiteral("metricCombo"));
    m_metricCombo->addItem(tr("MB/s"), int(Metric::MbPerSec));
    m_metricCombo->addItem(tr("IOPS"), int(Metric::Iops));
    m_chart->setObjectName(QStringLiteral("liveChart"));
    m_chart->setAxisTitles(tr("Time (s)"), tr("MB/s"));
    m_underLoadCheck->setObjectName(QStringLiteral("underLdapLoadCheck"));
    m_underLoadCheck->setToolTip(tr("Run the test alone, then again while the LDAP page's load runs against its "
                                    "server, and compare"));
    m_underLoadCheck->setEnabled(false); // until a provider is set
    m_underLoadCheck->setProperty("cliOption", QStringLiteral("under-load"));
    m_leadSpin->setObjectName(QStringLiteral("leadSpin"));
    m_leadSpin->setProperty("cliOption", QStringLiteral("lead"));
    m_leadSpin->setRange(0, 600);
    m_leadSpin->setDecimals(1);
    m_leadSpin->setValue(DiskUnderLoadSpec().leadSeconds);
    m_leadSpin->setPrefix(tr("load first for "));
    m_leadSpin->setSuffix(tr(" s"));
    m_leadSpin->setToolTip(tr("Seconds of LDAP load before the loaded disk test starts"));
    m_leadSpin->setEnabled(false);
    m_ldapView->setObjectName(QStringLiteral("diskLdapView"));
    m_ldapView->hide();
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_warningsLabel->setObjectName(QStringLiteral("warningsLabel"));
    m_latencyLabel->setObjectName(QStringLiteral("latencyLabel"));
    m_latencyLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_table->setObjectName(QStringLiteral("resultTable"));
    m_table->setModel(m_model);
    m_table->verticalHeader()->hide();
    m_table->setAlternatingRowColors(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(DiskResultModel::Name, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setMinimumSectionSize(80);
    m_verdicts->setObjectName(QStringLiteral("verdictList"));

    // Left: the form, the run controls, the verdicts.
    auto* formBox = new QGroupBox(tr("Test"), this);
    auto* formLayout = new QVBoxLayout(formBox);
    formLayout->addWidget(m_hostRow);
    formLayout->addWidget(m_form);
    auto* underLoadLayout = new QHBoxLayout(m_underLoadRow);
    underLoadLayout->setContentsMargins(0, 0, 0, 0);
    underLoadLayout->addWidget(m_underLoadCheck);
    underLoadLayout->addWidget(m_leadSpin, 1);
    formLayout->addWidget(m_underLoadRow);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    formLayout->addWidget(m_savedInputs);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &DiskPage::closeSaved);
    auto* verdictBox = new QGroupBox(tr("Verdicts"), this);
    auto* scroll = new QScrollArea(verdictBox);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_verdicts);
    auto* verdictLayout = new QVBoxLayout(verdictBox);
    verdictLayout->addWidget(scroll);
    auto* left = new QVBoxLayout;
    left->addWidget(formBox);
    left->addWidget(verdictBox, 1);

    // Right: what the run says, live and at the end.
    auto* chartHeader = new QHBoxLayout;
    auto* chartTitle = new QLabel(tr("<b>Throughput over time</b>"), this);
    chartHeader->addWidget(chartTitle);
    chartHeader->addStretch(1);
    chartHeader->addWidget(new QLabel(tr("Show"), this));
    chartHeader->addWidget(m_metricCombo);
    // The throughput chart above, the details (latency, the table, devices, LDAP under load) below: a splitter
    // between, and the details scroll when the window is low.
    auto* chartPane = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartPane);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addLayout(chartHeader);
    chartLayout->addWidget(m_chart, 1);
    auto* details = new QWidget(this);
    auto* detailsLayout = new QVBoxLayout(details);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_latencyLabel); // the figures first: they are what a low window shows unscrolled
    detailsLayout->addWidget(m_steadyLabel);
    detailsLayout->addWidget(m_table, 2);
    detailsLayout->addWidget(m_devices, 2);
    detailsLayout->addWidget(m_ldapView, 2);
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 4 + 8); // a header and three rows
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("diskResultSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(chartPane);
    split->addWidget(Scrolled::vertically(details, split));
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 4);
    auto* right = new QVBoxLayout;
    m_stale = new StaleNote(m_form, this);
    right->addWidget(m_stale);
    right->addWidget(m_statusLabel);
    right->addWidget(m_warningsLabel);
    right->addWidget(split, 1);

    auto* layout = new QHBoxLayout(this);
    auto* leftWidget = new QWidget(this);
    leftWidget->setLayout(left);
    left->setContentsMargins(0, 0, 0, 0);
    // Start, Cancel and the progress under the column, outside its scrolling: on screen however long the form.
    layout->addWidget(Scrolled::withRunBar(
        Scrolled::column(leftWidget, 370, this), { m_startButton, m_cancelButton }, m_progress, this));
    layout->addLayout(right, 1);

    connect(m_startButton, &QPushButton::clicked, this, &DiskPage::start);
    addRunButtons({ m_startButton }, m_cancelButton);
    connect(m_underLoadCheck, &QCheckBox::toggled, m_form, &DiskForm::clearError);
    m_form->setOuterFields([this](const QString& field) { return m_hostRow->field(field); },
        [](const QString& field) { return DiskHostRow::fieldLabel(field); });
    connect(m_hostRow, &DiskHostRow::edited, m_form, &DiskForm::clearError);
    connect(m_hostRow, &DiskHostRow::placeChanged, this, [this](bool onHost) {
        m_form->setOnHost(onHost);
        updateUnderLoadEnabled();
    });
    connect(m_hostRow, &DiskHostRow::checkFinished, m_form, &DiskForm::setDirectoryChoices);
    connect(m_underLoadCheck, &QCheckBox::toggled, this,
        [this] { m_leadSpin->setEnabled(underLdapLoad() && !isRunning()); });
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
        [this] { setMetric(Metric(m_metricCombo->currentData().toInt())); });
    connect(m_runner, &ProbeRunner::progressChanged, this, &DiskPage::onProgress);
    RunQueue::follow(
        m_runner, m_progress, this, [this] { return m_runId; }, [this](const QString& t) { emit statusMessage(t); });
    connect(m_runner, &ProbeRunner::samplesArrived, this, &DiskPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &DiskPage::onFinished);

    resetResults();
    setRunning(false);
}

int DiskPage::chartPointCount() const
{
    return m_chart->pointCount();
}

void DiskPage::setUnderLdapLoad(bool on)
{
    m_underLoadCheck->setChecked(on);
}

int DiskPage::ldapChartPointCount() const
{
    return m_ldapView->pointCount();
}

void DiskPage::setLdapLoadProvider(LdapLoadProvider provider)
{
    m_ldapProvider = std::move(provider);
    updateUnderLoadEnabled();
}

// A test on a host runs alone: the disk there under a load from here is not offered (yet), and says so.
void DiskPage::updateUnderLoadEnabled()
{
    const bool onHost = m_hostRow->onHost();
    if (onHost)
        m_underLoadCheck->setChecked(false);
    m_underLoadCheck->setEnabled(bool(m_ldapProvider) && !isRunning() && !onHost);
    m_underLoadCheck->setToolTip(onHost
            ? tr("Not for a test on a host: run the disk test there alone, and the LDAP load from the LDAP page")
            : tr("Run the test alone, then again while the LDAP page's load runs against its server; both are "
                 "reported, and the change"));
    m_leadSpin->setEnabled(underLdapLoad() && !isRunning());
}

bool DiskPage::underLdapLoad() const
{
    return m_underLoadCheck->isChecked() && m_ldapProvider;
}

void DiskPage::start()
{
    if (isRunning())
        return;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to run your own test"));
        return;
    }
    m_form->clearError();
    DiskSpec spec;
    if (refuse(m_form->readSpec(&spec)) || refuse(m_hostRow->read(spec, &m_remote)))
        return;
    std::optional<DiskUnderLoadSpec> underLoad;
    if (underLdapLoad()) {
        underLoad = underLoadSpec(spec);
        if (!underLoad)
            return;
    }
    checkThenStart(spec, underLoad);
}

bool DiskPage::refuse(const ProbeError& error)
{
    if (!error.isError())
        return false;
    m_form->showError(error);
    emit statusMessage(m_form->errorText());
    return true;
}

std::optional<DiskUnderLoadSpec> DiskPage::underLoadSpec(const DiskSpec& spec)
{
    QString why;
    const std::optional<LdapLoadSpec> load = m_ldapProvider(&why);
    if (!load) {
        refuse(ProbeError::invalid(QStringLiteral("ldap-load"), why));
        return std::nullopt;
    }
    DiskUnderLoadSpec u;
    u.disk = spec;
    u.load = *load;
    u.leadSeconds = m_leadSpin->value();
    return u;
}

// The spec's check stats the directory: on a thread of its own, so a hung mount never freezes the window. Start
// waits for it (the page counts as running, Cancel drops the check).
void DiskPage::checkThenStart(const DiskSpec& spec, const std::optional<DiskUnderLoadSpec>& underLoad)
{
    const int ticket = m_checkTicket = ++m_lastTicket;
    setRunning(true);
    m_progress->setFormat(tr("checking %1…").arg(spec.dir));
    emit statusMessage(tr("Checking %1…").arg(spec.dir));
    // On a host, its directory is checked there (the agent refuses it before any I/O, naming the field).
    const SpecCheck check = m_remote ? [](const DiskSpec& s) { return s.validateValues(); }
        : m_specCheck                ? m_specCheck
                                     : [](const DiskSpec& s) { return s.validate(); };
    OffThread::run<ProbeError>(
        this,
        [check, spec, underLoad] {
            ProbeError e = check(spec);
            if (!e.isError() && underLoad)
                e = underLoad->validate(); // the load's form; the disk's again (cheap once the mount answered)
            return e;
        },
        [this, ticket, spec, underLoad](const ProbeError& error) {
            if (ticket == m_checkTicket)
                onSpecChecked(spec, underLoad, error);
        });
}

void DiskPage::onSpecChecked(
    const DiskSpec& spec, const std::optional<DiskUnderLoadSpec>& underLoad, const ProbeError& error)
{
    m_checkTicket = 0;
    setRunning(false);
    m_progress->setFormat(tr("idle"));
    const bool ok = !refuse(error);
    emit specChecked(ok);
    if (!ok)
        return;
    m_form->rememberDirectory();
    if (underLoad) {
        startUnderLoad(*underLoad);
        return;
    }
    m_ldapView->hide();
    m_profileName = DiskSpec::profileName(spec.profile);
    if (m_remote) {
        launch(Agents::makeRemoteJob(*m_remote), m_remote->host.name + u':' + spec.dir);
        RunRecorder::of(m_runner)->track(m_runId, QStringLiteral("disk"), m_remote->recordSpec);
        return;
    }
    launch(m_jobFactory(spec), spec.dir);
    RunRecorder::of(m_runner)->track(m_runId, QStringLiteral("disk"), spec.toJson()); // saved in the history as it goes
}

void DiskPage::startUnderLoad(const DiskUnderLoadSpec& u)
{
    auto go = [this, u] {
        if (isRunning())
            return;
        m_ldapView->show();
        m_profileName = tr("%1 under LDAP load").arg(DiskSpec::profileName(u.disk.profile));
        launch(m_underLoadJobFactory(u), u.disk.dir);
        RunRecorder::of(m_runner)->track(m_runId, QStringLiteral("disk-under-load"), u.toJson());
    };
    if (WriteConfirmation::isWriteLoad(u.load))
        WriteConfirmation::ask(this, u.load, go);
    else
        go();
}

void DiskPage::launch(ProbeRunner::Job job, const QString& where)
{
    resetResults();
    m_stale->resultMade(); // what follows belongs to the inputs on the form now
    m_runId = m_runner->start(std::move(job));
    m_progress->setFormat(tr("starting…"));
    setRunning(true);
    emit statusMessage(tr("Running %1 in %2").arg(m_profileName, where));
}

void DiskPage::cancel()
{
    if (m_checkTicket != 0) { // a check that may never return (a hung mount): drop it
        m_checkTicket = 0;
        setRunning(false);
        m_progress->setFormat(tr("idle"));
        emit statusMessage(tr("Check of the directory abandoned."));
        return;
    }
    if (!isRunning())
        return;
    m_runner->cancel(m_runId);
    cancelRequested();
    m_progress->setFormat(tr("cancelling…"));
    emit statusMessage(tr("Cancelling %1…").arg(m_profileName));
}

void DiskPage::setMetric(Metric metric)
{
    m_metric = metric;
    const QSignalBlocker block(m_metricCombo);
    m_metricCombo->setCurrentIndex(m_metricCombo->findData(int(metric)));
    redrawChart();
}

void DiskPage::onProgress(int runId, double fraction, const QString& phase)
{
    if (runId != m_runId || runId == 0)
        return;
    showRunProgress(m_progress, fraction, phase);
}

void DiskPage::onSamples(int runId, const SampleBatch& samples)
{
    if (runId != m_runId || runId == 0 || samples.isEmpty())
        return;
    addSamples(samples, true);
    auto lastDisk = std::find_if(
        samples.crbegin(), samples.crend(), [](const Sample& s) { return !DiskLdapView::isLdapSeries(s.series); });
    if (lastDisk == samples.crend())
        return; // only the LDAP load's intervals in this batch
    const Sample& last = *lastDisk;
    m_latencyLabel->setText(DiskResultModel::latencyLine(
        tr("Latency, last interval (%1):").arg(seriesLabel(last.series)), DiskInterval::fromSample(last).latencyUs));
}

void DiskPage::addSamples(const SampleBatch& samples, bool toChart)
{
    QHash<QString, QList<QPointF>> fresh;
    QStringList freshOrder;
    double lastT = m_chart->xRange().second;
    for (const Sample& s : samples) {
        lastT = std::max(lastT, s.t);
        if (DiskLdapView::isLdapSeries(s.series))
            continue; // the LDAP chart's
        if (!m_points.contains(s.series))
            m_seriesOrder << s.series;
        SeriesPoints& sp = m_points[s.series];
        const DiskInterval i = DiskInterval::fromSample(s);
        sp.mbPerSec << QPointF(s.t, i.mbPerS);
        sp.iops << QPointF(s.t, i.iops);
        if (!fresh.contains(s.series))
            freshOrder << s.series;
        fresh[s.series] << QPointF(s.t, m_metric == Metric::MbPerSec ? i.mbPerS : i.iops);
    }
    const auto device = m_devices->addSamples(
        samples, [this](const QString& series) { return seriesLabel(series); },
        [this](const QString& series) { return seriesWrites(series); }, m_metric == Metric::Iops);
    if (!toChart)
        return;
    for (const QString& series : std::as_const(freshOrder))
        m_chart->appendPoints(seriesLabel(series), fresh.value(series));
    for (auto it = device.begin(); it != device.end(); ++it)
        appendDeviceSeries(it.key(), it.value());
    if (!m_ldapView->isHidden()) { // one time axis for both charts
        m_ldapView->addSamples(samples);
        m_chart->setMinimumXRange(0, lastT);
        m_ldapView->chart()->setMinimumXRange(0, lastT);
    }
}

void DiskPage::redrawChart()
{
    m_chart->clear();
    m_chart->setAxisTitles(tr("Time (s)"), m_metric == Metric::MbPerSec ? tr("MB/s") : tr("IOPS"));
    for (const QString& series : std::as_const(m_seriesOrder)) {
        const SeriesPoints& sp = m_points[series];
        m_chart->appendPoints(seriesLabel(series), m_metric == Metric::MbPerSec ? sp.mbPerSec : sp.iops);
        appendDeviceSeries(series, m_devices->throughput(series, m_metric == Metric::Iops));
    }
}

void DiskPage::appendDeviceSeries(const QString& series, const QList<QPointF>& points)
{
    if (points.isEmpty())
        return;
    const QString name = DiskDeviceView::deviceSeries(seriesLabel(series));
    m_chart->setDashed(name);
    m_chart->setColorLike(name, seriesLabel(series));
    m_chart->appendPoints(name, points);
}

void DiskPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    m_lastRecord = record;
    QString message = showResult(record);
    setRunning(false);
    emit statusMessage(m_profileName + QStringLiteral(": ") + message);
    emit runFinished(record);
}

// What the end of a run shows (and a saved run): the chart from the record's intervals, the table, verdicts,
// warnings, latency and the outcome line. Returns the outcome's message.
QString DiskPage::showResult(const RunRecord& record)
{
    // The record's intervals are the numbers the chart showed live, plus any the cancel cut off; when a run
    // failed before it measured anything, the chart keeps what it has.
    if (!record.intervals.isEmpty()) {
        m_points.clear();
        m_seriesOrder.clear();
        m_devices->clear();
        addSamples(samplesFromIntervals(record.intervals), false);
        redrawChart();
    }
    m_devices->finish();
    m_model->setRecord(record);
    m_verdicts->setVerdicts(record.verdicts);
    m_warningsLabel->setWarnings(record.warnings);
    if (!m_ldapView->isHidden()) {
        m_ldapView->finish(record);
        const double lastT = std::max(m_chart->xRange().second, m_ldapView->chart()->xRange().second);
        m_chart->setMinimumXRange(0, lastT);
        m_ldapView->chart()->setMinimumXRange(0, lastT);
    }

    const DiskSummary sum = DiskSummary::fromJson(record.summary);
    if (sum.hasRates())
        m_latencyLabel->setText(DiskResultModel::latencyLine(tr("Latency, whole run:"), sum.latencyUs));
    else if (sum.isSuite() || record.kind == u"disk-under-load")
        m_latencyLabel->setText(tr("Latency per part: see the table."));
    m_steadyLabel->setRecord(record);
    QString done = tr("Done.");
    if (sum.mbPerS)
        done = tr("Done: %1 MB/s, %2 IOPS.")
                   .arg(Units::formatNumber(*sum.mbPerS), Units::formatNumber(sum.iops.value_or(0), 0));
    else if (record.kind == u"disk-under-load")
        done = DiskLdapView::doneText(record);
    QString message = m_statusLabel->showOutcome(record, done);
    if (record.status == u"ok")
        m_progress->setValue(m_progress->maximum());
    m_progress->setFormat(record.status == u"ok" ? tr("done") : record.status);
    return message;
}

void DiskPage::resetResults()
{
    m_points.clear();
    m_seriesOrder.clear();
    redrawChart();
    m_model->clear();
    m_verdicts->clear();
    m_warningsLabel->setWarnings({});
    m_statusLabel->reset();
    m_ldapView->clear();
    m_devices->clear();
    m_progress->setValue(0);
    m_latencyLabel->setText(DiskResultModel::latencyLine(tr("Latency:"), {}));
    m_steadyLabel->reset();
    m_stale->clear();
}

void DiskPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    m_hostRow->setInputsEnabled(!running);
    m_underLoadCheck->setEnabled(!running && bool(m_ldapProvider) && !m_hostRow->onHost());
    m_leadSpin->setEnabled(!running && underLdapLoad());
    runStateChanged();
}

QString DiskPage::seriesLabel(const QString& series) const
{
    return series.isEmpty() ? m_profileName : series;
}

// A suite's series is its test ("seq-read", "seq-read #2"); any other's is the run's profile ("repeat 2" too).
bool DiskPage::seriesWrites(const QString& series) const
{
    const auto profileOf = [](QString name) {
        name = name.section(u' ', 0, 0);
        return DiskSpec::profileFromName(name);
    };
    auto p = profileOf(series);
    if (!p || *p == DiskProfile::Directory)
        p = profileOf(m_profileName);
    return p && *p != DiskProfile::Directory && DiskSpec::profileInfo(*p).write;
}
