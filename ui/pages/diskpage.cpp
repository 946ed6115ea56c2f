#include "ui/pages/diskpage.h"

#include "core/common/units.h"
#include "core/disk/diskengine.h"
#include "ui/charts/livechartview.h"
#include "ui/models/diskresultmodel.h"
#include "ui/pages/diskform.h"
#include "ui/widgets/verdictlist.h"

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QString micro(const QJsonObject& lat, const QString& key)
{
    const QJsonValue v = lat.value(key);
    return v.isDouble() ? Units::formatNumber(v.toDouble()) + QStringLiteral(" µs") : QStringLiteral("–");
}

QString latencyLine(const QString& prefix, const QJsonObject& lat)
{
    return DiskPage::tr("%1  p50 %2 · p99 %3 · p99.9 %4 · max %5")
        .arg(prefix, micro(lat, QStringLiteral("p50")), micro(lat, QStringLiteral("p99")),
            micro(lat, QStringLiteral("p999")), micro(lat, QStringLiteral("max")));
}

SampleBatch samplesFromIntervals(const QJsonArray& intervals)
{
    SampleBatch out;
    out.reserve(intervals.size());
    for (const QJsonValue& v : intervals) {
        const QJsonObject o = v.toObject();
        Sample s;
        s.series = o.value(QStringLiteral("series")).toString();
        s.t = o.value(QStringLiteral("t")).toDouble();
        s.values = o;
        out << s;
    }
    return out;
}

} // namespace

DiskPage::DiskPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new DiskForm(this))
    , m_startButton(new QPushButton(tr("Start"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_metricCombo(new QComboBox(this))
    , m_chart(new LiveChartView(this))
    , m_statusLabel(new QLabel(this))
    , m_warningsLabel(new QLabel(this))
    , m_latencyLabel(new QLabel(this))
    , m_model(new DiskResultModel(this))
    , m_table(new QTableView(this))
    , m_verdicts(new VerdictList(this))
    , m_jobFactory([](const DiskSpec& spec) { return Disk::makeJob(spec); })
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
    m_statusLabel->setObjectName(QStringLiteral("statusLabel"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->hide();
    m_warningsLabel->setObjectName(QStringLiteral("warningsLabel"));
    m_warningsLabel->setWordWrap(true);
    m_warningsLabel->setTextFormat(Qt::RichText);
    m_warningsLabel->setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; border: 1px solid "
                                                  "#e0c36c; border-radius: 3px; padding: 4px 6px; }"));
    m_warningsLabel->hide();
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
    formLayout->addWidget(m_form);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_startButton);
    buttons->addWidget(m_cancelButton);
    formLayout->addLayout(buttons);
    formLayout->addWidget(m_progress);
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
    auto* right = new QVBoxLayout;
    right->addWidget(m_statusLabel);
    right->addWidget(m_warningsLabel);
    right->addLayout(chartHeader);
    right->addWidget(m_chart, 3);
    right->addWidget(m_latencyLabel);
    right->addWidget(m_table, 2);

    auto* layout = new QHBoxLayout(this);
    auto* leftWidget = new QWidget(this);
    leftWidget->setLayout(left);
    left->setContentsMargins(0, 0, 0, 0);
    leftWidget->setFixedWidth(370);
    layout->addWidget(leftWidget);
    layout->addLayout(right, 1);

    connect(m_startButton, &QPushButton::clicked, this, &DiskPage::start);
    connect(m_cancelButton, &QPushButton::clicked, this, &DiskPage::cancel);
    connect(m_metricCombo, &QComboBox::currentIndexChanged, this,
        [this] { setMetric(Metric(m_metricCombo->currentData().toInt())); });
    connect(m_runner, &ProbeRunner::progressChanged, this, &DiskPage::onProgress);
    connect(m_runner, &ProbeRunner::samplesArrived, this, &DiskPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &DiskPage::onFinished);

    resetResults();
    setRunning(false);
}

void DiskPage::setDirectory(const QString& dir)
{
    m_form->setDirectory(dir);
}

void DiskPage::setProfile(DiskProfile profile)
{
    m_form->setProfile(profile);
}

void DiskPage::setSizeText(const QString& text)
{
    m_form->setSizeText(text);
}

void DiskPage::setBlockText(const QString& text)
{
    m_form->setBlockText(text);
}

void DiskPage::setDurationText(const QString& text)
{
    m_form->setDurationText(text);
}

void DiskPage::setJobFactory(JobFactory factory)
{
    m_jobFactory = std::move(factory);
}

int DiskPage::chartPointCount() const
{
    return m_chart->pointCount();
}

QString DiskPage::errorField() const
{
    return m_form->errorField();
}

QString DiskPage::errorText() const
{
    return m_form->errorText();
}

void DiskPage::start()
{
    if (isRunning())
        return;
    m_form->clearError();
    DiskSpec spec;
    ProbeError error = m_form->readSpec(&spec);
    if (!error.isError())
        error = spec.validate();
    if (error.isError()) {
        m_form->showError(error);
        emit statusMessage(m_form->errorText());
        return;
    }
    m_form->rememberDirectory();
    resetResults();
    m_profileName = DiskSpec::profileName(spec.profile);
    m_runId = m_runner->start(m_jobFactory(spec));
    m_progress->setFormat(tr("starting…"));
    setRunning(true);
    emit statusMessage(tr("Running %1 in %2").arg(m_profileName, spec.dir));
}

void DiskPage::cancel()
{
    if (!isRunning())
        return;
    m_runner->cancel(m_runId);
    m_cancelButton->setEnabled(false);
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
    m_progress->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
    m_progress->setFormat(phase.isEmpty() ? QStringLiteral("%p%") : phase + QStringLiteral(" – %p%"));
}

void DiskPage::onSamples(int runId, const SampleBatch& samples)
{
    if (runId != m_runId || runId == 0 || samples.isEmpty())
        return;
    addSamples(samples, true);
    const Sample& last = samples.constLast();
    m_latencyLabel->setText(latencyLine(tr("Latency, last interval (%1):").arg(seriesLabel(last.series)),
        last.values.value(QStringLiteral("latency_us")).toObject()));
}

void DiskPage::addSamples(const SampleBatch& samples, bool toChart)
{
    QHash<QString, QList<QPointF>> fresh;
    QStringList freshOrder;
    for (const Sample& s : samples) {
        if (!m_points.contains(s.series))
            m_seriesOrder << s.series;
        SeriesPoints& sp = m_points[s.series];
        const QJsonValue mb = s.values.value(QStringLiteral("mb_per_s"));
        const QJsonValue iops = s.values.value(QStringLiteral("iops"));
        if (mb.isDouble())
            sp.mbPerSec << QPointF(s.t, mb.toDouble());
        if (iops.isDouble())
            sp.iops << QPointF(s.t, iops.toDouble());
        const QJsonValue& shown = m_metric == Metric::MbPerSec ? mb : iops;
        if (shown.isDouble()) {
            if (!fresh.contains(s.series))
                freshOrder << s.series;
            fresh[s.series] << QPointF(s.t, shown.toDouble());
        }
    }
    if (!toChart)
        return;
    for (const QString& series : std::as_const(freshOrder))
        m_chart->appendPoints(seriesLabel(series), fresh.value(series));
}

void DiskPage::redrawChart()
{
    m_chart->clear();
    m_chart->setAxisTitles(tr("Time (s)"), m_metric == Metric::MbPerSec ? tr("MB/s") : tr("IOPS"));
    for (const QString& series : std::as_const(m_seriesOrder)) {
        const SeriesPoints& sp = m_points[series];
        m_chart->appendPoints(seriesLabel(series), m_metric == Metric::MbPerSec ? sp.mbPerSec : sp.iops);
    }
}

void DiskPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    m_lastRecord = record;

    // The record's intervals are the numbers the chart showed live, plus any the cancel cut off; when a run
    // failed before it measured anything, the chart keeps what it has.
    if (!record.intervals.isEmpty()) {
        m_points.clear();
        m_seriesOrder.clear();
        addSamples(samplesFromIntervals(record.intervals), false);
        redrawChart();
    }
    m_model->setRecord(record);
    m_verdicts->setVerdicts(record.verdicts);
    showWarnings(record.warnings);

    const QJsonObject& sum = record.summary;
    if (sum.contains(QStringLiteral("latency_us")))
        m_latencyLabel->setText(
            latencyLine(tr("Latency, whole run:"), sum.value(QStringLiteral("latency_us")).toObject()));
    else if (sum.contains(QStringLiteral("tests")))
        m_latencyLabel->setText(tr("Latency per part: see the table."));

    QString message;
    if (record.status == u"failed") {
        message = tr("Failed: %1").arg(record.failure.isEmpty() ? tr("no reason given") : record.failure);
        m_statusLabel->setStyleSheet(QStringLiteral("QLabel { color: #c62828; font-weight: bold; }"));
        m_progress->setFormat(tr("failed"));
    } else if (record.status == u"cancelled") {
        message = tr("Cancelled. The results cover what was measured until then.");
        m_statusLabel->setStyleSheet(QStringLiteral("QLabel { color: #555555; font-weight: bold; }"));
        m_progress->setFormat(tr("cancelled"));
    } else {
        message = tr("Done.");
        if (sum.value(QStringLiteral("mb_per_s")).isDouble())
            message = tr("Done: %1 MB/s, %2 IOPS.")
                          .arg(Units::formatNumber(sum.value(QStringLiteral("mb_per_s")).toDouble()),
                              Units::formatNumber(sum.value(QStringLiteral("iops")).toDouble(), 0));
        m_statusLabel->setStyleSheet(QStringLiteral("QLabel { color: #2e7d32; font-weight: bold; }"));
        m_progress->setValue(m_progress->maximum());
        m_progress->setFormat(tr("done"));
    }
    m_statusLabel->setText(message);
    m_statusLabel->show();
    setRunning(false);
    emit statusMessage(m_profileName + QStringLiteral(": ") + message);
    emit runFinished(record);
}

void DiskPage::resetResults()
{
    m_points.clear();
    m_seriesOrder.clear();
    redrawChart();
    m_model->clear();
    m_verdicts->clear();
    showWarnings({});
    m_statusLabel->hide();
    m_progress->setValue(0);
    m_latencyLabel->setText(latencyLine(tr("Latency:"), {}));
}

void DiskPage::showWarnings(const QList<RunWarning>& warnings)
{
    if (warnings.isEmpty()) {
        m_warningsLabel->clear();
        m_warningsLabel->hide();
        return;
    }
    QStringList lines;
    for (const RunWarning& w : warnings)
        lines << QStringLiteral("• ") + w.message.toHtmlEscaped()
                + QStringLiteral(" <span style=\"color:#8a6d1a\">[%1]</span>").arg(w.code.toHtmlEscaped());
    m_warningsLabel->setText(tr("<b>Warnings</b>") + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")));
    m_warningsLabel->show();
}

void DiskPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    m_startButton->setEnabled(!running);
    m_cancelButton->setEnabled(running);
    emit runningChanged(running);
}

QString DiskPage::seriesLabel(const QString& series) const
{
    return series.isEmpty() ? m_profileName : series;
}
