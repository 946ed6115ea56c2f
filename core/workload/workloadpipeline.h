#pragma once

#include "core/workload/filtershape.h"
#include "core/workload/logparser.h"

#include <QJsonObject>

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

// What `workload analyze` keeps of a log: --from/--to (on the request's time), --client (the connection's source
// address) and --operations (kinds). A connection whose opening the log does not show has no known client and is
// left out when --client is given.
struct WorkloadFilter
{
    std::optional<uint64_t> fromNs, toNs;
    std::string client;
    uint32_t kinds = 0; // bit (1 << WorkloadOpKind) per kind kept; 0 keeps all

    bool keepsKind(WorkloadOpKind k) const { return !kinds || (kinds & (1u << unsigned(k))); }
    bool keepsTime(uint64_t ns) const { return (!fromNs || ns >= *fromNs) && (!toNs || ns <= *toNs); }
    bool active() const { return fromNs || toNs || !client.empty() || kinds; }
    QJsonObject toJson() const;
};

// Templates by (kind, text), ids in order of first sight. Bounded: past MaxTemplates distinct templates, new ones
// get id -1 (counted, not kept).
class TemplateTable
{
public:
    static constexpr int MaxTemplates = 100000;
    int idOf(WorkloadOpKind kind, const std::string& text, int slotCount);
    const std::vector<WorkloadTemplate>& templates() const { return m_templates; }
    uint64_t overflowed() const { return m_overflow; }

private:
    std::unordered_map<std::string, int> m_ids;
    std::vector<WorkloadTemplate> m_templates;
    std::string m_key;
    uint64_t m_overflow = 0;
};

// An operation with its template: a search's filter shape, a bind's or write's DN shape (templateId -1 for
// unbind, abandon, extended, and results whose request the log does not have).
struct ShapedOp
{
    const JoinedOp& op;
    int templateId;
    const Shape& shape;
    const std::string& client; // empty when unknown
};

class ShapedSink
{
public:
    virtual ~ShapedSink() = default;
    virtual void opened(uint64_t conn, uint64_t ns, const std::string& client) = 0;
    virtual void operation(const ShapedOp& op) = 0;
    virtual void closed(uint64_t conn, uint64_t ns) = 0;
};

// Between a parser and its consumers (the analysis, the saved workload): filters, then shapes each operation once.
class WorkloadPipeline : public WorkloadSink
{
public:
    WorkloadPipeline(WorkloadFilter filter, TemplateTable* table, std::vector<ShapedSink*> sinks)
        : m_filter(std::move(filter))
        , m_table(table)
        , m_sinks(std::move(sinks))
    { }
    void connectionOpened(uint64_t conn, uint64_t ns, std::string_view client) override;
    void operation(const JoinedOp& op) override;
    void connectionClosed(uint64_t conn, uint64_t ns) override;
    uint64_t filteredOut() const { return m_filteredOut; }

private:
    bool keepsConnection(uint64_t conn) const;

    WorkloadFilter m_filter;
    TemplateTable* m_table;
    std::vector<ShapedSink*> m_sinks;
    std::unordered_map<uint64_t, std::string> m_clients; // open connections' source addresses
    Shape m_shape;
    uint64_t m_filteredOut = 0;
    static const std::string kNoClient;
};
