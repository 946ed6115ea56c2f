// The write load beside the replication probe: its checks, its start on the probe's clock, its intervals joined to
// the probe's. The summary, the steps and the knee are in replicationloadsummary.cpp.
#include "core/experiments/replicationload.h"

#include "core/experiments/replication.h"
#include "core/experiments/replicationwatch.h"
#include "core/ldap/loadgenerator.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace {

using ReplicationWatch::nowNs;

constexpr qint64 kLeadNs = 1000000000LL; // the load's connections are made in this time before its warm-up ends
constexpr qint64 kIntervalWaitNs = 2000000000LL; // a load interval later than this is left out of the probe's

bool whole(double x)
{
    return x >= 1 - 1e-6 && std::abs(x - std::round(x)) < 1e-6;
}

bool writes(const CompiledLoad& l)
{
    return l.has(LdapOpKind::Modify) || l.has(LdapOpKind::AddDelete);
}

ProbeError timingError(const ReplicationSpec& s, const CompiledLoad& l)
{
    const double iv = s.load->intervalSec;
    if (l.ramp.what != LoadRamp::What::None && !whole(l.ramp.stepSeconds / iv))
        return ProbeError::invalid(QStringLiteral("ramp"),
            QStringLiteral("each step (%1 s) must be a whole number of intervals (--interval %2 s): the probe's "
                           "intervals are the load's")
                .arg(l.ramp.stepSeconds)
                .arg(iv));
    if (!whole(l.totalSeconds() / iv))
        return ProbeError::invalid(QStringLiteral("duration"),
            QStringLiteral("%1 s must be a whole number of intervals (--interval %2 s) beside a load")
                .arg(l.totalSeconds())
                .arg(iv));
    if (std::abs(s.durationS - l.totalSeconds()) > 1e-6)
        return ProbeError::invalid(QStringLiteral("duration"),
            QStringLiteral("must be the load's (%1 s): the probe runs as long as the load").arg(l.totalSeconds()));
    if (std::abs(s.intervalS - iv) > 1e-9)
        return ProbeError::invalid(
            QStringLiteral("interval"), QStringLiteral("must be the load's (%1 s): one set of intervals").arg(iv));
    return {};
}

} // namespace

ProbeError ReplicationLoad::validate(const ReplicationSpec& s)
{
    // The mix first, as the command line checks it: a load of reads only is refused for what it is, before the
    // options its reads would need (a search's base and filter).
    const auto writesToo
        = [](const auto& m) { return m.first == LdapOpKind::Modify || m.first == LdapOpKind::AddDelete; };
    if (!std::any_of(s.load->mix.begin(), s.load->mix.end(), writesToo))
        return ProbeError::invalid(QStringLiteral("mix"),
            QStringLiteral("the load beside the probe must write on the supplier: a modify or an adddel (e.g. "
                           "modify=1, or search=90,modify=10), not only reads or binds"));
    ProbeError e;
    const auto l = CompiledLoad::compile(*s.load, &e);
    if (!l)
        return e;
    if (!writes(*l))
        return ProbeError::invalid(QStringLiteral("mix"),
            QStringLiteral("the load beside the probe must write on the supplier: a modify or an adddel (e.g. "
                           "modify=1, or search=90,modify=10), not only reads or binds"));
    if (s.load->target.uri != s.supplier.uri)
        return ProbeError::invalid(QStringLiteral("supplier"),
            QStringLiteral("the write load runs on the supplier (%1), not on %2")
                .arg(s.supplier.uri, s.load->target.uri));
    return timingError(s, *l);
}

void ReplicationLoad::attach(ReplicationSpec& spec, LdapLoadSpec load)
{
    load.target = spec.supplier;
    spec.intervalS = load.intervalSec;
    spec.failAfterS = load.failAfterSec;
    ProbeError e;
    const auto l = CompiledLoad::compile(load, &e);
    spec.durationS = l ? l->totalSeconds() : load.durationSec;
    spec.load = std::move(load);
}

double ReplicationLoad::writeOkPerS(const OpFigures& all, const OpFiguresByKind& byOperation, const LdapLoadSpec& spec)
{
    if (spec.mix.size() == 1) {
        const LdapOpKind op = spec.mix.constFirst().first;
        return op == LdapOpKind::Modify || op == LdapOpKind::AddDelete ? all.okPerS : 0.0;
    }
    double sum = 0;
    for (const LdapOpKind op : { LdapOpKind::Modify, LdapOpKind::AddDelete })
        if (const auto it = byOperation.find(LdapLoadSpec::opName(op)); it != byOperation.end())
            sum += it->second.okPerS;
    return sum;
}

ReplicationLoad::Runner::Runner(const LdapLoadSpec& spec, RunContext& parent)
    : m_spec(spec)
    , m_parent(parent)
{
    ProbeError e;
    if (const auto l = CompiledLoad::compile(spec, &e)) {
        m_ramp = l->ramp;
        m_expected = int(std::lround(l->totalSeconds() / spec.intervalSec));
    }
}

ReplicationLoad::Runner::~Runner()
{
    m_ctx.requestStop();
    if (m_thread.joinable())
        m_thread.join();
    m_spec.target.password.fill('\0');
}

qint64 ReplicationLoad::Runner::start()
{
    m_t0 = nowNs() + kLeadNs + qint64(m_spec.warmupSec * 1e9);
    Ldap::LoadRunOptions o;
    o.startAtNs = uint64_t(m_t0);
    m_thread = std::thread([this, o] {
        m_rec = Ldap::runLoad(m_spec, m_ctx, o);
        m_done = true;
    });
    // Warming up means connected, with the measured phase still ahead: it begins at m_t0. A load whose
    // connections take longer starts measuring when they are made, after the probe (a warning says so).
    while (!m_done && nowNs() < m_t0 && !m_parent.stopRequested()) {
        const QString phase = m_ctx.phase();
        if (phase == u"warming up")
            return m_t0;
        if (phase == u"measuring")
            break;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    m_late = !m_done && !m_parent.stopRequested();
    return m_t0;
}

void ReplicationLoad::Runner::drain()
{
    for (const Sample& s : m_ctx.takeSamples())
        m_intervals.push_back(LoadInterval::fromJson(s.values));
}

void ReplicationLoad::Runner::addTo(Sample& s)
{
    const int n = ++m_calls;
    const qint64 deadline = nowNs() + kIntervalWaitNs;
    drain();
    while (n <= m_expected && int(m_intervals.size()) < n && !m_done && nowNs() < deadline) {
        if (m_parent.stopRequested()) {
            m_ctx.requestStop();
            break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        drain();
    }
    drain(); // what the load added before it ended
    const double marker = s.values.value(QStringLiteral("write_ok_per_s")).toDouble();
    QJsonValue load = 0.0; // after the load's end: no load writes
    if (n <= m_expected)
        load = int(m_intervals.size()) >= n ? QJsonValue(ReplicationLoad::writeOkPerS(
                   m_intervals[size_t(n - 1)].all, m_intervals[size_t(n - 1)].byOperation, m_spec))
                                            : QJsonValue(QJsonValue::Null);
    s.values.insert(QStringLiteral("marker_write_ok_per_s"), marker);
    s.values.insert(QStringLiteral("load_write_ok_per_s"), load);
    s.values.insert(QStringLiteral("write_ok_per_s"), marker + load.toDouble(0));
    if (n <= int(m_intervals.size())) {
        const LoadInterval& iv = m_intervals[size_t(n - 1)];
        if (iv.step)
            s.values.insert(QStringLiteral("step"), *iv.step);
        if (iv.targetRate)
            s.values.insert(QStringLiteral("target_rate"), *iv.targetRate);
    }
}

QString ReplicationLoad::Runner::failure() const
{
    if (!m_done || m_rec.status != u"failed")
        return {};
    return QStringLiteral("the write load on the supplier failed: ") + m_rec.failure;
}

QString ReplicationLoad::Runner::finish(const QString& probeFailure)
{
    if (!probeFailure.isEmpty() || m_parent.stopRequested())
        m_ctx.requestStop();
    if (m_thread.joinable())
        m_thread.join();
    drain();
    return probeFailure.isEmpty() ? failure() : probeFailure;
}

double ReplicationLoad::Runner::writeOkPerS() const
{
    if (!m_done)
        return 0;
    const LoadSummary s = LoadSummary::fromJson(m_rec.summary);
    return ReplicationLoad::writeOkPerS(s.all, s.byOperation, m_spec);
}
