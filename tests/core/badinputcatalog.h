#pragma once
// What tst_cli_badinput breaks: for every dirbench-cli command a known-good command line (that cannot do real work:
// servers at 127.0.0.1:1, disk tests in a scratch directory, --no-history), the arguments it may break, and for
// each kind of argument the values that are invalid for it.

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

namespace BadInput {

enum class Kind
{
    Count, // a positive whole number
    NonNegInt, // 0 or more, whole
    Seconds, // more than 0
    NonNegSeconds, // 0 or more
    NonNegNumber, // 0 or more (--rate: 0 = unlimited)
    Uri,
    Dn,
    SearchBase,
    DnPattern,
    Filter,
    ValuePattern,
    Scope,
    Access,
    Ramp,
    Mix,
    OkCodes,
    BindMode,
    File, // an existing, readable file
    Attr,
    Sasl,
    Size,
    DiskProfile,
    DiskData,
    DiskEngine,
    DiskDir,
    PercentPoints, // curve --points
    ThreadPoints, // experiment threads --points, --server-threads
    EntryPoints, // experiment dbsize --points
    ServerKind, // sizing --server, sandbox --server
    Entries, // sandbox --entries
    Port,
    CurveMode,
    Percent, // 0..100
    Factor, // a positive decimal
    LogFormat, // workload --format
    Time, // workload --from/--to: ISO 8601 or epoch seconds
    OpList, // workload --operations
    Address, // workload --client
    SourceAddress, // --source-address: IP addresses, comma-separated
    Agents, // --agents: hosts, @FILE, ansible:INV:GROUP, local:N
    AgentLoss, // --on-agent-loss: fail or continue
    StartAt, // --start-at: a time ahead (ISO 8601 or @EPOCH), within a day
};

// Values that are invalid for a kind. `scratch` holds the test's files: a directory `adir`, a file `afile`.
inline QStringList badValues(Kind k, const QString& scratch)
{
    const QString adir = scratch + QStringLiteral("/adir");
    const QString afile = scratch + QStringLiteral("/afile");
    switch (k) {
    case Kind::Count:
        return { "abc", "-3", "0", "2.5", "NaN", "1e999", "99999999999", "", "0x10", " " };
    case Kind::NonNegInt:
        return { "abc", "-3", "2.5", "NaN", "1e999", "99999999999999999999", "" };
    case Kind::Seconds: // not "1s": disk takes seconds with a unit (Units::parseSeconds)
        return { "abc", "-1", "NaN", "inf", "1e999", "", "0", "-0.5", "1x" };
    case Kind::NonNegSeconds:
        return { "abc", "-1", "NaN", "inf", "1e999", "", "1x" };
    case Kind::NonNegNumber:
        return { "abc", "-5", "NaN", "1e999", "", "inf" };
    case Kind::Uri:
        return { "http://x", "ldap://127.0.0.1:99999", "", "ldap//127.0.0.1", "127.0.0.1:1", "ldap://127.0.0.1:-5",
            "ldap://127.0.0.1:abc", "ftp://127.0.0.1:1" };
    case Kind::Dn:
        // Not "cn=" (an empty value is a DN, RFC 4514) nor brackets (legal in a value; see SearchBase).
        return { "not a dn", "=x", "cn=a,,dc=b", "dc=example,dc=com,", "cn" };
    case Kind::SearchBase: // a load's base is fixed: a pattern in it is refused
        return { "not a dn", "=x", "cn=a,,dc=b", "dc=example,dc=com,", "uid=user[0-9],dc=x" };
    case Kind::DnPattern:
        return { "uid=user[5-1],dc=example,dc=com", "uid=user[a-b],dc=x", "uid=user[file:/nonexistent/x],dc=x",
            "uid=user[1-,dc=x", "not a dn[0-9]", "" };
    case Kind::Filter:
        return { "uid=user[5-1]", "uid=user[a-b]", "(uid=x", "uid=x)", "((uid=x)", "uid=[file:/nonexistent/x]",
            "uid=user[1-", "" };
    case Kind::ValuePattern:
        return { "[5-1]", "[a-b]", "[file:/nonexistent/x]", "v[1-", "" };
    case Kind::Scope:
        return { "bogus", "", "2" };
    case Kind::Access:
        return { "bogus", "zipf:x", "zipf:-1", "hot:150/10", "hot:a/b", "hot:50", "zipf:", "" };
    case Kind::Ramp:
        return { "bogus:1@2", "rate:1,2", "rate:a,b@1", "outstanding:1,2@0", "rate:@5", "rate:5,1@-1" };
    case Kind::Mix:
        return { "search=abc", "bogus=10", "search=-5", "", "search=0", "search90", "search=1.5", "search=1000001",
            "search=+5", "search=1,search=2", "search=99999999999" };
    case Kind::OkCodes:
        return { "abc", "-1", "16384", "0,,32", "0,0", "", "1.5", "0x20", "0;32" };
    case Kind::BindMode:
        return { "bogus", "" };
    case Kind::File:
        return { "/nonexistent/file", adir, "" };
    case Kind::Attr:
        return { "", "bad attr!" };
    case Kind::Sasl:
        return { "bogus", "" };
    case Kind::Size:
        return { "abc", "1Q", "-1M", "0", "", "1e999" };
    case Kind::DiskProfile:
    case Kind::DiskData:
    case Kind::DiskEngine:
    case Kind::CurveMode:
    case Kind::ServerKind:
        return { "bogus", "" };
    case Kind::DiskDir:
        return { "/nonexistent/dir", afile, "" };
    case Kind::PercentPoints:
        return { "a,b", "1,,2", "-1", "", "150", "1e999" };
    case Kind::ThreadPoints:
        return { "a,b", "0", "-1", "", "1,,2" };
    case Kind::EntryPoints:
        return { "a", "0", "-5", "" };
    case Kind::Entries:
        return { "0", "abc", "-1", "10000001", "" };
    case Kind::Port:
        return { "99999", "abc", "-1", "" };
    case Kind::Percent:
        return { "abc", "-1", "101", "NaN", "" };
    case Kind::Factor:
        return { "abc", "-1", "0", "NaN", "1e999", "" };
    case Kind::LogFormat:
        return { "bogus", "", "ldif" };
    case Kind::Time:
        return { "abc", "", "-5", "2026-13-01T00:00:00Z", "2026-12-01T10:00:00.Z", "1e999" };
    case Kind::OpList:
        return { "bogus", "", ",", "search,bogus", "search;bind" };
    case Kind::Address:
        return { "", " ", "a b" };
    case Kind::SourceAddress:
        return { "abc", "", "300.1.1.1", "127.0.0.1,,x", "127.0.0.1:5" };
    case Kind::Agents:
        return { "", "local:0", "local:abc", "local:99999", "-Jbastion", " , ", "@/nonexistent/hosts.txt" };
    case Kind::AgentLoss:
        return { "", "maybe", "FAIL" };
    case Kind::StartAt:
        return { "yesterday", "@1", "2000-01-01T00:00:00Z", "", "@abc", "@99999999999", "@-5" };
    }
    return {};
}

struct Arg
{
    QString option; // "--threads"
    QString good; // its value in the good command line; empty for a flag
    Kind kind = Kind::Count;
    bool breakable = true; // false: present for the command to be complete (a flag, --json -, --no-history)
};

struct Command
{
    QString name; // "ldap search"
    QStringList words; // { "ldap", "search" }
    QList<Arg> args;
};

inline QList<Command> commands(const QString& scratch)
{
    using K = Kind;
    const QString pw = scratch + QStringLiteral("/password");
    const QString ldif = scratch + QStringLiteral("/small.ldif");
    const QString people = QStringLiteral("ou=people,dc=example,dc=com");
    const QString uids = QStringLiteral("uid=user[0-99],") + people;
    const Arg json { "--json", "-", K::File, false };
    const Arg noHistory { "--no-history", "", K::Count, false };
    const QList<Arg> conn { { "--uri", "ldap://127.0.0.1:1", K::Uri }, { "--network-timeout", "1", K::Seconds },
        { "--op-timeout", "1", K::Seconds } };
    // Every load takes these; each operation's line leaves out what it does not take (bind: --outstanding; adddel:
    // --access), and a ramp line leaves out --duration and --rate, which the ramp sets.
    const QList<Arg> load { { "--threads", "1", K::Count }, { "--connections", "1", K::Count },
        { "--outstanding", "2", K::Count }, { "--duration", "1", K::Seconds }, { "--warmup", "0", K::NonNegSeconds },
        { "--interval", "1", K::Seconds }, { "--fail-after", "1", K::Seconds }, { "--max-errors", "0", K::NonNegInt },
        { "--access", "uniform", K::Access }, { "--rate", "0", K::NonNegNumber },
        { "--ok-codes", "0,32", K::OkCodes } };
    auto without = [](QList<Arg> args, const QStringList& options) {
        args.removeIf([&](const Arg& a) { return options.contains(a.option); });
        return args;
    };
    const QList<Arg> search { { "--base", people, K::SearchBase }, { "--filter", "uid=user[0-99]", K::Filter },
        { "--scope", "sub", K::Scope }, { "--size-limit", "0", K::NonNegInt } };
    const QList<Arg> dnAttrValue { { "--dn", uids, K::DnPattern }, { "--attr", "description", K::Attr },
        { "--value", "v[0-9]", K::ValuePattern } };
    const QList<Arg> bindAs { { "--bind-dn", "cn=admin,dc=example,dc=com", K::Dn },
        { "--password-file", pw, K::File } };
    auto ldap = [&](const QString& op, QList<Arg> extra, const QStringList& leftOut = {}) {
        return Command { "ldap " + op, { "ldap", op },
            conn + without(load, leftOut) + extra + QList<Arg> { json, noHistory } };
    };

    QList<Command> out;
    out << Command { "ldap probe", { "ldap", "probe" }, conn + bindAs + QList<Arg> { json, noHistory } };
    out << ldap("search", search + bindAs + QList<Arg> { { "--coalesce-reads", "", K::Count, false } });
    out << ldap("search",
        search
            + QList<Arg> { { "--agents", "local:1", K::Agents },
                { "--agent-command", "/nonexistent/dirbench-cli", K::Count, false },
                { "--on-agent-loss", "fail", K::AgentLoss }, { "--allow-clock-skew", "", K::Count, false },
                { "--interval-histograms", "", K::Count, false },
                { "--source-address", "127.0.0.1,127.0.0.2", K::SourceAddress } });
    out.last().name = "ldap search --agents";
    out << ldap("search",
        search
            + QList<Arg> {
                { "--start-at", QStringLiteral("@%1").arg(QDateTime::currentSecsSinceEpoch() + 3600), K::StartAt } });
    out.last().name = "ldap search --start-at";
    Command ramp
        = ldap("search", search + QList<Arg> { { "--ramp", "rate:10,20@1", K::Ramp } }, { "--duration", "--rate" });
    ramp.name = "ldap search --ramp";
    out << ramp;
    out << ldap("bind",
        { { "--dn", uids, K::DnPattern }, { "--password-file", pw, K::File }, { "--mode", "rebind", K::BindMode } },
        { "--outstanding" });
    out << ldap("modify", dnAttrValue + bindAs);
    out << ldap("compare", dnAttrValue + bindAs);
    out << ldap("adddel", QList<Arg> { { "--parent", people, K::Dn } } + bindAs, { "--access" });
    out << ldap("mixed", QList<Arg> { { "--mix", "search=90,modify=10", K::Mix } } + search + dnAttrValue + bindAs);

    out << Command { "replay", { "replay" },
        conn
            + QList<Arg> { { "--workload", scratch + QStringLiteral("/small.dbwl"), K::File },
                { "--speed", "2", K::Factor }, { "--duration", "1", K::Seconds }, { "--interval", "1", K::Seconds },
                { "--threads", "1", K::Count }, { "--key-space", "uid=user[0-99]", K::ValuePattern },
                { "--shared-password-file", pw, K::File }, { "--allow-writes", "", K::Count, false },
                { "--write-base", people, K::Dn }, json, noHistory } };

    const QList<Arg> diskArgs { { "--dir", scratch, K::DiskDir }, { "--profile", "rand-read", K::DiskProfile },
        { "--size", "1M", K::Size }, { "--block", "4K", K::Size }, { "--qd", "4", K::Count },
        { "--duration", "1", K::NonNegSeconds }, { "--repeat", "1", K::Count }, { "--data", "zeros", K::DiskData },
        { "--engine", "auto", K::DiskEngine }, { "--interval", "0.25", K::Seconds } };
    out << Command { "disk", { "disk" }, diskArgs + QList<Arg> { json, noHistory } };
    out << Command { "disk --under-load", { "disk" },
        diskArgs + conn + search
            + QList<Arg> { { "--under-load", "", K::Count, false }, { "--lead", "1", K::NonNegSeconds },
                { "--threads", "1", K::Count }, json, noHistory } };

    out << Command { "curve", { "curve" },
        conn + search.mid(0, 3)
            + QList<Arg> { { "--mode", "working-set", K::CurveMode }, { "--cache-entries", "50", K::Count },
                { "--points", "10,50,100", K::PercentPoints }, { "--seconds-per-point", "1", K::Seconds },
                { "--warmup", "0", K::NonNegSeconds }, { "--threads", "1", K::Count },
                { "--fail-after", "1", K::Seconds }, { "--access", "uniform", K::Access }, json, noHistory } };
    out << Command { "experiment threads", { "experiment", "threads" },
        conn + search.mid(0, 2)
            + QList<Arg> {
                { "--points", "1,2", K::ThreadPoints }, { "--seconds-per-point", "1", K::Seconds }, json, noHistory } };
    out << Command { "experiment tls", { "experiment", "tls" },
        conn
            + QList<Arg> { { "--tls-uri", "ldaps://127.0.0.1:1", K::Uri }, { "--dn", uids, K::DnPattern },
                { "--password-file", pw, K::File }, { "--seconds-per-point", "1", K::Seconds }, json, noHistory } };
    out << Command { "experiment dbsize", { "experiment", "dbsize" },
        { { "--points", "100,200", K::EntryPoints }, { "--seconds-per-point", "1", K::Seconds },
            { "--threads", "1", K::Count }, json, noHistory } };

    out << Command { "sizing", { "sizing" },
        { { "--server", "389ds", K::ServerKind }, { "--threads", "4", K::Count }, { "--cpus", "2", K::Count },
            { "--ram-mb", "4096", K::Factor }, { "--dbcache-mb", "100", K::NonNegNumber },
            { "--entries", "1000", K::Count }, { "--entry-cache-bytes-per-entry", "3000", K::Factor },
            { "--entry-factor", "2.3", K::Factor }, { "--backends", "1", K::Count }, { "--autosize", "25", K::Percent },
            { "--autosize-split", "25", K::Percent }, json, noHistory } };
    out << Command { "sizing --ldif", { "sizing" },
        { { "--server", "openldap", K::ServerKind }, { "--ldif", ldif, K::File },
            { "--growth", "0.25", K::NonNegNumber }, { "--safety", "1.5", K::Factor },
            { "--os-reserve-mb", "2000", K::NonNegNumber }, json, noHistory } };
    out << Command { "sizing --uri", { "sizing" },
        conn + QList<Arg> { { "--base", "dc=example,dc=com", K::Dn } } + bindAs + QList<Arg> { json, noHistory } };

    out << Command { "workload analyze", { "workload", "analyze" },
        { { "--log", scratch + QStringLiteral("/afile"), K::File }, { "--format", "389", K::LogFormat },
            { "--from", "2026-01-01T00:00:00Z", K::Time }, { "--to", "1893456000", K::Time },
            { "--client", "127.0.0.1", K::Address }, { "--operations", "search,bind", K::OpList }, json } };

    const QString sbx = scratch + QStringLiteral("/sandboxes");
    out << Command { "sandbox start", { "sandbox", "start" },
        { { "--entries", "10", K::Entries }, { "--port", "1389", K::Port }, { "--dir", sbx, K::DiskDir },
            { "--server", "openldap", K::ServerKind } } };
    out << Command { "sandbox status", { "sandbox", "status" },
        { { "--dir", sbx, K::DiskDir, false }, { "--server", "openldap", K::ServerKind } } };
    out << Command { "sandbox stop", { "sandbox", "stop" },
        { { "--dir", sbx, K::DiskDir, false }, { "--server", "openldap", K::ServerKind } } };
    return out;
}

} // namespace BadInput
