#include "ui/pages/workloadpage.h"

#include "core/common/units.h"
#include "core/run/runcontext.h"
#include "core/workload/workloadfile.h"
#include "ui/charts/livechartview.h"
#include "ui/models/workloadtemplatemodel.h"
#include "ui/pages/workloadform.h"
#include "ui/widgets/runprogress.h"
#include "ui/widgets/runqueue.h"
#include "ui/widgets/scrolled.h"

#include <QFile>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>

namespace {

constexpr int kTemplateWidth = 320; // px: the filter templates column at most, when the analysis fills it

// The Curve page's access distribution from a template's fitted skew (none for "uniform" or no fit).
std::optional<AccessDistribution> accessOf(const WorkloadSkew& skew)
{
    if (skew.model == u"zipf" && skew.alpha > 0 && skew.alpha <= 10)
        return AccessDistribution::zipf(skew.alpha);
    if (skew.model == u"hot" && skew.keysPct > 0 && skew.keysPct < 100)
        return AccessDistribution::hot(std::clamp(skew.opsPct, 0.0, 100.0), skew.keysPct);
    return std::nullopt;
}

// Connection churn and concurrency as text.
QString figuresOf(const WorkloadSummary& a)
{
    const WorkloadChurn& churn = a.churn;
    const WorkloadConcurrency& conc = a.concurrency;
    QString lifetime = WorkloadPage::tr("no connection both opened and closed in the log");
    if (churn.hasLifetime)
        lifetime = WorkloadPage::tr("lifetime p50 %1 s, p99 %2 s, max %3 s")
                       .arg(Units::formatNumber(churn.lifetimeP50S, 2), Units::formatNumber(churn.lifetimeP99S, 2),
                           Units::formatNumber(churn.lifetimeMaxS, 2));
    return WorkloadPage::tr(
        "<b>Connections</b>: %1 connects (%2/s), %3 closes, %4 open at the start, %5 at the end; binds per "
        "connection mean %6 (max %7); operations per connection mean %8 (p99 %9); %10.<br><b>Concurrency</b>: "
        "mean %11 operations in flight, p99 %12, max %13 (%14).")
        .arg(QLocale().toString(qint64(churn.connects)), Units::formatNumber(churn.connectsPerS, 2),
            QLocale().toString(qint64(churn.closes)), QLocale().toString(qint64(churn.openAtStart)),
            QLocale().toString(qint64(churn.openAtEnd)), Units::formatNumber(churn.bindsPerConnMean, 2),
            QLocale().toString(qint64(churn.bindsPerConnMax)), Units::formatNumber(churn.opsPerConnMean, 1),
            QLocale().toString(qint64(churn.opsPerConnP99)))
        .arg(lifetime, Units::formatNumber(conc.meanInFlight, 2), Units::formatNumber(conc.p99InFlight, 2),
            Units::formatNumber(conc.maxInFlight, 2), conc.method);
}

} // namespace

WorkloadPage::WorkloadPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new WorkloadForm(this))
    , m_analyzeButton(new QPushButton(tr("Analyze"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_saveButton(new QPushButton(tr("Save workload…"), this))
    , m_exportButton(new QPushButton(tr("Export JSON…"), this))
    , m_skewButton(new QPushButton(tr("Use this skew on the Curve page"), this))
    , m_progress(new QProgressBar(this))
    , m_status(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_chart(new LiveChartView(this))
    , m_model(new WorkloadTemplateModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_table(new QTableView(this))
    , m_figures(new QLabel(this))
{
    setObjectName(QStringLiteral("workloadPage"));
    auto* layout = new QHBoxLayout(this);
    layout->addWidget(buildLeft());
    layout->addWidget(buildResults(), 1);
    connect(m_analyzeButton, &QPushButton::clicked, this, &WorkloadPage::start);
    addRunButtons({ m_analyzeButton }, m_cancelButton);
    connect(m_saveButton, &QPushButton::clicked, this, &WorkloadPage::chooseSave);
    connect(m_exportButton, &QPushButton::clicked, this, &WorkloadPage::chooseExport);
    connect(m_skewButton, &QPushButton::clicked, this, &WorkloadPage::useSkewOnCurve);
    connect(m_runner, &ProbeRunner::progressChanged, this, [this](int runId, double fraction, const QString& phase) {
        if (runId == m_runId && runId != 0)
            showRunProgress(m_progress, fraction, phase);
    });
    RunQueue::follow(
        m_runner, m_progress, this, [this] { return m_runId; }, [this](const QString& t) { emit statusMessage(t); });
    connect(m_runner, &ProbeRunner::finished, this, &WorkloadPage::onFinished);
    setRunning(false);
}

QWidget* WorkloadPage::buildLeft()
{
    m_analyzeButton->setObjectName(QStringLiteral("workloadAnalyzeButton"));
    m_analyzeButton->setDefault(true);
    m_analyzeButton->setToolTip(tr("Reads the logs once (nothing is sent to a server, nothing saved in the history)"));
    m_cancelButton->setObjectName(QStringLiteral("workloadCancelButton"));
    m_cancelButton->setToolTip(tr("Stops the analysis within one read of 4 MiB; nothing of it is kept"));
    m_saveButton->setObjectName(QStringLiteral("workloadSaveButton"));
    m_exportButton->setObjectName(QStringLiteral("workloadExportButton"));
    m_skewButton->setObjectName(QStringLiteral("workloadSkewButton"));
    m_skewButton->setToolTip(tr("The selected template's key skew (else the busiest fitted one) becomes the Curve "
                                "page's access distribution for its predictions"));
    m_progress->setObjectName(QStringLiteral("workloadProgress"));
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("idle"));
    m_status->setObjectName(QStringLiteral("workloadStatus"));
    m_status->setWordWrap(true);
    auto* formPage = new QWidget(this);
    auto* formLayout = new QVBoxLayout(formPage);
    formLayout->addWidget(m_form);
    formLayout->addStretch(1);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_analyzeButton);
    buttons->addWidget(m_cancelButton);
    auto* outputs = new QHBoxLayout;
    outputs->addWidget(m_saveButton);
    outputs->addWidget(m_exportButton);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(Scrolled::vertically(formPage, this), 1);
    leftLayout->addLayout(buttons);
    leftLayout->addWidget(m_progress);
    leftLayout->addWidget(m_status);
    leftLayout->addLayout(outputs);
    leftLayout->addWidget(m_skewButton);
    left->setFixedWidth(400);
    return left;
}

QWidget* WorkloadPage::buildResults()
{
    for (QLabel* l : { m_summary, m_figures }) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_summary->setObjectName(QStringLiteral("workloadSummary"));
    m_figures->setObjectName(QStringLiteral("workloadFigures"));
    m_summary->setText(tr("Add access logs and Analyze: the operation mix, the filter templates and their key "
                          "skew, connection churn and concurrency."));
    m_chart->setObjectName(QStringLiteral("workloadMixChart"));
    m_chart->setTitle(tr("Operation mix"));
    m_chart->setAxisTitles(tr("seconds from the log's start"), tr("ops/s"));
    m_chart->setRightAxisTitle(tr("in flight"));
    m_chart->setPlaceholderText(tr("No analysis yet"));
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(WorkloadTemplateModel::SortRole);
    m_table->setObjectName(QStringLiteral("workloadTemplates"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(-1, Qt::AscendingOrder); // the analysis's order (by count) until a header is clicked
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The template is what a reader reads first: its own width (up to kTemplateWidth, the rest by tooltip or by
    // dragging), never what the figures leave over (a stretched column got 25 px beside nine fitted ones).
    m_table->horizontalHeader()->setSectionResizeMode(WorkloadTemplateModel::Template, QHeaderView::Interactive);
    m_table->horizontalHeader()->resizeSection(WorkloadTemplateModel::Template, kTemplateWidth);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_proxy, &QAbstractItemModel::modelReset, this, [this] {
        m_table->resizeColumnToContents(WorkloadTemplateModel::Template);
        const int w = m_table->horizontalHeader()->sectionSize(WorkloadTemplateModel::Template);
        m_table->horizontalHeader()->resizeSection(
            WorkloadTemplateModel::Template, std::clamp(w, kTemplateWidth / 2, kTemplateWidth));
    });
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    auto* top = new QWidget(this);
    auto* topLayout = new QVBoxLayout(top);
    topLayout->setContentsMargins(0, 0, 0, 0);
    topLayout->addWidget(m_summary);
    topLayout->addWidget(m_chart, 1);
    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_table, 1);
    bottomLayout->addWidget(m_figures);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    split->addWidget(top);
    split->addWidget(bottom);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

QString WorkloadPage::errorField() const
{
    return m_form->errorField();
}

QString WorkloadPage::errorText() const
{
    return m_form->errorText();
}

QString WorkloadPage::summaryText() const
{
    return m_summary->text();
}

QString WorkloadPage::figuresText() const
{
    return m_figures->text();
}

void WorkloadPage::start()
{
    if (isRunning())
        return;
    AnalyzeOptions options;
    const ProbeError e = m_form->readOptions(&options);
    if (e.isError()) {
        m_form->showError(e);
        emit statusMessage(m_form->errorText());
        return;
    }
    m_form->clearError();
    options.buildWorkload = true; // Save needs it; the analysis and the workload come from the one read
    auto out = std::make_shared<AnalyzeResult>();
    m_pending = out;
    m_runId = m_runner->start([options, out](RunContext& ctx) mutable {
        options.stopRequested = [&ctx] { return ctx.stopRequested(); };
        RunRecord rec;
        rec.kind = QStringLiteral("workload-analyze");
        rec.started = QDateTime::currentDateTimeUtc();
        int lastPercent = -1;
        *out = WorkloadAnalyze::run(options, [&ctx, &lastPercent](uint64_t done, uint64_t total) {
            const int percent = total ? int(100 * done / total) : -1;
            if (percent == lastPercent && total)
                return;
            lastPercent = percent;
            if (total)
                ctx.setProgress(double(done) / double(total));
            ctx.setPhase(total
                    ? QObject::tr("%1 of %2").arg(Units::formatBytes(qint64(done)), Units::formatBytes(qint64(total)))
                    : Units::formatBytes(qint64(done)));
        });
        if (!out->error.isEmpty()) {
            rec.status = QStringLiteral("failed");
            rec.failure = out->error;
        }
        return rec;
    });
    m_status->setText(tr("Reading %n file(s)…", nullptr, int(options.logs.size())));
    setRunning(true);
}

void WorkloadPage::cancel()
{
    if (!isRunning())
        return;
    m_runner->cancel(m_runId);
    m_runId = 0;
    m_pending.reset();
    m_status->setText(tr("Analysis cancelled."));
    m_progress->setFormat(tr("cancelled"));
    setRunning(false);
    emit analyzed(false);
}

void WorkloadPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    const auto out = std::move(m_pending);
    const bool ok = record.status == u"ok" && out && out->error.isEmpty();
    if (ok) {
        m_result = out;
        m_analysis = out->analysis;
        m_values = WorkloadSummary::fromJson(m_analysis);
        showAnalysis();
        m_status->setText(
            tr("Read %1 in %2 s.").arg(Units::formatBytes(qint64(out->bytes)), Units::formatNumber(out->seconds, 2)));
        showRunProgress(m_progress, 1, tr("done"));
    } else {
        const QString why = out && !out->error.isEmpty() ? out->error : record.failure;
        if (out && !out->errorField.isEmpty())
            m_form->showError(ProbeError::invalid(out->errorField.mid(2), why));
        m_status->setText(tr("Analysis failed: %1").arg(why));
        m_progress->setFormat(tr("failed"));
    }
    setRunning(false);
    emit statusMessage(m_status->text());
    emit analyzed(ok);
}

bool WorkloadPage::showAnalysisFile(const QJsonObject& analysis, const QString& name, QString* error)
{
    if (isRunning()) {
        if (error)
            *error = tr("an analysis is running; open the file when it has finished");
        return false;
    }
    m_result.reset(); // no workload to save: that needs the logs themselves
    m_analysis = analysis;
    m_values = WorkloadSummary::fromJson(m_analysis);
    showAnalysis();
    m_status->setText(
        tr("Opened %1: the analysis as it was saved (analyze the logs again to save a workload).").arg(name));
    setRunning(false);
    return true;
}

void WorkloadPage::showAnalysis()
{
    const WorkloadSummary& a = m_values;
    QStringList mix;
    for (const auto& [kind, count] : a.operations)
        mix << QStringLiteral("%1 %2").arg(kind, QLocale().toString(qint64(count)));
    m_summary->setText(
        tr("<b>%1</b>, %n file(s), %2 … %3 (%4 s): %5 operations (%6), %7 connections", nullptr, int(a.files))
            .arg(a.format, a.first, a.last, Units::formatNumber(a.durationS, 1),
                QLocale().toString(qint64(a.operationsTotal)), mix.join(QStringLiteral(", ")),
                QLocale().toString(qint64(a.connections))));
    m_model->setTemplates(a.templates);
    showMix();
    m_figures->setText(figuresOf(a));
    QString origin;
    m_skewButton->setEnabled(curveSkew(&origin).has_value());
}

void WorkloadPage::showMix()
{
    m_chart->clear();
    const double width = std::max(1.0, m_values.bucketWidthS);
    const QStringList kinds = m_values.operationKinds();
    QList<QList<QPointF>> series(kinds.size());
    QList<QPointF> flight;
    for (const WorkloadBucket& b : std::as_const(m_values.buckets)) {
        for (qsizetype k = 0; k < kinds.size(); ++k)
            series[k] << QPointF(b.t, b.byKind.value(k) / width);
        flight << QPointF(b.t, b.inFlight);
    }
    m_chart->setMaxPointsPerSeries(std::max<int>(m_chart->maxPointsPerSeries(), int(m_values.buckets.size())));
    LiveChartView::Batch batch(m_chart);
    for (qsizetype k = 0; k < kinds.size(); ++k)
        m_chart->appendPoints(kinds.at(k), series.at(k));
    if (!flight.isEmpty()) {
        m_chart->appendPoints(tr("in flight"), flight, LiveChartView::Axis::Right);
        m_chart->setDashed(tr("in flight"));
    }
}

std::optional<AccessDistribution> WorkloadPage::curveSkew(QString* origin) const
{
    const QModelIndexList selected = m_table->selectionModel()->selectedRows();
    QList<int> rows;
    if (!selected.isEmpty())
        rows << m_proxy->mapToSource(selected.first()).row();
    for (int r = 0; r < m_model->rowCount(); ++r)
        rows << r;
    for (int r : std::as_const(rows)) {
        const WorkloadTemplateRow t = m_model->templateAt(r);
        if (const auto a = accessOf(t.skew)) {
            if (origin)
                *origin = tr("%1 of the workload's %2 (%3)")
                              .arg(WorkloadTemplateModel::skewText(t.skew), t.text, m_values.format);
            return a;
        }
    }
    return std::nullopt;
}

void WorkloadPage::useSkewOnCurve()
{
    QString origin;
    if (const auto a = curveSkew(&origin)) {
        emit skewForCurve(*a, origin);
        emit statusMessage(tr("Curve page: access %1 from the workload").arg(a->toString()));
    }
}

bool WorkloadPage::saveWorkload(const QString& path, QString* error)
{
    QString why = tr("analyze the logs first");
    const bool ok = hasWorkload() && WorkloadFile::write(*m_result->workload, path, &why);
    m_status->setText(ok ? tr("Workload saved to %1.").arg(path) : tr("Not saved: %1").arg(why));
    if (error)
        *error = ok ? QString() : why;
    return ok;
}

bool WorkloadPage::exportJson(const QString& path, QString* error)
{
    QSaveFile f(path);
    const bool ok = !m_analysis.isEmpty() && f.open(QIODevice::WriteOnly)
        && f.write(QJsonDocument(m_analysis).toJson(QJsonDocument::Indented)) >= 0 && f.commit();
    const QString why = m_analysis.isEmpty() ? tr("analyze the logs first") : f.errorString();
    m_status->setText(ok ? tr("Analysis exported to %1.").arg(path) : tr("Not exported: %1").arg(why));
    if (error)
        *error = ok ? QString() : why;
    return ok;
}

void WorkloadPage::chooseSave()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save workload"), QStringLiteral("workload.dbwl"), tr("Workloads (*.dbwl);;All files (*)"));
    if (!path.isEmpty())
        saveWorkload(path);
}

void WorkloadPage::chooseExport()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export analysis"), QStringLiteral("workload.json"), tr("JSON (*.json);;All files (*)"));
    if (!path.isEmpty())
        exportJson(path);
}

void WorkloadPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    m_saveButton->setEnabled(!running && hasWorkload());
    m_exportButton->setEnabled(!running && !m_analysis.isEmpty());
    QString origin;
    m_skewButton->setEnabled(!running && curveSkew(&origin).has_value());
    runStateChanged();
}
