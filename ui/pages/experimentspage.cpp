#include "ui/pages/experimentspage.h"

#include "core/common/units.h"
#include "core/experiments/experimentsummary.h"
#include "core/experiments/guided.h"
#include "core/experiments/pointaxis.h"
#include "core/ldap/loadresult.h"
#include "ui/charts/livechartview.h"
#include "ui/pages/experimentform.h"
#include "ui/report/loadfigures.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/savedruninputs.h"
#include "ui/widgets/scrolled.h"
#include "ui/widgets/stalenote.h"
#include "ui/widgets/warningslabel.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

ExperimentsPage::ExperimentsPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new ExperimentForm(this))
    , m_cancelButton(new QPushButton(tr("Cancel"), this))
    , m_progress(new QProgressBar(this))
    , m_statusLabel(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_reference(new QLabel(this))
    , m_liveChart(new LiveChartView(this))
    , m_pointsChart(new LiveChartView(this))
    , m_table(new QTableWidget(0, 5, this))
    , m_run(new PageRun(runner, m_progress, this, [this](const QString& t) { emit statusMessage(t); }))
{
    setObjectName(QStringLiteral("experimentsPage"));
    m_form->setObjectName(QStringLiteral("experimentForm"));
    auto* box = new QGroupBox(tr("The guide's experiments (HP-UX DS 8.1), over the LDAP page's connection"), this);
    auto* boxLayout = new QVBoxLayout(box);
    const QList<std::pair<QString, QString>> buttons
        = { { QStringLiteral("threadsButton"), tr("Thread sweep (Table 2)") },
              { QStringLiteral("tlsButton"), tr("TLS cost (Table 7)") },
              { QStringLiteral("dbsizeButton"), tr("Database size (Table 5)") } };
    auto* row = new QHBoxLayout;
    for (int i = 0; i < buttons.size(); ++i) {
        auto* b = new QPushButton(buttons[i].second, this);
        b->setObjectName(buttons[i].first);
        m_runButtons << b;
        row->addWidget(b);
        connect(b, &QPushButton::clicked, this, [this, i] { run(Kind(i)); });
    }
    auto* curve = new QPushButton(tr("Cache coverage (Figure 3)…"), this);
    curve->setObjectName(QStringLiteral("curveButton"));
    curve->setToolTip(tr("The entry-cache coverage curve runs on the Curve page"));
    connect(curve, &QPushButton::clicked, this, &ExperimentsPage::curveRequested);
    row->addWidget(curve);
    boxLayout->addLayout(row);
    // Cancel and the progress under the run buttons, above the form: at the top of the scrolling box, on screen.
    auto* controls = new QHBoxLayout;
    controls->addWidget(m_progress, 1);
    controls->addWidget(m_cancelButton);
    boxLayout->addLayout(controls);
    boxLayout->addWidget(m_form);
    m_savedInputs = new SavedRunInputs(this);
    m_savedInputs->hide();
    boxLayout->addWidget(m_savedInputs);
    connect(m_savedInputs, &SavedRunInputs::closeRequested, this, &ExperimentsPage::closeSaved);
    m_stale = new StaleNote(m_form, this); // in the scrolled form: it never raises the page's height
    boxLayout->addWidget(m_stale);
    m_cancelButton->setObjectName(QStringLiteral("cancelButton"));
    addRunButtons({ m_runButtons.cbegin(), m_runButtons.cend() }, m_cancelButton);
    m_progress->setRange(0, 1000);
    m_progress->setValue(0);
    m_progress->setTextVisible(true);
    m_progress->setFormat(tr("idle"));

    m_liveChart->setObjectName(QStringLiteral("liveChart"));
    m_liveChart->setAxisTitles(tr("Time (s)"), tr("ok/s"));
    m_liveChart->setPlaceholderText(tr("each point's ok/s (successful operations per second), live"));
    m_pointsChart->setObjectName(QStringLiteral("pointsChart"));
    m_pointsChart->setAxisTitles(tr("Client threads"), tr("ok/s"));
    m_pointsChart->setPlaceholderText(tr("ok/s of each point, when the experiment ends"));
    m_table->setObjectName(QStringLiteral("pointsTable"));
    m_table->setHorizontalHeaderLabels({ tr("Client threads"), tr("ok/s"), tr("p50 ms"), tr("p99 ms"), tr("Status") });
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setMaximumHeight(170);
    m_reference->setObjectName(QStringLiteral("referenceLabel"));
    m_reference->setWordWrap(true);
    NoteStyle::apply(m_reference);

    // The form above and the results below, each scrolling when the window is low, a splitter between.
    auto* results = new QWidget(this);
    auto* charts = new QHBoxLayout;
    charts->addWidget(m_liveChart, 1);
    charts->addWidget(m_pointsChart, 1);
    auto* resultsLayout = new QVBoxLayout(results);
    resultsLayout->setContentsMargins(0, 0, 0, 0);
    resultsLayout->addWidget(m_statusLabel);
    resultsLayout->addWidget(m_warnings);
    resultsLayout->addLayout(charts, 1);
    resultsLayout->addWidget(m_table);
    resultsLayout->addWidget(m_reference);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("experimentsSplitter"));
    split->setChildrenCollapsible(false);
    split->addWidget(Scrolled::vertically(box, split));
    split->addWidget(Scrolled::vertically(results, split)); // never squeezed below its charts' legends
    split->setStretchFactor(0, 0);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);

    connect(m_runner, &ProbeRunner::samplesArrived, this, &ExperimentsPage::onSamples);
    connect(m_runner, &ProbeRunner::finished, this, &ExperimentsPage::onFinished);
}

ExperimentsPage::~ExperimentsPage() = default;

std::optional<LdapLoadSpec> ExperimentsPage::ldapSpec()
{
    QString why = tr("no LDAP connection (the LDAP page gives it)");
    std::optional<LdapLoadSpec> spec = m_ldapProvider ? m_ldapProvider(&why) : std::nullopt;
    if (!spec) {
        m_form->showError(ProbeError::invalid(QString(), tr("The LDAP page's connection or search: %1").arg(why)));
        emit statusMessage(m_form->errorText());
    }
    return spec;
}

bool ExperimentsPage::run(Kind kind)
{
    if (isRunning())
        return false;
    if (isShowingSaved()) {
        emit statusMessage(tr("A saved run is shown: close it to run your own experiment"));
        return false;
    }
    m_form->clearError();
    m_kind = kind;
    std::function<RunRecord(RunContext&)> job;
    ProbeError e;
    QString what;
    QString kindName;
    QJsonObject specJson;
    if (kind == Kind::DatabaseSize) {
        DatabaseSizeSpec s;
        e = m_form->readDatabaseSize(&s);
        if (!e.isError()) {
            if (auto load = ldapSpec())
                s.load = *load; // target and base are each demo directory's; the rest (threads, ...) is the page's
            else
                return false;
            m_scratch = std::make_unique<QTemporaryDir>();
            s.parentDir = m_scratch->path();
            job = Experiments::makeDatabaseSizeJob(s);
            kindName = QStringLiteral("database-size");
            specJson = { { QStringLiteral("load"), s.load.toJson() } };
            what = tr("database size over %n demo director(y/ies)", nullptr, int(s.entries.size()));
        }
    } else {
        const auto load = ldapSpec();
        if (!load)
            return false;
        if (kind == Kind::Threads) {
            ThreadSweepSpec s;
            s.load = *load;
            e = m_form->readThreadSweep(&s);
            job = Experiments::makeThreadSweepJob(s);
            kindName = QStringLiteral("thread-sweep");
            specJson = { { QStringLiteral("load"), s.load.toJson() } };
            what = s.serverThreads.isEmpty() ? tr("thread sweep") : tr("server-thread sweep");
        } else {
            TlsCostSpec s;
            s.plain = *load;
            if (s.plain.dnPattern.isEmpty())
                s.plain.dnPattern = load->target.bindDn; // bind as the connection's own DN each time
            e = m_form->readTlsCost(&s);
            if (!e.isError() && s.plain.dnPattern.isEmpty())
                e = ProbeError::invalid(QString(), tr("TLS cost binds: give a bind DN on the LDAP page"));
            job = Experiments::makeTlsCostJob(s);
            kindName = QStringLiteral("tls-cost");
            specJson = { { QStringLiteral("plain"), s.plain.toJson() }, { QStringLiteral("tls"), s.tls.toJson() } };
            what = tr("TLS cost");
        }
    }
    if (e.isError()) {
        m_form->showError(e);
        emit statusMessage(m_form->errorText());
        return false;
    }
    m_liveChart->clear();
    m_pointsChart->clear();
    m_table->setRowCount(0);
    m_statusLabel->reset();
    m_warnings->setWarnings({});
    m_reference->clear();
    m_stale->resultMade(); // what follows belongs to the inputs on the form now
    m_run->started(m_runner->start(job), kindName, specJson);
    setRunning(true);
    emit statusMessage(tr("Running the %1").arg(what));
    return true;
}

void ExperimentsPage::start()
{
    run(m_kind);
}

void ExperimentsPage::cancel()
{
    if (m_run->cancel(tr("cancelling… (settings are put back)")) == PageRun::Cancelled::Run)
        cancelRequested();
}

void ExperimentsPage::setRunning(bool running)
{
    m_form->setInputsEnabled(!running);
    runStateChanged();
}

void ExperimentsPage::onSamples(int runId, const SampleBatch& samples)
{
    if (!m_run->owns(runId))
        return;
    QHash<QString, QList<QPointF>> fresh;
    QStringList order;
    for (const Sample& s : samples) {
        const LoadInterval i = LoadInterval::fromJson(s.values);
        if (i.seconds <= 0)
            continue; // not an interval of a load
        if (!fresh.contains(s.series))
            order << s.series;
        fresh[s.series] << QPointF(s.t, i.all.okPerS);
    }
    for (const QString& series : std::as_const(order))
        m_liveChart->appendPoints(series.isEmpty() ? tr("ok/s") : series, fresh.value(series));
}

void ExperimentsPage::onFinished(int runId, const RunRecord& record)
{
    if (!m_run->owns(runId))
        return;
    m_run->finished(record);
    m_lastRecord = record;
    m_scratch.reset();
    showPoints(record);
    emit statusMessage(m_statusLabel->showOutcome(record, outcomeText(record, tr("Done"))));
    m_warnings->setWarnings(record.warnings);
    setRunning(false);
    emit runFinished(record);
}

void ExperimentsPage::showPoints(const RunRecord& record)
{
    const PointAxis::Axis axis = PointAxis::of(record);
    const ExperimentSummary summary = ExperimentSummary::of(record, axis.key);
    const QList<ExperimentPoint>& points = summary.points;
    const bool completed = summary.completed(); // a record older than ok/s: its points hold completed ops/s
    const QString unit = completed ? tr("ops/s (completed)") : tr("ok/s");
    const QString latency = LoadFigures::coalescedReads(record.spec) ? tr(" ms (coalesced reads)") : tr(" ms");
    m_pointsChart->clear();
    m_pointsChart->setAxisTitles(axis.title, unit);
    m_pointsChart->setWholeNumbersOnX(true); // threads, entries, plain/TLS: counted, never 2.5
    m_table->setHorizontalHeaderLabels({ axis.title, unit, tr("p50") + latency, tr("p99") + latency, tr("Status") });
    m_table->setRowCount(int(points.size()));
    QList<QPointF> line;
    for (int i = 0; i < points.size(); ++i) {
        const ExperimentPoint& p = points.at(i);
        const double x = p.x.value_or(0);
        const double rate = p.ratePerS();
        const LatencyFigures& lat = p.latencyMs;
        QString label = Units::formatNumber(x, 0);
        if (record.kind == u"tls-cost")
            label = x == 0 ? tr("plain") : tr("TLS");
        else if (p.serverThreadsRunning)
            label += tr(" (ran %1)").arg(*p.serverThreadsRunning);
        const QStringList cells = { label, Units::formatNumber(rate), Units::formatNumber(lat.p50.value_or(0), 3),
            Units::formatNumber(lat.p99.value_or(0), 3), p.status };
        for (int c = 0; c < cells.size(); ++c)
            m_table->setItem(i, c, new QTableWidgetItem(cells[c]));
        line << QPointF(x, rate);
    }
    if (!line.isEmpty())
        m_pointsChart->appendPoints(unit, line);
    m_reference->setText(referenceText());
}

QString ExperimentsPage::referenceText() const
{
    const ExperimentSummary s = ExperimentSummary::of(m_lastRecord, PointAxis::of(m_lastRecord).key);
    QString text = !s.hasReference ? QString() : tr("Reference: %1 — %2").arg(s.referenceSource, s.referenceNote);
    if (m_lastRecord.kind == u"tls-cost" && m_lastRecord.status == u"ok" && !s.answer.isEmpty())
        text.prepend(s.answer + QStringLiteral(". "));
    return text;
}

// "Done: 5 points; best 29,270.5 ok/s at 4 client threads": the answer as the CLI and the report say it.
QString ExperimentsPage::outcomeText(const RunRecord& record, const QString& what)
{
    const ExperimentSummary s = ExperimentSummary::of(record, PointAxis::of(record).key);
    const QString points = tr("%1: %n point(s)", nullptr, int(s.points.size())).arg(what);
    return s.answer.isEmpty() ? points : points + QStringLiteral("; ") + s.answer;
}

bool ExperimentsPage::showsKind(const QString& kind) const
{
    return kind == u"thread-sweep" || kind == u"tls-cost" || kind == u"database-size";
}

bool ExperimentsPage::showRecord(const RunRecord& record, QString* error)
{
    if (!showsKind(record.kind) || isRunning()) {
        if (error)
            *error = isRunning() ? tr("an experiment is running; open the saved run when it has finished")
                                 : tr("the Experiments page cannot show a saved \"%1\" run").arg(record.kind);
        return false;
    }
    m_liveChart->clear();
    showPoints(record);
    m_warnings->setWarnings(record.warnings);
    m_statusLabel->showOutcome(record, outcomeText(record, tr("Saved run")));
    m_progress->setValue(0);
    m_progress->setFormat(tr("saved run"));
    // The run's own inputs, read-only, where the form (the user's current settings) was.
    m_stale->clear();
    showSavedInputs(m_savedInputs, m_form, record);
    return true;
}

void ExperimentsPage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_form))
        return;
    m_liveChart->clear();
    m_pointsChart->clear();
    m_warnings->setWarnings({});
    m_statusLabel->reset();
    m_progress->setFormat(tr("idle"));
}
