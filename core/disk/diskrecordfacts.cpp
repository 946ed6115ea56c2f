#include "core/disk/diskrecordfacts.h"

#include "core/common/jsonread.h"

DiskRecordFacts DiskRecordFacts::of(const RunRecord& record)
{
    DiskRecordFacts f;
    const QJsonObject spec
        = record.kind == u"disk-under-load" ? record.spec.value(QLatin1String("disk")).toObject() : record.spec;
    f.profile = spec.value(QLatin1String("profile")).toString();
    f.sizeBytes = JsonRead::number(record.spec.value(QLatin1String("size_bytes")));
    const QJsonObject fs = record.environment.value(QLatin1String("filesystem")).toObject();
    f.fsType = fs.value(QLatin1String("type")).toString();
    f.fsFreeBytes = JsonRead::number(fs.value(QLatin1String("free_bytes")));
    const QJsonObject engine = record.engine.toObject();
    f.hasEngine = !engine.isEmpty();
    f.engineIo = engine.value(QLatin1String("io")).toString();
    f.engineDirect = engine.value(QLatin1String("direct")).toBool();
    return f;
}

QString DiskRecordFacts::engineText() const
{
    return QString(engineIo + u", " + (engineDirect ? u"direct" : u"buffered") + u" I/O");
}
