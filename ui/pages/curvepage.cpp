#include "ui/pages/curvepage.h"

#include "core/common/units.h"
#include "core/experiments/curvesummary.h"
#include "core/ldap/accessdistribution.h"
#include "core/ldap/loadresult.h"
#include "core/sizing/referencecurve.h"
#include "ui/charts/curvechartview.h"
#include "ui/charts/livechartview.h"
#include "ui/pages/curveform.h"
#include "ui/widgets/curvepredictor.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/stalenote.h"
#include "ui/widgets/warningslabel.h"

#include <QApplication>
#include <QFile>
#include <QFileDialog>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

// The side note's grey (sources, references) for the palette in use.
QString noteColour()
{
    return NoteStyle::colour(QApplication::palette()).name();
}
constexpr int kCurveSteps = 50;
constexpr double kMovedCoverage = 0.005; // half a percentage point: measured elsewhere than asked
constexpr qint64 kMaxRecordBytes = 64 << 20;

} // namespace

CurvePage::CurvePage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new CurveForm(this))
    , m_predictor(new CurvePredictor(this))
    , m_startButton(new QPushButton(tr("Start"), this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_openButton(new QPushButton(tr("Open curve record…"), this))
    , m_progress(new QProgressBar(this))
    , m_statusLabel(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_curveChart(new CurveChartView(this))
    , m_liveChart(new LiveChartView(this))
    , m_fitLabel(new QLabel(this))
    , m_trafficLabel(new QLabel(this))
    , m_run(new PageRun(runner, m_progress, this, [this](const QString& t) { emit statusMessage(t); }))
{
    setObjectName(QStringLiteral("curvePage"));
    m_form->setObjectName(QStringLiteral("curveForm"));
    m_predictor->setObjectName(QStringLiteral("curvePredictor"));
    m_startButton->setObjectName(QStringLiteral("startButton"));
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    m_openButton->setObjectName(QStringLiteral("openRecordButton"));
    m_progress->setObjectName(QStringLiteral("progressBar"));
    m_progress->setRange(0, 1000);
    m_progress->setFormat(tr("idle"));
    m_progress->setValue(0);
    m_curveChart->setObjectName(QStringLiteral("curveChart"));
    m_curveChart->setAxisTitles(tr("Entries in the entry cache (% of the entries)"), tr("ok/s"));
    m_curveChart->setPlaceholderText(tr("No curve yet: Start a sweep against the LDAP page's server, or open a "
                                        "record written by dirbench-cli curve --json."));
    m_liveChart->setObjectName(QStringLiteral("liveChart"));
    m_liveChart->setAxisTitles(tr("Time (s)"), tr("ok/s"));
    m_liveChart->setPlaceholderText(tr("ok/s (successful searches per second) of each point, live"));
    m_liveChart->hide(); // until a sweep runs here
    m_fitLabel->setObjectName(QStringLiteral("fitLabel"));
    m_fitLabel->setWordWrap(true);
    m_fitLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_trafficLabel->setObjectName(QStringLiteral("trafficLabel"));
    m_trafficLabel->setWordWrap(true);
    m_trafficLabel->hide(); // until the Workload page hands over a skew

    auto* formBox = new QGroupBox(tr("Sweep (uses the LDAP page's connection and search)"), this);
    auto* formLayout = new QVBoxLayout(formBox);
    formLayout->addWidget(m_form);
    m_stale = new StaleNote(m_form, this); // in the scrolled column: it never raises the page's height
    formLayout->addWidget(m_stale);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    formLayout->addWidget(m_savedInputs);
    formLayout->addWidget(m_openButton);
    auto* predictBox = new QGroupBox(tr("Predict"), this);
    auto* predictLayout = new QVBoxLayout(predictBox);
    predictLayout->addWidget(m_predictor);
    auto* left = new QVBoxLayout;
    left->setContentsMargins(0, 0, 0, 0);
    left->addWidget(formBox);
    left->addWidget(predictBox);
    left->addStretch(1);
    auto* leftWidget = new QWidget(this);
    leftWidget->setLayout(left);

    // The results scroll when they need more height than the window has (warnings, a wrapped legend, large text):
    // squeezed below their minimum, the chart's legend would paint over the fit's text.
    auto* rightWidget = new QWidget(this);
    auto* right = new QVBoxLayout(rightWidget);
    right->setContentsMargins(0, 0, 0, 0);
    right->addWidget(m_statusLabel);
    right->addWidget(m_warnings);
    right->addWidget(m_curveChart, 3);
    right->addWidget(m_fitLabel);
    right->addWidget(m_trafficLabel);
    right->addWidget(m_liveChart, 1);
    auto* layout = new QHBoxLayout(this);
    // Start, Cancel and the progress under the column, outside its scrolling: on screen however long the form.
    layout->addWidget(Scrolled::withRunBar(
        Scrolled::column(leftWidget, 370, this), { m_startButton, m_cancelButton }, m_progress, this));
    layout->addWidget(Scrolled::vertically(rightWidget, this), 1);

    connect(m_startButton, &QPushButton::clicked, this, &CurvePage::start);
    addRunButtons({ m_startButton }, m_cancelButton);
    connect(m_openButton, &QPushButton::clicked, this, &CurvePage::chooseRecord);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &CurvePage::closeSaved);
    connect(m_predictor, &CurvePredictor::targetChanged, this,
        [this](double ops) { m_curveChart->setTarget(ops, tr("target %1 ok/s").arg(Units::formatNumber(ops, 0))); });
    connect(m_runner, &ProbeRunner::samplesArrived, this, &CurvePage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &CurvePage::onFinished);
    showGuideCurve();
    setRunning(false);
}

// Until this page has a curve of its own: the guide's Figure 3 (500k entries), in the guide's searches/s, named as
// the guide's so that nobody takes it for a measurement.
void CurvePage::showGuideCurve()
{
    QList<QPointF> guide;
    for (const ReferencePoint& r : ReferenceCurve::figure3Shape(kCurveSteps))
        guide << QPointF(r.coverage * 100, r.opsPerSec);
    m_curveChart->clear();
    m_curveChart->setTitle(tr("The guide's Figure 3 (HP-UX Directory Server 8.1, 500,000 entries), not a measurement"));
    m_curveChart->setAxisTitles(tr("Entries in the entry cache (% of the entries)"), tr("searches/s (guide)"));
    m_curveChart->setReference(guide, tr("guide Fig. 3: searches/s, 500k entries (from its Table 5)"));
    m_curveChart->setTarget(m_predictor->target(), tr("target"));
    m_fitLabel->setText(tr("Shown until a sweep has run or a record is opened: the guide's Figure 3, drawn as the "
                           "model X(c) = 1 / (t_miss − (t_miss − t_hit) · h(c)) through its Table 5 end points for "
                           "500,000 entries. A sweep fits the same model to this server's points.<br>"
                           "<span style='color:%2'>Source: %1</span>")
                            .arg(ReferenceCurve::source().toHtmlEscaped(), noteColour()));
    m_guideShown = true;
}

QString CurvePage::fitText() const
{
    return m_fitLabel->text();
}

QString CurvePage::errorField() const
{
    return m_form->errorField();
}

QString CurvePage::movedText() const
{
    return m_movedText;
}

QString CurvePage::errorText() const
{
    return m_form->errorText();
}

void CurvePage::start()
{
    if (isRunning())
        return;
    m_form->clearError();
    CurveSpec spec;
    ProbeError e;
    QString why;
    const std::optional<LdapLoadSpec> load = m_ldapProvider ? m_ldapProvider(&why) : std::optional<LdapLoadSpec>();
    if (!load)
        e = ProbeError::invalid(
            QStringLiteral("ldap-load"), why.isEmpty() ? tr("set the connection and a search on the LDAP page") : why);
    if (!e.isError()) {
        spec.load = *load;
        e = m_form->readSpec(&spec);
    }
    if (!e.isError())
        e = spec.validate();
    if (e.isError()) {
        m_form->showError(e);
        emit statusMessage(m_form->errorText());
        return;
    }
    m_spec = spec;
    m_liveOrder.clear();
    m_liveSums.clear();
    m_liveChart->clear();
    m_liveChart->show();
    m_curveChart->clear();
    m_curveChart->setTitle(QString());
    m_movedText.clear();
    m_guideShown = false;
    m_fit.reset();
    updatePrediction();
    m_statusLabel->reset();
    m_warnings->setWarnings({});
    m_curveChart->setTarget(m_predictor->target(), tr("target"));
    m_stale->resultMade(); // what follows belongs to the inputs on the form now
    m_run->started(m_runner->start(Experiments::makeCurveJob(spec)), QStringLiteral("curve"), spec.toJson());
    setRunning(true);
    emit statusMessage(tr("Running a %1 curve of %n point(s) against %2", nullptr, int(spec.points.size()))
                           .arg(CurveSpec::modeName(spec.mode), spec.load.target.uri));
}

void CurvePage::cancel()
{
    if (m_run->cancel(tr("cancelling… (settings are put back)")) == PageRun::Cancelled::Run)
        cancelRequested();
}

void CurvePage::onSamples(int runId, const SampleBatch& samples)
{
    if (!m_run->owns(runId))
        return;
    QHash<QString, QList<QPointF>> fresh;
    QStringList order;
    for (const Sample& s : samples) {
        const LoadInterval i = LoadInterval::fromJson(s.values);
        if (i.seconds <= 0 || s.series.isEmpty())
            continue; // not an interval of a point's load
        if (!m_liveSums.contains(s.series))
            m_liveOrder << s.series;
        auto& sum = m_liveSums[s.series];
        sum.first += i.all.okPerS;
        sum.second += 1;
        if (!fresh.contains(s.series))
            order << s.series;
        fresh[s.series] << QPointF(s.t, i.all.okPerS);
    }
    for (const QString& series : std::as_const(order))
        m_liveChart->appendPoints(series, fresh.value(series));
    showLivePoints();
}

// While the sweep runs: each point's mean ok/s so far, at the coverage it asked for.
void CurvePage::showLivePoints()
{
    QList<QPointF> pts;
    for (int i = 0; i < m_liveOrder.size() && i < m_spec.points.size(); ++i) {
        const auto sum = m_liveSums.value(m_liveOrder[i]);
        if (sum.second > 0)
            pts << QPointF(m_spec.points[i] * 100, sum.first / sum.second);
    }
    m_curveChart->setMeasured(pts, tr("measured (running mean)"));
}

void CurvePage::onFinished(int runId, const RunRecord& record)
{
    if (!m_run->owns(runId))
        return;
    m_run->finished(record);
    m_lastRecord = record;
    QString why;
    const bool shown = showCurve(record, &why);
    const int n = int(CurveRecord::Summary::of(record).points.size());
    if (n == 0)
        showGuideCurve(); // nothing measured: the guide's figure again, not an empty chart
    const QString done = shown ? tr("Done: %n point(s).", nullptr, n) : tr("Done, no curve: %1").arg(why);
    const QString message = m_statusLabel->showOutcome(record, done);
    setRunning(false);
    emit statusMessage(tr("Curve: ") + message);
    emit runFinished(record);
}

// Points measured elsewhere than the sweep asked (the server kept its cache above a minimum, or an entry count
// differs): drawn where measured, ringed and labelled, and listed under the chart.
void CurvePage::showMovedPoints(const CurveRecord::Summary& summary)
{
    QList<QPointF> moved;
    QStringList lines;
    for (const CurveRecord::PointFigures& p : summary.points) {
        const double coverage = p.coverage.value_or(0);
        if (!p.target || std::abs(*p.target - coverage) < kMovedCoverage)
            continue;
        moved << QPointF(coverage * 100, p.ratePerS());
        lines << tr("asked %1 %, measured at %2 %")
                     .arg(Units::formatNumber(*p.target * 100, 1), Units::formatNumber(coverage * 100, 1));
    }
    m_curveChart->setMoved(moved, tr("moved: not where asked (%n point(s))", nullptr, int(moved.size())));
    m_movedText = moved.isEmpty() ? QString()
                                  : tr("Drawn where measured, not where the sweep asked (the cache holds another "
                                       "share of the keys than asked): %1.")
                                        .arg(lines.join(QStringLiteral("; ")));
}

bool CurvePage::showRecord(const RunRecord& record, QString* error)
{
    if (isRunning()) {
        if (error)
            *error = tr("a sweep is running; open the saved run when it has finished");
        return false;
    }
    if (!showCurve(record, error))
        return false;
    // The run's own inputs, read-only, where the form (the user's current settings) was.
    m_stale->clear();
    showSavedInputs(m_savedInputs, m_form, record);
    m_liveChart->hide();
    m_progress->setFormat(tr("saved run"));
    return true;
}

void CurvePage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_form))
        return;
    m_lastRecord = RunRecord();
    m_fit.reset();
    m_movedText.clear();
    m_warnings->setWarnings({});
    m_statusLabel->reset();
    showGuideCurve();
    updatePrediction();
    m_progress->setFormat(tr("idle"));
    m_progress->setValue(0);
}

bool CurvePage::showCurve(const RunRecord& record, QString* error)
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return false;
    };
    if (record.kind != u"curve")
        return fail(tr("this is a \"%1\" record, not a curve").arg(record.kind));
    const CurveRecord::Summary s = CurveRecord::Summary::of(record);
    const bool completed = s.completed(); // a record older than ok/s: its points hold completed ops/s
    const QList<CurvePoint> points = s.curvePoints();
    const QString unit = completed ? tr("ops/s") : tr("ok/s");
    QList<QPointF> measured;
    for (const CurvePoint& p : points)
        measured << QPointF(p.coverage * 100, p.opsPerSec);
    m_lastRecord = record;
    m_warnings->setWarnings(record.warnings);
    m_curveChart->clear();
    m_curveChart->setTitle(QString());
    m_guideShown = false;
    m_curveChart->setAxisTitles(tr("Entries in the entry cache (% of the entries)"),
        completed ? tr("ops/s (completed: the record predates ok/s)") : unit);
    m_curveChart->setMeasured(measured, tr("measured %1 (%n point(s))", nullptr, int(measured.size())).arg(unit));
    showMovedPoints(s);
    m_curveChart->setTarget(m_predictor->target(), tr("target"));
    if (points.isEmpty())
        return fail(tr("the record has no points"));

    CurveFitOptions o;
    o.entries = quint64(std::max(1.0, s.entries));
    if (const auto a = AccessDistribution::parse(s.access))
        o.access = *a;
    ProbeError e;
    m_fit = points.size() >= 2 ? CurveFitter::fit(points, o, &e) : std::nullopt;
    updatePrediction();
    const double bpe = s.bytesPerEntry;
    if (bpe > 0)
        m_predictor->setBytesPerEntry(bpe, tr("from the record (measured)"));
    if (!m_fit) {
        m_fitLabel->setText(tr("No fit: %1").arg(e.isError() ? e.detail : tr("fewer than two points")));
        return fail(m_fitLabel->text());
    }
    QList<QPointF> line, low, high, reference;
    for (int i = 0; i <= kCurveSteps; ++i) {
        const double c = double(i) / kCurveSteps;
        const auto band = m_fit->bandAt(c);
        line << QPointF(c * 100, m_fit->opsAt(c));
        low << QPointF(c * 100, band.low);
        high << QPointF(c * 100, band.high);
    }
    const double full = 1.0 / m_fit->tHit; // the fit's rate with every entry cached
    for (const ReferencePoint& r : ReferenceCurve::figure3Shape(kCurveSteps))
        reference << QPointF(r.coverage * 100, r.normalised * full);
    m_curveChart->setFit(line, low, high, tr("fit (± %1 σ band)").arg(m_fit->bandSigmas));
    m_curveChart->setReference(reference, tr("guide Fig. 3 shape (normalised)"));
    m_fitLabel->setText(
        tr("<b>Fit</b>: %1; h(c): %2, %3; RMS residual %4 %; %5 entries.%6<br><span style='color:%8'>Reference: "
           "%7</span>")
            .arg(CurveRecord::fitSentence(m_fit->tHit * 1e6, m_fit->tMiss * 1e6, unit).toHtmlEscaped(),
                m_fit->access.toString(), m_fit->method, Units::formatNumber(m_fit->rmsRelativeResidual() * 100, 1),
                Units::formatNumber(double(m_fit->entries), 0),
                completed ? tr(" The record's points predate ok/s: fitted to completed ops/s, failed searches "
                               "included.")
                          : QString(),
                ReferenceCurve::source().toHtmlEscaped(), noteColour())
        + (m_movedText.isEmpty() ? QString()
                                 : QStringLiteral("<br><span style='color:%1'>%2</span>")
                                       .arg(NoteStyle::warnColourNow().name(), m_movedText.toHtmlEscaped())));
    return true;
}

bool CurvePage::openRecordFile(const QString& path, QString* error)
{
    QFile f(path);
    QString why;
    if (!f.open(QIODevice::ReadOnly))
        why = f.errorString();
    else if (f.size() > kMaxRecordBytes)
        why = tr("the file is larger than a curve record can be");
    std::optional<RunRecord> rec;
    if (why.isEmpty())
        rec = RunRecord::fromJsonBytes(f.readAll(), &why);
    const bool ok = rec && showRecord(*rec, &why);
    if (ok) {
        m_statusLabel->showOutcome(*rec, tr("Opened %1.").arg(path));
    } else {
        m_statusLabel->reset();
        emit statusMessage(tr("Cannot show %1: %2").arg(path, why));
    }
    if (error)
        *error = why;
    return ok;
}

void CurvePage::chooseRecord()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Open curve record"), QString(), tr("Run records (*.json);;All files (*)"));
    if (!path.isEmpty())
        openRecordFile(path);
}

void CurvePage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    m_openButton->setEnabled(!running);
    runStateChanged();
}

void CurvePage::setTrafficAccess(const AccessDistribution& access, const QString& origin)
{
    m_traffic = access;
    m_trafficLabel->setText(tr("<b>Your traffic's skew</b>: %1 (%2). The predictions map coverage to hit ratio with "
                               "it; t_hit and t_miss stay the sweep's.")
                                .arg(access.toString(), origin.toHtmlEscaped()));
    m_trafficLabel->show();
    updatePrediction();
}

QString CurvePage::trafficText() const
{
    return m_traffic ? m_trafficLabel->text() : QString();
}

std::optional<CurveFit> CurvePage::predictionFit() const
{
    std::optional<CurveFit> fit = m_fit;
    if (fit && m_traffic) {
        fit->access = *m_traffic;
        fit->fittedExponent.reset();
    }
    return fit;
}

void CurvePage::updatePrediction()
{
    m_predictor->setFit(predictionFit());
}
