#include "core/workload/workloadpipeline.h"

#include <QJsonArray>

const std::string WorkloadPipeline::kNoClient;

QJsonObject WorkloadFilter::toJson() const
{
    QJsonObject o;
    if (fromNs)
        o.insert(QStringLiteral("from_ns"), QString::number(*fromNs));
    if (toNs)
        o.insert(QStringLiteral("to_ns"), QString::number(*toNs));
    if (!client.empty())
        o.insert(QStringLiteral("client"), QString::fromStdString(client));
    if (kinds) {
        QJsonArray k;
        for (unsigned i = 0; i < 32; ++i)
            if (kinds & (1u << i))
                k.append(workloadOpName(WorkloadOpKind(i)));
        o.insert(QStringLiteral("operations"), k);
    }
    return o;
}

int TemplateTable::idOf(WorkloadOpKind kind, const std::string& text, int slotCount)
{
    m_key.assign(1, char('a' + int(kind)));
    m_key += text;
    const auto it = m_ids.find(m_key);
    if (it != m_ids.end())
        return it->second;
    if (int(m_templates.size()) >= MaxTemplates) {
        ++m_overflow;
        return -1;
    }
    const int id = int(m_templates.size());
    m_templates.push_back({ kind, QString::fromStdString(text), slotCount });
    m_ids.emplace(m_key, id);
    return id;
}

bool WorkloadPipeline::keepsConnection(uint64_t conn) const
{
    if (m_filter.client.empty())
        return true;
    const auto it = m_clients.find(conn);
    return it != m_clients.end() && it->second == m_filter.client;
}

void WorkloadPipeline::connectionOpened(uint64_t conn, uint64_t ns, std::string_view client)
{
    auto& c = m_clients[conn];
    c.assign(client.data(), client.size());
    if (!keepsConnection(conn) || (ns && !m_filter.keepsTime(ns)))
        return;
    for (ShapedSink* s : m_sinks)
        s->opened(conn, ns, c);
}

void WorkloadPipeline::operation(const JoinedOp& op)
{
    const uint64_t t = op.startNs ? op.startNs : op.endNs;
    if (!m_filter.keepsKind(op.kind) || (t && !m_filter.keepsTime(t)) || !keepsConnection(op.conn)) {
        ++m_filteredOut;
        return;
    }
    int id = -1;
    m_shape.text.clear();
    m_shape.values.clear();
    m_shape.ok = true;
    if (op.haveRequest) {
        switch (op.kind) {
        case WorkloadOpKind::Search:
            m_shape = FilterShape::ofFilter(op.filter);
            break;
        case WorkloadOpKind::Bind:
        case WorkloadOpKind::Compare:
        case WorkloadOpKind::Modify:
        case WorkloadOpKind::Add:
        case WorkloadOpKind::Delete:
        case WorkloadOpKind::ModRdn:
            m_shape = FilterShape::ofDn(op.dn);
            break;
        default:
            break;
        }
        if (op.kind != WorkloadOpKind::Unbind && op.kind != WorkloadOpKind::Abandon
            && op.kind != WorkloadOpKind::Extended)
            id = m_table->idOf(op.kind, m_shape.text, int(m_shape.values.size()));
    }
    const auto it = m_clients.find(op.conn);
    const ShapedOp shaped { op, id, m_shape, it == m_clients.end() ? kNoClient : it->second };
    for (ShapedSink* s : m_sinks)
        s->operation(shaped);
}

void WorkloadPipeline::connectionClosed(uint64_t conn, uint64_t ns)
{
    const bool keep = keepsConnection(conn) && (!ns || m_filter.keepsTime(ns));
    if (keep)
        for (ShapedSink* s : m_sinks)
            s->closed(conn, ns);
    m_clients.erase(conn);
}
