#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/evaluation.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// "What do I need": for a requirement, the smallest size of each disk type that meets it sustained (never on
// burst), the least provisioning where the type is provisioned, and which VMs do not cap it.
namespace CloudCatalog {

struct Requirement
{
    std::optional<double> mbps; // sustained MB/s (10^6)
    std::optional<double> iops; // at blockKib
    double blockKib = 4;
    std::optional<double> commitP99Ms;
    QString provider; // "" = all
    Access access = Access::Write;

    // Empty when valid; else sets `field` ("mbps", "iops", "block-kib", "commit-p99-ms", "provider").
    QString validate(const Catalog& c, QString* field) const;
    QString text() const; // "≥ 100 MB/s sustained, ≥ 3000 IOPS at 4 KiB"
    QJsonObject toJson() const;
};

struct NeedRow
{
    const DiskType* disk = nullptr;
    bool met = false;
    double sizeGib = 0; // the smallest size that meets it (the tier's size for fixed tiers)
    QString tier;
    std::optional<double> provisionIops; // provisioned types: the least that meets it
    std::optional<double> provisionMbps; // MB/s
    double sustainedMbps = 0; // at that size and provisioning
    double sustainedIops = 0;
    QString reason; // why not met, or what to watch
};

struct VmRow
{
    const Vm* vm = nullptr;
    QString verdict; // ok | burst-only | caps | unknown
    QString text;
};

struct NeedResult
{
    Requirement requirement;
    QList<NeedRow> disks;
    QList<VmRow> vms;

    QJsonObject toJson() const;
};

// The requirement must be valid (Requirement::validate).
NeedResult need(const Catalog& c, const Requirement& r);

} // namespace CloudCatalog
