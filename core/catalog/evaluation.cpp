#include "core/catalog/evaluation.h"

#include <QJsonArray>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace CloudCatalog {

namespace {

constexpr double kMiB = 1.048576; // MB per MiB

QJsonValue opt(const std::optional<double>& v)
{
    if (!v || !std::isfinite(*v))
        return QJsonValue::Null;
    return std::round(*v * 100) / 100;
}

QJsonObject limitJson(const Limit& l)
{
    return { { QStringLiteral("mb_per_s"), opt(l.mbps) }, { QStringLiteral("iops"), opt(l.iops) } };
}

QString num(const std::optional<double>& v, int decimals = 1)
{
    if (!v)
        return QStringLiteral("not published");
    return QLocale(QLocale::English).toString(*v, 'f', std::abs(*v - std::round(*v)) < 1e-9 ? 0 : decimals);
}

std::optional<double> minOf(std::initializer_list<std::optional<double>> values)
{
    std::optional<double> m;
    for (const auto& v : values)
        if (v && (!m || *v < *m))
            m = v;
    return m;
}

} // namespace

double toMBps(const DiskType& d, double v)
{
    return d.mib ? v * kMiB : v;
}

double fromMBps(const DiskType& d, double v)
{
    return d.mib ? v / kMiB : v;
}

std::optional<double> mbpsAtBlock(const Limit& l, double blockKib, double ioUnitKib)
{
    std::optional<double> byIops;
    if (l.iops) {
        const double ioCount = ioUnitKib > 0 ? std::max(1.0, std::ceil(blockKib / ioUnitKib)) : 1.0;
        byIops = *l.iops / ioCount * blockKib * 1024 / 1e6;
    }
    return minOf({ l.mbps, byIops });
}

std::optional<Evaluation> evaluate(const DiskType& d, double sizeGib, const Vm* vm, const Provisioning& p,
    const Workload& w, QString* field, QString* error)
{
    if (w.queueDepth < 0 || w.queueDepth > 65536) {
        *field = QStringLiteral("queue-depth");
        *error = QStringLiteral("must be between 1 and 65536");
        return std::nullopt;
    }
    if (w.blockKib < 0 || w.blockKib > 65536) {
        *field = QStringLiteral("block-kib");
        *error = QStringLiteral("must be between 0.5 and 65536 KiB");
        return std::nullopt;
    }
    const auto raw = Models::evaluate(d, sizeGib, p, w.access, field, error);
    if (!raw)
        return std::nullopt;
    Evaluation e;
    e.disk = &d;
    e.vm = vm;
    e.requestedGib = sizeGib;
    e.workload = w;
    e.raw = *raw;
    auto mb = [&](const std::optional<double>& v) { return v ? std::optional<double>(toMBps(d, *v)) : std::nullopt; };
    e.diskLimit = { mb(raw->mbps), raw->iops };
    if (raw->burstIops || raw->burstMbps)
        e.diskBurst = { mb(raw->burstMbps ? raw->burstMbps : raw->mbps), raw->burstIops ? raw->burstIops : raw->iops };
    if (vm && vm->sustained)
        e.vmLimit = { vm->sustained->mbps, vm->sustained->iops };
    if (vm && vm->burst)
        e.vmBurst = { vm->burst->mbps, vm->burst->iops };
    e.latencyMs = w.latencyMs.value_or(d.latencyMs);
    e.latencyBasis = w.latencyMs ? QStringLiteral("measured") : d.latencyBasis;
    const bool haveBlock = w.blockKib > 0;
    if (w.queueDepth > 0 && e.latencyMs > 0) {
        e.queueCeiling.iops = w.queueDepth / (e.latencyMs / 1000);
        if (haveBlock)
            e.queueCeiling.mbps = *e.queueCeiling.iops * w.blockKib * 1024 / 1e6;
    }
    const double unit = raw->ioUnitKib;
    auto at = [&](const Limit& l, double u) { return haveBlock ? mbpsAtBlock(l, w.blockKib, u) : l.mbps; };
    const auto diskMb = at(e.diskLimit, unit);
    const auto vmMb = at(e.vmLimit, 256);
    const auto qMb = e.queueCeiling.mbps;
    e.effective.mbps = minOf({ diskMb, vmMb, qMb });
    e.effective.iops = haveBlock && e.effective.mbps
        ? std::optional<double>(*e.effective.mbps * 1e6 / (w.blockKib * 1024))
        : minOf({ e.diskLimit.iops, e.vmLimit.iops, e.queueCeiling.iops });
    const auto burstDisk = e.diskBurst.mbps || e.diskBurst.iops ? at(e.diskBurst, unit) : diskMb;
    const auto burstVm = e.vmBurst.mbps ? at(e.vmBurst, 256) : vmMb;
    e.effectiveBurst.mbps = minOf({ burstDisk, burstVm, qMb });
    if (!e.effective.mbps) {
        e.binding = QStringLiteral("none");
        e.bindingText = QStringLiteral("no published limit applies");
    } else if (qMb && *qMb <= *e.effective.mbps + 1e-9) {
        e.binding = QStringLiteral("queue-depth");
        e.bindingText = QStringLiteral("the test's queue depth binds: %1 × %2 KiB in flight at %3 ms (%4) drive at "
                                       "most %5 MB/s")
                            .arg(w.queueDepth)
                            .arg(w.blockKib)
                            .arg(e.latencyMs)
                            .arg(e.latencyBasis, num(qMb));
    } else if (vmMb && *vmMb <= *e.effective.mbps + 1e-9) {
        e.binding = QStringLiteral("vm");
        e.bindingText = QStringLiteral("the VM binds: %1 caps disk I/O at %2 MB/s").arg(vm->id, num(vmMb));
    } else {
        e.binding = QStringLiteral("disk");
        e.bindingText = QStringLiteral("the disk binds: %1 at %2 GiB allows %3 MB/s")
                            .arg(d.label())
                            .arg(sizeGib)
                            .arg(num(diskMb));
    }
    return e;
}

QJsonObject Evaluation::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("disk_type"), disk->id);
    o.insert(QStringLiteral("disk_label"), disk->label());
    o.insert(QStringLiteral("size_gib"), requestedGib);
    o.insert(QStringLiteral("tier"), raw.tier.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(raw.tier));
    o.insert(QStringLiteral("performance_model"), disk->model);
    o.insert(QStringLiteral("published_unit"), disk->mib ? QStringLiteral("MiB/s") : QStringLiteral("MB/s"));
    o.insert(QStringLiteral("disk"), limitJson(diskLimit));
    QJsonObject burst = limitJson(diskBurst);
    burst.insert(
        QStringLiteral("kind"), raw.burstKind.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(raw.burstKind));
    burst.insert(QStringLiteral("seconds"), opt(raw.burstSeconds));
    if (raw.burstSeconds && std::isinf(*raw.burstSeconds))
        burst.insert(QStringLiteral("seconds"), QStringLiteral("unlimited while enabled"));
    burst.insert(QStringLiteral("refill_seconds"), opt(raw.refillSeconds));
    o.insert(QStringLiteral("disk_burst"), burst);
    if (raw.provisionedIops || raw.maxProvisionableIops)
        o.insert(QStringLiteral("provisioning"),
            QJsonObject { { QStringLiteral("iops"), opt(raw.provisionedIops) },
                { QStringLiteral("mb_per_s"),
                    opt(raw.provisionedMbps ? std::optional<double>(toMBps(*disk, *raw.provisionedMbps))
                                            : std::nullopt) },
                { QStringLiteral("max_iops_at_size"), opt(raw.maxProvisionableIops) },
                { QStringLiteral("max_mb_per_s_at_size"),
                    opt(raw.maxProvisionableMbps ? std::optional<double>(toMBps(*disk, *raw.maxProvisionableMbps))
                                                 : std::nullopt) } });
    o.insert(QStringLiteral("vm"), vm ? QJsonValue(vm->id) : QJsonValue(QJsonValue::Null));
    o.insert(
        QStringLiteral("vm_cap"), vm && vm->sustained ? QJsonValue(limitJson(vmLimit)) : QJsonValue(QJsonValue::Null));
    o.insert(
        QStringLiteral("vm_burst"), vm && vm->burst ? QJsonValue(limitJson(vmBurst)) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("latency_ms"), latencyMs);
    o.insert(QStringLiteral("latency_basis"), latencyBasis);
    o.insert(QStringLiteral("queue_depth"),
        workload.queueDepth > 0 ? QJsonValue(workload.queueDepth) : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("block_kib"),
        workload.blockKib > 0 ? QJsonValue(workload.blockKib) : QJsonValue(QJsonValue::Null));
    o.insert(
        QStringLiteral("access"), workload.access == Access::Read ? QStringLiteral("read") : QStringLiteral("write"));
    o.insert(QStringLiteral("queue_ceiling"), limitJson(queueCeiling));
    o.insert(QStringLiteral("effective"), limitJson(effective));
    o.insert(QStringLiteral("effective_burst"), limitJson(effectiveBurst));
    o.insert(QStringLiteral("binding"), binding);
    o.insert(QStringLiteral("binding_text"), bindingText);
    o.insert(QStringLiteral("notes"), QJsonArray::fromStringList(raw.notes));
    QJsonArray sources = sourcesJson(disk->sources);
    if (vm)
        for (const QJsonArray vmSources = sourcesJson(vm->sources); const auto& s : vmSources)
            sources.append(s);
    o.insert(QStringLiteral("sources"), sources);
    o.insert(QStringLiteral("uncertain"), disk->uncertain || (vm && vm->uncertain));
    return o;
}

QString Evaluation::summaryText() const
{
    QStringList l;
    l << QStringLiteral("%1 at %2 GiB%3: %4 IOPS, %5 MB/s sustained")
             .arg(disk->label(), QString::number(requestedGib),
                 raw.tier.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(raw.tier), num(diskLimit.iops),
                 num(diskLimit.mbps));
    if (diskBurst.mbps || diskBurst.iops) {
        QString lasts;
        if (raw.burstSeconds)
            lasts = std::isinf(*raw.burstSeconds)
                ? QStringLiteral(", as long as on-demand bursting is enabled (extra charge)")
                : QStringLiteral(" for %1 min on a full credit bucket").arg(num(*raw.burstSeconds / 60));
        l << QStringLiteral("  burst: %1 IOPS, %2 MB/s%3").arg(num(diskBurst.iops), num(diskBurst.mbps), lasts);
    } else {
        l << QStringLiteral("  burst: none");
    }
    if (vm)
        l << (vm->sustained
                ? QStringLiteral("  VM %1: %2 MB/s, %3 IOPS sustained%4")
                      .arg(vm->id, num(vmLimit.mbps), num(vmLimit.iops),
                          vm->burst ? QStringLiteral("; %1 MB/s, %2 IOPS for %3 min per 24 h")
                                          .arg(num(vmBurst.mbps), num(vmBurst.iops), num(vm->burstMaxMinutes))
                                    : QString())
                : QStringLiteral("  VM %1: no published disk cap").arg(vm->id));
    if (queueCeiling.mbps || queueCeiling.iops)
        l << QStringLiteral("  queue depth %1 at %2 ms (%3): %4 IOPS, %5 MB/s")
                 .arg(workload.queueDepth)
                 .arg(latencyMs)
                 .arg(latencyBasis, num(queueCeiling.iops), num(queueCeiling.mbps));
    l << QStringLiteral("  effective: %1 MB/s, %2 IOPS (%3)")
             .arg(num(effective.mbps), num(effective.iops, 0), bindingText);
    for (const auto& n : raw.notes)
        l << QStringLiteral("  note: ") + n;
    return l.join(u'\n');
}

} // namespace CloudCatalog
