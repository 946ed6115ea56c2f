#include "core/agents/agentargs.h"

#include "core/agents/agentmerge.h"

#include <algorithm>

namespace Agents {

namespace {

QString num(double v)
{
    return QString::number(v, 'g', 17);
}

bool uses(const LdapLoadSpec& s, std::initializer_list<LdapOpKind> kinds)
{
    return std::any_of(s.mix.begin(), s.mix.end(),
        [kinds](const auto& m) { return std::find(kinds.begin(), kinds.end(), m.first) != kinds.end(); });
}

void targetArgs(const LdapTarget& t, QStringList& a)
{
    a << QStringLiteral("--uri") << t.uri;
    if (t.startTls)
        a << QStringLiteral("--starttls");
    if (t.auth == LdapTarget::Auth::SaslExternal)
        a << QStringLiteral("--sasl") << QStringLiteral("external");
    else if (t.auth == LdapTarget::Auth::Simple && !t.bindDn.isEmpty())
        a << QStringLiteral("--bind-dn") << t.bindDn;
    const std::pair<const char*, const QString*> files[]
        = { { "--ca-file", &t.caFile }, { "--cert", &t.certFile }, { "--key", &t.keyFile } };
    for (const auto& [name, value] : files)
        if (!value->isEmpty())
            a << QLatin1String(name) << *value;
    if (t.insecure)
        a << QStringLiteral("--insecure");
    a << QStringLiteral("--network-timeout") << num(t.networkTimeoutMs / 1000.0);
    a << QStringLiteral("--op-timeout") << num(t.opTimeoutMs / 1000.0);
    if (!t.sourceAddresses.isEmpty())
        a << QStringLiteral("--source-address") << t.sourceAddresses.join(u',');
}

QString scopeName(LdapSession::Scope s)
{
    return s == LdapSession::Base    ? QStringLiteral("base")
        : s == LdapSession::OneLevel ? QStringLiteral("one")
                                     : QStringLiteral("sub");
}

void workloadArgs(const LdapLoadSpec& s, QStringList& a)
{
    using K = LdapOpKind;
    if (uses(s, { K::Search })) {
        a << QStringLiteral("--base") << s.base << QStringLiteral("--filter") << s.filter;
        a << QStringLiteral("--scope") << scopeName(s.scope);
        if (!s.attrs.isEmpty())
            a << QStringLiteral("--attrs") << s.attrs.join(u',');
        if (s.sizeLimit > 0)
            a << QStringLiteral("--size-limit") << QString::number(s.sizeLimit);
    }
    if (uses(s, { K::Bind, K::Modify, K::Compare }))
        a << QStringLiteral("--dn") << s.dnPattern;
    if (uses(s, { K::Bind }))
        a << QStringLiteral("--mode")
          << (s.bindNewConnection ? QStringLiteral("new-connection") : QStringLiteral("rebind"));
    if (uses(s, { K::Modify, K::Compare }))
        a << QStringLiteral("--attr") << s.attr << QStringLiteral("--value") << s.valuePattern;
    if (uses(s, { K::AddDelete }))
        a << QStringLiteral("--parent") << s.parentDn;
    if (uses(s, { K::Search, K::Bind, K::Modify, K::Compare }))
        a << QStringLiteral("--access") << s.access;
    const bool pipelined = uses(s, { K::Search, K::Modify, K::Compare, K::AddDelete });
    const bool ownConnections = s.bindNewConnection && !pipelined; // a bind-only load with new connections
    if (!ownConnections)
        a << QStringLiteral("--connections") << QString::number(s.connections);
    if (pipelined) {
        a << QStringLiteral("--outstanding") << QString::number(s.outstanding);
        if (s.coalesceReads)
            a << QStringLiteral("--coalesce-reads");
    }
    if (!s.okCodes.isEmpty()) {
        QStringList codes;
        for (int c : s.okCodes)
            codes << QString::number(c);
        a << QStringLiteral("--ok-codes") << codes.join(u',');
    }
}

void timingArgs(const LdapLoadSpec& s, QStringList& a)
{
    if (!s.ramp.isEmpty())
        a << QStringLiteral("--ramp") << s.ramp;
    else
        a << QStringLiteral("--duration") << num(s.durationSec);
    a << QStringLiteral("--warmup") << num(s.warmupSec) << QStringLiteral("--interval") << num(s.intervalSec);
    a << QStringLiteral("--fail-after") << num(s.failAfterSec);
    if (s.maxErrors > 0)
        a << QStringLiteral("--max-errors") << QString::number(s.maxErrors);
}

} // namespace

QStringList agentLoadArgs(const LdapLoadSpec& load)
{
    QStringList a;
    if (load.mix.size() == 1) {
        a << LdapLoadSpec::opName(load.mix.first().first);
    } else {
        QStringList weights;
        for (const auto& [kind, w] : load.mix)
            weights << LdapLoadSpec::opName(kind) + u'=' + QString::number(w);
        a << QStringLiteral("mixed") << QStringLiteral("--mix") << weights.join(u',');
    }
    targetArgs(load.target, a);
    workloadArgs(load, a);
    timingArgs(load, a);
    a << QStringLiteral("--no-server-counters");
    return a;
}

ProbeError checkAgentSplit(const LdapLoadSpec& load, int agents)
{
    if (load.threads < agents)
        return ProbeError::invalid(QStringLiteral("threads"),
            QStringLiteral("%1 threads for %2 agents: Threads is the total, at least one per agent")
                .arg(load.threads)
                .arg(agents));
    if (load.startAtEpochNs > 0)
        return ProbeError::invalid(
            QStringLiteral("start-at"), QStringLiteral("not with agents: the coordinator starts them at one instant"));
    return {};
}

QString agentRamp(const QString& ramp, int index, int agents)
{
    const auto r = LoadRamp::parse(ramp, nullptr);
    if (!r || r->what != LoadRamp::What::Rate || agents <= 0)
        return ramp;
    QStringList steps;
    for (double v : r->values)
        steps << QString::number(splitRate(v, agents).value(index), 'g', 17);
    return QStringLiteral("rate:") + steps.join(u',') + u'@' + QString::number(r->stepSeconds, 'g', 17);
}

} // namespace Agents
