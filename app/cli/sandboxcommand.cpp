#include "app/cli/sandboxcommand.h"

#include "app/cli/clicommon.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/slapdsandbox.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QJsonDocument>

#include <csignal>
#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription = R"(Start, inspect or stop a private OpenLDAP server for demos, tests and benchmarks.

  sandbox start [--entries N] [--tls] [--ppolicy-lockout] [--port P] [--dir PARENT] [--json]
                [--replicas N | --topology mirror] [--access-log]
  sandbox status [--dir DIR] [--json]
  sandbox stop [--dir DIR]

start runs the system's slapd (back-mdb) in a new directory PARENT/dirbench-sandbox-XXXXXX (PARENT defaults
to $TMPDIR or /tmp) on free 127.0.0.1 ports, loaded with N generated inetOrgPerson entries
uid=user0..uid=user{N-1},ou=people,dc=example,dc=com (default 10000). It prints KEY=VALUE lines (URI,
LDAPS_URI, LDAPI_URI, BASE, PEOPLE_BASE, BIND_DN, PASSWORD_FILE, CA_FILE, POLICY_DN, PID, DIR, ENTRIES) or,
with --json, one JSON object; slapd keeps running after this command exits. BIND_DN (the rootdn, which also
reads cn=monitor and cn=config) and every uid=userN share one generated password, kept only in
PASSWORD_FILE (mode 0600):
  ldapwhoami -x -H "$URI" -D "$BIND_DN" -y "$PASSWORD_FILE"
SASL EXTERNAL over LDAPI_URI maps the user who started it to BIND_DN. --tls adds an ldaps:// listener and
StartTLS with a self-signed certificate (CA_FILE): LDAPTLS_CACERT="$CA_FILE". --ppolicy-lockout loads the
ppolicy overlay with a default policy POLICY_DN (cn=default,ou=policies,dc=example,dc=com) that locks an
account after 3 failed binds for 300 s: to see what a bind load's lockout warning says.
--access-log runs slapd in the foreground logging `stats` (-d stats; detached, it still outlives this command),
its stderr appended to DIR/slapd-stats.log (printed as ACCESS_LOG): each operation's line as slapd answers it,
for `ldap ... --server-log`, `workload analyze` and `replay` (not with --replicas or --topology).
--replicas N (1 to 8) adds N consumers to the server (the provider): each a private slapd on its own
127.0.0.1 port that replicates from it by syncrepl (refreshAndPersist), with the syncprov overlay loaded so
it can push changes too (RFC 4533). --topology mirror instead starts two providers that replicate from each
other (multi-provider). The KEY=VALUE lines keep URI, PID, ... for the first server and add TOPOLOGY and
REPLICAk_URI, REPLICAk_ROLE (consumer or provider), REPLICAk_PID, REPLICAk_DIR for each other server.
stop ends slapd (every server of the sandbox) and deletes the directory with the password; without --dir it
stops the sandbox started last. Exit codes: 0 done; 1 failed, or (status, stop) no sandbox running; 2 bad arguments.

--server 389ds runs 389 Directory Server (389-ds-base's ns-slapd) instead, in PARENT/dirbench-389ds-XXXXXX,
made from the package's templates without systemd; BIND_DN is cn=Directory Manager, an ACI lets anyone read
all but userPassword, and the access log is off unless --access-log (then unbuffered, at ACCESS_LOG: for
`workload analyze` and `replay`). status and stop need --dir (the sandbox or its parent).
With --replicas 1 a consumer (a second ns-slapd in the sandbox directory, on its own port) gets a
replication manager and the supplier an agreement to it; the consumer is initialised from the supplier by a
total init, whose duration is printed (INIT_SECONDS). stop stops both.
`dirbench-cli curve --restart` restarts such a sandbox between points.
)";

RunContext* g_ctx = nullptr;
void onSignal(int)
{
    if (g_ctx)
        g_ctx->requestStop(); // a lock-free atomic store
}

// --replicas N and --topology replicas|mirror into a SandboxTopology; exit 2 when they do not fit.
int parseTopology(const QCommandLineParser& parser, SandboxTopology* t)
{
    const bool hasReplicas = parser.isSet(QStringLiteral("replicas"));
    const QString kind = parser.value(QStringLiteral("topology"));
    if (parser.isSet(QStringLiteral("topology")) && kind != u"replicas" && kind != u"mirror")
        return badArgument(
            QStringLiteral("--topology"), QStringLiteral("must be replicas or mirror, not '%1'").arg(kind));
    if (kind == u"mirror") {
        if (hasReplicas)
            return badArgument(QStringLiteral("--replicas"), QStringLiteral("not with --topology mirror"));
        *t = SandboxTopology::mirror();
    } else if (hasReplicas || kind == u"replicas") {
        bool ok = true;
        const int n = hasReplicas ? parser.value(QStringLiteral("replicas")).toInt(&ok) : 1;
        if (!ok || n < 1 || n > SandboxTopology::kMaxReplicas)
            return badArgument(QStringLiteral("--replicas"),
                QStringLiteral("must be between 1 and %1, not '%2'")
                    .arg(SandboxTopology::kMaxReplicas)
                    .arg(parser.value(QStringLiteral("replicas"))));
        *t = SandboxTopology::withReplicas(n);
    }
    if (t->kind == SandboxTopology::Kind::Single)
        return 0;
    for (const char* o : { "tls", "ppolicy-lockout" })
        if (parser.isSet(QLatin1String(o)))
            return badArgument(
                QStringLiteral("--") + QLatin1String(o), QStringLiteral("not with --replicas or --topology"));
    return 0;
}

void printInfo(const SandboxInfo& info, bool json)
{
    if (json) {
        std::fputs(QJsonDocument(info.toJson()).toJson(QJsonDocument::Indented).constData(), stdout);
    } else {
        std::fputs(info.toKeyValue().toUtf8().constData(), stdout);
    }
    std::fflush(stdout);
}

int start(const QCommandLineParser& parser)
{
    SandboxOptions opt;
    opt.accessLog = parser.isSet(QStringLiteral("access-log"));
    if (parser.isSet(QStringLiteral("entries"))) {
        bool ok = false;
        opt.entries = parser.value(QStringLiteral("entries")).toInt(&ok);
        if (!ok || opt.entries < SandboxOptions::kMinEntries || opt.entries > SandboxOptions::kMaxEntries)
            return badArgument(QStringLiteral("--entries"),
                QStringLiteral("must be between %1 and %2, not '%3'")
                    .arg(SandboxOptions::kMinEntries)
                    .arg(SandboxOptions::kMaxEntries)
                    .arg(parser.value(QStringLiteral("entries"))));
    }
    if (parser.isSet(QStringLiteral("port"))) {
        bool ok = false;
        opt.port = parser.value(QStringLiteral("port")).toInt(&ok);
        if (!ok || opt.port < 1 || opt.port > 65535)
            return badArgument(QStringLiteral("--port"),
                QStringLiteral("must be between 1 and 65535, not '%1'").arg(parser.value(QStringLiteral("port"))));
    }
    opt.tls = parser.isSet(QStringLiteral("tls"));
    opt.ppolicyLockout = parser.isSet(QStringLiteral("ppolicy-lockout"));
    if (int rc = parseTopology(parser, &opt.topology))
        return rc;
    opt.parentDir = parser.value(QStringLiteral("dir"));
    if (parser.isSet(QStringLiteral("dir")) && !QFileInfo(opt.parentDir).isDir())
        return badArgument(QStringLiteral("--dir"), QStringLiteral("'%1' is not a directory").arg(opt.parentDir));

    std::fprintf(stderr, "dirbench-cli sandbox: loading %d entries and starting slapd%s...\n", opt.entries,
        opt.tls ? " with TLS" : "");
    RunContext ctx;
    g_ctx = &ctx;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    ProbeError err;
    const auto info = SlapdSandbox::start(opt, &err, &ctx);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    g_ctx = nullptr;
    if (!info) {
        if (err.kind == ProbeError::Kind::InvalidSpec) {
            const QString option = err.field == u"parentDir" ? QStringLiteral("--dir") : u"--" + err.field;
            return badArgument(option, err.cliDetail());
        }
        std::fprintf(stderr, "dirbench-cli sandbox: %s\n", qPrintable(err.message()));
        return ExitFailed;
    }
    std::fprintf(stderr, "dirbench-cli sandbox: slapd (pid %lld) ready in %.1f s (generate + slapadd %.1f s)\n",
        info->pid, info->startSeconds, info->loadSeconds);
    for (const SandboxServer& r : info->replicas)
        std::fprintf(
            stderr, "dirbench-cli sandbox: %s slapd (pid %lld) on %s\n", qPrintable(r.role), r.pid, qPrintable(r.uri));
    if (opt.accessLog && !parser.isSet(QStringLiteral("json")))
        std::printf("ACCESS_LOG=%s\n", qPrintable(SlapdSandbox::accessLogPath(info->dir)));
    printInfo(*info, parser.isSet(QStringLiteral("json")));
    return ExitOk;
}

int status(const QCommandLineParser& parser)
{
    const auto info = SlapdSandbox::findRunning(parser.value(QStringLiteral("dir")));
    if (!info) {
        std::fprintf(stderr, "dirbench-cli sandbox: no sandbox is running\n");
        return ExitFailed;
    }
    printInfo(*info, parser.isSet(QStringLiteral("json")));
    return ExitOk;
}

int stop(const QCommandLineParser& parser)
{
    const QString dir = parser.value(QStringLiteral("dir"));
    const auto info = SlapdSandbox::findRunning(dir);
    ProbeError err;
    if (!info) {
        // A sandbox whose slapd died (reboot, kill) still has its directory and password file: remove them.
        const auto stale = SlapdSandbox::load(dir.isEmpty() ? SlapdSandbox::currentDir() : dir);
        if (stale && SlapdSandbox::stop(*stale, &err))
            std::fprintf(stderr, "dirbench-cli sandbox: no sandbox is running; removed the stale directory %s\n",
                qPrintable(stale->dir));
        else
            std::fprintf(stderr, "dirbench-cli sandbox: no sandbox is running\n");
        return ExitFailed;
    }
    if (!SlapdSandbox::stop(*info, &err)) {
        std::fprintf(stderr, "dirbench-cli sandbox: %s\n", qPrintable(err.message()));
        return ExitFailed;
    }
    std::printf("stopped slapd (pid %lld", info->pid);
    for (const SandboxServer& r : info->replicas)
        std::printf(", %lld", r.pid);
    std::printf(") and removed %s\n", qPrintable(info->dir));
    return ExitOk;
}

// --server 389ds: the same three subcommands for a 389 Directory Server sandbox (core/sandbox/ds389sandbox.h).
int ds389(const QString& sub, const QCommandLineParser& parser)
{
    const QString dir = parser.value(QStringLiteral("dir"));
    if (sub != u"start") {
        if (dir.isEmpty())
            return badArgument(QStringLiteral("--dir"), QStringLiteral("required with --server 389ds"));
        const auto info = Ds389Sandbox::findRunning(dir);
        ProbeError err;
        if (!info) {
            auto stale = sub == u"stop" ? Ds389Sandbox::load(dir) : std::nullopt;
            for (const QString& child : QDir(dir).entryList({ QStringLiteral("dirbench-389ds-*") }, QDir::Dirs))
                if (!stale && sub == u"stop")
                    stale = Ds389Sandbox::load(dir + u'/' + child);
            if (stale && Ds389Sandbox::stop(*stale, &err))
                std::fprintf(stderr, "dirbench-cli sandbox: removed the stale directory %s\n", qPrintable(stale->dir));
            std::fprintf(stderr, "dirbench-cli sandbox: no 389-ds sandbox is running in %s\n", qPrintable(dir));
            return ExitFailed;
        }
        if (sub == u"status") {
            printInfo(*info, parser.isSet(QStringLiteral("json")));
            return ExitOk;
        }
        if (!Ds389Sandbox::stop(*info, &err)) {
            std::fprintf(stderr, "dirbench-cli sandbox: %s\n", qPrintable(err.message()));
            return ExitFailed;
        }
        std::printf("stopped ns-slapd (pid %lld) and removed %s\n", info->pid, qPrintable(info->dir));
        return ExitOk;
    }
    for (const char* o : { "tls", "ppolicy-lockout", "topology" })
        if (parser.isSet(QLatin1String(o)))
            return badArgument(QStringLiteral("--") + QLatin1String(o), QStringLiteral("not with --server 389ds"));
    Ds389Options opt;
    opt.accessLog = parser.isSet(QStringLiteral("access-log"));
    bool ok = true;
    if (parser.isSet(QStringLiteral("entries")))
        opt.entries = parser.value(QStringLiteral("entries")).toInt(&ok);
    if (!ok || opt.entries < SandboxOptions::kMinEntries || opt.entries > SandboxOptions::kMaxEntries)
        return badArgument(QStringLiteral("--entries"), QStringLiteral("must be between 1 and 10000000"));
    if (parser.isSet(QStringLiteral("port")))
        opt.port = parser.value(QStringLiteral("port")).toInt(&ok);
    if (!ok || opt.port < 0 || opt.port > 65535)
        return badArgument(QStringLiteral("--port"), QStringLiteral("must be between 1 and 65535"));
    if (parser.isSet(QStringLiteral("replicas")) && parser.value(QStringLiteral("replicas")) != u"1")
        return badArgument(QStringLiteral("--replicas"),
            QStringLiteral("must be 1 with --server 389ds, not '%1'").arg(parser.value(QStringLiteral("replicas"))));
    opt.replicas = parser.isSet(QStringLiteral("replicas")) ? 1 : 0;
    opt.parentDir = dir;
    std::fprintf(stderr, "dirbench-cli sandbox: loading %d entries and starting 389-ds...\n", opt.entries);
    RunContext ctx;
    g_ctx = &ctx;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    ProbeError err;
    const auto info = Ds389Sandbox::start(opt, &err, &ctx);
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    g_ctx = nullptr;
    if (!info) {
        if (err.kind == ProbeError::Kind::InvalidSpec)
            return badArgument(
                err.field == u"parentDir" ? QStringLiteral("--dir") : u"--" + err.field, err.cliDetail());
        std::fprintf(stderr, "dirbench-cli sandbox: %s\n", qPrintable(err.message()));
        return ExitFailed;
    }
    std::fprintf(stderr, "dirbench-cli sandbox: ns-slapd (pid %lld) ready in %.1f s (generate + import %.1f s)\n",
        info->pid, info->startSeconds, info->loadSeconds);
    for (const SandboxServer& r : info->replicas)
        std::fprintf(stderr, "dirbench-cli sandbox: consumer ns-slapd (pid %lld) on %s, total init %.3f s\n", r.pid,
            qPrintable(r.uri), info->initSeconds);
    if (opt.accessLog && !parser.isSet(QStringLiteral("json")))
        std::printf("ACCESS_LOG=%s\n", qPrintable(Ds389Sandbox::accessLogPath(info->dir)));
    printInfo(*info, parser.isSet(QStringLiteral("json")));
    return ExitOk;
}

} // namespace

int runSandboxCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    const QCommandLineOption entries(QStringLiteral("entries"),
        QStringLiteral("start: number of uid=userN entries, 1 to 10000000 (default 10000)."), QStringLiteral("N"));
    const QCommandLineOption tls(QStringLiteral("tls"), QStringLiteral("start: also ldaps:// and StartTLS."));
    const QCommandLineOption ppolicy(QStringLiteral("ppolicy-lockout"),
        QStringLiteral("start: the ppolicy overlay with a policy that locks an account after 3 failed binds."));
    const QCommandLineOption port(QStringLiteral("port"),
        QStringLiteral("start: ldap:// port on 127.0.0.1 (default: a free one)."), QStringLiteral("P"));
    const QCommandLineOption dir(QStringLiteral("dir"),
        QStringLiteral("start: parent directory; status/stop: the sandbox directory (or its parent)."),
        QStringLiteral("DIR"));
    const QCommandLineOption json(QStringLiteral("json"), QStringLiteral("start/status: print one JSON object."));
    const QCommandLineOption server(QStringLiteral("server"),
        QStringLiteral("openldap (default: slapd) or 389ds (389 Directory Server)."), QStringLiteral("KIND"));
    const QCommandLineOption replicas(QStringLiteral("replicas"),
        QStringLiteral("start: N consumers replicating from the server (OpenLDAP 1 to 8; 389ds 1)."),
        QStringLiteral("N"));
    const QCommandLineOption topology(QStringLiteral("topology"),
        QStringLiteral("start: replicas (with --replicas) or mirror (two providers, OpenLDAP)."),
        QStringLiteral("KIND"));
    const QCommandLineOption accessLog(QStringLiteral("access-log"),
        QStringLiteral(
            "start: the access log on, unbuffered (389ds; OpenLDAP: stats to a file); its path: ACCESS_LOG."));
    for (const auto* o : { &entries, &tls, &ppolicy, &port, &dir, &json, &server, &replicas, &topology, &accessLog })
        parser.addOption(*o);

    const QString sub = args.value(1);
    if (sub == u"--help" || sub == u"-h" || sub == u"help" || sub == u"--help-all")
        return printHelp(parser, QStringLiteral("sandbox start|status|stop"));
    if (sub != u"start" && sub != u"stop" && sub != u"status")
        return badArgument(QStringLiteral("sandbox"),
            sub.isEmpty() ? QStringLiteral("expected start, status or stop")
                          : QStringLiteral("unknown subcommand '%1' (start, status or stop)").arg(sub));
    static const QMap<QString, QStringList> owners {
        { QStringLiteral("start"),
            { QStringLiteral("entries"), QStringLiteral("tls"), QStringLiteral("ppolicy-lockout"),
                QStringLiteral("port"), QStringLiteral("dir"), QStringLiteral("json"), QStringLiteral("server"),
                QStringLiteral("replicas"), QStringLiteral("topology"), QStringLiteral("access-log") } },
        { QStringLiteral("status"), { QStringLiteral("dir"), QStringLiteral("json"), QStringLiteral("server") } },
        { QStringLiteral("stop"), { QStringLiteral("dir"), QStringLiteral("server") } },
    };
    QStringList rest = args;
    rest.removeAt(1);
    if (!parser.parse(rest)) {
        std::fprintf(stderr, "dirbench-cli sandbox %s: %s\n", qPrintable(sub), qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser)) {
        QList<QCommandLineOption> mine;
        for (const auto* o :
            { &entries, &tls, &ppolicy, &port, &dir, &json, &server, &replicas, &topology, &accessLog })
            if (owners.value(sub).contains(o->names().constFirst()))
                mine << *o;
        return printUsage(QStringLiteral("sandbox ") + sub, QString::fromUtf8(kDescription), mine);
    }
    if (int rc = refuseRepeated(parser))
        return rc;
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument"));
    if (int rc = refuseForeign(parser, QStringLiteral("sandbox"), sub, owners))
        return rc;

    if (parser.isSet(server) && parser.value(server) != u"openldap") {
        if (parser.value(server) != u"389ds")
            return badArgument(QStringLiteral("--server"),
                QStringLiteral("must be openldap or 389ds, not '%1'").arg(parser.value(server)));
        return ds389(sub, parser);
    }
    if (sub == u"start")
        return start(parser);
    if (sub == u"status")
        return status(parser);
    return stop(parser);
}

} // namespace Cli
