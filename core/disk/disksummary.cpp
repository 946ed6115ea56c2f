// DiskSteadyState, DiskSpread and DiskSummary of core/disk/diskresult.h: their JSON, in one place.
#include "core/common/reportformat.h"
#include "core/disk/diskjson_p.h"
#include "core/disk/diskresult.h"

#include <QJsonArray>
#include <QSet>

using namespace DiskJson;

namespace {

const QSet<QString>& summaryKeys()
{
    static const QSet<QString> keys { QStringLiteral("test"), QStringLiteral("mb_per_s"), QStringLiteral("iops"),
        QStringLiteral("bytes"), QStringLiteral("ops"), QStringLiteral("seconds"), QStringLiteral("latency_us"),
        QStringLiteral("latency_histogram_ns"), QStringLiteral("setup_s"), QStringLiteral("devices"),
        QStringLiteral("device_bytes_before_sync"), QStringLiteral("commits_per_s"), QStringLiteral("steady_state"),
        QStringLiteral("complete"), QStringLiteral("repeats"), QStringLiteral("spread"), QStringLiteral("tests") };
    return keys;
}

QJsonObject spreadJson(const DiskSummary& s)
{
    QJsonObject o;
    if (s.spreadMbPerS)
        o.insert(QStringLiteral("mb_per_s"), s.spreadMbPerS->toJson());
    if (s.spreadIops)
        o.insert(QStringLiteral("iops"), s.spreadIops->toJson());
    return o;
}

void readSpread(const QJsonObject& o, DiskSummary& s)
{
    if (o.value(QStringLiteral("mb_per_s")).isObject())
        s.spreadMbPerS = DiskSpread::fromJson(o.value(QStringLiteral("mb_per_s")).toObject());
    if (o.value(QStringLiteral("iops")).isObject())
        s.spreadIops = DiskSpread::fromJson(o.value(QStringLiteral("iops")).toObject());
}

void putFigures(QJsonObject& o, const DiskSummary& s)
{
    putIf(o, QStringLiteral("mb_per_s"), s.mbPerS);
    putIf(o, QStringLiteral("iops"), s.iops);
    putIf(o, QStringLiteral("bytes"), s.bytes);
    putIf(o, QStringLiteral("ops"), s.ops);
    putIf(o, QStringLiteral("seconds"), s.seconds);
    const DiskLatency& l = s.latencyUs;
    if (s.hasRates() || l.mean || l.p50 || l.p99 || l.max)
        o.insert(QStringLiteral("latency_us"), s.latencyUs.toJson());
    if (!s.latencyHistogramNs.isUndefined())
        o.insert(QStringLiteral("latency_histogram_ns"), s.latencyHistogramNs);
    putIf(o, QStringLiteral("setup_s"), s.setupS);
    putIf(o, QStringLiteral("commits_per_s"), s.commitsPerS);
    if (s.devices)
        o.insert(QStringLiteral("devices"), DiskDeviceSum::toJson(s.devices));
    if (s.hasDeviceBytesBeforeSync)
        o.insert(QStringLiteral("device_bytes_before_sync"), orNull(s.deviceBytesBeforeSync));
}

void readFigures(const QJsonObject& o, DiskSummary& s)
{
    s.mbPerS = number(o, QStringLiteral("mb_per_s"));
    s.iops = number(o, QStringLiteral("iops"));
    s.bytes = number(o, QStringLiteral("bytes"));
    s.ops = number(o, QStringLiteral("ops"));
    s.seconds = number(o, QStringLiteral("seconds"));
    s.latencyUs = DiskLatency::fromJson(o.value(QStringLiteral("latency_us")).toObject());
    s.latencyHistogramNs = o.value(QStringLiteral("latency_histogram_ns"));
    s.setupS = number(o, QStringLiteral("setup_s"));
    s.commitsPerS = number(o, QStringLiteral("commits_per_s"));
    s.devices = DiskDeviceSum::fromJson(o.value(QStringLiteral("devices")));
    s.hasDeviceBytesBeforeSync = o.contains(QStringLiteral("device_bytes_before_sync"));
    s.deviceBytesBeforeSync = number(o, QStringLiteral("device_bytes_before_sync"));
}

} // namespace

QString DiskSteadyState::rateKey(DiskRate rate)
{
    return rate == DiskRate::MBps ? QStringLiteral("mb_per_s") : QStringLiteral("iops");
}

QJsonObject DiskSteadyState::toJson() const
{
    QJsonObject o { { QStringLiteral("evaluated"), evaluated }, { QStringLiteral("rounds"), rounds },
        { QStringLiteral("reached"), reached }, { QStringLiteral("at_s"), orNull(atS) },
        { QStringLiteral("window_s"), windowS }, { QStringLiteral("cache_answered"), cacheAnswered },
        { rateKey(rate), orNull(value) } };
    if (reachedIn)
        o.insert(QStringLiteral("reached_in"), *reachedIn);
    if (of)
        o.insert(QStringLiteral("of"), *of);
    return o;
}

DiskSteadyState DiskSteadyState::fromJson(const QJsonObject& o)
{
    DiskSteadyState s;
    s.evaluated = o.value(QStringLiteral("evaluated")).toBool();
    s.rounds = o.value(QStringLiteral("rounds")).toInt();
    s.reached = o.value(QStringLiteral("reached")).toBool();
    s.atS = number(o, QStringLiteral("at_s"));
    s.windowS = o.value(QStringLiteral("window_s")).toInt(5);
    s.cacheAnswered = o.value(QStringLiteral("cache_answered")).toBool();
    s.rate = o.contains(QStringLiteral("iops")) ? DiskRate::Iops : DiskRate::MBps;
    s.value = number(o, rateKey(s.rate));
    if (o.value(QStringLiteral("reached_in")).isDouble())
        s.reachedIn = o.value(QStringLiteral("reached_in")).toInt();
    if (o.value(QStringLiteral("of")).isDouble())
        s.of = o.value(QStringLiteral("of")).toInt();
    return s;
}

QJsonObject DiskSpread::toJson() const
{
    return QJsonObject { { QStringLiteral("min"), min }, { QStringLiteral("median"), median },
        { QStringLiteral("max"), max }, { QStringLiteral("cv"), cv } };
}

DiskSpread DiskSpread::fromJson(const QJsonObject& o)
{
    return DiskSpread { o.value(QStringLiteral("min")).toDouble(), o.value(QStringLiteral("median")).toDouble(),
        o.value(QStringLiteral("max")).toDouble(), o.value(QStringLiteral("cv")).toDouble() };
}

std::optional<double> DiskSummary::metric(const QString& path) const
{
    const QString lat = QStringLiteral("latency_us.");
    if (path.startsWith(lat)) {
        const QString p = path.mid(lat.size());
        const std::pair<const char*, std::optional<double>> fields[] = { { "mean", latencyUs.mean },
            { "p50", latencyUs.p50 }, { "p95", latencyUs.p95 }, { "p99", latencyUs.p99 }, { "p999", latencyUs.p999 },
            { "min", latencyUs.min }, { "max", latencyUs.max } };
        for (const auto& [name, v] : fields)
            if (p == QLatin1String(name))
                return v;
        return std::nullopt;
    }
    const std::pair<const char*, std::optional<double>> fields[]
        = { { "mb_per_s", mbPerS }, { "iops", iops }, { "bytes", bytes }, { "ops", ops }, { "seconds", seconds },
              { "commits_per_s", commitsPerS }, { "setup_s", setupS } };
    for (const auto& [name, v] : fields)
        if (path == QLatin1String(name))
            return v;
    return std::nullopt;
}

const DiskSummary* DiskSummary::part(const QString& name) const
{
    for (const DiskSummary& t : tests)
        if (t.test == name)
            return &t;
    return !isSuite() && test == name ? this : nullptr;
}

QJsonObject DiskSummary::toJson() const
{
    QJsonObject o = other;
    if (!test.isEmpty())
        o.insert(QStringLiteral("test"), test);
    putFigures(o, *this);
    if (steadyState)
        o.insert(QStringLiteral("steady_state"), steadyState->toJson());
    if (!complete)
        o.insert(QStringLiteral("complete"), false);
    if (!repeats.empty()) {
        QJsonArray a;
        for (const DiskSummary& r : repeats)
            a.append(r.toJson());
        o.insert(QStringLiteral("repeats"), a);
    }
    if (spreadMbPerS || spreadIops)
        o.insert(QStringLiteral("spread"), spreadJson(*this));
    if (isSuite()) {
        QJsonObject t;
        for (const DiskSummary& part : tests) {
            QJsonObject p = part.toJson();
            p.remove(QStringLiteral("test")); // the key names it
            t.insert(part.test, p);
        }
        o.insert(QStringLiteral("tests"), t);
    }
    return o;
}

DiskSummary DiskSummary::fromJson(const QJsonObject& o)
{
    DiskSummary s;
    s.test = o.value(QStringLiteral("test")).toString();
    readFigures(o, s);
    if (o.value(QStringLiteral("steady_state")).isObject())
        s.steadyState = DiskSteadyState::fromJson(o.value(QStringLiteral("steady_state")).toObject());
    s.complete = o.value(QStringLiteral("complete")).toBool(true);
    const QJsonArray repeatsList = o.value(QStringLiteral("repeats")).toArray();
    for (const auto& r : repeatsList)
        s.repeats.push_back(fromJson(r.toObject()));
    readSpread(o.value(QStringLiteral("spread")).toObject(), s);
    s.suite = o.value(QStringLiteral("tests")).isObject();
    const QJsonObject tests = o.value(QStringLiteral("tests")).toObject();
    for (auto it = tests.begin(); it != tests.end(); ++it) {
        DiskSummary part = fromJson(it.value().toObject());
        part.test = it.key();
        s.tests.push_back(part);
    }
    s.other = unknownKeys(o, summaryKeys());
    return s;
}

QString DiskSummary::figureText() const
{
    if (test.startsWith(u"rand") && iops)
        return QString(ReportFormat::number(*iops) + u" IOPS");
    if (test.startsWith(u"commit") && commitsPerS)
        return QString(ReportFormat::number(*commitsPerS) + u" commits/s");
    if (mbPerS)
        return QString(ReportFormat::number(*mbPerS) + u" MB/s");
    return {};
}

QString DiskSummary::headlineText() const
{
    QStringList parts;
    for (const DiskSummary& t : tests)
        if (const QString f = t.figureText(); !f.isEmpty())
            parts << QString(t.test + u' ' + f);
    if (tests.empty())
        if (const QString f = figureText(); !f.isEmpty())
            parts << f;
    return parts.join(QStringLiteral(", "));
}
