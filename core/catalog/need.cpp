#include "core/catalog/need.h"

#include <QJsonArray>
#include <QLocale>

#include <cmath>

namespace CloudCatalog {

namespace {

QString num(double v)
{
    return QLocale(QLocale::English).toString(v, 'f', std::abs(v - std::round(v)) < 1e-9 ? 0 : 1);
}

bool isProvisioned(const DiskType& d)
{
    return d.model == u"provisioned_independent_of_size" || d.model == u"provisioned_iops";
}

struct Check
{
    bool ok = false;
    double mbps = 0;
    double iops = 0;
};

// Sustained capability at a size with a provisioning, against the requirement.
Check meets(const DiskType& d, double size, const Provisioning& p, const Requirement& r)
{
    QString field;
    QString error;
    Workload w;
    w.access = r.access;
    const auto e = evaluate(d, size, nullptr, p, w, &field, &error);
    if (!e)
        return {};
    Check c;
    c.mbps = e->diskLimit.mbps.value_or(0);
    const auto atBlock = mbpsAtBlock(e->diskLimit, r.blockKib, e->raw.ioUnitKib);
    c.iops = atBlock ? *atBlock * 1e6 / (r.blockKib * 1024) : 0;
    c.ok = (!r.mbps || c.mbps >= *r.mbps - 1e-9) && (!r.iops || c.iops >= *r.iops - 1e-9)
        && (e->diskLimit.mbps || e->diskLimit.iops);
    return c;
}

Provisioning most()
{
    Provisioning p;
    p.maxMbpsForIops = true;
    return p;
}

NeedRow rowFor(const DiskType& d, const Requirement& r)
{
    NeedRow row;
    row.disk = &d;
    const bool provisioned = isProvisioned(d);
    auto capability = [&](double size) {
        Provisioning p = most();
        if (provisioned) {
            QString f;
            QString e;
            const auto l = Models::evaluate(d, size, {}, r.access, &f, &e);
            p.iops = l ? l->maxProvisionableIops : std::nullopt;
        }
        return meets(d, size, p, r);
    };
    double size = 0;
    if (Models::usesTiers(d.model)) {
        for (const auto& t : d.tiers)
            if (capability(t.sizeGib).ok) {
                size = t.sizeGib;
                break;
            }
    } else {
        double lo = std::ceil(d.minGib);
        double hi = std::floor(d.maxGib);
        if (capability(hi).ok) {
            while (lo < hi) { // every model is monotone in size
                const double mid = std::floor((lo + hi) / 2);
                if (capability(mid).ok)
                    hi = mid;
                else
                    lo = mid + 1;
            }
            size = lo;
        }
    }
    if (size <= 0) {
        row.reason = QStringLiteral("no size of %1 meets it (largest: %2 GiB)").arg(d.label(), num(d.maxGib));
        return row;
    }
    row.met = true;
    row.sizeGib = size;
    Provisioning p = most();
    QString f0;
    QString e0;
    const auto atSize = Models::evaluate(d, size, {}, r.access, &f0, &e0);
    if (provisioned && atSize && atSize->maxProvisionableIops) { // the least IOPS that meets it at this size
        const auto& l = atSize;
        double lo = Models::minProvisionableIops(d, size).value_or(0);
        double hi = l && l->maxProvisionableIops ? *l->maxProvisionableIops : lo;
        p.iops = lo;
        if (!meets(d, size, p, r).ok) {
            while (hi - lo > 1) { // lo fails, hi meets
                const double mid = std::floor((lo + hi) / 2);
                p.iops = mid;
                if (meets(d, size, p, r).ok)
                    hi = mid;
                else
                    lo = mid;
            }
            p.iops = hi;
        }
    }
    const Check c = meets(d, size, p, r);
    row.sustainedMbps = c.mbps;
    row.sustainedIops = c.iops;
    if (provisioned && p.iops) {
        row.provisionIops = p.iops;
        const QJsonValue included = d.parameters.value(QStringLiteral("included_mbps"));
        if (r.mbps && d.model == u"provisioned_independent_of_size") {
            row.provisionMbps
                = std::ceil(std::max(*r.mbps, included.isDouble() ? toMBps(d, included.toDouble()) : 0.0));
            // what that provisioning delivers, not the most these IOPS would allow
            const double maxNative = d.parameters.value(QStringLiteral("max_mbps")).toDouble();
            const Provisioning exact { p.iops, std::min(fromMBps(d, *row.provisionMbps), maxNative), false };
            const Check delivered = meets(d, size, exact, r);
            if (delivered.ok) {
                row.sustainedMbps = delivered.mbps;
                row.sustainedIops = delivered.iops;
            }
        }
    }
    QString f;
    QString e;
    if (const auto l = Models::evaluate(d, size, p, r.access, &f, &e))
        row.tier = l->tier;
    if (r.commitP99Ms && d.latencyMs > *r.commitP99Ms) {
        row.met = false;
        row.reason = QStringLiteral("its typical latency (%1 ms, %2) alone exceeds the commit p99 of %3 ms")
                         .arg(num(d.latencyMs), d.latencyBasis, num(*r.commitP99Ms));
    } else if (r.commitP99Ms) {
        row.reason = QStringLiteral("no provider publishes a commit p99: measure it (the disk test's commit profile)");
    }
    if (d.uncertain)
        row.reason += (row.reason.isEmpty() ? QString() : QStringLiteral("; "))
            + QStringLiteral("catalog entry marked uncertain");
    return row;
}

VmRow vmRowFor(const Vm& v, const Requirement& r)
{
    VmRow row;
    row.vm = &v;
    auto enough = [&](const std::optional<VmLimit>& l) {
        if (!l)
            return false;
        const double atBlock = std::min(l->mbps, l->iops * r.blockKib * 1024 / 1e6);
        return (!r.mbps || l->mbps >= *r.mbps) && (!r.iops || atBlock * 1e6 / (r.blockKib * 1024) >= *r.iops);
    };
    if (!v.sustained && !v.burst) {
        row.verdict = QStringLiteral("unknown");
        row.text = QStringLiteral("no published disk cap");
    } else if (enough(v.sustained)) {
        row.verdict = QStringLiteral("ok");
        row.text = QStringLiteral("does not cap it (%1 MB/s, %2 IOPS sustained)")
                       .arg(num(v.sustained->mbps), num(v.sustained->iops));
    } else if (enough(v.burst)) {
        row.verdict = QStringLiteral("burst-only");
        row.text = QStringLiteral("only for %1 min per 24 h (sustained %2 MB/s, %3 IOPS)")
                       .arg(num(v.burstMaxMinutes), num(v.sustained ? v.sustained->mbps : 0),
                           num(v.sustained ? v.sustained->iops : 0));
    } else {
        row.verdict = QStringLiteral("caps");
        row.text = QStringLiteral("caps it at %1 MB/s, %2 IOPS").arg(num(v.sustained->mbps), num(v.sustained->iops));
    }
    return row;
}

} // namespace

QString Requirement::validate(const Catalog& c, QString* field) const
{
    auto bad = [&](const char* f, const QString& why) {
        *field = QString::fromLatin1(f);
        return why;
    };
    if (!mbps && !iops && !commitP99Ms)
        return bad("mbps", QStringLiteral("give at least one of --mbps, --iops, --commit-p99-ms"));
    if (mbps && !(*mbps > 0 && *mbps <= 1e6))
        return bad("mbps", QStringLiteral("must be > 0 and <= 1000000"));
    if (iops && !(*iops > 0 && *iops <= 1e8))
        return bad("iops", QStringLiteral("must be > 0 and <= 100000000"));
    if (!(blockKib >= 0.5 && blockKib <= 65536))
        return bad("block-kib", QStringLiteral("must be between 0.5 and 65536"));
    if (commitP99Ms && !(*commitP99Ms > 0 && *commitP99Ms <= 60000))
        return bad("commit-p99-ms", QStringLiteral("must be > 0 and <= 60000"));
    if (!provider.isEmpty() && !c.providers().contains(provider))
        return bad("provider",
            QStringLiteral("'%1' is not one of %2").arg(provider, c.providers().join(QStringLiteral(", "))));
    return {};
}

QString Requirement::text() const
{
    QStringList t;
    if (mbps)
        t << QStringLiteral("≥ %1 MB/s sustained").arg(num(*mbps));
    if (iops)
        t << QStringLiteral("≥ %1 IOPS at %2 KiB").arg(num(*iops), num(blockKib));
    if (commitP99Ms)
        t << QStringLiteral("commit p99 ≤ %1 ms").arg(num(*commitP99Ms));
    return t.join(QStringLiteral(", "))
        + (access == Access::Read ? QStringLiteral(" (reads)") : QStringLiteral(" (writes)"));
}

QJsonObject Requirement::toJson() const
{
    auto o = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
    return { { QStringLiteral("mb_per_s"), o(mbps) }, { QStringLiteral("iops"), o(iops) },
        { QStringLiteral("block_kib"), blockKib }, { QStringLiteral("commit_p99_ms"), o(commitP99Ms) },
        { QStringLiteral("provider"), provider.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(provider) },
        { QStringLiteral("access"), access == Access::Read ? QStringLiteral("read") : QStringLiteral("write") } };
}

NeedResult need(const Catalog& c, const Requirement& r)
{
    NeedResult out;
    out.requirement = r;
    for (const auto& d : c.disks)
        if (r.provider.isEmpty() || d.provider == r.provider)
            out.disks << rowFor(d, r);
    for (const auto& v : c.vms)
        if (r.provider.isEmpty() || v.provider == r.provider)
            out.vms << vmRowFor(v, r);
    return out;
}

QJsonObject NeedResult::toJson() const
{
    QJsonArray disks;
    for (const auto& row : this->disks) {
        auto o = [](const std::optional<double>& v) { return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null); };
        disks.append(QJsonObject { { QStringLiteral("disk_type"), row.disk->id },
            { QStringLiteral("label"), row.disk->label() }, { QStringLiteral("met"), row.met },
            { QStringLiteral("size_gib"), row.met ? QJsonValue(row.sizeGib) : QJsonValue(QJsonValue::Null) },
            { QStringLiteral("tier"), row.tier.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(row.tier) },
            { QStringLiteral("provision_iops"), o(row.provisionIops) },
            { QStringLiteral("provision_mb_per_s"), o(row.provisionMbps) },
            { QStringLiteral("sustained_mb_per_s"), std::round(row.sustainedMbps * 10) / 10 },
            { QStringLiteral("sustained_iops"), std::round(row.sustainedIops) }, { QStringLiteral("note"), row.reason },
            { QStringLiteral("sources"), sourcesJson(row.disk->sources) } });
    }
    QJsonArray vms;
    for (const auto& row : this->vms)
        vms.append(QJsonObject { { QStringLiteral("vm"), row.vm->id }, { QStringLiteral("provider"), row.vm->provider },
            { QStringLiteral("verdict"), row.verdict }, { QStringLiteral("text"), row.text },
            { QStringLiteral("sources"), sourcesJson(row.vm->sources) } });
    return { { QStringLiteral("requirement"), requirement.toJson() },
        { QStringLiteral("requirement_text"), requirement.text() }, { QStringLiteral("disk_types"), disks },
        { QStringLiteral("vms"), vms } };
}

} // namespace CloudCatalog
