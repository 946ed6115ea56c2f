#include "core/workload/workload.h"

#include <array>

namespace {

struct KindName
{
    WorkloadOpKind kind;
    const char* name;
};

constexpr std::array<KindName, 10> kKindNames { {
    { WorkloadOpKind::Bind, "bind" },
    { WorkloadOpKind::Search, "search" },
    { WorkloadOpKind::Compare, "compare" },
    { WorkloadOpKind::Modify, "modify" },
    { WorkloadOpKind::Add, "add" },
    { WorkloadOpKind::Delete, "delete" },
    { WorkloadOpKind::ModRdn, "modrdn" },
    { WorkloadOpKind::Extended, "extended" },
    { WorkloadOpKind::Abandon, "abandon" },
    { WorkloadOpKind::Unbind, "unbind" },
} };

} // namespace

QString workloadOpName(WorkloadOpKind kind)
{
    for (const auto& k : kKindNames)
        if (k.kind == kind)
            return QString::fromLatin1(k.name);
    return {};
}

std::optional<WorkloadOpKind> workloadOpKind(const QString& name)
{
    for (const auto& k : kKindNames)
        if (name == QLatin1String(k.name))
            return k.kind;
    return std::nullopt;
}

bool Workload::secondTimestamps() const
{
    uint64_t n = 0;
    for (const auto& c : connections)
        for (const auto& op : c.ops) {
            if (op.offsetNs % 1000000000ULL != 0)
                return false;
            ++n;
        }
    return n >= 2;
}

uint64_t Workload::operationCount() const
{
    uint64_t n = 0;
    for (const auto& c : connections)
        n += c.ops.size();
    return n;
}
