#include "core/experiments/cachesweep.h"

#include "core/common/units.h"
#include "core/experiments/curverecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/serverconnect.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389sandbox.h"

#include <QElapsedTimer>
#include <QUrl>

#include <algorithm>
#include <cmath>
#include <optional>
#include <tuple>

namespace {

const QString kLdbm = QStringLiteral("cn=ldbm database,cn=plugins,cn=config");
const QString kLdbmConfig = QStringLiteral("cn=config,cn=ldbm database,cn=plugins,cn=config");
constexpr qint64 kMinCacheBytes = 512000; // 389-ds forces at least this
constexpr qint64 kMinStartupCacheBytes = 600000; // its minimum is taken for "autosize" at startup: stay above it

QString normalDn(const QString& dn)
{
    QString out;
    for (const QString& rdn : dn.split(u',', Qt::SkipEmptyParts))
        out += (out.isEmpty() ? QString() : QStringLiteral(",")) + rdn.trimmed().toLower().remove(u' ');
    return out;
}

// What the sweep changes, as it was before: restored at the end whatever happens.
struct CacheSettings
{
    QString backendDn; // cn=userRoot,cn=ldbm database,cn=plugins,cn=config
    QString monitorDn; // cn=monitor,cn=userRoot,...
    QString autosizeDn; // where nsslapd-cache-autosize lives (cn=bdb,cn=config,... in 389-ds 2.x)
    QByteArray autosize, cacheMemSize, cacheSize;
};

std::optional<CacheSettings> readSettings(LdapSession& s, const QString& base, ProbeError* error)
{
    QList<LdapSession::Entry> backends;
    *error = s.search(kLdbm, LdapSession::OneLevel, QStringLiteral("(objectClass=nsBackendInstance)"),
        { QStringLiteral("cn"), QStringLiteral("nsslapd-suffix"), QStringLiteral("nsslapd-cachememsize"),
            QStringLiteral("nsslapd-cachesize") },
        &backends, 0, 10000);
    if (error->isError())
        return std::nullopt;
    const QString want = normalDn(base);
    CacheSettings c;
    qsizetype best = -1;
    for (const auto& b : std::as_const(backends)) {
        const QString suffix = normalDn(QString::fromUtf8(b.first(QStringLiteral("nsslapd-suffix"))));
        if (suffix.isEmpty() || suffix.size() <= best || !(want == suffix || want.endsWith(u',' + suffix)))
            continue;
        best = suffix.size();
        c.backendDn = b.dn;
        c.monitorDn = QStringLiteral("cn=monitor,") + b.dn;
        c.cacheMemSize = b.first(QStringLiteral("nsslapd-cachememsize"));
        c.cacheSize = b.first(QStringLiteral("nsslapd-cachesize"));
    }
    if (c.backendDn.isEmpty() || c.cacheMemSize.isEmpty()) {
        *error = ProbeError::invalid(QStringLiteral("base"),
            backends.isEmpty() ? QStringLiteral("the ldbm backends (cn=ldbm database,cn=plugins,cn=config) are not "
                                                "readable with this bind: bind as cn=Directory Manager")
                               : QStringLiteral("no ldbm backend holds ") + base);
        return std::nullopt;
    }
    // Read by name, not found by a filter: 389-ds adds the defaults of these entries when it returns them, so a
    // presence filter does not match a value that was never set.
    c.autosizeDn = kLdbmConfig;
    const QStringList candidates { QStringLiteral("cn=bdb,") + kLdbmConfig, QStringLiteral("cn=mdb,") + kLdbmConfig,
        kLdbmConfig };
    for (const QString& dn : candidates) {
        QList<LdapSession::Entry> cfg;
        s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("nsslapd-cache-autosize") },
            &cfg, 0, 10000);
        const QByteArray v = cfg.value(0).first(QStringLiteral("nsslapd-cache-autosize"));
        if (!v.isEmpty()) {
            c.autosizeDn = dn;
            c.autosize = v;
            break;
        }
    }
    return c;
}

ProbeError set(LdapSession& s, const QString& dn, const char* attr, const QByteArray& value)
{
    return s.modifyReplace(dn, QLatin1String(attr), { value }, 10000);
}

// Puts the settings back over a connection of its own (the sweep's may be gone, the server restarted).
struct Restorer
{
    Restorer(const LdapTarget& t, CacheSettings o)
        : target(t)
        , original(std::move(o))
    { }
    Restorer(const Restorer&) = delete;
    Restorer& operator=(const Restorer&) = delete;

    const LdapTarget& target;
    CacheSettings original;
    bool pending = true;

    QString restore()
    {
        if (!pending)
            return {};
        pending = false;
        LdapSession s;
        ProbeError e = s.open(target);
        if (!e.isError())
            e = set(s, original.backendDn, "nsslapd-cachememsize", original.cacheMemSize);
        if (!e.isError() && !original.cacheSize.isEmpty())
            e = set(s, original.backendDn, "nsslapd-cachesize", original.cacheSize);
        if (!e.isError() && !original.autosize.isEmpty())
            e = set(s, original.autosizeDn, "nsslapd-cache-autosize", original.autosize);
        if (!e.isError())
            return {};
        return QStringLiteral("the entry cache settings could not be put back (%1); set them by hand: %2 "
                              "nsslapd-cachememsize: %3, nsslapd-cachesize: %4; %5 nsslapd-cache-autosize: %6")
            .arg(e.message(), original.backendDn, QString::fromUtf8(original.cacheMemSize),
                QString::fromUtf8(original.cacheSize), original.autosizeDn, QString::fromUtf8(original.autosize));
    }
    ~Restorer() { restore(); }
};

// One subtree search of the base that reads every entry under it: 389-ds puts each in the entry cache.
ProbeError fillCache(LdapSession& s, const QString& base, qint64 entries)
{
    QList<LdapSession::Entry> out;
    const int timeoutMs = int(std::min<qint64>(600000, 60000 + entries / 10));
    return s.search(
        base, LdapSession::Subtree, QStringLiteral("(objectClass=*)"), { QStringLiteral("1.1") }, &out, 0, timeoutMs);
}

} // namespace

namespace Experiments {

RunRecord runCacheSweep(const CurveSpec& spec, RunContext& ctx)
{
    RunRecord rec = CurveRecord::begin(spec);
    if (rec.status != u"ok")
        return rec;
    QElapsedTimer clock;
    clock.start();
    const qint64 n = spec.keyCount();
    QList<CurveRecord::Point> points;
    QJsonObject extra;
    std::optional<Restorer> restorer; // armed once the settings are known: done() puts them back
    auto done = [&]() -> RunRecord& {
        if (restorer) {
            ctx.setPhase(QStringLiteral("putting the entry cache settings back"));
            if (const QString why = restorer->restore(); !why.isEmpty())
                rec.addWarning(QStringLiteral("restore"), why);
        }
        CurveRecord::finish(rec, points, n, spec.load.access);
        rec.summary.insert(QStringLiteral("mode"), CurveSpec::modeName(spec.mode));
        rec.summary.insert(QStringLiteral("restarted"), spec.restart);
        for (auto it = extra.begin(); it != extra.end(); ++it)
            rec.summary.insert(it.key(), it.value());
        ctx.setProgress(1.0);
        return rec;
    };
    auto fail = [&](const QString& why) -> RunRecord& {
        if (rec.status == u"ok") {
            rec.status = ctx.stopRequested() ? QStringLiteral("cancelled") : QStringLiteral("failed");
            rec.failure = ctx.stopRequested() ? QString() : why;
        }
        return done();
    };

    ctx.setPhase(QStringLiteral("connecting"));
    LdapSession s;
    IdentifiedServer server;
    if (const ProbeError e = ServerConnect::connectAndIdentify(s, spec.load.target, &server); e.isError())
        return fail(e.message());
    const ServerIdentity& id = server.identity;
    rec.server = server.json;
    if (id.kind != u"389ds")
        return fail(QStringLiteral("a cache sweep sets the entry cache of 389 Directory Server (nsslapd-cachememsize); "
                                   "this server is %1: use --mode working-set")
                        .arg(id.vendor.isEmpty() ? id.kind : id.vendor));
    ProbeError err;
    const auto original = readSettings(s, spec.load.base, &err);
    if (!original)
        return fail(QStringLiteral("cannot read the entry cache settings: ") + err.message());
    extra.insert(QStringLiteral("backend"), original->backendDn);
    if (original->autosize.isEmpty())
        rec.addWarning(QStringLiteral("autosize-unknown"),
            QStringLiteral("nsslapd-cache-autosize could not be read; it is set to 0 for the sweep and left so"));

    std::optional<SandboxInfo> sandbox;
    if (spec.restart) {
        sandbox = spec.sandboxDir.isEmpty() ? Ds389Sandbox::findByUri(spec.load.target.uri)
                                            : Ds389Sandbox::findRunning(spec.sandboxDir);
        if (!sandbox)
            return fail(QStringLiteral("--restart needs a running 389-ds sandbox started by DirBench (dirbench-cli "
                                       "sandbox start --server 389ds) that serves %1; none was found%2")
                            .arg(spec.load.target.uri,
                                spec.sandboxDir.isEmpty() ? QString() : QStringLiteral(" in ") + spec.sandboxDir));
        if (QUrl(sandbox->uri).port() != QUrl(spec.load.target.uri).port())
            return fail(QStringLiteral("the sandbox in %1 serves %2, not %3")
                            .arg(sandbox->dir, sandbox->uri, spec.load.target.uri));
        extra.insert(QStringLiteral("sandbox_dir"), sandbox->dir);
    } else {
        rec.addWarning(QStringLiteral("online"),
            QStringLiteral("the curve was taken online: the entry cache was resized in one running server process; "
                           "389-ds resized online ran 20-35 % slower than a fresh process at the same size. With a "
                           "DirBench 389-ds sandbox, --restart starts a fresh process for each point"));
    }

    restorer.emplace(spec.load.target, *original);
    ctx.setPhase(QStringLiteral("measuring the cached size of an entry"));
    const QList<std::tuple<QString, const char*, QByteArray>> changes {
        { original->autosizeDn, "nsslapd-cache-autosize", "0" }, { original->backendDn, "nsslapd-cachesize", "-1" },
        { original->backendDn, "nsslapd-cachememsize", QByteArray::number(n * 20000 + (qint64(16) << 20)) }
    };
    for (const auto& [dn, attr, value] : changes) {
        if (const ProbeError e = set(s, dn, attr, value); e.isError())
            return fail(QStringLiteral("cannot change the entry cache settings: ") + e.message());
    }
    if (const ProbeError e = fillCache(s, spec.load.base, n); e.isError())
        return fail(
            QStringLiteral("cannot read the entries under ") + spec.load.base + QStringLiteral(": ") + e.message());
    const auto calib = CurveRecord::readCacheGauges(s, original->monitorDn);
    if (calib.value(QStringLiteral("count")) <= 0 || calib.value(QStringLiteral("size")) <= 0)
        return fail(QStringLiteral("the entry cache stayed empty after reading the entries under ") + spec.load.base);
    const double perEntry = calib.value(QStringLiteral("size")) / calib.value(QStringLiteral("count"));
    extra.insert(QStringLiteral("bytes_per_entry"), std::round(perEntry));
    if (calib.value(QStringLiteral("count")) < 0.9 * double(n))
        rec.addWarning(QStringLiteral("entries"),
            QStringLiteral("only %1 entries under %2 went into the cache, fewer than the %3 the coverage is a share "
                           "of: check --base and --entries")
                .arg(calib.value(QStringLiteral("count")))
                .arg(spec.load.base)
                .arg(n));

    QStringList raised;
    for (int i = 0; i < spec.points.size(); ++i) {
        if (ctx.stopRequested())
            return fail({});
        const double target = spec.points[i];
        const QString series = CurveRecord::seriesName(i, int(spec.points.size()), target);
        double want = target;
        if (spec.restart && want < CurveSpec::kMinRestartCoverage) {
            want = CurveSpec::kMinRestartCoverage;
            raised << Units::formatNumber(target * 100, 1) + QStringLiteral(" %");
        }
        const qint64 bytes = want >= 1.0 ? qint64(double(n) * perEntry * 1.05) + (qint64(1) << 20)
                                         : std::max<qint64>(qint64(want * double(n) * perEntry),
                                             spec.restart ? kMinStartupCacheBytes : kMinCacheBytes);
        ctx.setPhase(series + QStringLiteral(": setting the entry cache"));
        if (const ProbeError e = set(s, original->backendDn, "nsslapd-cachememsize", QByteArray::number(bytes));
            e.isError())
            return fail(series + QStringLiteral(": cannot set nsslapd-cachememsize: ") + e.message());
        if (spec.restart) {
            ctx.setPhase(series + QStringLiteral(": restarting the server"));
            s.close();
            if (!Ds389Sandbox::restart(*sandbox, &err, &ctx))
                return fail(series + QStringLiteral(": restart failed: ") + err.message());
            if (const ProbeError e = s.open(spec.load.target); e.isError())
                return fail(series + QStringLiteral(": after the restart: ") + e.message());
        }
        const double honoured = CurveRecord::readCacheGauges(s, original->monitorDn).value(QStringLiteral("max"));
        if (honoured != double(bytes))
            rec.addWarning(QStringLiteral("not-honoured"),
                series
                    + QStringLiteral(": nsslapd-cachememsize is %1 but the server's entry cache is %2 bytes")
                          .arg(bytes)
                          .arg(honoured, 0, 'f', 0));
        ctx.setPhase(series + QStringLiteral(": filling the cache"));
        if (const ProbeError e = fillCache(s, spec.load.base, n); e.isError())
            return fail(series + QStringLiteral(": cannot read the entries: ") + e.message());

        ctx.setPhase(series + QStringLiteral(": measuring"));
        LdapLoadSpec load = spec.load;
        load.readServerCounters = true;
        const RunRecord part = CurveRecord::runPoint(rec, load, series, ctx, clock);
        const auto gauges = CurveRecord::readCacheGauges(s, original->monitorDn);
        CurveRecord::Point p;
        p.target = target;
        p.series = series;
        CurveRecord::takeLoad(&p, part);
        const double count = gauges.value(QStringLiteral("count"), -1);
        p.coverage = count >= 0 ? std::min(1.0, count / double(n)) : want;
        p.details.insert(QStringLiteral("cache_entries"), count >= 0 ? QJsonValue(count) : QJsonValue());
        p.details.insert(QStringLiteral("cache_bytes"), double(bytes));
        p.details.insert(QStringLiteral("restarted"), spec.restart);
        if (part.status == u"ok")
            points << p;
        else
            return fail(series + QStringLiteral(": ") + part.failure);
        ctx.setProgress(double(i + 1) / double(spec.points.size()));
    }
    if (!raised.isEmpty())
        rec.addWarning(QStringLiteral("min-coverage"),
            QStringLiteral("with --restart the smallest point is 1 % (389-ds does not honour a tiny cachememsize at "
                           "startup): %1 measured at 1 %")
                .arg(raised.join(QStringLiteral(", "))));
    s.close();
    return done();
}

} // namespace Experiments
