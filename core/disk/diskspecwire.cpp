// DiskSpec's wire form: what a coordinator sends an agent that runs the test on its own host.
#include "core/disk/diskspec.h"

namespace {

namespace Key {
constexpr auto profile = "profile", dir = "dir", size = "size_bytes", block = "block_bytes", qd = "queue_depth",
               duration = "duration_s", repeat = "repeat", data = "data", commitAppend = "commit_append",
               engine = "engine", buffered = "buffered", interval = "interval_ms", requirements = "requirements",
               untilSteady = "until_steady_s", suitePart = "suite_part_s", suiteSustained = "suite_sustained_s";
}

QString key(const char* k)
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
    return QJsonObject { { key(Key::profile), profileName(profile) }, { key(Key::dir), dir },
        { key(Key::size), double(sizeBytes) }, { key(Key::block), double(blockBytes) }, { key(Key::qd), queueDepth },
        { key(Key::duration), durationSec }, { key(Key::repeat), repeat }, { key(Key::data), dataName(data) },
        { key(Key::commitAppend), commitAppend }, { key(Key::engine), engineName(engine) },
        { key(Key::buffered), forceBuffered }, { key(Key::interval), intervalMs },
        { key(Key::requirements), requirementProfile }, { key(Key::untilSteady), untilSteadySec },
        { key(Key::suitePart), suitePartSeconds }, { key(Key::suiteSustained), suiteSustainedSeconds } };
}

std::optional<DiskSpec> DiskSpec::fromWire(const QJsonObject& o, QString* error)
{
    auto bad = [&](const char* field, const QString& value) {
        *error = QStringLiteral("disk spec: %1 '%2' is not one this agent knows (install the same DirBench version)")
                     .arg(key(field), value);
        return std::nullopt;
    };
    DiskSpec s;
    const QString profile = o.value(key(Key::profile)).toString();
    const auto p = profileFromName(profile);
    if (!p)
        return bad(Key::profile, profile);
    s.profile = *p;
    const QString data = o.value(key(Key::data)).toString();
    const auto d = data == u"default" ? std::optional<DiskData>(DiskData::Default) : dataFromName(data);
    if (!d)
        return bad(Key::data, data);
    s.data = *d;
    const QString engine = o.value(key(Key::engine)).toString();
    const auto e = engineFromName(engine);
    if (!e)
        return bad(Key::engine, engine);
    s.engine = *e;
    s.dir = o.value(key(Key::dir)).toString();
    s.sizeBytes = qint64(o.value(key(Key::size)).toDouble());
    s.blockBytes = qint64(o.value(key(Key::block)).toDouble());
    s.queueDepth = o.value(key(Key::qd)).toInt();
    s.durationSec = o.value(key(Key::duration)).toDouble(-1);
    s.repeat = o.value(key(Key::repeat)).toInt(1);
    s.commitAppend = o.value(key(Key::commitAppend)).toBool();
    s.forceBuffered = o.value(key(Key::buffered)).toBool();
    s.intervalMs = o.value(key(Key::interval)).toInt(250);
    s.requirementProfile = o.value(key(Key::requirements)).toString();
    s.untilSteadySec = o.value(key(Key::untilSteady)).toDouble();
    s.suitePartSeconds = o.value(key(Key::suitePart)).toDouble(10);
    s.suiteSustainedSeconds = o.value(key(Key::suiteSustained)).toDouble(30);
    return s;
}
