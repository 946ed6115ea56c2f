#include "core/catalog/models.h"

#include "core/common/jsonread.h"

#include <QJsonArray>

#include <algorithm>
#include <cmath>
#include <limits>

namespace CloudCatalog::Models {

namespace {

const QString kBurstCredits = QStringLiteral("size_scaled_with_burst_credits");
const QString kIndependent = QStringLiteral("provisioned_independent_of_size");
const QString kProvisionedIops = QStringLiteral("provisioned_iops");
const QString kTiers = QStringLiteral("fixed_tiers_by_size");
const QString kTiersUpTo = QStringLiteral("fixed_tiers_by_size_up_to");
const QString kInstanceCaps = QStringLiteral("size_scaled_with_instance_caps");
const QString kBaselineCaps = QStringLiteral("size_scaled_with_baseline_and_instance_caps");

double req(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toDouble();
}

// Required numbers and nullable numbers per model (and per basis for the burst-credit model).
struct Needs
{
    QStringList numbers;
    QStringList nullable;
    QStringList arrays;
};

Needs needsOf(const QString& model, const QJsonObject& p)
{
    if (model == kBurstCredits) {
        if (p.value(QStringLiteral("basis")).toString() == u"throughput")
            return { { QStringLiteral("baseline_mibps_per_tib"), QStringLiteral("baseline_max_mibps"),
                         QStringLiteral("burst_mibps_per_tib"), QStringLiteral("burst_max_mibps"),
                         QStringLiteral("max_iops"), QStringLiteral("io_unit_kib"),
                         QStringLiteral("credit_bucket_mib_per_tib") },
                {}, {} };
        return { { QStringLiteral("iops_per_gib"), QStringLiteral("min_iops"), QStringLiteral("max_iops"),
                     QStringLiteral("burst_iops"), QStringLiteral("burst_below_gib"),
                     QStringLiteral("credit_bucket_io"), QStringLiteral("io_unit_kib") },
            {}, { QStringLiteral("throughput_bands") } };
    }
    if (model == kIndependent)
        return { { QStringLiteral("max_iops"), QStringLiteral("max_mbps"), QStringLiteral("io_unit_kib") },
            { QStringLiteral("included_iops"), QStringLiteral("included_mbps"), QStringLiteral("max_iops_per_gib"),
                QStringLiteral("mbps_per_provisioned_iops"), QStringLiteral("min_iops"),
                QStringLiteral("min_iops_per_gib") },
            {} };
    if (model == kProvisionedIops)
        return { { QStringLiteral("io_unit_kib") },
            { QStringLiteral("min_iops"), QStringLiteral("max_iops"), QStringLiteral("max_iops_per_gib"),
                QStringLiteral("read_max_mibps"), QStringLiteral("write_max_mibps") },
            { QStringLiteral("throughput_tiers") } };
    if (model == kTiers || model == kTiersUpTo)
        return { { QStringLiteral("io_unit_kib") }, {}, {} };
    return { { QStringLiteral("read_iops_per_gib"), QStringLiteral("write_iops_per_gib"),
                 QStringLiteral("throughput_mibps_per_gib"), QStringLiteral("read_mibps_per_instance"),
                 QStringLiteral("write_mibps_per_instance") },
        { QStringLiteral("baseline_iops"), QStringLiteral("baseline_mbps") }, {} };
}

DiskLimits tiers(const DiskType& d, double sizeGib)
{
    DiskLimits l;
    l.ioUnitKib = req(d.parameters, "io_unit_kib");
    const Tier* t = &d.tiers.last();
    for (const auto& candidate : d.tiers)
        if (candidate.sizeGib >= sizeGib) {
            t = &candidate;
            break;
        }
    l.sizeGib = t->sizeGib;
    l.tier = t->sku;
    l.iops = t->iops;
    l.mbps = t->mbps;
    if (!t->burst.isEmpty() && t->burstIops) {
        l.burstKind = t->burst;
        l.burstIops = t->burstIops;
        l.burstMbps = t->burstMbps;
        l.burstSeconds
            = t->burst == u"credit" ? t->burstMaxMinutes.value_or(30) * 60 : std::numeric_limits<double>::infinity();
        if (t->burst == u"on-demand")
            l.notes << QStringLiteral("on-demand bursting only if enabled (extra charge)");
    }
    if (t->sizeGib > sizeGib)
        l.notes
            << QStringLiteral("%1 GiB is billed and performs as %2 (%3 GiB)").arg(sizeGib).arg(t->sku).arg(t->sizeGib);
    return l;
}

double throughputForIops(const QJsonArray& tiers, double iops)
{
    for (qsizetype i = 0; i < tiers.size(); ++i) {
        const QJsonObject t = tiers.at(i).toObject();
        if (iops <= t.value(QStringLiteral("up_to_iops")).toDouble() || i + 1 == tiers.size())
            return std::min(t.value(QStringLiteral("max_mibps")).toDouble(),
                iops * t.value(QStringLiteral("mibps_per_iops")).toDouble());
    }
    return 0;
}

std::optional<double> maxIopsAt(const QJsonObject& p, double sizeGib)
{
    const auto max = JsonRead::number(p, "max_iops");
    if (!max)
        return std::nullopt;
    const auto perGib = JsonRead::number(p, "max_iops_per_gib");
    if (!perGib)
        return *max;
    return std::min(*max, std::max(JsonRead::number(p, "included_iops").value_or(0), *perGib * sizeGib));
}

bool badProvision(QString* field, QString* error, const QString& f, const QString& why)
{
    if (field)
        *field = f;
    if (error)
        *error = why;
    return false;
}

} // namespace

QStringList names()
{
    return { kBurstCredits, kIndependent, kProvisionedIops, kTiers, kTiersUpTo, kInstanceCaps, kBaselineCaps };
}

bool isKnown(const QString& model)
{
    return names().contains(model);
}

bool usesTiers(const QString& model)
{
    return model == kTiers || model == kTiersUpTo;
}

bool checkParameters(const QString& model, const QJsonObject& p, QString* key, QString* why)
{
    const Needs n = needsOf(model, p);
    for (const auto& k : n.numbers)
        if (!p.value(k).isDouble() || p.value(k).toDouble() < 0) {
            *key = k;
            *why = p.contains(k) ? QStringLiteral("must be a number >= 0") : QStringLiteral("missing");
            return false;
        }
    for (const auto& k : n.nullable)
        if (p.contains(k) && !p.value(k).isNull() && (!p.value(k).isDouble() || p.value(k).toDouble() < 0)) {
            *key = k;
            *why = QStringLiteral("must be a number >= 0 or null");
            return false;
        }
    for (const auto& k : n.arrays)
        if (!p.value(k).isArray()) {
            *key = k;
            *why = QStringLiteral("missing (a list)");
            return false;
        }
    return true;
}

DiskLimits sizeScaledWithBurstCredits(const DiskType& d, double sizeGib)
{
    const QJsonObject& p = d.parameters;
    DiskLimits l;
    l.sizeGib = sizeGib;
    l.ioUnitKib = req(p, "io_unit_kib");
    if (p.value(QStringLiteral("basis")).toString() == u"throughput") { // st1, sc1: MiB/s per TiB
        const double tib = sizeGib / 1024;
        const double base = std::min(req(p, "baseline_max_mibps"), req(p, "baseline_mibps_per_tib") * tib);
        const double burst = std::min(req(p, "burst_max_mibps"), req(p, "burst_mibps_per_tib") * tib);
        l.mbps = base;
        l.iops = req(p, "max_iops");
        if (burst > base) {
            const double bucketMib = req(p, "credit_bucket_mib_per_tib") * tib;
            l.burstMbps = burst;
            l.burstIops = l.iops;
            l.burstKind = QStringLiteral("throughput-credit");
            l.burstSeconds = bucketMib / (burst - base);
            l.refillSeconds = bucketMib / base;
        }
        return l;
    }
    // gp2: 3 IOPS per GiB within [min, max], 3,000 IOPS burst below 1 TiB from a 5.4 M credit bucket
    const double base = std::clamp(req(p, "iops_per_gib") * sizeGib, req(p, "min_iops"), req(p, "max_iops"));
    const double burstIops = req(p, "burst_iops");
    const double unitMib = l.ioUnitKib / 1024;
    l.iops = base;
    const bool bursts = sizeGib < req(p, "burst_below_gib") && base < burstIops;
    if (bursts) {
        const double bucket = req(p, "credit_bucket_io");
        l.burstIops = burstIops;
        l.burstKind = QStringLiteral("credit");
        l.burstSeconds = bucket / (burstIops - base);
        l.refillSeconds = bucket / base;
    }
    const QJsonArray throughputBands = p.value(QStringLiteral("throughput_bands")).toArray();
    for (const auto& v : throughputBands) {
        const QJsonObject band = v.toObject();
        const QJsonValue upTo = band.value(QStringLiteral("up_to_gib"));
        if (!upTo.isNull() && sizeGib > upTo.toDouble())
            continue;
        const double bandMibps = band.value(QStringLiteral("mibps")).toDouble();
        const double bandBurst = band.value(QStringLiteral("burst_mibps")).toDouble(bandMibps);
        l.mbps = std::min(bandMibps, base * unitMib);
        const double burstMbps = std::min(bandBurst, (bursts ? burstIops : base) * unitMib);
        if (burstMbps > *l.mbps) {
            l.burstMbps = burstMbps;
            if (!bursts) {
                l.burstKind = QStringLiteral("credit");
                l.notes << QStringLiteral("throughput bursts on credits in this size band");
            }
        }
        break;
    }
    if (l.burstIops && !l.burstMbps)
        l.burstMbps = l.mbps;
    return l;
}

std::optional<DiskLimits> provisionedIndependentOfSize(
    const DiskType& d, double sizeGib, const Provisioning& prov, QString* field, QString* error)
{
    const QJsonObject& p = d.parameters;
    DiskLimits l;
    l.sizeGib = sizeGib;
    l.ioUnitKib = req(p, "io_unit_kib");
    const double maxIops = *maxIopsAt(p, sizeGib);
    const auto minIops = minProvisionableIops(d, sizeGib);
    const auto ratio = JsonRead::number(p, "mbps_per_provisioned_iops");
    const auto includedMbps = JsonRead::number(p, "included_mbps");
    auto maxMbpsFor = [&](double iops) {
        return ratio ? std::min(req(p, "max_mbps"), std::max(includedMbps.value_or(0), *ratio * iops))
                     : req(p, "max_mbps");
    };
    const double iops = prov.iops.value_or(JsonRead::number(p, "included_iops").value_or(maxIops));
    if (iops > maxIops + 1e-9 || (minIops && iops < *minIops - 1e-9)) {
        badProvision(field, error, QStringLiteral("provisioned-iops"),
            QStringLiteral("%1 IOPS is outside %2..%3 for %4 at %5 GiB")
                .arg(iops)
                .arg(minIops.value_or(0))
                .arg(maxIops)
                .arg(d.label())
                .arg(sizeGib));
        return std::nullopt;
    }
    const double mbpsCap = maxMbpsFor(iops);
    // Default: the included baseline; without one (Ultra), the most these IOPS allow.
    const double mbps = prov.mbps.value_or(prov.maxMbpsForIops || !includedMbps ? mbpsCap : *includedMbps);
    if (mbps > mbpsCap + 1e-9 || (includedMbps && mbps < *includedMbps - 1e-9)) {
        badProvision(field, error, QStringLiteral("provisioned-mbps"),
            QStringLiteral("%1 is outside %2..%3 for %4 at %5 provisioned IOPS")
                .arg(mbps)
                .arg(includedMbps.value_or(0))
                .arg(mbpsCap)
                .arg(d.label())
                .arg(iops));
        return std::nullopt;
    }
    l.iops = l.provisionedIops = iops;
    l.mbps = l.provisionedMbps = std::min(mbps, mbpsCap);
    l.maxProvisionableIops = maxIops;
    l.maxProvisionableMbps = maxMbpsFor(maxIops);
    if (!JsonRead::number(p, "max_iops_per_gib"))
        l.notes << QStringLiteral("the size-dependent provisioning range is not in the catalog");
    return l;
}

std::optional<DiskLimits> provisionedIops(
    const DiskType& d, double sizeGib, const Provisioning& prov, Access access, QString* field, QString* error)
{
    const QJsonObject& p = d.parameters;
    DiskLimits l;
    l.sizeGib = sizeGib;
    l.ioUnitKib = req(p, "io_unit_kib");
    const auto maxIops = maxIopsAt(p, sizeGib);
    const auto instanceCap = JsonRead::number(p, access == Access::Read ? "read_max_mibps" : "write_max_mibps");
    if (!maxIops) { // pd-extreme: only the per-instance maxima are in the catalog
        l.iops = prov.iops;
        l.mbps = instanceCap;
        l.notes << QStringLiteral("provisioning range not in the catalog; the per-instance maximum is shown");
        return l;
    }
    const double iops = prov.iops.value_or(*maxIops);
    const double minIops = JsonRead::number(p, "min_iops").value_or(0);
    if (iops > *maxIops + 1e-9 || iops < minIops) {
        badProvision(field, error, QStringLiteral("provisioned-iops"),
            QStringLiteral("%1 IOPS is outside %2..%3 for %4 at %5 GiB")
                .arg(iops)
                .arg(minIops)
                .arg(*maxIops)
                .arg(d.label())
                .arg(sizeGib));
        return std::nullopt;
    }
    const QJsonArray tiers = p.value(QStringLiteral("throughput_tiers")).toArray();
    l.iops = l.provisionedIops = iops;
    l.mbps = throughputForIops(tiers, iops);
    if (instanceCap)
        l.mbps = std::min(*l.mbps, *instanceCap);
    l.maxProvisionableIops = *maxIops;
    l.maxProvisionableMbps = throughputForIops(tiers, *maxIops);
    return l;
}

DiskLimits fixedTiersBySize(const DiskType& d, double sizeGib)
{
    return tiers(d, sizeGib);
}

DiskLimits fixedTiersBySizeUpTo(const DiskType& d, double sizeGib)
{
    DiskLimits l = tiers(d, sizeGib);
    l.notes << QStringLiteral("'up to' figures: the provider does not promise them");
    return l;
}

DiskLimits sizeScaledWithInstanceCaps(const DiskType& d, double sizeGib, Access access)
{
    const QJsonObject& p = d.parameters;
    DiskLimits l;
    l.sizeGib = sizeGib;
    l.ioUnitKib = 256;
    const bool read = access == Access::Read;
    l.iops = req(p, read ? "read_iops_per_gib" : "write_iops_per_gib") * sizeGib;
    l.mbps = std::min(req(p, "throughput_mibps_per_gib") * sizeGib,
        req(p, read ? "read_mibps_per_instance" : "write_mibps_per_instance"));
    l.notes << QStringLiteral("per-instance IOPS limits depend on the machine type (not in the catalog)");
    return l;
}

DiskLimits sizeScaledWithBaselineAndInstanceCaps(const DiskType& d, double sizeGib, Access access)
{
    DiskLimits l = sizeScaledWithInstanceCaps(d, sizeGib, access);
    if (const auto b = JsonRead::number(d.parameters, "baseline_iops"))
        l.iops = std::max(*l.iops, *b);
    if (const auto b = JsonRead::number(d.parameters, "baseline_mbps"))
        l.mbps = std::max(*l.mbps, *b);
    else
        l.notes << QStringLiteral("the size-independent baseline is not in the catalog: small disks may do better");
    return l;
}

std::optional<double> minProvisionableIops(const DiskType& d, double sizeGib)
{
    const QJsonObject& p = d.parameters;
    if (d.model == kIndependent) {
        if (const auto inc = JsonRead::number(p, "included_iops"))
            return *inc;
        return std::max(
            JsonRead::number(p, "min_iops").value_or(0), JsonRead::number(p, "min_iops_per_gib").value_or(0) * sizeGib);
    }
    if (d.model == kProvisionedIops)
        return JsonRead::number(p, "min_iops");
    return std::nullopt;
}

std::optional<DiskLimits> evaluate(
    const DiskType& d, double sizeGib, const Provisioning& p, Access access, QString* field, QString* error)
{
    if (!(sizeGib >= d.minGib && sizeGib <= d.maxGib)) {
        badProvision(field, error, QStringLiteral("size-gb"),
            QStringLiteral("%1 GiB is outside %2..%3 GiB for %4")
                .arg(sizeGib)
                .arg(d.minGib)
                .arg(d.maxGib)
                .arg(d.label()));
        return std::nullopt;
    }
    if (d.model == kBurstCredits)
        return sizeScaledWithBurstCredits(d, sizeGib);
    if (d.model == kIndependent)
        return provisionedIndependentOfSize(d, sizeGib, p, field, error);
    if (d.model == kProvisionedIops)
        return provisionedIops(d, sizeGib, p, access, field, error);
    if (d.model == kTiers)
        return fixedTiersBySize(d, sizeGib);
    if (d.model == kTiersUpTo)
        return fixedTiersBySizeUpTo(d, sizeGib);
    if (d.model == kInstanceCaps)
        return sizeScaledWithInstanceCaps(d, sizeGib, access);
    return sizeScaledWithBaselineAndInstanceCaps(d, sizeGib, access);
}

} // namespace CloudCatalog::Models
