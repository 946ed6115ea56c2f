#pragma once

#include "core/common/histogram.h"
#include "core/workload/keysummary.h"
#include "core/workload/workloadpipeline.h"

#include <QJsonObject>

#include <array>
#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

// What a log says about its traffic, in one streaming pass and bounded memory (whatever the log's size):
//   - the operation mix per second (buckets of 1 s; past MaxBuckets the bucket width doubles), with the mean
//     number of operations in flight in each (the server times that fall in it, divided by its width);
//   - per template (the first MaxTemplateStats templates in order of first sight; later ones are summed as
//     "(other templates)"): count, share, result codes, entries returned, notes=U share, etime/wtime/optime
//     percentiles (LatencyHistogram), filters cut, and the skew of its keys (KeySummary: the tuple of all its
//     slot values is the key, so constant slots such as objectClass do not hide the varying one);
//   - connection churn: connects, closes, binds and operations per connection, lifetimes (of the connections whose
//     opening and closing are both in the log).
// toJson() writes the dirbench.workload/1 document.
class WorkloadAnalysis : public ShapedSink
{
public:
    static constexpr int MaxTemplateStats = 200;
    static constexpr size_t MaxBuckets = 2 * 86400;

    explicit WorkloadAnalysis(const TemplateTable* table);
    ~WorkloadAnalysis() override;
    void opened(uint64_t conn, uint64_t ns, const std::string& client) override;
    void operation(const ShapedOp& op) override;
    void closed(uint64_t conn, uint64_t ns) override;

    struct Source
    {
        QString format;
        QStringList files;
        uint64_t firstNs = 0, lastNs = 0;
        bool subSecond = true;
    };
    QJsonObject toJson(
        const Source& source, const ParseStats& stats, const QStringList& gaps, const WorkloadFilter& filter) const;

    uint64_t operations() const { return m_ops; }

    // "2026-12-01T10:00:00.123456789Z" (or to the second).
    static QString isoTime(uint64_t ns, bool subSecond);

private:
    struct TemplateStats;
    struct Bucket
    {
        std::array<uint32_t, 10> ops {};
        double busyNs = 0;
    };
    struct Conn
    {
        uint64_t openNs = 0;
        uint32_t binds = 0;
        uint32_t ops = 0;
        bool openSeen = false; // false: its operations came before its opening line, or the log began after it
    };
    TemplateStats& statsOf(int templateId);
    void addToBuckets(uint64_t startNs, double durationNs, WorkloadOpKind kind);
    void halveBuckets();
    void endConnection(const Conn& c, uint64_t closeNs);
    QJsonObject templateJson(const TemplateStats& t, const QString& text, const QString& kind) const;
    QJsonArray perSecondJson() const;
    QJsonObject churnJson(double durationS) const;

    const TemplateTable* m_table;
    std::vector<std::unique_ptr<TemplateStats>> m_templates;
    std::unique_ptr<TemplateStats> m_other;
    std::array<uint64_t, 10> m_byKind {};
    uint64_t m_ops = 0;
    std::vector<Bucket> m_buckets;
    uint64_t m_baseS = 0;
    bool m_haveBase = false;
    uint64_t m_bucketWidthS = 1;
    std::unordered_map<uint64_t, Conn> m_conns;
    uint64_t m_connections = 0, m_connects = 0, m_closes = 0;
    LatencyHistogram m_bindsPerConn, m_opsPerConn, m_lifetimeNs;
};
