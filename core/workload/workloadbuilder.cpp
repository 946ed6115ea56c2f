#include "core/workload/workloadbuilder.h"

#include <algorithm>

WorkloadBuilder::WorkloadBuilder(const TemplateTable* table, bool keepValues)
    : m_table(table)
    , m_keep(keepValues)
{ }

QString WorkloadBuilder::value(std::string_view v) const
{
    return m_keep ? QString::fromUtf8(v.data(), qsizetype(v.size())) : QString::fromStdString(m_pseudo.token(v));
}

WorkloadConnection& WorkloadBuilder::current(uint64_t conn, const std::string& client)
{
    const auto it = m_open.find(conn);
    if (it != m_open.end())
        return m_connections[it->second];
    m_open[conn] = m_connections.size();
    WorkloadConnection c;
    c.id = conn;
    if (!client.empty())
        c.client = m_keep ? QString::fromStdString(client) : QString::fromStdString(m_pseudo.token(client, 'c'));
    m_connections.push_back(std::move(c));
    m_opNumbers.emplace_back();
    return m_connections.back();
}

void WorkloadBuilder::opened(uint64_t conn, uint64_t ns, const std::string& client)
{
    m_open.erase(conn); // a reused number starts a new connection
    WorkloadConnection& c = current(conn, client);
    if (ns)
        c.openNs = ns;
}

void WorkloadBuilder::closed(uint64_t conn, uint64_t ns)
{
    const auto it = m_open.find(conn);
    if (it == m_open.end())
        return;
    if (ns)
        m_connections[it->second].closeNs = ns;
    m_open.erase(it);
}

void WorkloadBuilder::operation(const ShapedOp& s)
{
    const JoinedOp& j = s.op;
    if (!j.haveRequest) {
        ++m_orphans;
        return;
    }
    WorkloadConnection& c = current(j.conn, s.client);
    m_opNumbers[m_open[j.conn]].push_back(j.op);
    WorkloadOp op;
    op.offsetNs = j.startNs ? j.startNs : j.endNs;
    op.kind = j.kind;
    op.templateId = s.templateId;
    for (const std::string& v : s.shape.values)
        op.values << value(v);
    if (!j.dn.empty())
        op.base = m_keep ? QString::fromStdString(j.dn) : QString::fromStdString(m_pseudo.dn(j.dn));
    if (j.scope >= 0)
        op.scope = j.scope;
    if (!j.attrs.empty())
        op.attrs = QString::fromStdString(j.attrs).split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (!j.oid.empty())
        op.extendedOid = QString::fromStdString(j.oid);
    if (j.kind == WorkloadOpKind::Abandon)
        op.abandonTarget = int(j.abandonTarget);
    for (const auto& [attr, values] : j.writeValues) {
        QStringList vs;
        for (const std::string& v : values)
            vs << (m_keep ? QString::fromStdString(v) : QString::fromStdString(m_pseudo.sized(v, v.size())));
        op.writeValues.emplace_back(QString::fromStdString(attr), vs);
    }
    if (j.haveResult) {
        op.resultCode = j.err;
        if (j.nentries >= 0)
            op.entries = j.nentries;
        if (j.etimeMs >= 0)
            op.etimeMs = j.etimeMs;
        if (j.wtimeMs >= 0)
            op.wtimeMs = j.wtimeMs;
        else if (j.qtimeMs >= 0)
            op.wtimeMs = j.qtimeMs;
        if (j.optimeMs >= 0)
            op.optimeMs = j.optimeMs;
        if (j.endNs)
            op.resultOffsetNs = j.endNs;
        op.unindexed = j.unindexed;
    }
    op.filterTruncated = j.filterCut;
    c.ops.push_back(std::move(op));
}

Workload WorkloadBuilder::finish(const WorkloadSource& source, const QStringList& gaps, const QJsonObject& analysis)
{
    uint64_t first = UINT64_MAX;
    for (const auto& c : m_connections) {
        if (c.openNs)
            first = std::min(first, *c.openNs);
        for (const auto& op : c.ops)
            if (op.offsetNs)
                first = std::min(first, op.offsetNs);
    }
    if (first == UINT64_MAX)
        first = 0;
    auto rel = [first](uint64_t t) { return t >= first ? t - first : 0; };
    Workload w;
    w.source = source;
    w.source.firstEpochNs = first;
    w.templates = m_table->templates();
    w.anonymised = !m_keep;
    w.valuesKept = m_keep;
    w.gaps = gaps;
    if (m_orphans)
        w.gaps << QStringLiteral("%1 results whose request is not in the log (it began mid-operation) left out")
                      .arg(m_orphans);
    w.analysis = analysis;
    for (auto& c : m_connections) {
        if (c.openNs)
            c.openNs = rel(*c.openNs);
        if (c.closeNs)
            c.closeNs = rel(*c.closeNs);
        for (auto& op : c.ops) {
            op.offsetNs = rel(op.offsetNs);
            if (op.resultOffsetNs)
                op.resultOffsetNs = rel(*op.resultOffsetNs);
        }
    }
    for (size_t i = 0; i < m_connections.size(); ++i) {
        // Results arrive out of request order where requests overlap: back into request (op number) order.
        auto& ops = m_connections[i].ops;
        const auto& numbers = m_opNumbers[i];
        std::vector<size_t> order(ops.size());
        for (size_t k = 0; k < order.size(); ++k)
            order[k] = k;
        std::stable_sort(
            order.begin(), order.end(), [&numbers](size_t a, size_t b) { return numbers[a] < numbers[b]; });
        std::vector<WorkloadOp> sorted;
        sorted.reserve(ops.size());
        for (size_t k : order)
            sorted.push_back(std::move(ops[k]));
        ops = std::move(sorted);
    }
    w.connections = std::move(m_connections);
    m_connections.clear();
    m_opNumbers.clear();
    m_open.clear();
    return w;
}
