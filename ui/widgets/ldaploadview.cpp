#include "ui/widgets/ldaploadview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "ui/charts/livechartview.h"
#include "ui/models/intervalsamples.h"
#include "ui/models/resultcodemodel.h"
#include "ui/widgets/runstatuslabel.h"
#include "ui/widgets/warningslabel.h"

#include <QGridLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QTableView>
#include <QVBoxLayout>

namespace {

QString clientOps()
{
    return LdapLoadView::tr("client ops/s");
}

// The server values a user looks at, in the order shown: key, label, on the gauge chart (else ops chart).
struct ServerKey
{
    const char* key;
    const char* label;
    bool gauge;
};
constexpr ServerKey kServerKeys[]
    = { { "all_completed_per_s", QT_TRANSLATE_NOOP("LdapLoadView", "operations/s"), false },
          { "search_completed_per_s", QT_TRANSLATE_NOOP("LdapLoadView", "searches/s"), false },
          { "threads_active", QT_TRANSLATE_NOOP("LdapLoadView", "threads active"), true },
          { "read_waiters", QT_TRANSLATE_NOOP("LdapLoadView", "read waiters"), true },
          { "connections_current", QT_TRANSLATE_NOOP("LdapLoadView", "connections"), true } };

QString seriesName(const ServerKey& k)
{
    const QString label = LdapLoadView::tr(k.label);
    return k.gauge ? label : LdapLoadView::tr("server: %1").arg(label);
}

QString ms(const QJsonObject& lat, const char* key)
{
    const QJsonValue v = lat.value(QLatin1String(key));
    return v.isDouble() ? Units::formatNumber(v.toDouble(), v.toDouble() < 10 ? 2 : 1) + QStringLiteral(" ms")
                        : QStringLiteral("–");
}

} // namespace

LdapLoadView::LdapLoadView(QWidget* parent)
    : QWidget(parent)
    , m_status(new RunStatusLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_opsChart(new LiveChartView(this))
    , m_latencyChart(new LiveChartView(this))
    , m_serverChart(new LiveChartView(this))
    , m_countersLabel(new QLabel(this))
    , m_codes(new ResultCodeModel(this))
    , m_codeTable(new QTableView(this))
{
    m_status->setObjectName(QStringLiteral("ldapStatusLabel"));
    m_warnings->setObjectName(QStringLiteral("ldapWarningsLabel"));
    m_opsChart->setObjectName(QStringLiteral("opsChart"));
    m_opsChart->setTitle(tr("Operations per second"));
    m_opsChart->setAxisTitles(tr("Time (s)"), tr("ops/s"));
    m_latencyChart->setObjectName(QStringLiteral("latencyChart"));
    m_latencyChart->setTitle(tr("Latency"));
    m_latencyChart->setAxisTitles(tr("Time (s)"), tr("ms"));
    m_serverChart->setObjectName(QStringLiteral("serverChart"));
    m_serverChart->setTitle(tr("Server threads and connections (cn=monitor)"));
    m_serverChart->setAxisTitles(tr("Time (s)"), tr("count"));
    for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
        c->setMinimumHeight(190);
    // Lines that often lie on one another: the server's count of the client's own operations, and the
    // connections (each idle one is a read waiter).
    m_opsChart->setDashed(seriesName(kServerKeys[1]));
    m_serverChart->setDashed(seriesName(kServerKeys[4]));
    m_countersLabel->setObjectName(QStringLiteral("serverCountersLabel"));
    m_countersLabel->setWordWrap(true);
    m_countersLabel->setTextFormat(Qt::RichText);
    m_countersLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_codeTable->setObjectName(QStringLiteral("resultCodeTable"));
    m_codeTable->setModel(m_codes);
    m_codeTable->verticalHeader()->hide();
    m_codeTable->setAlternatingRowColors(true);
    m_codeTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_codeTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_codeTable->horizontalHeader()->setSectionResizeMode(ResultCodeModel::Name, QHeaderView::Stretch);

    auto* side = new QVBoxLayout;
    side->addWidget(new QLabel(tr("<b>Result codes</b>"), this));
    side->addWidget(m_codeTable, 1);
    side->addWidget(new QLabel(tr("<b>Server, last interval</b>"), this));
    side->addWidget(m_countersLabel);
    auto* grid = new QGridLayout;
    grid->addWidget(m_opsChart, 0, 0);
    grid->addWidget(m_latencyChart, 0, 1);
    grid->addWidget(m_serverChart, 1, 0);
    grid->addLayout(side, 1, 1);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_status);
    layout->addWidget(m_warnings);
    layout->addLayout(grid, 1);
    clear();
}

void LdapLoadView::clear()
{
    for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
        c->clear();
    m_opsChart->setPlaceholderText(tr("ops/s appear here while a load runs"));
    m_latencyChart->setPlaceholderText(tr("p50, p95 and p99 appear here while a load runs"));
    m_serverChart->setPlaceholderText(tr("the server's own threads and connections appear here"));
    m_codes->clear();
    m_status->reset();
    m_warnings->setWarnings({});
    m_countersLabel->setText(tr("–"));
    m_lastT = 0;
    m_serverSeen = false;
}

void LdapLoadView::showRunning(const QString& text)
{
    m_status->showInfo(text);
}

void LdapLoadView::addSample(const Sample& s, QHash<QString, QList<QPointF>>& ops,
    QHash<QString, QList<QPointF>>& latency, QHash<QString, QList<QPointF>>& gauges)
{
    const QJsonObject& v = s.values;
    m_lastT = std::max(m_lastT, s.t);
    if (v.value(QStringLiteral("ops_per_s")).isDouble())
        ops[clientOps()] << QPointF(s.t, v.value(QStringLiteral("ops_per_s")).toDouble());
    const QJsonObject lat = v.value(QStringLiteral("latency_ms")).toObject();
    for (const char* p : { "p50", "p95", "p99" })
        if (lat.value(QLatin1String(p)).isDouble())
            latency[QLatin1String(p)] << QPointF(s.t, lat.value(QLatin1String(p)).toDouble());
    const QJsonObject server = v.value(QStringLiteral("server")).toObject();
    if (!server.isEmpty())
        m_serverSeen = true;
    for (const ServerKey& k : kServerKeys) {
        const QJsonValue x = server.value(QLatin1String(k.key));
        if (!x.isDouble())
            continue; // not exposed: no point, never a 0
        (k.gauge ? gauges : ops)[seriesName(k)] << QPointF(s.t, x.toDouble());
    }
}

void LdapLoadView::addSamples(const SampleBatch& samples)
{
    if (samples.isEmpty())
        return;
    QHash<QString, QList<QPointF>> ops, latency, gauges;
    for (const Sample& s : samples) {
        addSample(s, ops, latency, gauges);
        m_codes->addCounts(s.values.value(QStringLiteral("result_codes")).toObject());
    }
    // Fixed order so the colours mean the same thing on every run.
    m_opsChart->appendPoints(clientOps(), ops.value(clientOps()));
    for (const char* p : { "p50", "p95", "p99" })
        m_latencyChart->appendPoints(QLatin1String(p), latency.value(QLatin1String(p)));
    for (const ServerKey& k : kServerKeys)
        (k.gauge ? m_serverChart : m_opsChart)
            ->appendPoints(seriesName(k), (k.gauge ? gauges : ops).value(seriesName(k)));
    for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
        c->setMinimumXRange(0, m_lastT);
    if (!m_serverSeen)
        m_serverChart->setPlaceholderText(tr("Not exposed: the server's counters (cn=monitor) cannot be read "
                                             "with this bind, or this server has none DirBench can read."));
    const QJsonObject& last = samples.constLast().values;
    showCounters(last.value(QStringLiteral("server")));
    m_status->showInfo(tr("Last interval: %1 ops/s · p99 %2 · %3 errors")
                           .arg(Units::formatNumber(last.value(QStringLiteral("ops_per_s")).toDouble()),
                               ms(last.value(QStringLiteral("latency_ms")).toObject(), "p99"),
                               Units::formatNumber(last.value(QStringLiteral("errors")).toDouble(), 0)));
}

void LdapLoadView::showCounters(const QJsonValue& server)
{
    if (!server.isObject()) {
        m_countersLabel->setText(tr("<span style=\"color:#8a6d1a\">not exposed</span> (cn=monitor not readable)"));
        return;
    }
    const QJsonObject o = server.toObject();
    QStringList parts;
    for (const ServerKey& k : kServerKeys) {
        const QJsonValue x = o.value(QLatin1String(k.key));
        parts << tr(k.label) + QStringLiteral(": ")
                + (x.isDouble() ? QStringLiteral("<b>") + Units::formatNumber(x.toDouble(), k.gauge ? 0 : 1)
                            + QStringLiteral("</b>")
                                : tr("<span style=\"color:#8a6d1a\">not exposed</span>"));
    }
    m_countersLabel->setText(parts.join(QStringLiteral("<br>")));
}

QString LdapLoadView::summaryLine(const RunRecord& record)
{
    const QJsonObject& s = record.summary;
    const QJsonValue cpu = s.value(QStringLiteral("client_cpu_us_per_op"));
    return tr("%1 ops/s · p99 %2 · client CPU %3 · %4 operations, %5 errors")
        .arg(Units::formatNumber(s.value(QStringLiteral("ops_per_s")).toDouble()),
            ms(s.value(QStringLiteral("latency_ms")).toObject(), "p99"),
            cpu.isDouble() ? Units::formatNumber(cpu.toDouble()) + QStringLiteral(" µs/op") : QStringLiteral("–"),
            Units::formatNumber(s.value(QStringLiteral("ops")).toDouble(), 0),
            Units::formatNumber(s.value(QStringLiteral("errors")).toDouble(), 0));
}

QString LdapLoadView::finish(const RunRecord& record)
{
    if (!record.intervals.isEmpty()) {
        for (LiveChartView* c : { m_opsChart, m_latencyChart, m_serverChart })
            c->clear();
        m_lastT = 0;
        m_serverSeen = false;
        m_codes->clear();
        addSamples(samplesFromIntervals(record.intervals));
    }
    if (record.summary.contains(QStringLiteral("result_codes")))
        m_codes->setCounts(record.summary.value(QStringLiteral("result_codes")).toObject());
    m_warnings->setWarnings(record.warnings);
    const bool measured = record.summary.contains(QStringLiteral("ops_per_s"));
    return m_status->showOutcome(record, measured ? tr("Done: %1").arg(summaryLine(record)) : tr("Done."));
}

QString LdapLoadView::summaryText() const
{
    return m_status->text();
}

QString LdapLoadView::countersText() const
{
    return m_countersLabel->text();
}
