#include "core/catalog/compare.h"

#include <QLocale>

#include <algorithm>
#include <cmath>

namespace CloudCatalog {

namespace {

constexpr double kAboveMargin = 1.05; // 5 % for rounding and MB vs MiB slips
constexpr double kFarBelow = 0.5;

QString num(const std::optional<double>& v)
{
    if (!v)
        return QStringLiteral("not published");
    return QLocale(QLocale::English).toString(*v, 'f', std::abs(*v - std::round(*v)) < 1e-9 ? 0 : 1);
}

QJsonValue opt(const std::optional<double>& v)
{
    return v && std::isfinite(*v) ? QJsonValue(std::round(*v * 10) / 10) : QJsonValue(QJsonValue::Null);
}

std::optional<double> maxOf(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::max(*a, *b);
}

std::optional<double> minOf(const std::optional<double>& a, const std::optional<double>& b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return std::min(*a, *b);
}

} // namespace

QStringList testsOf(const RunRecord& rec)
{
    const QJsonObject tests = rec.summary.value(QStringLiteral("tests")).toObject();
    if (!tests.isEmpty())
        return tests.keys();
    const QString profile = rec.spec.value(QStringLiteral("profile")).toString();
    return profile.isEmpty() ? QStringList() : QStringList { profile };
}

std::optional<Measured> measuredFromRecord(const RunRecord& rec, const QString& wanted, QString* error)
{
    if (rec.kind != u"disk") {
        *error = QStringLiteral("a '%1' record, not a disk test").arg(rec.kind);
        return std::nullopt;
    }
    Measured m;
    QJsonObject summary = rec.summary;
    QJsonObject spec = rec.spec;
    m.test = spec.value(QStringLiteral("profile")).toString();
    const QJsonObject tests = summary.value(QStringLiteral("tests")).toObject();
    if (!tests.isEmpty()) {
        QString test = wanted;
        if (test.isEmpty())
            test = tests.contains(QStringLiteral("seq-write")) ? QStringLiteral("seq-write") : tests.begin().key();
        if (!tests.contains(test)) {
            *error = QStringLiteral("the suite has no test '%1' (it has %2)")
                         .arg(test, tests.keys().join(QStringLiteral(", ")));
            return std::nullopt;
        }
        summary = tests.value(test).toObject();
        m.test = test;
        spec = summary.value(QStringLiteral("spec")).toObject();
    } else if (!wanted.isEmpty() && wanted != m.test) {
        *error = QStringLiteral("the record is a '%1' test, not '%2'").arg(m.test, wanted);
        return std::nullopt;
    }
    const QJsonValue mb = summary.value(QStringLiteral("mb_per_s"));
    if (!mb.isDouble()) {
        *error = QStringLiteral("summary.mb_per_s is missing (a failed or cancelled run?)");
        return std::nullopt;
    }
    m.mbps = mb.toDouble();
    if (summary.value(QStringLiteral("iops")).isDouble())
        m.iops = summary.value(QStringLiteral("iops")).toDouble();
    const QJsonObject lat = summary.value(QStringLiteral("latency_us")).toObject();
    if (lat.value(QStringLiteral("p50")).isDouble() && lat.value(QStringLiteral("p50")).toDouble() > 0)
        m.latencyMs = lat.value(QStringLiteral("p50")).toDouble() / 1000;
    const QJsonObject engine = rec.engine.toObject();
    m.buffered = spec.value(QStringLiteral("buffered")).toBool() || m.test == u"dd"
        || (engine.contains(QStringLiteral("direct")) && !engine.value(QStringLiteral("direct")).toBool());
    m.blockKib = spec.value(QStringLiteral("block_bytes")).toDouble() / 1024;
    if (m.blockKib <= 0 && m.test == u"dd")
        m.blockKib = 64;
    // Buffered writes: the kernel's writeback decides how many I/Os are in flight, so there is no QD ceiling.
    m.queueDepth = m.buffered ? 0 : spec.value(QStringLiteral("queue_depth")).toInt();
    for (const auto& v : rec.intervals) {
        const QJsonObject o = v.toObject();
        if (!tests.isEmpty() && o.value(QStringLiteral("series")).toString() != m.test)
            continue;
        m.intervals.append(o);
    }
    m.label = QStringLiteral("%1 on %2").arg(m.test, rec.spec.value(QStringLiteral("dir")).toString());
    return m;
}

Knee findKnee(const QJsonArray& intervals, double minDrop, int minSamples)
{
    QList<double> t;
    QList<double> v;
    for (const auto& i : intervals) {
        const QJsonObject o = i.toObject();
        if (o.value(QStringLiteral("mb_per_s")).isDouble()) {
            t << o.value(QStringLiteral("t")).toDouble();
            v << o.value(QStringLiteral("mb_per_s")).toDouble();
        }
    }
    Knee best;
    const qsizetype n = v.size();
    if (n < 2 * minSamples)
        return best;
    QList<double> prefix(n + 1, 0);
    for (qsizetype i = 0; i < n; ++i)
        prefix[i + 1] = prefix[i] + v[i];
    double bestRatio = 1;
    for (qsizetype k = minSamples; k <= n - minSamples; ++k) {
        const double before = prefix[k] / double(k);
        const double after = (prefix[n] - prefix[k]) / double(n - k);
        const double ratio = after > 0 ? before / after : (before > 0 ? 1e9 : 1);
        if (ratio > bestRatio && after <= (1 - minDrop) * before) {
            bestRatio = ratio;
            best = { true, t[k], before, after };
        }
    }
    return best;
}

bool Comparison::hasFlag(const QString& code) const
{
    return std::any_of(flags.begin(), flags.end(), [&](const Flag& f) { return f.code == code; });
}

std::optional<Comparison> compare(const Measured& m, const DiskType& d, double sizeGib, const Vm* vm,
    const Provisioning& p, QString* field, QString* error)
{
    Workload w;
    w.queueDepth = m.queueDepth;
    w.blockKib = m.blockKib;
    w.latencyMs = m.latencyMs;
    const auto e = evaluate(d, sizeGib, vm, p, w, field, error);
    if (!e)
        return std::nullopt;
    Comparison c;
    c.measured = m;
    c.evaluation = *e;
    c.listedMbps = e->diskLimit.mbps;
    c.listedMaxMbps = maxOf(e->diskLimit.mbps, e->raw.burstKind == u"on-demand" ? std::nullopt : e->diskBurst.mbps);
    c.vmCapMbps = e->vmLimit.mbps;
    c.vmMaxMbps = maxOf(e->vmLimit.mbps, e->vmBurst.mbps);
    c.ceilingMbps = e->effective.mbps;
    c.knee = findKnee(m.intervals);
    const double measured = m.mbps;
    const auto setupMax = minOf(
        e->raw.burstKind == u"on-demand" ? maxOf(c.listedMaxMbps, e->diskBurst.mbps) : c.listedMaxMbps, c.vmMaxMbps);
    const auto setupSustained = minOf(c.listedMbps, c.vmCapMbps);
    auto add = [&](const char* code, const QString& message) {
        c.flags << Flag { QString::fromLatin1(code), message };
    };
    if (setupMax && !m.upperBound && measured > *setupMax * kAboveMargin) {
        QStringList over;
        if (c.listedMaxMbps && measured > *c.listedMaxMbps * kAboveMargin)
            over << QStringLiteral("the disk's %1 MB/s").arg(num(c.listedMaxMbps));
        if (c.vmMaxMbps && measured > *c.vmMaxMbps * kAboveMargin)
            over << QStringLiteral("the VM's %1 MB/s").arg(num(c.vmMaxMbps));
        add("above-published-max",
            QStringLiteral("%1 MB/s is above the published maximum (%2): not measuring the cloud disk — cache, local "
                           "NVMe instance storage or compression")
                .arg(num(measured), over.join(QStringLiteral(" and "))));
    } else if (setupSustained && !m.upperBound && measured > *setupSustained * kAboveMargin) {
        add("only-while-bursting",
            QStringLiteral("%1 MB/s is above the sustained limit of %2 MB/s: reachable only while bursting")
                .arg(num(measured), num(setupSustained)));
    }
    if (c.knee.found)
        add("burst-knee",
            QStringLiteral("throughput fell from %1 to %2 MB/s at %3 s: burst credits or a cache ran out")
                .arg(num(c.knee.beforeMbps), num(c.knee.afterMbps), num(c.knee.atSeconds)));
    if (c.listedMbps && measured < kFarBelow * *c.listedMbps) {
        QStringList why;
        if (e->queueCeiling.mbps && *e->queueCeiling.mbps < *c.listedMbps) {
            why << QStringLiteral("queue depth too low");
            add("queue-depth-low",
                QStringLiteral("queue depth %1 × %2 KiB at %3 ms per I/O reaches at most %4 MB/s of the listed %5")
                    .arg(m.queueDepth)
                    .arg(m.blockKib)
                    .arg(e->latencyMs)
                    .arg(num(e->queueCeiling.mbps), num(c.listedMbps)));
        }
        if (c.vmCapMbps && *c.vmCapMbps < *c.listedMbps) {
            why << QStringLiteral("VM cap");
            add("vm-cap",
                QStringLiteral("the VM caps disk I/O at %1 MB/s, below the disk's %2")
                    .arg(num(c.vmCapMbps), num(c.listedMbps)));
        }
        if (c.knee.found)
            why << QStringLiteral("burst exhausted");
        if (why.isEmpty())
            why << (m.buffered
                    ? QStringLiteral("few I/Os in flight (a buffered single stream such as dd), a VM cap, or "
                                     "burst credits exhausted")
                    : QStringLiteral("a VM cap, burst credits exhausted, or a busy neighbour"));
        add("far-below-listed",
            QStringLiteral("%1%2 MB/s is %3 % of the listed %4 MB/s; likely: %5")
                .arg(m.upperBound ? QStringLiteral("< ") : QString(), num(measured))
                .arg(std::round(measured / *c.listedMbps * 100))
                .arg(num(c.listedMbps), why.join(QStringLiteral(", "))));
    }
    if (vm && !vm->sustained && !vm->burst)
        add("no-vm-figure", QStringLiteral("%1 has no published disk cap to compare with").arg(vm->id));
    return c;
}

QJsonObject Comparison::summaryJson() const
{
    QJsonArray flagsJson;
    for (const auto& f : flags)
        flagsJson.append(QJsonObject { { QStringLiteral("code"), f.code }, { QStringLiteral("message"), f.message } });
    QJsonObject o;
    o.insert(QStringLiteral("label"), measured.label);
    o.insert(QStringLiteral("test"), measured.test);
    o.insert(QStringLiteral("measured_mb_per_s"), measured.mbps);
    o.insert(QStringLiteral("measured_is_upper_bound"), measured.upperBound);
    o.insert(QStringLiteral("measured_iops"), opt(measured.iops));
    o.insert(QStringLiteral("listed_mb_per_s"), opt(listedMbps));
    o.insert(QStringLiteral("listed_max_mb_per_s"), opt(listedMaxMbps));
    o.insert(QStringLiteral("vm_cap_mb_per_s"), opt(vmCapMbps));
    o.insert(QStringLiteral("vm_max_mb_per_s"), opt(vmMaxMbps));
    o.insert(QStringLiteral("ceiling_mb_per_s"), opt(ceilingMbps));
    o.insert(QStringLiteral("binding"), evaluation.binding);
    o.insert(QStringLiteral("knee"),
        knee.found ? QJsonValue(QJsonObject { { QStringLiteral("t"), knee.atSeconds },
            { QStringLiteral("before_mb_per_s"), opt(knee.beforeMbps) },
            { QStringLiteral("after_mb_per_s"), opt(knee.afterMbps) } })
                   : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("flags"), flagsJson);
    o.insert(QStringLiteral("evaluation"), evaluation.toJson());
    return o;
}

QString Comparison::text() const
{
    QStringList l;
    l << QStringLiteral("%1: measured %2%3 MB/s | listed %4 (max %5) | VM cap %6 (max %7) | ceiling %8 (%9)")
             .arg(measured.label, measured.upperBound ? QStringLiteral("< ") : QString(), num(measured.mbps),
                 num(listedMbps), num(listedMaxMbps), num(vmCapMbps), num(vmMaxMbps), num(ceilingMbps),
                 evaluation.binding);
    for (const auto& f : flags)
        l << QStringLiteral("  [%1] %2").arg(f.code, f.message);
    return l.join(u'\n');
}

} // namespace CloudCatalog
