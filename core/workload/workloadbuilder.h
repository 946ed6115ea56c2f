#pragma once

#include "core/workload/pseudonym.h"
#include "core/workload/workloadpipeline.h"

#include <unordered_map>

// The saved workload (`workload analyze --save`): per logged connection its operations in order (by request
// time, then op number), their time offsets, template ids and slot values. Anonymised by default: slot values,
// DNs (of binds, writes and search bases: each attribute value), client addresses and write values (same size)
// become pseudonyms (Pseudonymizer, a fresh key per save); keepValues keeps them as logged. Results whose request
// the log does not have are left out (counted in gaps). This is the one part of `workload analyze` whose memory
// grows with the log: it holds the workload it saves. Within a connection, operations are put in the order of
// their op numbers (the request order), whatever order their results came in.
class WorkloadBuilder : public ShapedSink
{
public:
    WorkloadBuilder(const TemplateTable* table, bool keepValues);
    void opened(uint64_t conn, uint64_t ns, const std::string& client) override;
    void operation(const ShapedOp& op) override;
    void closed(uint64_t conn, uint64_t ns) override;

    // The workload, offsets from its first event; templates from the table.
    Workload finish(const WorkloadSource& source, const QStringList& gaps, const QJsonObject& analysis);

private:
    WorkloadConnection& current(uint64_t conn, const std::string& client);
    QString value(std::string_view v) const;

    const TemplateTable* m_table;
    bool m_keep;
    Pseudonymizer m_pseudo;
    std::vector<WorkloadConnection> m_connections; // times absolute (ns since the epoch) until finish()
    std::vector<std::vector<int64_t>> m_opNumbers; // the log's op= of each connection's ops
    std::unordered_map<uint64_t, size_t> m_open; // conn -> index of its current connection
    uint64_t m_orphans = 0;
};
