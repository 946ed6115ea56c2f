#include "app/cli/sizingcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historysink.h"
#include "app/cli/ldapoptions.h"
#include "core/common/environment.h"
#include "core/common/units.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serverinventory.h"
#include "core/sizing/serversizing.h"
#include "core/sizing/sizingoptions.h"
#include "core/sizing/sizingsummary.h"

#include <QCommandLineParser>
#include <QJsonArray>
#include <QThread>

#include <cmath>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Size a directory server's RAM and caches, with the reasoning for every number.

  sizing --server 389ds|openldap|edirectory|ad [inputs] [--ldif FILE] [--json FILE]
  sizing --uri URI [--bind-dn DN --password-file F] [--base DN] [inputs] [--json FILE]

--uri reads the inputs from a live server, read only: 389ds the backend monitor (currententrycachesize/count,
maxentrycachesize), nsslapd-threadnumber, nsslapd-dbcachesize, the entries under --base (counted) and the db file
sizes when the database directory is readable from this host (bind as cn=Directory Manager for cn=config);
OpenLDAP back-mdb olmMDBEntries and olmMDBPagesUsed of the database holding --base. --server defaults to the
kind the server says it is. Typed inputs win over read ones. An input the server kind's sizing does not use is
refused, never ignored (the prefixes below say whose it is; --ldif is not used for ad).

389ds (389 Directory Server, Red Hat DS, HP-UX DS): the HP-UX DS 8.1 tuning guide's formula as printed on its
page 5: Total RAM = 1.2 × (27 MB + threads × 0.25 MB + dbcache + 2.3 × Σ entry caches in use + import cache),
with Equation 1 (dbcache ≈ Σ of the db files your operations need), Equation 2 (cachememsize = entries ×
currententrycachesize / currententrycachecount) and threads ≈ CPU count; and 389's own autotune on --ram-mb
for comparison ("what autotune gives you vs what you need").
openldap (back-mdb): maxsize = data.mdb × (1 + growth) × safety; RAM = data.mdb + threads × 8 MiB + OS.
edirectory: block cache ≈ DIB, entry cache ≈ DIB / 2, cache = 2 × max of both (the default 50/50 split).
ad: RAM = OS + NTDS.dit + SYSVOL; NTDS.dit ≈ 0.4 GB per 1,000 users; cores ≈ users / 1,000.

Sizes are in MB = 10^6 bytes. Missing inputs are estimated from --ldif (entries, mean and p95 entry size,
attribute frequency, index candidates) and say so. The output ends with the change ready to apply (dsconf
commands and LDIF for cn=config, slapd olc lines, an _ndsdb.ini line): DirBench never applies it.
)";

int refuseForServer(const QCommandLineParser& p, SizingServer server)
{
    QStringList all;
    for (const auto& n : SizingOptions::numbers())
        all << n.name;
    all << QStringLiteral("backend") << QStringLiteral("instance") << QStringLiteral("ldif");
    const QStringList mine = SizingOptions::inputsOf(server);
    for (const QString& name : std::as_const(all)) {
        if (!p.isSet(name) || mine.contains(name))
            continue;
        QStringList kinds;
        for (auto k :
            { SizingServer::Ds389, SizingServer::OpenLdap, SizingServer::EDirectory, SizingServer::ActiveDirectory })
            if (SizingOptions::inputsOf(k).contains(name))
                kinds << SizingInput::serverName(k);
        return badArgument(u"--" + name,
            QStringLiteral("the %1 sizing does not use it (it is an input of %2)")
                .arg(SizingInput::serverName(server), kinds.join(QStringLiteral(", "))));
    }
    if (!p.isSet(QStringLiteral("ldif")))
        return refuseOptions(p, { QStringLiteral("ldif-cache-factor") },
            QStringLiteral("only with --ldif: it turns LDIF bytes into cached bytes"));
    return ExitOk;
}

void printRecommendations(std::FILE* out, const SizingResult& r)
{
    for (const auto& rec : r.recommendations) {
        std::fprintf(out, "\n%s = %s %s\n", qPrintable(rec.name), qPrintable(SizingText::num(rec.value, 2)),
            qPrintable(rec.unit));
        if (rec.isSetting)
            std::fprintf(out, "    now:      %s\n",
                qPrintable(rec.current ? SizingText::proposal(rec) : QStringLiteral("not read (--uri reads it)")));
        std::fprintf(out, "    formula:  %s\n", qPrintable(rec.formula));
        std::fprintf(out, "    computed: %s\n", qPrintable(rec.computation));
        QStringList in;
        for (const auto& i : rec.inputs)
            in << QStringLiteral("%1 = %2%3 (%4)")
                      .arg(i.name, SizingText::num(i.value, 2), i.unit.isEmpty() ? QString() : u' ' + i.unit, i.origin);
        std::fprintf(out, "    inputs:   %s\n", qPrintable(in.join(QStringLiteral("; "))));
        std::fprintf(out, "    source:   %s\n", qPrintable(rec.source));
        if (!rec.note.isEmpty())
            std::fprintf(out, "    note:     %s\n", qPrintable(rec.note));
    }
}

void printLdif(std::FILE* out, const LdifStats& s)
{
    std::fprintf(out,
        "LDIF: %lld entries (%lld change records skipped), mean entry %s bytes, p95 %lld bytes, "
        "max %lld bytes; read %s MB in %s s (%s MB/s)\n",
        static_cast<long long>(s.entries), static_cast<long long>(s.changeRecords),
        qPrintable(SizingText::num(s.meanEntryBytes, 1)), static_cast<long long>(s.p95EntryBytes),
        static_cast<long long>(s.maxEntryBytes), qPrintable(SizingText::num(double(s.bytes) / 1e6, 1)),
        qPrintable(SizingText::num(s.seconds, 3)), qPrintable(SizingText::num(s.mbPerSecond(), 1)));
    QStringList c;
    for (const auto& i : s.indexCandidates)
        c << QStringLiteral("%1 (%2, %3 %)").arg(i.attribute, i.indexTypes).arg(i.presence * 100, 0, 'f', 1);
    std::fprintf(out, "index candidates: %s\n", c.isEmpty() ? "none" : qPrintable(c.join(QStringLiteral(", "))));
}

void printExtra(std::FILE* out, const SizingResult& r)
{
    if (const auto a = SizingAutotune::of(r))
        std::fprintf(out, "\n%s", qPrintable(a->text()));
    if (!r.warnings.isEmpty()) {
        std::fprintf(out, "\nwarnings:\n");
        for (const auto& w : r.warnings)
            std::fprintf(out, "  [%s] %s\n", qPrintable(w.code), qPrintable(w.message));
    }
    std::fprintf(out,
        "\nThe change, ready to apply (%s). DirBench has NOT applied it: review it, then run it yourself.\n"
        "----\n%s----\n",
        qPrintable(r.applyFormat), qPrintable(r.apply));
}

void printInventory(std::FILE* out, const ServerInventory& inv, const QStringList& used)
{
    std::fprintf(out, "\nread from the server (%s %s, base %s):\n", qPrintable(inv.identity.vendor),
        qPrintable(inv.identity.version.isEmpty() ? QStringLiteral("version unknown") : inv.identity.version),
        qPrintable(inv.base));
    for (auto it = inv.values.begin(); it != inv.values.end(); ++it)
        std::fprintf(out, "  %-22s %18s  %s%s\n", qPrintable(it.key()), qPrintable(SizingText::num(it.value(), 0)),
            qPrintable(inv.evidence.value(it.key())), used.contains(it.key()) ? "" : "  (not used)");
    for (const auto& n : inv.notes)
        std::fprintf(out, "  note: %s\n", qPrintable(n));
}

} // namespace

int runSizing(SizingInput in, const std::optional<ServerInventory>& live, const std::optional<LdifStats>& ldif,
    const QString& jsonPath, bool saveHistory)
{
    QStringList usedKeys;
    if (live)
        usedKeys = in.applyMonitor(live->values);
    ProbeError err;
    const auto result = ServerSizing::compute(in, &err);
    if (!result) {
        if (err.kind == ProbeError::Kind::InvalidSpec)
            return badArgument(QStringLiteral("--") + err.field, err.cliDetail());
        std::fprintf(stderr, "dirbench-cli sizing: %s\n", qPrintable(err.message()));
        return ExitFailed;
    }
    RunRecord rec = ServerSizing::buildRecord(in, *result, ldif ? &*ldif : nullptr, Environment::collect());
    std::FILE* out = humanStream(jsonPath == u"-");
    std::fprintf(out, "dirbench sizing: %s\n", qPrintable(SizingInput::serverName(in.server)));
    if (live) {
        rec.server = live->identity.toJson();
        QJsonObject inv = live->toJson();
        inv.insert(QStringLiteral("used"), QJsonArray::fromStringList(usedKeys));
        rec.extra.insert(QStringLiteral("server_inventory"), inv);
        printInventory(out, *live, usedKeys);
    }
    if (ldif)
        printLdif(out, *ldif);
    printRecommendations(out, *result);
    printExtra(out, *result);
    HistorySink history;
    history.configureSaveOnly(saveHistory);
    history.begin(rec.kind, rec.spec);
    history.finish(out, rec);
    std::fflush(out);
    if (!jsonPath.isEmpty() && !writeRecord(rec, jsonPath))
        return ExitFailed;
    return ExitOk;
}

int runSizingCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addOption({ QStringLiteral("server"), QStringLiteral("389ds, openldap, edirectory or ad (required)."),
        QStringLiteral("KIND") });
    for (const auto& n : SizingOptions::numbers())
        parser.addOption({ n.name, n.help, QStringLiteral("N") });
    parser.addOption({ QStringLiteral("backend"),
        QStringLiteral("389: back-end name in the commands (default userRoot)."), QStringLiteral("NAME") });
    parser.addOption({ QStringLiteral("instance"),
        QStringLiteral("389: dsconf instance name or URL in the commands (default INSTANCE)."),
        QStringLiteral("NAME") });
    parser.addOption({ QStringLiteral("ldif"),
        QStringLiteral("Measure entries, entry sizes and attributes from an LDIF."), QStringLiteral("FILE") });
    for (const auto& o : ldapConnectionOptions())
        parser.addOption(o);
    parser.addOption({ QStringLiteral("base"),
        QStringLiteral("With --uri: the suffix to size (default the server's first naming context)."),
        QStringLiteral("DN") });
    parser.addOption({ QStringLiteral("json"),
        QStringLiteral("Write the RunRecord to FILE ('-' = stdout, and nothing else goes to stdout)."),
        QStringLiteral("FILE") });
    parser.addOption({ QStringLiteral("no-history"), QStringLiteral("Do not save the run in the history.") });
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli sizing: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("sizing"));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));
    const bool fromServer = parser.isSet(QStringLiteral("uri"));
    if (!parser.isSet(QStringLiteral("server")) && !fromServer)
        return badArgument(QStringLiteral("--server"),
            QStringLiteral("required (or --uri to read a live server): 389ds, openldap, edirectory or ad"));
    std::optional<SizingServer> server;
    if (parser.isSet(QStringLiteral("server"))) {
        server = SizingInput::serverFromName(parser.value(QStringLiteral("server")));
        if (!server)
            return badArgument(QStringLiteral("--server"),
                QStringLiteral("'%1' is not one of 389ds, openldap, edirectory, ad")
                    .arg(parser.value(QStringLiteral("server"))));
    }
    if (server)
        if (int rc = refuseForServer(parser, *server))
            return rc;
    LdapTarget target;
    if (fromServer) {
        if (const QString base = parser.value(QStringLiteral("base")); !LdapSession::isDn(base))
            return badArgument(QStringLiteral("--base"), u'\'' + base + QStringLiteral("' is not a DN"));
        if (int rc = ldapTargetFromParser(parser, {}, &target))
            return rc;
    } else {
        QStringList ldap { QStringLiteral("base") };
        for (const auto& o : ldapConnectionOptions())
            ldap << o.names().constFirst();
        if (int rc = refuseOptions(parser, ldap, QStringLiteral("only with --uri (reading a live server)")))
            return rc;
    }

    SizingInput in;
    in.server = server.value_or(SizingServer::Ds389);
    for (const auto& n : SizingOptions::numbers()) {
        if (!parser.isSet(n.name))
            continue;
        bool ok = false;
        const double v = parser.value(n.name).toDouble(&ok);
        if (!ok || !std::isfinite(v))
            return badArgument(u"--" + n.name, QStringLiteral("'%1' is not a number").arg(parser.value(n.name)));
        if (const ProbeError e = SizingOptions::setNumber(&in, n.name, v); e.isError())
            return badArgument(u"--" + e.field, e.cliDetail());
    }
    if (parser.isSet(QStringLiteral("backend")))
        in.backendName = parser.value(QStringLiteral("backend"));
    if (parser.isSet(QStringLiteral("instance")))
        in.instance = parser.value(QStringLiteral("instance"));
    const QString thisMachine = QStringLiteral("this machine");
    if (!in.cpus) {
        in.cpus = QThread::idealThreadCount();
        in.origin.insert(QStringLiteral("cpus"), thisMachine);
    }
    if (!in.ramMb && in.server == SizingServer::Ds389) {
        const qint64 ram = Environment::physicalRamBytes();
        if (ram > 0) {
            in.ramMb = double(ram) / 1e6;
            in.origin.insert(QStringLiteral("ram_mb"), thisMachine);
        }
    }
    // Range checks before the LDIF is read: a typo costs no read of a big file.
    if (const ProbeError e = in.validate(); e.isError())
        return badArgument(QStringLiteral("--") + e.field, e.cliDetail());
    std::optional<LdifStats> ldif;
    if (parser.isSet(QStringLiteral("ldif"))) {
        ProbeError e;
        ldif = LdifScanner::readFile(parser.value(QStringLiteral("ldif")), &e);
        if (!ldif)
            return badArgument(QStringLiteral("--ldif"), e.cliDetail());
        in.applyLdif(*ldif);
    }
    std::optional<ServerInventory> live;
    if (fromServer) {
        ProbeError e;
        live = Ldap::readInventory(target, parser.value(QStringLiteral("base")), &e);
        if (!live) {
            std::fprintf(stderr, "dirbench-cli sizing: %s: %s\n", qPrintable(target.uri), qPrintable(e.message()));
            return ExitFailed;
        }
        const auto kind = SizingInput::serverFromName(live->identity.kind);
        if (!server && !kind) {
            std::fprintf(stderr,
                "dirbench-cli sizing: %s answers as '%s' (%s): give --server 389ds|openldap|edirectory|ad\n",
                qPrintable(target.uri), qPrintable(live->identity.kind), qPrintable(live->identity.vendor));
            return ExitFailed;
        }
        if (!server) {
            in.server = *kind;
            if (int rc = refuseForServer(parser, in.server))
                return rc;
            if (const ProbeError ve = in.validate(); ve.isError())
                return badArgument(QStringLiteral("--") + ve.field, ve.cliDetail());
        } else if (kind && *kind != *server)
            live->notes << QStringLiteral("--server %1, but the server answers as %2: sized as --server says")
                               .arg(SizingInput::serverName(*server), live->identity.kind);
    }
    return runSizing(in, live, ldif, parser.value(QStringLiteral("json")), !parser.isSet(QStringLiteral("no-history")));
}

} // namespace Cli
