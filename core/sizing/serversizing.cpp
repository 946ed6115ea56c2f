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

} // namespace ServerSizing
