#include "core/common/runrecord.h"

#include <QJsonDocument>

namespace {

QString str(const char* s)
{
    return QString::fromLatin1(s);
}

QJsonObject verdictToJson(const Verdict& v)
{
    QJsonObject o;
    o.insert(str("requirement"), v.requirement);
    o.insert(str("source"), v.source);
    o.insert(str("passed"), v.passed);
    o.insert(str("measured"), v.measured);
    o.insert(str("threshold"), v.threshold);
    o.insert(str("unit"), v.unit);
    if (!v.note.isEmpty())
        o.insert(str("note"), v.note);
    if (!v.requirementId.isEmpty())
        o.insert(str("requirement_id"), v.requirementId);
    if (v.measuredIsUpperBound)
        o.insert(str("measured_is_upper_bound"), true);
    return o;
}

Verdict verdictFromJson(const QJsonObject& o)
{
    Verdict v;
    v.requirement = o.value(str("requirement")).toString();
    v.source = o.value(str("source")).toString();
    v.passed = o.value(str("passed")).toBool();
    v.measured = o.value(str("measured")).toDouble();
    v.threshold = o.value(str("threshold")).toDouble();
    v.unit = o.value(str("unit")).toString();
    v.note = o.value(str("note")).toString();
    v.requirementId = o.value(str("requirement_id")).toString();
    v.measuredIsUpperBound = o.value(str("measured_is_upper_bound")).toBool();
    return v;
}

} // namespace

void RunRecord::addWarning(const QString& code, const QString& message)
{
    if (!hasWarning(code))
        warnings.append({ code, message });
}

bool RunRecord::hasWarning(const QString& code) const
{
    for (const auto& w : warnings)
        if (w.code == code)
            return true;
    return false;
}

QJsonObject RunRecord::toJson() const
{
    QJsonObject o;
    o.insert(str("schema"), str(Schema));
    o.insert(str("kind"), kind);
    o.insert(str("status"), status);
    o.insert(str("failure"), failure.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(failure));
    o.insert(str("started"), started.toString(Qt::ISODateWithMs));
    o.insert(str("spec"), spec);
    o.insert(str("environment"), environment);
    o.insert(str("server"), server);
    o.insert(str("engine"), engine);
    QJsonArray w;
    for (const auto& x : warnings)
        w.append(QJsonObject { { str("code"), x.code }, { str("message"), x.message } });
    o.insert(str("warnings"), w);
    o.insert(str("intervals"), intervals);
    o.insert(str("summary"), summary);
    QJsonArray v;
    for (const auto& x : verdicts)
        v.append(verdictToJson(x));
    o.insert(str("verdicts"), v);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        if (!o.contains(it.key()))
            o.insert(it.key(), it.value());
    return o;
}

// The schema first (QJsonDocument orders keys by name): a file manager's content sniffing, the MIME type
// application/x-dirbench-record's magic, finds it in the first bytes, before any interval.
QByteArray RunRecord::toJsonBytes() const
{
    QJsonObject o = toJson();
    o.remove(str("schema"));
    const QByteArray rest = QJsonDocument(o).toJson(QJsonDocument::Indented); // "{\n    ...\n}\n"
    return QByteArray("{\n    \"schema\": \"") + Schema + "\"" + (o.isEmpty() ? "\n" : ",\n") + rest.mid(2);
}

std::optional<RunRecord> RunRecord::fromJson(const QJsonObject& o, QString* error)
{
    auto fail = [error](const QString& why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (o.value(str("schema")).toString() != str(Schema))
        return fail(
            str("schema: expected \"") + str(Schema) + str("\", found \"") + o.value(str("schema")).toString() + u'"');
    RunRecord r;
    r.kind = o.value(str("kind")).toString();
    if (r.kind.isEmpty())
        return fail(str("kind: missing"));
    r.status = o.value(str("status")).toString(str("ok"));
    // "running" and "interrupted" are the history's (DESIGN.md): a run in progress, a run whose process died.
    if (r.status != u"ok" && r.status != u"failed" && r.status != u"cancelled" && r.status != u"running"
        && r.status != u"interrupted")
        return fail(str("status: must be ok, failed, cancelled, running or interrupted, found \"") + r.status + u'"');
    r.failure = o.value(str("failure")).toString();
    r.started = QDateTime::fromString(o.value(str("started")).toString(), Qt::ISODateWithMs);
    r.spec = o.value(str("spec")).toObject();
    r.environment = o.value(str("environment")).toObject();
    r.server = o.value(str("server"));
    r.engine = o.value(str("engine"));
    const QJsonArray warnings = o.value(str("warnings")).toArray();
    for (const auto& x : warnings)
        r.warnings.append(
            { x.toObject().value(str("code")).toString(), x.toObject().value(str("message")).toString() });
    r.intervals = o.value(str("intervals")).toArray();
    r.summary = o.value(str("summary")).toObject();
    const QJsonArray verdicts = o.value(str("verdicts")).toArray();
    for (const auto& x : verdicts)
        r.verdicts.append(verdictFromJson(x.toObject()));
    static const QStringList known
        = { str("schema"), str("kind"), str("status"), str("failure"), str("started"), str("spec"), str("environment"),
              str("server"), str("engine"), str("warnings"), str("intervals"), str("summary"), str("verdicts") };
    for (auto it = o.begin(); it != o.end(); ++it)
        if (!known.contains(it.key()))
            r.extra.insert(it.key(), it.value());
    return r;
}

std::optional<RunRecord> RunRecord::fromJsonBytes(const QByteArray& bytes, QString* error)
{
    QJsonParseError pe;
    const auto doc = QJsonDocument::fromJson(bytes, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = str("not a JSON object: ") + pe.errorString();
        return std::nullopt;
    }
    return fromJson(doc.object(), error);
}
