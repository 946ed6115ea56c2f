#pragma once

#include "core/catalog/catalog.h"

#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

// One function per performance_model of the catalog. They return the disk's own limits at a size, in the disk
// type's throughput unit (MiB/s or MB/s; evaluation.h converts to MB/s). The catalog's *_expr strings are notes
// for people: the formulas are here, their numbers come from each entry's "parameters".
namespace CloudCatalog {

enum class Access
{
    Write,
    Read
};

// What the user provisioned (provisioned models). Unset = the model's default: the included baseline (gp3,
// Premium SSD v2, Hyperdisk), the maximum at this size (io1/io2, Ultra).
struct Provisioning
{
    std::optional<double> iops;
    std::optional<double> mbps; // in the disk type's throughput unit
    bool maxMbpsForIops = false; // mbps unset: the most these IOPS allow instead of the included baseline
};

struct DiskLimits
{
    double sizeGib = 0; // the size the limits apply to (the tier's size for fixed tiers)
    QString tier; // "P30" for fixed tiers
    std::optional<double> iops; // sustained; nullopt: not published
    std::optional<double> mbps; // sustained, native unit
    std::optional<double> burstIops;
    std::optional<double> burstMbps;
    std::optional<double> burstSeconds; // how long a full credit bucket lasts; infinity: as long as it is enabled
    std::optional<double> refillSeconds; // from empty to full at baseline use of zero
    QString burstKind; // "" none, "credit", "on-demand" (only if enabled, extra charge), "throughput-credit"
    std::optional<double> provisionedIops;
    std::optional<double> provisionedMbps;
    std::optional<double> maxProvisionableIops; // at this size
    std::optional<double> maxProvisionableMbps;
    double ioUnitKib = 256; // an I/O up to this size counts as one (0: every I/O counts as one)
    QStringList notes;
};

namespace Models {

QStringList names();
bool isKnown(const QString& model);
bool usesTiers(const QString& model);
// Checks that `parameters` has what the model reads; `key` names the bad parameter.
bool checkParameters(const QString& model, const QJsonObject& parameters, QString* key, QString* why);

// Dispatches on d.model. `error` names the field ("size-gb", "provisioned-iops", "provisioned-mbps").
std::optional<DiskLimits> evaluate(
    const DiskType& d, double sizeGib, const Provisioning& p, Access access, QString* field, QString* error);

DiskLimits sizeScaledWithBurstCredits(const DiskType& d, double sizeGib);
std::optional<DiskLimits> provisionedIndependentOfSize(
    const DiskType& d, double sizeGib, const Provisioning& p, QString* field, QString* error);
std::optional<DiskLimits> provisionedIops(
    const DiskType& d, double sizeGib, const Provisioning& p, Access access, QString* field, QString* error);
DiskLimits fixedTiersBySize(const DiskType& d, double sizeGib);
DiskLimits fixedTiersBySizeUpTo(const DiskType& d, double sizeGib);
DiskLimits sizeScaledWithInstanceCaps(const DiskType& d, double sizeGib, Access access);
DiskLimits sizeScaledWithBaselineAndInstanceCaps(const DiskType& d, double sizeGib, Access access);

// The provisioned models' range at a size (for need(): the least provisioning that meets a requirement).
std::optional<double> minProvisionableIops(const DiskType& d, double sizeGib);

} // namespace Models

} // namespace CloudCatalog
