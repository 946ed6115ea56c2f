#include "core/workload/analysis.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>
#include <cmath>

struct WorkloadAnalysis::TemplateStats
{
    uint64_t count = 0, withResult = 0;
    std::map<int, uint64_t> codes;
    uint64_t entriesSum = 0, entriesMax = 0, entriesKnown = 0, zeroEntries = 0;
    uint64_t unindexed = 0, filtersCut = 0, unparsed = 0;
    LatencyHistogram etime, wtime, optime; // ns
    KeySummary keys;
    std::string key;
};

namespace {

constexpr int kKinds = 10;

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

QJsonObject msPercentiles(const LatencyHistogram& h)
{
    return { { QStringLiteral("p50"), round3(double(h.percentile(0.50)) / 1e6) },
        { QStringLiteral("p90"), round3(double(h.percentile(0.90)) / 1e6) },
        { QStringLiteral("p99"), round3(double(h.percentile(0.99)) / 1e6) },
        { QStringLiteral("max"), round3(double(h.max()) / 1e6) }, { QStringLiteral("mean"), round3(h.mean() / 1e6) },
        { QStringLiteral("count"), double(h.count()) } };
}

void recordMs(LatencyHistogram& h, double ms)
{
    if (ms >= 0)
        h.record(uint64_t(ms * 1e6));
}

} // namespace

WorkloadAnalysis::WorkloadAnalysis(const TemplateTable* table)
    : m_table(table)
{ }

WorkloadAnalysis::~WorkloadAnalysis() = default;

QString WorkloadAnalysis::isoTime(uint64_t ns, bool subSecond)
{
    if (!ns)
        return {};
    const QDateTime t = QDateTime::fromSecsSinceEpoch(qint64(ns / 1000000000ull), Qt::UTC);
    QString s = t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    if (subSecond)
        s += QStringLiteral(".%1").arg(ns % 1000000000ull, 9, 10, QLatin1Char('0'));
    return s + QLatin1Char('Z');
}

WorkloadAnalysis::TemplateStats& WorkloadAnalysis::statsOf(int id)
{
    if (id >= 0 && id < MaxTemplateStats) {
        if (size_t(id) >= m_templates.size())
            m_templates.resize(size_t(id) + 1);
        if (!m_templates[size_t(id)])
            m_templates[size_t(id)] = std::make_unique<TemplateStats>();
        return *m_templates[size_t(id)];
    }
    if (!m_other)
        m_other = std::make_unique<TemplateStats>();
    return *m_other;
}

void WorkloadAnalysis::opened(uint64_t conn, uint64_t ns, const std::string&)
{
    const auto it = m_conns.find(conn);
    ++m_connects;
    if (it != m_conns.end() && !it->second.openSeen && it->second.ops <= 2) {
        // Operations of this connection came first: slapd's threads can log a connection's first operation before
        // its ACCEPT line. The same connection, counted once.
        it->second.openNs = ns;
        it->second.openSeen = true;
        return;
    }
    if (it != m_conns.end()) // reused number: the old one ended unseen
        endConnection(it->second, 0);
    m_conns[conn] = Conn { ns, 0, 0, true };
    ++m_connections;
}

void WorkloadAnalysis::closed(uint64_t conn, uint64_t ns)
{
    const auto it = m_conns.find(conn);
    if (it == m_conns.end())
        return;
    ++m_closes;
    endConnection(it->second, ns);
    m_conns.erase(it);
}

void WorkloadAnalysis::endConnection(const Conn& c, uint64_t closeNs)
{
    m_bindsPerConn.record(c.binds);
    m_opsPerConn.record(c.ops);
    if (c.openNs && closeNs >= c.openNs)
        m_lifetimeNs.record(closeNs - c.openNs);
}

void WorkloadAnalysis::operation(const ShapedOp& s)
{
    const JoinedOp& op = s.op;
    ++m_ops;
    ++m_byKind[size_t(op.kind)];
    auto cit = m_conns.find(op.conn);
    if (cit == m_conns.end()) { // open before the log began
        cit = m_conns.emplace(op.conn, Conn {}).first;
        ++m_connections;
    }
    ++cit->second.ops;
    if (op.kind == WorkloadOpKind::Bind)
        ++cit->second.binds;

    const double durNs = op.etimeMs >= 0 ? op.etimeMs * 1e6
                                         : (op.endNs > op.startNs && op.startNs ? double(op.endNs - op.startNs) : 0);
    const uint64_t t = op.startNs ? op.startNs : op.endNs;
    if (t)
        addToBuckets(t, durNs, op.kind);

    if (s.templateId < 0)
        return; // unbind, abandon, extended, results without their request: counted in the mix only
    TemplateStats& ts = statsOf(s.templateId);
    ++ts.count;
    if (op.haveResult) {
        ++ts.withResult;
        ++ts.codes[op.err];
        if (op.nentries >= 0) {
            ts.entriesSum += uint64_t(op.nentries);
            ts.entriesMax = std::max(ts.entriesMax, uint64_t(op.nentries));
            ++ts.entriesKnown;
            ts.zeroEntries += op.nentries == 0;
        }
        ts.unindexed += op.unindexed;
        recordMs(ts.etime, op.etimeMs);
        recordMs(ts.wtime, op.wtimeMs >= 0 ? op.wtimeMs : op.qtimeMs);
        recordMs(ts.optime, op.optimeMs);
    }
    ts.filtersCut += op.filterCut;
    ts.unparsed += !s.shape.ok;
    if (s.templateId >= 0 && s.templateId < MaxTemplateStats && !s.shape.values.empty()) {
        ts.key.clear();
        for (const std::string& v : s.shape.values) {
            ts.key += v;
            ts.key += '\x1f';
        }
        ts.keys.add(KeySummary::hashKey(ts.key));
    }
}

void WorkloadAnalysis::addToBuckets(uint64_t startNs, double durationNs, WorkloadOpKind kind)
{
    const uint64_t sec = startNs / 1000000000ull;
    if (!m_haveBase) {
        m_baseS = sec;
        m_haveBase = true;
    }
    const uint64_t rel = sec > m_baseS ? sec - m_baseS : 0;
    size_t idx = size_t(rel / m_bucketWidthS);
    while (idx >= MaxBuckets) {
        halveBuckets();
        idx = size_t(rel / m_bucketWidthS);
    }
    if (idx >= m_buckets.size())
        m_buckets.resize(idx + 1);
    ++m_buckets[idx].ops[size_t(kind)];
    // The time in flight, spread over the buckets it covers.
    const double widthNs = double(m_bucketWidthS) * 1e9;
    double offset = std::fmod(double(startNs - std::min<uint64_t>(startNs, m_baseS * 1000000000ull)), widthNs);
    double left = durationNs;
    while (left > 0) {
        if (idx >= m_buckets.size()) {
            if (idx >= MaxBuckets)
                break;
            m_buckets.resize(idx + 1);
        }
        const double here = std::min(left, widthNs - offset);
        m_buckets[idx].busyNs += here;
        left -= here;
        offset = 0;
        ++idx;
    }
}

void WorkloadAnalysis::halveBuckets()
{
    std::vector<Bucket> merged((m_buckets.size() + 1) / 2);
    for (size_t i = 0; i < m_buckets.size(); ++i) {
        Bucket& m = merged[i / 2];
        for (int k = 0; k < kKinds; ++k)
            m.ops[size_t(k)] += m_buckets[i].ops[size_t(k)];
        m.busyNs += m_buckets[i].busyNs;
    }
    m_buckets = std::move(merged);
    m_bucketWidthS *= 2;
}

QJsonObject WorkloadAnalysis::templateJson(const TemplateStats& t, const QString& text, const QString& kind) const
{
    QJsonObject o { { QStringLiteral("template"), text }, { QStringLiteral("kind"), kind },
        { QStringLiteral("count"), double(t.count) },
        { QStringLiteral("share"), m_ops ? round3(double(t.count) / double(m_ops)) : 0.0 } };
    QJsonObject codes;
    for (const auto& [code, n] : t.codes)
        codes.insert(QString::number(code), double(n));
    o.insert(QStringLiteral("result_codes"), codes);
    if (t.entriesKnown)
        o.insert(QStringLiteral("entries"),
            QJsonObject { { QStringLiteral("mean"), round3(double(t.entriesSum) / double(t.entriesKnown)) },
                { QStringLiteral("max"), double(t.entriesMax) },
                { QStringLiteral("zero_share"), round3(double(t.zeroEntries) / double(t.entriesKnown)) } });
    if (t.withResult)
        o.insert(QStringLiteral("unindexed_share"), round3(double(t.unindexed) / double(t.withResult)));
    if (t.etime.count())
        o.insert(QStringLiteral("etime_ms"), msPercentiles(t.etime));
    if (t.wtime.count())
        o.insert(QStringLiteral("wtime_ms"), msPercentiles(t.wtime));
    if (t.optime.count())
        o.insert(QStringLiteral("optime_ms"), msPercentiles(t.optime));
    if (t.filtersCut)
        o.insert(QStringLiteral("filters_cut"), double(t.filtersCut));
    if (t.unparsed)
        o.insert(QStringLiteral("unparsed"), double(t.unparsed));
    if (t.keys.total())
        o.insert(QStringLiteral("skew"), t.keys.fit().toJson());
    o.insert(QStringLiteral("without_result"), double(t.count - t.withResult));
    return o;
}

QJsonArray WorkloadAnalysis::perSecondJson() const
{
    QJsonArray a;
    for (size_t i = 0; i < m_buckets.size(); ++i) {
        const Bucket& b = m_buckets[i];
        uint64_t n = 0;
        QJsonObject o { { QStringLiteral("t"), double(i * m_bucketWidthS) } };
        for (int k = 0; k < kKinds; ++k)
            if (b.ops[size_t(k)]) {
                o.insert(workloadOpName(WorkloadOpKind(k)), double(b.ops[size_t(k)]));
                n += b.ops[size_t(k)];
            }
        o.insert(QStringLiteral("ops"), double(n));
        o.insert(QStringLiteral("in_flight"), round3(b.busyNs / (double(m_bucketWidthS) * 1e9)));
        a.append(o);
    }
    return a;
}

QJsonObject WorkloadAnalysis::churnJson(double durationS) const
{
    // Connections still open at the end count with what they did so far.
    LatencyHistogram binds = m_bindsPerConn, ops = m_opsPerConn;
    for (const auto& [id, c] : m_conns) {
        binds.record(c.binds);
        ops.record(c.ops);
    }
    auto counts = [](const LatencyHistogram& h) {
        return QJsonObject { { QStringLiteral("mean"), round3(h.mean()) },
            { QStringLiteral("p50"), double(h.percentile(0.5)) }, { QStringLiteral("p99"), double(h.percentile(0.99)) },
            { QStringLiteral("max"), double(h.max()) } };
    };
    QJsonObject o { { QStringLiteral("connects"), double(m_connects) }, { QStringLiteral("closes"), double(m_closes) },
        { QStringLiteral("open_at_start"), double(m_connections - m_connects) },
        { QStringLiteral("open_at_end"), double(m_conns.size()) },
        { QStringLiteral("connects_per_s"), durationS > 0 ? round3(double(m_connects) / durationS) : 0.0 },
        { QStringLiteral("binds_per_connection"), counts(binds) },
        { QStringLiteral("ops_per_connection"), counts(ops) } };
    if (m_lifetimeNs.count())
        o.insert(QStringLiteral("lifetime_s"),
            QJsonObject { { QStringLiteral("p50"), round3(double(m_lifetimeNs.percentile(0.5)) / 1e9) },
                { QStringLiteral("p99"), round3(double(m_lifetimeNs.percentile(0.99)) / 1e9) },
                { QStringLiteral("max"), round3(double(m_lifetimeNs.max()) / 1e9) },
                { QStringLiteral("count"), double(m_lifetimeNs.count()) } });
    return o;
}

QJsonObject WorkloadAnalysis::toJson(
    const Source& source, const ParseStats& stats, const QStringList& gaps, const WorkloadFilter& filter) const
{
    const double duration = source.lastNs > source.firstNs ? double(source.lastNs - source.firstNs) / 1e9 : 0;
    QJsonObject ops;
    for (int k = 0; k < kKinds; ++k)
        if (m_byKind[size_t(k)])
            ops.insert(workloadOpName(WorkloadOpKind(k)), double(m_byKind[size_t(k)]));
    // Templates by count, the largest first.
    std::vector<int> order;
    for (size_t i = 0; i < m_templates.size(); ++i)
        if (m_templates[i])
            order.push_back(int(i));
    std::sort(order.begin(), order.end(), [this](int a, int b) {
        return m_templates[size_t(a)]->count != m_templates[size_t(b)]->count
            ? m_templates[size_t(a)]->count > m_templates[size_t(b)]->count
            : a < b;
    });
    QJsonArray templates;
    const auto& defs = m_table->templates();
    for (int id : order) {
        QJsonObject t
            = templateJson(*m_templates[size_t(id)], defs[size_t(id)].text, workloadOpName(defs[size_t(id)].kind));
        t.insert(QStringLiteral("id"), id);
        templates.append(t);
    }
    if (m_other)
        templates.append(templateJson(*m_other, QStringLiteral("(other templates)"), QStringLiteral("mixed")));
    double sumFlight = 0, maxFlight = 0;
    std::vector<double> flights;
    flights.reserve(m_buckets.size());
    for (const Bucket& b : m_buckets) {
        const double f = b.busyNs / (double(m_bucketWidthS) * 1e9);
        flights.push_back(f);
        sumFlight += f;
        maxFlight = std::max(maxFlight, f);
    }
    std::sort(flights.begin(), flights.end());
    const double p99Flight
        = flights.empty() ? 0 : flights[std::min(flights.size() - 1, size_t(double(flights.size()) * 0.99))];
    QJsonArray files;
    for (const QString& f : source.files)
        files.append(f);
    QJsonArray gapList;
    for (const QString& g : gaps)
        gapList.append(g);
    return QJsonObject {
        { QStringLiteral("schema"), QStringLiteral("dirbench.workload/1") },
        { QStringLiteral("source"),
            QJsonObject { { QStringLiteral("format"), source.format }, { QStringLiteral("files"), files },
                { QStringLiteral("first"), isoTime(source.firstNs, source.subSecond) },
                { QStringLiteral("last"), isoTime(source.lastNs, source.subSecond) } } },
        { QStringLiteral("duration_s"), round3(duration) },
        { QStringLiteral("operations"), ops },
        { QStringLiteral("operations_total"), double(m_ops) },
        { QStringLiteral("connections"), double(m_connections) },
        { QStringLiteral("templates"), templates },
        { QStringLiteral("templates_seen"), double(m_table->templates().size()) },
        { QStringLiteral("per_second_start"), m_haveBase ? isoTime(m_baseS * 1000000000ull, false) : QString() },
        { QStringLiteral("per_second_width_s"), double(m_bucketWidthS) },
        { QStringLiteral("per_second"), perSecondJson() },
        { QStringLiteral("concurrency"),
            QJsonObject { { QStringLiteral("mean_in_flight"),
                              flights.empty() ? 0.0 : round3(sumFlight / double(flights.size())) },
                { QStringLiteral("p99_in_flight"), round3(p99Flight) },
                { QStringLiteral("max_in_flight"), round3(maxFlight) },
                { QStringLiteral("method"),
                    QStringLiteral("per bucket: the server times (etime) in it / its width") } } },
        { QStringLiteral("churn"), churnJson(duration) },
        { QStringLiteral("unmatched"),
            QJsonObject { { QStringLiteral("results_without_request"), double(stats.resultsWithoutRequest) },
                { QStringLiteral("requests_without_result"), double(stats.requestsWithoutResult) } } },
        { QStringLiteral("lines"),
            QJsonObject { { QStringLiteral("total"), double(stats.lines) },
                { QStringLiteral("ignored"), double(stats.ignoredLines) },
                { QStringLiteral("cut"), double(stats.cutLines) } } },
        { QStringLiteral("summary_bounds"),
            [] {
                QJsonObject b = KeySummary::boundsJson();
                b.insert(QStringLiteral("templates_with_statistics"), MaxTemplateStats);
                b.insert(QStringLiteral("per_second_buckets"), double(MaxBuckets));
                return b;
            }() },
        { QStringLiteral("filter"), filter.toJson() },
        { QStringLiteral("gaps"), gapList },
    };
}
