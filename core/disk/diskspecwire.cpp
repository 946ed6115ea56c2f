// DiskSpec's wire form: what a coordinator sends an agent that runs the test on its own host.
#include "core/disk/diskspec.h"

namespace {

namespace WireKey {
constexpr auto profile = "profile", dir = "dir", size = "size_bytes", block = "block_bytes", qd = "queue_depth",
               duration = "duration_s", repeat = "repeat", data = "data", commitAppend = "commit_append",
               engine = "engine", buffered = "buffered", interval = "interval_ms", requirements = "requirements",
               untilSteady = "until_steady_s", suitePart = "suite_part_s", suiteSustained = "suite_sustained_s";
}

QString wireKey(const char* k)
{
    return QString::fromLatin1(k);
}

std::optional<IoEngineChoice> engineFromName(const QString& name)
{
    for (IoEngineChoice e : { IoEngineChoice::Auto, IoEngineChoice::IoUring, IoEngineChoice::Threads })
        if (DiskSpec::engineName(e) == name)
            return e;
    return std::nullopt;
}

} // namespace

QJsonObject DiskSpec::toWire() const
{
    return QJsonObject { { wireKey(WireKey::profile), profileName(profile) }, { wireKey(WireKey::dir), dir },
        { wireKey(WireKey::size), double(sizeBytes) }, { wireKey(WireKey::block), double(blockBytes) },
        { wireKey(WireKey::qd), queueDepth }, { wireKey(WireKey::duration), durationSec },
        { wireKey(WireKey::repeat), repeat }, { wireKey(WireKey::data), dataName(data) },
        { wireKey(WireKey::commitAppend), commitAppend }, { wireKey(WireKey::engine), engineName(engine) },
        { wireKey(WireKey::buffered), forceBuffered }, { wireKey(WireKey::interval), intervalMs },
        { wireKey(WireKey::requirements), requirementProfile }, { wireKey(WireKey::untilSteady), untilSteadySec },
        { wireKey(WireKey::suitePart), suitePartSeconds },
        { wireKey(WireKey::suiteSustained), suiteSustainedSeconds } };
}

std::optional<DiskSpec> DiskSpec::fromWire(const QJsonObject& o, QString* error)
{
    auto bad = [&](const char* field, const QString& value) {
        *error = QStringLiteral("disk spec: %1 '%2' is not one this agent knows (install the same DirBench version)")
                     .arg(wireKey(field), value);
        return std::nullopt;
    };
    DiskSpec s;
    const QString profile = o.value(wireKey(WireKey::profile)).toString();
    const auto p = profileFromName(profile);
    if (!p)
        return bad(WireKey::profile, profile);
    s.profile = *p;
    const QString data = o.value(wireKey(WireKey::data)).toString();
    const auto d = data == u"default" ? std::optional<DiskData>(DiskData::Default) : dataFromName(data);
    if (!d)
        return bad(WireKey::data, data);
    s.data = *d;
    const QString engine = o.value(wireKey(WireKey::engine)).toString();
    const auto e = engineFromName(engine);
    if (!e)
        return bad(WireKey::engine, engine);
    s.engine = *e;
    s.dir = o.value(wireKey(WireKey::dir)).toString();
    s.sizeBytes = qint64(o.value(wireKey(WireKey::size)).toDouble());
    s.blockBytes = qint64(o.value(wireKey(WireKey::block)).toDouble());
    s.queueDepth = o.value(wireKey(WireKey::qd)).toInt();
    s.durationSec = o.value(wireKey(WireKey::duration)).toDouble(-1);
    s.repeat = o.value(wireKey(WireKey::repeat)).toInt(1);
    s.commitAppend = o.value(wireKey(WireKey::commitAppend)).toBool();
    s.forceBuffered = o.value(wireKey(WireKey::buffered)).toBool();
    s.intervalMs = o.value(wireKey(WireKey::interval)).toInt(250);
    s.requirementProfile = o.value(wireKey(WireKey::requirements)).toString();
    s.untilSteadySec = o.value(wireKey(WireKey::untilSteady)).toDouble();
    s.suitePartSeconds = o.value(wireKey(WireKey::suitePart)).toDouble(10);
    s.suiteSustainedSeconds = o.value(wireKey(WireKey::suiteSustained)).toDouble(30);
    return s;
}
