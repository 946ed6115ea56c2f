#include "core/sizing/serversizing.h"

#include "core/sizing/adsizing.h"
#include "core/sizing/ds389sizing.h"
#include "core/sizing/edirsizing.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/openldapsizing.h"

#include <QDateTime>
#include <QJsonArray>

namespace ServerSizing {

std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error)
{
    if (const ProbeError e = in.validate(); e.isError()) {
        if (error)
            *error = e;
        return std::nullopt;
    }
    switch (in.server) {
    case SizingServer::Ds389:
        return Ds389Sizing::compute(in, error);
    case SizingServer::OpenLdap:
        return OpenLdapSizing::compute(in, error);
    case SizingServer::EDirectory:
        return EdirSizing::compute(in, error);
    case SizingServer::ActiveDirectory:
        return AdSizing::compute(in, error);
    }
    return std::nullopt;
}

RunRecord buildRecord(
    const SizingInput& in, const SizingResult& result, const LdifStats* ldif, const QJsonObject& environment)
{
    RunRecord rec;
    rec.kind = QStringLiteral("sizing");
    rec.started = QDateTime::currentDateTime();
    rec.spec = in.toJson();
    rec.environment = environment;
    rec.warnings = result.warnings;
    QJsonObject s = result.terms;
    s.insert(QStringLiteral("server"), result.server);
    QJsonArray recs;
    for (const auto& r : result.recommendations)
        recs.append(r.toJson());
    s.insert(QStringLiteral("recommendations"), recs);
    s.insert(QStringLiteral("apply"),
        QJsonObject { { QStringLiteral("format"), result.applyFormat }, { QStringLiteral("text"), result.apply },
            { QStringLiteral("applied"), false },
            { QStringLiteral("note"),
                QStringLiteral("DirBench shows this change; it never applies one the user has not confirmed") } });
    for (auto it = result.extra.begin(); it != result.extra.end(); ++it)
        s.insert(it.key(), it.value());
    if (ldif) {
        s.insert(QStringLiteral("ldif"), ldif->toJson());
        rec.spec.insert(QStringLiteral("ldif"), ldif->path);
    }
    rec.summary = s;
    return rec;
}

std::optional<SizingResult> resultOf(const RunRecord& record, QString* error)
{
    const QJsonObject& s = record.summary;
    const QString why = record.kind != u"sizing"
        ? QStringLiteral("this is a \"%1\" record, not a sizing").arg(record.kind)
        : !s.value(QStringLiteral("recommendations")).isArray() ? QStringLiteral("the record holds no recommendations")
                                                                : QString();
    if (!why.isEmpty()) {
        if (error)
            *error = why;
        return std::nullopt;
    }
    SizingResult r;
    r.server = s.value(QStringLiteral("server")).toString();
    r.warnings = record.warnings;
    const QJsonArray recommendations = s.value(QStringLiteral("recommendations")).toArray();
    for (const auto& v : recommendations)
        r.recommendations.append(Recommendation::fromJson(v.toObject()));
    const QJsonObject apply = s.value(QStringLiteral("apply")).toObject();
    r.apply = apply.value(QStringLiteral("text")).toString();
    r.applyFormat = apply.value(QStringLiteral("format")).toString();
    const QStringList own = { QStringLiteral("server"), QStringLiteral("recommendations"), QStringLiteral("apply"),
        QStringLiteral("ldif") };
    for (auto it = s.begin(); it != s.end(); ++it) {
        if (own.contains(it.key()))
            continue;
        if (it.value().isObject() || it.value().isArray())
            r.extra.insert(it.key(), it.value());
        else
            r.terms.insert(it.key(), it.value());
    }
    return r;
}

} // namespace ServerSizing
