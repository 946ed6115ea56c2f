// LoadRun's last steps: removing what a write load added, the summary, the warnings, the status.
#include "core/common/units.h"
#include "core/ldap/loadresult.h"
#include "core/ldap/loadrun.h"
#include "core/ldap/loadworker.h"
#include "core/run/runcontext.h"

#include <QThread>

#include <algorithm>
#include <cmath>

namespace Ldap {

namespace {

double round3(double v)
{
    return std::round(v * 1000.0) / 1000.0;
}

} // namespace

// Write loads remove what they added, also after a cancel or a failure: every entry this run named
// (uid=dirbench-TAG-...) under the parent, whether the workers saw its add complete or not.
void LoadRun::cleanUp()
{
    if (!m_load->has(LdapOpKind::AddDelete))
        return;
    m_ctx.setPhase(QStringLiteral("removing added entries"));
    LdapSession cleaner;
    int removed = 0, left = 0;
    QList<LdapSession::Entry> found;
    const QString pattern
        = QStringLiteral("uid=dirbench-") + QString::fromLatin1(m_shared->runTag) + QStringLiteral("-*");
    if (!cleaner.open(m_spec.target).isError()
        && !cleaner
                .search(
                    m_spec.parentDn, LdapSession::OneLevel, u'(' + pattern + u')', { QStringLiteral("1.1") }, &found)
                .isError()) {
        for (const auto& e : std::as_const(found)) {
            // No such object: the run's own delete, still on its way when the cleanup looked, got there first.
            const ProbeError err = cleaner.remove(e.dn);
            const bool gone = !err.isError() || (err.kind == ProbeError::Kind::Ldap && err.nativeCode == 32);
            gone ? ++removed : ++left;
        }
    } else {
        left = -1;
    }
    m_rec.summary.insert(QStringLiteral("cleanup_removed"), removed);
    if (const int unanswered = m_shared->unansweredAdds.load(); unanswered > 0)
        m_rec.addWarning(QStringLiteral("cleanup-unanswered"),
            QString::number(unanswered)
                + QStringLiteral(" adds had no answer when the run ended (abandoned); the server may still commit "
                                 "them after the cleanup looked: search ")
                + m_spec.parentDn + QStringLiteral(" for (") + pattern + u')');
    if (left != 0)
        m_rec.addWarning(QStringLiteral("cleanup"),
            left < 0 ? QString(QStringLiteral("could not look for the entries this run added under ") + m_spec.parentDn)
                     : QString::number(left) + QStringLiteral(" entries this run added could not be removed from ")
                    + m_spec.parentDn + QStringLiteral(" (") + pattern + u')');
}

void LoadRun::summarise()
{
    const double seconds = double(m_tEnd - m_t0) / 1e9;
    LoadSummary s;
    s.all = OpFigures::of(m_total.all, seconds);
    if (m_spec.mix.size() > 1)
        for (int k = 0; k < LoadStats::OpKinds; ++k)
            if (m_load->has(LdapOpKind(k)))
                s.byOperation[LdapLoadSpec::opName(LdapOpKind(k))] = OpFigures::of(m_total.byOp[size_t(k)], seconds);
    s.seconds = seconds;
    s.reconnects = double(m_total.reconnects);
    s.connectFailures = double(m_total.connectFailures);
    s.missed = double(m_total.missed);
    s.sendLagMs = LatencyFigures::of(m_total.sendLag);
    if (m_total.sendLag.count() > 0)
        s.sendLagHistogramNs = m_total.sendLag.toJson();
    s.clientCpuS = round3(m_cpu);
    s.loadCpuS = round3(m_loadCpu);
    if (m_spec.mix.size() > 1 && m_load->has(LdapOpKind::Bind))
        s.bindConnections = m_spec.threads;
    s.latencyHistogramNs = m_total.all.latency.toJson();
    if (m_rec.summary.contains(QStringLiteral("cleanup_removed")))
        s.cleanupRemoved = m_rec.summary.value(QStringLiteral("cleanup_removed")).toInt();
    if (m_monitorOk) {
        QJsonObject srv;
        for (auto it = m_monEnd.begin(); it != m_monEnd.end(); ++it)
            if (MonitorReader::isCounter(it.key()) && m_monStart.contains(it.key()))
                srv.insert(it.key(), it.value() - m_monStart.value(it.key()));
        s.server = srv.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(srv);
    }
    m_rec.summary = s.toJson();
    // Where the server's own log of the same operations lines up (workload analyze --from/--to). Operations are
    // counted by their completion on the client inside it.
    m_rec.summary.insert(QStringLiteral("window_epoch_ns"), windowEpochJson(m_t0, m_tEnd));
}

void LoadRun::addWarnings()
{
    const LoadCounts& all = m_total.all;
    const double seconds = double(m_tEnd - m_t0) / 1e9;
    const OpFigures f = OpFigures::of(all, seconds);
    if (all.errors > 0 && double(all.errors) > 0.01 * double(all.ops()))
        m_rec.addWarning(QStringLiteral("errors"),
            Units::formatNumber(double(all.errors), 0) + QStringLiteral(" of ")
                + Units::formatNumber(double(all.ops()), 0) + QStringLiteral(" operations failed (")
                + Units::formatNumber(100.0 * double(all.errors) / double(all.ops())) + QStringLiteral(" %): ")
                + f.topErrors() + QStringLiteral("; failed operations are not throughput"));
    const LoadCounts& search = m_spec.mix.size() > 1 ? m_total.byOp[size_t(LdapOpKind::Search)] : all;
    if (m_load->has(LdapOpKind::Search) && search.noEntry > 0)
        m_rec.addWarning(QStringLiteral("no-entry"),
            QString::number(search.noEntry) + QStringLiteral(" of ") + QString::number(search.ok)
                + QStringLiteral(" successful searches returned no entry: check the base DN and the filter (an empty "
                                 "answer is fast, and proves nothing about the server)"));
    if (m_load->has(LdapOpKind::Search) && search.ok > 0 && double(search.entries) / double(search.ok) > 100.0)
        m_rec.addWarning(QStringLiteral("bulk-search"),
            QStringLiteral("a search returned ") + Units::formatNumber(double(search.entries) / double(search.ok))
                + QStringLiteral(" entries on average: this measures bulk transfer, not lookups (narrow the filter)"));
    if (m_total.missed > 0)
        m_rec.addWarning(QStringLiteral("schedule-missed"),
            Units::formatNumber(double(m_total.missed), 0)
                + QStringLiteral(" scheduled operations could not be sent within the operation timeout and were not "
                                 "sent: the target rate was not offered (more connections or outstanding, or a lower "
                                 "--rate)"));
    if (const QString late = scheduleLateMessage(m_total.sendLag); !late.isEmpty())
        m_rec.addWarning(QStringLiteral("schedule-late"), late);
    const double cores = std::min<double>(m_spec.threads, std::max(1, QThread::idealThreadCount()));
    if (seconds > 0 && m_loadCpu / seconds >= 0.9 * cores)
        m_rec.addWarning(QStringLiteral("client-bound"),
            QStringLiteral("the load threads used ") + Units::formatNumber(100.0 * m_loadCpu / seconds, 0)
                + QStringLiteral(" % CPU over ") + QString::number(m_spec.threads)
                + QStringLiteral(" thread(s): the client, not the server, may be the limit"));
    if (m_total.reconnects > 0)
        m_rec.addWarning(QStringLiteral("reconnects"),
            QString::number(m_total.reconnects)
                + QStringLiteral(" connection(s) were lost and made again during the run"));
}

RunRecord LoadRun::finished()
{
    const LoadCounts& all = m_total.all;
    if (!m_cancelled && all.ok == 0 && (m_failure.isEmpty() || m_windowFailure)) {
        // Nothing succeeded: nothing was measured, however fast the errors came.
        const OpFigures f = OpFigures::of(all, 1);
        m_failure = all.ops() > 0
            ? QStringLiteral("no operation succeeded: ") + f.topErrors()
                + (m_windowFailure ? QStringLiteral(" (stopped after the failure window of ")
                            + Units::formatNumber(m_spec.failAfterSec) + QStringLiteral(" s)")
                                   : QString())
            : (m_failure.isEmpty() ? QStringLiteral("no operation completed (last error: ") + lastError() + u')'
                                   : m_failure);
    }
    if (!m_failure.isEmpty()) {
        m_rec.status = QStringLiteral("failed");
        m_rec.failure = m_failure;
        return m_rec;
    }
    if (m_cancelled)
        m_rec.status = QStringLiteral("cancelled");
    m_ctx.setProgress(1.0);
    return m_rec;
}

} // namespace Ldap
