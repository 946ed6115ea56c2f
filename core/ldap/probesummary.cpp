#include "core/ldap/probesummary.h"

#include "core/common/jsonread.h"
#include "core/common/runrecord.h"

#include <QJsonArray>

namespace {

QStringList probeSummaryStrings(const QJsonValue& v)
{
    QStringList out;
    const QJsonArray a = v.toArray();
    for (const auto& e : a)
        out << e.toString();
    return out;
}

ProbeTimings probeTimingsFromJson(const QJsonObject& t)
{
    ProbeTimings p;
    p.tcpConnect = JsonRead::number(t.value(QLatin1String("tcp_connect")));
    p.tlsHandshake = JsonRead::number(t.value(QLatin1String("tls_handshake")));
    p.bind = JsonRead::number(t.value(QLatin1String("bind")));
    p.rootDse = JsonRead::number(t.value(QLatin1String("root_dse")));
    p.search = JsonRead::number(t.value(QLatin1String("search")));
    return p;
}

} // namespace

RecordServer RecordServer::of(const RunRecord& record)
{
    RecordServer s;
    const QJsonObject o = record.server.toObject();
    s.identified = !o.isEmpty();
    s.id.vendor = o.value(QLatin1String("vendor")).toString();
    s.id.version = o.value(QLatin1String("version")).toString();
    s.id.kind = o.value(QLatin1String("kind")).toString();
    s.id.evidence = probeSummaryStrings(o.value(QLatin1String("evidence")));
    return s;
}

QString RecordServer::shortName() const
{
    QString version = id.version;
    if (const qsizetype paren = version.indexOf(u" ("); paren > 0)
        version.truncate(paren);
    QString name = id.vendor.isEmpty() ? id.kind : id.vendor;
    if (version.isEmpty() || version == name)
        return name;
    return version.startsWith(name) ? version : QString(name + u' ' + version);
}

ProbeTls ProbeTls::fromJson(const QJsonObject& tls)
{
    ProbeTls t;
    t.protocol = tls.value(QLatin1String("protocol")).toString();
    t.cipher = tls.value(QLatin1String("cipher")).toString();
    t.subject = tls.value(QLatin1String("subject")).toString();
    t.issuer = tls.value(QLatin1String("issuer")).toString();
    t.keyType = tls.value(QLatin1String("key_type")).toString();
    t.notAfter = tls.value(QLatin1String("not_after")).toString();
    t.keyBits = tls.value(QLatin1String("key_bits")).toInt();
    t.daysLeft = JsonRead::number(tls.value(QLatin1String("days_left")));
    t.sans = probeSummaryStrings(tls.value(QLatin1String("sans")));
    t.verified = tls.value(QLatin1String("verified")).toBool();
    return t;
}

ProbeSummary ProbeSummary::of(const RunRecord& record)
{
    ProbeSummary s;
    s.server = RecordServer::of(record);
    s.timings = probeTimingsFromJson(record.summary.value(QLatin1String("timings_ms")).toObject());
    if (const QJsonObject tls = record.summary.value(QLatin1String("tls")).toObject(); !tls.isEmpty())
        s.tls = ProbeTls::fromJson(tls);
    s.rootDse = record.summary.value(QLatin1String("root_dse")).toObject();
    const QJsonObject cause = record.extra.value(QLatin1String("failure_cause")).toObject();
    s.hasFailureCause = !cause.isEmpty();
    s.failureDetail = cause.value(QLatin1String("detail")).toString();
    return s;
}

QStringList ProbeSummary::rootDseValues(const QString& attribute) const
{
    return probeSummaryStrings(rootDse.value(attribute));
}

std::optional<QString> ProbeSummary::rootDseString(const QString& attribute) const
{
    const QJsonValue v = rootDse.value(attribute);
    return v.isString() ? std::optional<QString>(v.toString()) : std::nullopt;
}
