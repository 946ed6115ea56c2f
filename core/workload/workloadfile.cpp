#include "core/workload/workloadfile.h"

#include "core/common/jsonread.h"

#include <QBuffer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

namespace {

QJsonArray stringArray(const QStringList& list)
{
    return QJsonArray::fromStringList(list);
}

QStringList stringList(const QJsonValue& v)
{
    QStringList out;
    const QJsonArray a = v.toArray();
    for (const auto& x : a)
        out << x.toString();
    return out;
}

void putOptional(QJsonObject& o, const char* key, const std::optional<double>& v)
{
    if (v)
        o.insert(QLatin1String(key), *v);
}

QJsonObject writeValuesJson(const std::vector<std::pair<QString, QStringList>>& values)
{
    QJsonObject o;
    for (const auto& [attr, vals] : values)
        o.insert(attr, stringArray(vals));
    return o;
}

QJsonObject opJson(const WorkloadOp& op)
{
    QJsonObject o { { QStringLiteral("t"), double(op.offsetNs) }, { QStringLiteral("kind"), workloadOpName(op.kind) } };
    if (op.templateId >= 0)
        o.insert(QStringLiteral("tpl"), op.templateId);
    if (!op.values.isEmpty())
        o.insert(QStringLiteral("v"), stringArray(op.values));
    if (!op.base.isEmpty())
        o.insert(QStringLiteral("base"), op.base);
    if (op.kind == WorkloadOpKind::Search)
        o.insert(QStringLiteral("scope"), op.scope);
    if (!op.attrs.isEmpty())
        o.insert(QStringLiteral("attrs"), stringArray(op.attrs));
    if (op.extendedOid)
        o.insert(QStringLiteral("oid"), *op.extendedOid);
    if (op.abandonTarget >= 0)
        o.insert(QStringLiteral("abandon"), op.abandonTarget);
    if (!op.writeValues.empty())
        o.insert(QStringLiteral("write"), writeValuesJson(op.writeValues));
    if (op.resultCode)
        o.insert(QStringLiteral("rc"), *op.resultCode);
    if (op.entries)
        o.insert(QStringLiteral("n"), double(*op.entries));
    putOptional(o, "etime_ms", op.etimeMs);
    putOptional(o, "wtime_ms", op.wtimeMs);
    putOptional(o, "optime_ms", op.optimeMs);
    if (op.resultOffsetNs)
        o.insert(QStringLiteral("result_t"), double(*op.resultOffsetNs));
    if (op.unindexed)
        o.insert(QStringLiteral("unindexed"), true);
    if (op.filterTruncated)
        o.insert(QStringLiteral("cut"), true);
    return o;
}

QJsonObject connectionJson(const WorkloadConnection& c)
{
    QJsonArray ops;
    for (const auto& op : c.ops)
        ops.append(opJson(op));
    QJsonObject o { { QStringLiteral("conn"), double(c.id) }, { QStringLiteral("client"), c.client },
        { QStringLiteral("ops"), ops } };
    if (c.openNs)
        o.insert(QStringLiteral("open_ns"), double(*c.openNs));
    if (c.closeNs)
        o.insert(QStringLiteral("close_ns"), double(*c.closeNs));
    return o;
}

QJsonObject headerJson(const Workload& w)
{
    QJsonArray templates;
    for (const auto& t : w.templates)
        templates.append(QJsonObject { { QStringLiteral("kind"), workloadOpName(t.kind) },
            { QStringLiteral("template"), t.text }, { QStringLiteral("slots"), t.slotCount } });
    const QJsonObject source { { QStringLiteral("format"), w.source.format },
        { QStringLiteral("files"), stringArray(w.source.files) }, { QStringLiteral("first"), w.source.first },
        { QStringLiteral("last"), w.source.last },
        { QStringLiteral("first_epoch_ns"), double(w.source.firstEpochNs) } };
    return { { QStringLiteral("schema"), QLatin1String(WorkloadFile::Schema) }, { QStringLiteral("source"), source },
        { QStringLiteral("anonymised"), w.anonymised }, { QStringLiteral("values_kept"), w.valuesKept },
        { QStringLiteral("gaps"), stringArray(w.gaps) }, { QStringLiteral("templates"), templates },
        { QStringLiteral("analysis"), w.analysis } };
}

// Reading: each failure names the line and the field.
struct Reader
{
    QString path;
    int line = 0;
    QString* error = nullptr;

    bool fail(const QString& field, const QString& what) const
    {
        if (error)
            *error = QStringLiteral("%1: line %2: %3: %4").arg(path).arg(line).arg(field, what);
        return false;
    }

    bool header(const QJsonObject& h, Workload& w) const
    {
        if (h.value(QStringLiteral("schema")).toString() != QLatin1String(WorkloadFile::Schema))
            return fail(QStringLiteral("schema"),
                QStringLiteral("not a DirBench workload (expected \"%1\")").arg(QLatin1String(WorkloadFile::Schema)));
        const QJsonObject s = h.value(QStringLiteral("source")).toObject();
        w.source = { s.value(QStringLiteral("format")).toString(), stringList(s.value(QStringLiteral("files"))),
            s.value(QStringLiteral("first")).toString(), s.value(QStringLiteral("last")).toString(),
            uint64_t(s.value(QStringLiteral("first_epoch_ns")).toDouble()) };
        w.anonymised = h.value(QStringLiteral("anonymised")).toBool(true);
        w.valuesKept = h.value(QStringLiteral("values_kept")).toBool();
        w.gaps = stringList(h.value(QStringLiteral("gaps")));
        w.analysis = h.value(QStringLiteral("analysis")).toObject();
        const QJsonArray templates = h.value(QStringLiteral("templates")).toArray();
        for (const auto& tv : templates) {
            const QJsonObject t = tv.toObject();
            const auto kind = workloadOpKind(t.value(QStringLiteral("kind")).toString());
            if (!kind)
                return fail(QStringLiteral("templates[%1].kind").arg(w.templates.size()), QStringLiteral("unknown"));
            w.templates.push_back(
                { *kind, t.value(QStringLiteral("template")).toString(), t.value(QStringLiteral("slots")).toInt() });
        }
        return true;
    }

    bool op(const QJsonObject& o, int index, int templates, WorkloadOp& op) const
    {
        const QString at = QStringLiteral("ops[%1].").arg(index);
        const auto kind = workloadOpKind(o.value(QStringLiteral("kind")).toString());
        if (!kind)
            return fail(at + QStringLiteral("kind"), QStringLiteral("unknown operation"));
        op.kind = *kind;
        op.offsetNs = uint64_t(o.value(QStringLiteral("t")).toDouble());
        op.templateId = o.value(QStringLiteral("tpl")).toInt(-1);
        if (op.templateId >= templates)
            return fail(at + QStringLiteral("tpl"), QStringLiteral("no such template"));
        op.values = stringList(o.value(QStringLiteral("v")));
        op.base = o.value(QStringLiteral("base")).toString();
        op.scope = o.value(QStringLiteral("scope")).toInt(2);
        op.attrs = stringList(o.value(QStringLiteral("attrs")));
        if (o.contains(QStringLiteral("oid")))
            op.extendedOid = o.value(QStringLiteral("oid")).toString();
        op.abandonTarget = o.value(QStringLiteral("abandon")).toInt(-1);
        const QJsonObject write = o.value(QStringLiteral("write")).toObject();
        for (auto it = write.constBegin(); it != write.constEnd(); ++it)
            op.writeValues.emplace_back(it.key(), stringList(it.value()));
        if (o.value(QStringLiteral("rc")).isDouble())
            op.resultCode = o.value(QStringLiteral("rc")).toInt();
        if (o.value(QStringLiteral("n")).isDouble())
            op.entries = int64_t(o.value(QStringLiteral("n")).toDouble());
        op.etimeMs = JsonRead::number(o, "etime_ms");
        op.wtimeMs = JsonRead::number(o, "wtime_ms");
        op.optimeMs = JsonRead::number(o, "optime_ms");
        if (o.value(QStringLiteral("result_t")).isDouble())
            op.resultOffsetNs = uint64_t(o.value(QStringLiteral("result_t")).toDouble());
        op.unindexed = o.value(QStringLiteral("unindexed")).toBool();
        op.filterTruncated = o.value(QStringLiteral("cut")).toBool();
        return true;
    }

    bool connection(const QJsonObject& o, Workload& w) const
    {
        WorkloadConnection c;
        c.id = uint64_t(o.value(QStringLiteral("conn")).toDouble());
        c.client = o.value(QStringLiteral("client")).toString();
        if (o.value(QStringLiteral("open_ns")).isDouble())
            c.openNs = uint64_t(o.value(QStringLiteral("open_ns")).toDouble());
        if (o.value(QStringLiteral("close_ns")).isDouble())
            c.closeNs = uint64_t(o.value(QStringLiteral("close_ns")).toDouble());
        const QJsonArray ops = o.value(QStringLiteral("ops")).toArray();
        c.ops.reserve(ops.size());
        for (const auto& ov : ops) {
            WorkloadOp op;
            if (!this->op(ov.toObject(), int(c.ops.size()), int(w.templates.size()), op))
                return false;
            c.ops.push_back(std::move(op));
        }
        w.connections.push_back(std::move(c));
        return true;
    }
};

} // namespace

namespace WorkloadFile {

namespace {

std::optional<Workload> readFrom(QIODevice& f, const QString& path, QString* error)
{
    Reader r { path, 0, error };
    if (!f.isOpen() && !f.open(QIODevice::ReadOnly)) {
        r.fail(QStringLiteral("file"), f.errorString());
        return std::nullopt;
    }
    Workload w;
    while (!f.atEnd()) {
        const QByteArray bytes = f.readLine().trimmed();
        ++r.line;
        if (bytes.isEmpty())
            continue;
        QJsonParseError pe {};
        const QJsonDocument doc = QJsonDocument::fromJson(bytes, &pe);
        if (!doc.isObject()) {
            r.fail(QStringLiteral("json"), pe.error ? pe.errorString() : QStringLiteral("not an object"));
            return std::nullopt;
        }
        const bool ok = r.line == 1 ? r.header(doc.object(), w) : r.connection(doc.object(), w);
        if (!ok)
            return std::nullopt;
    }
    if (r.line == 0) {
        r.fail(QStringLiteral("schema"), QStringLiteral("the file is empty"));
        return std::nullopt;
    }
    return w;
}

} // namespace

std::optional<Workload> read(const QString& path, QString* error)
{
    QFile f(path);
    return readFrom(f, path, error);
}

std::optional<Workload> decode(const QByteArray& bytes, const QString& name, QString* error)
{
    QBuffer b;
    b.setData(bytes);
    return readFrom(b, name, error);
}

QByteArray encode(const Workload& workload)
{
    QByteArray out = QJsonDocument(headerJson(workload)).toJson(QJsonDocument::Compact) + '\n';
    for (const auto& c : workload.connections)
        out += QJsonDocument(connectionJson(c)).toJson(QJsonDocument::Compact) + '\n';
    return out;
}

bool write(const Workload& workload, const QString& path, QString* error)
{
    QSaveFile f(path);
    auto fail = [&](const QString& what) {
        if (error)
            *error = QStringLiteral("%1: %2").arg(path, what);
        return false;
    };
    if (!f.open(QIODevice::WriteOnly))
        return fail(f.errorString());
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    f.write(encode(workload));
    if (!f.commit())
        return fail(f.errorString());
    return true;
}

} // namespace WorkloadFile
