#include "core/store/recordfile.h"

#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace RecordFile {

namespace {

QString check(const QJsonObject& o)
{
    struct Field
    {
        const char* name;
        QJsonValue::Type type;
    };
    // Optional fields must at least have the right type: an import must not store something the GUI cannot read.
    for (const Field& f : { Field { "spec", QJsonValue::Object }, Field { "environment", QJsonValue::Object },
             Field { "intervals", QJsonValue::Array }, Field { "summary", QJsonValue::Object },
             Field { "warnings", QJsonValue::Array }, Field { "verdicts", QJsonValue::Array } }) {
        const QJsonValue v = o.value(QLatin1String(f.name));
        if (!v.isUndefined() && !v.isNull() && v.type() != f.type)
            return QLatin1String(f.name)
                + (f.type == QJsonValue::Object ? QStringLiteral(": must be an object")
                                                : QStringLiteral(": must be a list"));
    }
    const QJsonValue started = o.value(QStringLiteral("started"));
    if (!started.isString() || !QDateTime::fromString(started.toString(), Qt::ISODateWithMs).isValid())
        return QStringLiteral("started: missing or not an ISO 8601 time");
    const QJsonArray intervals = o.value(QStringLiteral("intervals")).toArray();
    for (qsizetype i = 0; i < intervals.size(); ++i)
        if (!intervals.at(i).isObject() || !intervals.at(i).toObject().value(QStringLiteral("t")).isDouble())
            return QStringLiteral("intervals[%1]: must be an object with a number t").arg(i);
    return {};
}

} // namespace

std::optional<RunRecord> read(const QString& path, QString* error)
{
    auto fail = [&](const QString& why) -> std::optional<RunRecord> {
        if (error)
            *error = path + QStringLiteral(": ") + why;
        return std::nullopt;
    };
    QFile f(path);
    if (!QFileInfo(path).isFile())
        return fail(QStringLiteral("not a file"));
    if (f.size() > MaxBytes)
        return fail(QStringLiteral("larger than %1 MB: not a run record").arg(MaxBytes / 1000000));
    if (!f.open(QIODevice::ReadOnly))
        return fail(f.errorString());
    const QByteArray bytes = f.readAll();
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject())
        return fail(QStringLiteral("not a JSON object (%1 at byte %2)").arg(pe.errorString()).arg(pe.offset));
    QString why;
    auto rec = RunRecord::fromJson(doc.object(), &why);
    if (!rec)
        return fail(why);
    if (const QString bad = check(doc.object()); !bad.isEmpty())
        return fail(bad);
    return rec;
}

bool write(const RunRecord& record, const QString& path, QString* error)
{
    QSaveFile f(path);
    const QByteArray bytes = record.toJsonBytes();
    if (!f.open(QIODevice::WriteOnly) || !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error)
            *error = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    return true;
}

} // namespace RecordFile
