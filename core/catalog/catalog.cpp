#include "core/catalog/catalog.h"

#include "core/catalog/models.h"

#include <QFile>
#include <QJsonDocument>

namespace CloudCatalog {

namespace {

const QString kBuiltIn = QStringLiteral(":/dirbench/catalog/cloud-disks.json");

// Reads fields and remembers the first error with its JSON path ("disk_types[3].size_range.min_gib: ...").
class Reader
{
public:
    explicit Reader(QString* error)
        : m_error(error)
    { }
    bool ok() const { return m_ok; }
    bool fail(const QString& path, const QString& what)
    {
        if (m_ok && m_error)
            *m_error = path + QStringLiteral(": ") + what;
        m_ok = false;
        return false;
    }
    QString string(const QJsonObject& o, const QString& path, const QString& key, bool required = true)
    {
        const QJsonValue v = o.value(key);
        if (v.isString() && !v.toString().isEmpty())
            return v.toString();
        if (required || !(v.isUndefined() || v.isNull()))
            fail(path + u'.' + key, v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("must be a text"));
        return {};
    }
    // A number (> lower, finite); nullopt for null/absent when optional.
    std::optional<double> number(const QJsonObject& o, const QString& path, const QString& key, bool required)
    {
        const QJsonValue v = o.value(key);
        if (v.isDouble()) {
            if (v.toDouble() < 0)
                fail(path + u'.' + key, QStringLiteral("must not be negative"));
            return v.toDouble();
        }
        if (v.isNull() || v.isUndefined()) {
            if (required)
                fail(path + u'.' + key,
                    v.isUndefined() ? QStringLiteral("missing") : QStringLiteral("must be a number"));
            return std::nullopt;
        }
        fail(path + u'.' + key, QStringLiteral("must be a number"));
        return std::nullopt;
    }

private:
    QString* m_error;
    bool m_ok = true;
};

QList<Source> readSources(Reader& r, const QJsonObject& o, const QString& path)
{
    QList<Source> out;
    const QJsonValue v = o.value(QStringLiteral("sources"));
    if (!v.isArray() || v.toArray().isEmpty()) {
        r.fail(path + QStringLiteral(".sources"), QStringLiteral("needs at least one source"));
        return out;
    }
    const QJsonArray a = v.toArray();
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString p = path + QStringLiteral(".sources[%1]").arg(i);
        const QJsonObject s = a.at(i).toObject();
        out << Source { r.string(s, p, QStringLiteral("url")), r.string(s, p, QStringLiteral("as_of")),
            s.value(QStringLiteral("note")).toString() };
    }
    return out;
}

std::optional<VmLimit> readLimit(Reader& r, const QJsonObject& o, const QString& path, const QString& key)
{
    const QJsonValue v = o.value(key);
    if (v.isNull() || v.isUndefined())
        return std::nullopt;
    if (!v.isObject()) {
        r.fail(path + u'.' + key, QStringLiteral("must be an object or null"));
        return std::nullopt;
    }
    const QString p = path + u'.' + key;
    const auto mbps = r.number(v.toObject(), p, QStringLiteral("mbps"), true);
    const auto iops = r.number(v.toObject(), p, QStringLiteral("iops"), true);
    if (!mbps || !iops)
        return std::nullopt;
    return VmLimit { *mbps, *iops };
}

QList<Tier> readTiers(Reader& r, const QJsonObject& o, const QString& path)
{
    QList<Tier> out;
    const QJsonArray a = o.value(QStringLiteral("tiers")).toArray();
    if (a.isEmpty())
        r.fail(path + QStringLiteral(".tiers"), QStringLiteral("a fixed-tier model needs its tiers"));
    double last = 0;
    for (qsizetype i = 0; i < a.size(); ++i) {
        const QString p = path + QStringLiteral(".tiers[%1]").arg(i);
        const QJsonObject t = a.at(i).toObject();
        Tier tier;
        tier.sku = r.string(t, p, QStringLiteral("sku"));
        tier.sizeGib = r.number(t, p, QStringLiteral("size_gib"), true).value_or(0);
        tier.iops = r.number(t, p, QStringLiteral("iops"), true).value_or(0);
        tier.mbps = r.number(t, p, QStringLiteral("mbps"), true).value_or(0);
        tier.upTo = t.value(QStringLiteral("up_to")).toBool();
        tier.burstIops = r.number(t, p, QStringLiteral("burst_iops"), false);
        tier.burstMbps = r.number(t, p, QStringLiteral("burst_mbps"), false);
        tier.burst = t.value(QStringLiteral("burst")).toString();
        if (!tier.burst.isEmpty() && tier.burst != u"credit" && tier.burst != u"on-demand")
            r.fail(
                p + QStringLiteral(".burst"), QStringLiteral("'%1' is not credit, on-demand or null").arg(tier.burst));
        tier.burstMaxMinutes = r.number(t, p, QStringLiteral("burst_max_minutes"), false);
        if (r.ok() && tier.sizeGib <= last)
            r.fail(p + QStringLiteral(".size_gib"), QStringLiteral("tiers must grow in size"));
        last = tier.sizeGib;
        out << tier;
    }
    return out;
}

DiskType readDisk(Reader& r, const QJsonObject& o, const QString& path)
{
    DiskType d;
    d.id = r.string(o, path, QStringLiteral("id"));
    d.provider = r.string(o, path, QStringLiteral("provider"));
    d.name = r.string(o, path, QStringLiteral("name"));
    d.apiName = r.string(o, path, QStringLiteral("api_name"));
    d.media = r.string(o, path, QStringLiteral("media"));
    d.model = r.string(o, path, QStringLiteral("performance_model"));
    if (!d.model.isEmpty() && !Models::isKnown(d.model))
        r.fail(path + QStringLiteral(".performance_model"), QStringLiteral("unknown model '%1'").arg(d.model));
    const QString unit = r.string(o, path, QStringLiteral("throughput_unit"));
    if (!unit.isEmpty() && unit != u"MiB/s" && unit != u"MB/s")
        r.fail(path + QStringLiteral(".throughput_unit"), QStringLiteral("'%1' is not MiB/s or MB/s").arg(unit));
    d.mib = unit == u"MiB/s";
    const QJsonObject range = o.value(QStringLiteral("size_range")).toObject();
    const QString rp = path + QStringLiteral(".size_range");
    d.minGib = r.number(range, rp, QStringLiteral("min_gib"), true).value_or(1);
    d.maxGib = r.number(range, rp, QStringLiteral("max_gib"), true).value_or(65536);
    d.sizeRangePublished = range.value(QStringLiteral("published")).toBool(true);
    if (r.ok() && (d.minGib <= 0 || d.maxGib < d.minGib))
        r.fail(rp, QStringLiteral("min_gib must be > 0 and <= max_gib"));
    d.parameters = o.value(QStringLiteral("parameters")).toObject();
    if (r.ok()) {
        QString bad;
        QString why;
        if (!Models::checkParameters(d.model, d.parameters, &bad, &why))
            r.fail(path + QStringLiteral(".parameters") + (bad.isEmpty() ? QString() : u'.' + bad), why);
    }
    if (r.ok() && Models::usesTiers(d.model))
        d.tiers = readTiers(r, o, path);
    d.rows = o.value(QStringLiteral("rows")).toArray();
    const QJsonObject lat = o.value(QStringLiteral("typical_latency_ms")).toObject();
    const QString lp = path + QStringLiteral(".typical_latency_ms");
    d.latencyMs = r.number(lat, lp, QStringLiteral("value"), true).value_or(1);
    if (r.ok() && d.latencyMs <= 0)
        r.fail(lp + QStringLiteral(".value"), QStringLiteral("must be > 0"));
    d.latencyBasis = r.string(lat, lp, QStringLiteral("basis"));
    d.latencyNote = lat.value(QStringLiteral("note")).toString();
    d.notes = o.value(QStringLiteral("notes")).toString();
    d.uncertain = o.value(QStringLiteral("uncertain")).toBool();
    d.uncertainNotes = o.value(QStringLiteral("uncertain_notes")).toString();
    d.sources = readSources(r, o, path);
    return d;
}

Vm readVm(Reader& r, const QJsonObject& o, const QString& path)
{
    Vm v;
    v.id = r.string(o, path, QStringLiteral("id"));
    v.provider = r.string(o, path, QStringLiteral("provider"));
    v.sustained = readLimit(r, o, path, QStringLiteral("sustained"));
    v.burst = readLimit(r, o, path, QStringLiteral("burst"));
    v.cached = readLimit(r, o, path, QStringLiteral("cached"));
    if (v.burst)
        v.burstMaxMinutes = o.value(QStringLiteral("burst")).toObject().value(QStringLiteral("max_minutes")).toDouble();
    v.burstRule = o.value(QStringLiteral("burst_rule")).toString();
    v.notes = o.value(QStringLiteral("notes")).toString();
    v.uncertain = o.value(QStringLiteral("uncertain")).toBool();
    v.sources = readSources(r, o, path);
    return v;
}

} // namespace

QString DiskType::label() const
{
    const QString p = provider == u"aws" ? QStringLiteral("AWS")
        : provider == u"azure"           ? QStringLiteral("Azure")
        : provider == u"gcp"             ? QStringLiteral("GCP")
                                         : provider;
    return p + u' ' + apiName;
}

const DiskType* Catalog::disk(const QString& id) const
{
    for (const auto& d : disks)
        if (d.id == id)
            return &d;
    for (const auto& d : disks)
        if (d.apiName.compare(id, Qt::CaseInsensitive) == 0)
            return &d;
    return nullptr;
}

const Vm* Catalog::vm(const QString& id) const
{
    for (const auto& v : vms)
        if (v.id.compare(id, Qt::CaseInsensitive) == 0)
            return &v;
    return nullptr;
}

QStringList Catalog::providers() const
{
    QStringList out;
    for (const auto& d : disks)
        if (!out.contains(d.provider))
            out << d.provider;
    return out;
}

std::optional<Catalog> Catalog::fromJson(const QJsonObject& root, QString* error)
{
    Reader r(error);
    Catalog c;
    const QJsonValue sv = root.value(QStringLiteral("schema_version"));
    if (!sv.isDouble()) {
        r.fail(QStringLiteral("schema_version"), QStringLiteral("missing (not a DirBench cloud catalog?)"));
        return std::nullopt;
    }
    c.schemaVersion = sv.toInt();
    if (c.schemaVersion != SchemaVersion) {
        r.fail(QStringLiteral("schema_version"),
            QStringLiteral("%1 is not %2 (normalise a schema 1 file with scripts/normalise-catalog.py)")
                .arg(c.schemaVersion)
                .arg(SchemaVersion));
        return std::nullopt;
    }
    c.compiled = root.value(QStringLiteral("compiled")).toString();
    c.attribution = root.value(QStringLiteral("attribution")).toString();
    const QJsonArray disks = root.value(QStringLiteral("disk_types")).toArray();
    if (disks.isEmpty())
        r.fail(QStringLiteral("disk_types"), QStringLiteral("missing or empty"));
    for (qsizetype i = 0; i < disks.size() && r.ok(); ++i) {
        const QString p = QStringLiteral("disk_types[%1]").arg(i);
        c.disks << readDisk(r, disks.at(i).toObject(), p);
        for (qsizetype j = 0; j + 1 < c.disks.size() && r.ok(); ++j)
            if (c.disks.at(j).id == c.disks.last().id)
                r.fail(p + QStringLiteral(".id"), QStringLiteral("'%1' appears twice").arg(c.disks.last().id));
    }
    const QJsonArray vms = root.value(QStringLiteral("vm_caps")).toArray();
    for (qsizetype i = 0; i < vms.size() && r.ok(); ++i)
        c.vms << readVm(r, vms.at(i).toObject(), QStringLiteral("vm_caps[%1]").arg(i));
    c.seedMeasurements = root.value(QStringLiteral("seed_measurements")).toObject();
    if (!r.ok())
        return std::nullopt;
    return c;
}

std::optional<Catalog> Catalog::loadFile(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = path + QStringLiteral(": ") + f.errorString();
        return std::nullopt;
    }
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        if (error)
            *error = path + QStringLiteral(": not a JSON object (") + pe.errorString()
                + QStringLiteral(" at byte %1)").arg(pe.offset);
        return std::nullopt;
    }
    auto c = fromJson(doc.object(), error);
    if (c)
        c->origin = path;
    return c;
}

Catalog Catalog::load()
{
    QString error;
    auto c = loadFile(kBuiltIn, &error);
    Q_ASSERT_X(c, "Catalog::load", qPrintable(error)); // the built-in file is checked by tst_catalog
    return c ? *c : Catalog {};
}

QJsonArray sourcesJson(const QList<Source>& sources)
{
    QJsonArray a;
    for (const auto& s : sources) {
        QJsonObject o { { QStringLiteral("url"), s.url }, { QStringLiteral("as_of"), s.asOf } };
        if (!s.note.isEmpty())
            o.insert(QStringLiteral("note"), s.note);
        a.append(o);
    }
    return a;
}

} // namespace CloudCatalog
