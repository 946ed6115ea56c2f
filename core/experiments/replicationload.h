#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadspec.h"
#include "core/run/runcontext.h"

#include <QJsonArray>

#include <atomic>
#include <thread>
#include <vector>

struct ReplicationSpec;

// The marker probe beside a write load (issue 13): an LDAP load (core/ldap, as it is: threads, connections, rate,
// ramp, mix, cleanup) runs on the supplier for the probe's duration, its measured phase starting at the probe's
// t0 (LoadRunOptions::startAtNs, one steady clock) with its own warm-up before it, its intervals the probe's.
// Each probe interval gets the load's write successes per second beside the markers'; after a ramp, the lag per
// step and consumer, and the knee (core/experiments/replicationknee.h).
namespace ReplicationLoad {

// ReplicationSpec::validate's checks of spec.load; fields named as the CLI names them (mix, ramp, duration, ...).
ProbeError validate(const ReplicationSpec& spec);
// spec.load = load, aimed at the supplier; the probe's duration (the ramp's with a ramp), interval and failure
// window become the load's.
void attach(ReplicationSpec& spec, LdapLoadSpec load);
// Write operations (modify, adddel: each add and each delete) that succeeded per second.
double writeOkPerS(const OpFigures& all, const OpFiguresByKind& byOperation, const LdapLoadSpec& spec);

// The marker writer's times (ReplicationWatch::Writer::acks, sends) and when the consumers stopped being watched.
struct Marks
{
    std::vector<qint64> acks, sends;
    qint64 watchEndNs = 0;
};

class Runner
{
public:
    Runner(const LdapLoadSpec& spec, RunContext& parent);
    ~Runner();
    Runner(const Runner&) = delete;
    Runner& operator=(const Runner&) = delete;

    // Starts the load and returns the instant its measured phase begins (ReplicationWatch::nowNs): its warm-up
    // and a lead for its connections from now. Waits (briefly) until the load is connected and warming up.
    qint64 start();
    // The probe's interval s, the n-th: gets load_write_ok_per_s (the load's interval n, waited for up to 2 s;
    // null when it did not come; 0 after the load's end), marker_write_ok_per_s (the probe's write_ok_per_s as
    // it came) and write_ok_per_s = their sum; with a ramp also step and target_rate.
    void addTo(Sample& s);
    // Non-empty once the load has ended failed: the run fails with it.
    QString failure() const;
    // Stops the load when the probe failed or was cancelled, else waits for its end (and its cleanup); returns
    // the probe's failure, else the load's.
    QString finish(const QString& probeFailure);
    double writeOkPerS() const; // over its measured phase, after finish()

    // After finish() and the probe's summary: summary.load (the load's summary and status), the write rates
    // (write_ok_per_s = load + markers), the load's warnings, and after a ramp summary.steps and the knee.
    template <class Watchers>
    void summarise(RunRecord& rec, const Marks& marks, const Watchers& watchers, double floorMs)
    {
        std::vector<Seen> seen;
        seen.reserve(watchers.size());
        for (const auto& w : watchers)
            seen.push_back({ w->uri(), w->seen() });
        summariseSeen(rec, marks, seen, floorMs);
    }

private:
    struct Seen
    {
        QString uri;
        std::vector<qint64> seen;
    };
    void summariseSeen(RunRecord& rec, const Marks& marks, const std::vector<Seen>& seen, double floorMs);
    QJsonArray steps(const Marks& marks, const std::vector<Seen>& seen, double floorMs, QJsonObject* knee) const;
    void drain();

    LdapLoadSpec m_spec;
    LoadRamp m_ramp;
    RunContext& m_parent;
    RunContext m_ctx;
    std::thread m_thread;
    std::atomic<bool> m_done { false };
    RunRecord m_rec; // the load's, written by its thread before m_done
    std::vector<LoadInterval> m_intervals;
    qint64 m_t0 = 0;
    int m_calls = 0;
    int m_expected = 0; // the load's intervals
    bool m_late = false; // its connections took longer than the lead
};

// The probe's hook after its own summary: summary.t0_monotonic_s (CLOCK_MONOTONIC, the instant the intervals' t
// counts from, so that a script can place an event it caused, e.g. a SIGSTOP, on the record's time axis), and the
// load's part when there is a load.
template <class Watchers>
void addToSummary(
    RunRecord& rec, Runner* load, qint64 t0Ns, const Marks& marks, const Watchers& watchers, double floorMs)
{
    rec.summary.insert(QStringLiteral("t0_monotonic_s"), double(t0Ns) / 1e9);
    if (load)
        load->summarise(rec, marks, watchers, floorMs);
}

} // namespace ReplicationLoad
