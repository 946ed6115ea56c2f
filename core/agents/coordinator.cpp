// The coordinator's state machine: launch, hello, ready, clock probe, start, intervals, final, loss.
// The record it builds is in coordinatorrecord.cpp.
#include "core/agents/agentargs.h"
#include "core/agents/agentmerge.h"
#include "core/agents/coordinator_p.h"
#include "core/common/units.h"
#include "core/ldap/serverconnect.h"
#include "core/ldap/serveridentity.h"
#include "core/run/runcontext.h"

#include <QJsonArray>
#include <QRandomGenerator>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace Agents {

namespace {

constexpr int kClockRounds = 8;
constexpr int64_t kStartLeadNs = 500000000LL; // the start goes out at least this long ahead
constexpr uint64_t kStopGraceNs = 15000000000ULL; // agents asked to stop are killed after this (cleanup included)
constexpr uint64_t kMonitorLeadNs = 50000000ULL;
constexpr int64_t kLateNs = 2000000000LL; // a merged interval waits this long past its end for a slow agent

QString shellQuote(const QString& s)
{
    if (!s.isEmpty() && std::all_of(s.begin(), s.end(), [](QChar c) {
            return c.isLetterOrNumber() || QStringLiteral("/._-+=:,@").contains(c);
        }))
        return s;
    QString q = s;
    q.replace(u'\'', QStringLiteral("'\\''"));
    return u'\'' + q + u'\'';
}

QString exitText(const AgentLink& a)
{
    if (!a.proc || a.proc->state() != QProcess::NotRunning)
        return QStringLiteral("still running");
    if (a.proc->error() == QProcess::FailedToStart)
        return QStringLiteral("could not be started: ") + a.proc->errorString();
    if (a.proc->exitStatus() == QProcess::CrashExit)
        return QStringLiteral("killed by a signal");
    return QStringLiteral("exit status %1").arg(a.proc->exitCode());
}

// Finds the pod by the Job controller's labels (job-name, batch.kubernetes.io/job-completion-index: Kubernetes
// 1.28 or later) and replaces the shell with kubectl attach.
QString podAttachScript(const AgentHost& host)
{
    const QString ns = host.k8sNamespace.isEmpty() ? QString() : QStringLiteral(" -n ") + host.k8sNamespace;
    return QStringLiteral("pod=$(kubectl get pods%1 -l job-name=%2,batch.kubernetes.io/job-completion-index=%3 "
                          "-o name) && [ -n \"$pod\" ] && exec kubectl attach -i -q%1 -c agent \"$pod\"")
        .arg(ns, host.k8sJob)
        .arg(host.k8sIndex);
}

} // namespace

QStringList agentCommandLine(const CoordinatorSpec& spec, const AgentHost& host)
{
    return agentCommandLine(spec.sshOptions, spec.agentCommand, host);
}

QStringList agentCommandLine(const QStringList& sshOptions, const QString& agentCommand, const AgentHost& host)
{
    if (host.local)
        return { agentCommand, QStringLiteral("agent") };
    if (host.isPod()) // the pod of this index, then attached to: the same stream, and a closed stdin stops it
        return { QStringLiteral("sh"), QStringLiteral("-c"), podAttachScript(host) };
    QStringList cmd { QStringLiteral("ssh") };
    cmd << sshOptions;
    cmd << QStringLiteral("-T") << QStringLiteral("-o") << QStringLiteral("BatchMode=yes") << QStringLiteral("-o")
        << QStringLiteral("ServerAliveInterval=2") << QStringLiteral("-o") << QStringLiteral("ServerAliveCountMax=3");
    cmd << host.name << shellQuote(agentCommand) + QStringLiteral(" agent");
    return cmd;
}

RunRecord runAgents(const CoordinatorSpec& spec, RunContext& ctx)
{
    Coordinator c(spec, ctx);
    return c.run();
}

Coordinator::Coordinator(const CoordinatorSpec& spec, RunContext& ctx)
    : m_spec(spec)
    , m_ctx(ctx)
{
    const QList<int> threads = splitEvenly(spec.load.threads, int(spec.hosts.size()));
    const QList<double> rates = splitRate(spec.load.rate, int(spec.hosts.size()));
    for (int i = 0; i < spec.hosts.size(); ++i) {
        auto a = std::make_unique<AgentLink>();
        a->host = spec.hosts.at(i);
        a->index = i;
        a->threads = threads.at(i);
        a->rate = rates.at(i);
        m_agents.push_back(std::move(a));
    }
    if (const auto c = CompiledLoad::compile(spec.load, nullptr))
        m_totalSeconds = c->totalSeconds();
    // One tag for the run; each agent adds its index (uid=dirbench-TAG-aI-...), so no two agents' entries collide.
    m_runTag = QByteArray::number(QDateTime::currentSecsSinceEpoch(), 36) + 'x'
        + QByteArray::number(QRandomGenerator::global()->generate() % 1679616U, 36);
}

RunRecord Coordinator::run()
{
    m_rec.kind = m_spec.load.kindName();
    m_rec.started = QDateTime::currentDateTime();
    if (!openServer())
        return record();
    m_ctx.setPhase(QStringLiteral("starting agents"));
    m_launchNs = monotonicNs();
    for (auto& a : m_agents)
        launch(*a);
    connect(&m_tick, &QTimer::timeout, this, [this] { tick(); });
    m_tick.start(50);
    checkDone();
    if (!std::all_of(m_agents.begin(), m_agents.end(), [](const auto& a) { return a->gone; }))
        m_loop.exec();
    m_tick.stop();
    return record();
}

// Only the coordinator reads the server's counters: the agents run with --no-server-counters.
bool Coordinator::openServer()
{
    m_ctx.setPhase(QStringLiteral("connecting"));
    IdentifiedServer server;
    if (const ProbeError err = ServerConnect::connectAndIdentify(m_session, m_spec.load.target, &server);
        err.isError()) {
        m_failure = err.message();
        return false;
    }
    m_rec.server = server.json;
    m_monitor = std::make_unique<MonitorReader>(server.identity.kind);
    m_monitorOk
        = m_spec.load.readServerCounters && m_monitor->supported() && !m_monitor->read(m_session, nullptr).isEmpty();
    if (m_spec.load.readServerCounters && !m_monitorOk)
        m_rec.addWarning(QStringLiteral("monitor-unavailable"),
            QStringLiteral("the server's counters (cn=monitor) could not be read with this bind"));
    return true;
}

void Coordinator::launch(AgentLink& a)
{
    a.proc = std::make_unique<QProcess>();
    AgentLink* p = &a;
    connect(a.proc.get(), &QProcess::readyReadStandardOutput, this, [this, p] { onStdout(*p); });
    connect(a.proc.get(), &QProcess::readyReadStandardError, this, [this, p] { onStderr(*p); });
    connect(a.proc.get(), &QProcess::finished, this,
        [this, p](int code, QProcess::ExitStatus st) { onFinished(*p, code, st); });
    connect(a.proc.get(), &QProcess::errorOccurred, this, [this, p](QProcess::ProcessError e) {
        if (e == QProcess::FailedToStart)
            onFinished(*p, -1, QProcess::CrashExit);
    });
    const QStringList cmd = agentCommandLine(m_spec, a.host);
    a.lastHeardNs = monotonicNs();
    a.proc->start(cmd.first(), cmd.mid(1));
    AgentSpec s;
    s.args = m_spec.args;
    s.args << QStringLiteral("--threads") << QString::number(a.threads);
    if (a.rate > 0)
        s.args << QStringLiteral("--rate") << QString::number(a.rate, 'g', 17);
    if (const qsizetype ramp = s.args.indexOf(QStringLiteral("--ramp")); ramp >= 0 && ramp + 1 < s.args.size())
        s.args[ramp + 1] = agentRamp(s.args.at(ramp + 1), a.index, int(m_agents.size()));
    s.password = m_spec.load.target.password;
    s.runTag = m_runTag;
    s.index = a.index;
    s.agents = int(m_agents.size());
    s.deadlineS = m_spec.readyTimeoutS + m_spec.load.warmupSec + m_totalSeconds + m_spec.load.failAfterSec + 30;
    send(a, s.toJson());
}

void Coordinator::send(AgentLink& a, const QJsonObject& m)
{
    if (a.proc && a.proc->state() != QProcess::NotRunning)
        a.proc->write(encode(m));
}

void Coordinator::onStdout(AgentLink& a)
{
    a.out.feed(a.proc->readAllStandardOutput());
    a.lastHeardNs = monotonicNs();
    for (const QByteArray& line : a.out.take()) {
        QString why;
        const auto m = decode(line, &why);
        if (!m) {
            lose(a, QStringLiteral("sent what is not the agent protocol (") + why + u')');
            return;
        }
        handle(a, *m);
    }
}

void Coordinator::onStderr(AgentLink& a)
{
    a.err.feed(a.proc->readAllStandardError());
    for (const QByteArray& line : a.err.take())
        if (m_spec.printAgentStderr)
            std::fprintf(stderr, "[%s] %s\n", qPrintable(a.name()), line.constData());
}

void Coordinator::onFinished(AgentLink& a, int, QProcess::ExitStatus)
{
    if (a.gone)
        return;
    onStdout(a);
    a.gone = true;
    if (!a.done())
        lose(a, QStringLiteral("ended without its final message (") + exitText(a) + u')');
    release();
    checkDone();
}

void Coordinator::handle(AgentLink& a, const QJsonObject& m)
{
    const AgentLink::Phase before = a.phase;
    handleMessage(a, m);
    if (a.phase != before && a.phase != AgentLink::Phase::Final) // a final's state goes out with its figures
        publishStates();
}

void Coordinator::handleMessage(AgentLink& a, const QJsonObject& m)
{
    const QString type = m.value(QStringLiteral("type")).toString();
    if (type == u"hello") {
        a.hello = m;
        if (m.value(QStringLiteral("proto")).toInt() != kProtocol)
            lose(a,
                QStringLiteral("speaks protocol %1, this coordinator %2 (install the same DirBench version)")
                    .arg(m.value(QStringLiteral("proto")).toInt())
                    .arg(kProtocol));
        else
            a.phase = AgentLink::Phase::Hello;
    } else if (type == u"ready") {
        a.phase = AgentLink::Phase::Ready;
        send(a, ping(realtimeNs()));
    } else if (type == u"pong") {
        onPong(a, m);
    } else if (type == u"started") {
        a.startedRealNs = m.value(QStringLiteral("realtime_ns")).toInteger();
    } else if (type == u"interval") {
        onInterval(a, m);
    } else if (type == u"final") {
        a.final = m;
        a.cpuS = m.value(QStringLiteral("cpu_s")).toDouble(a.cpuS);
        if (a.phase < AgentLink::Phase::Started) { // it could not connect, or was stopped before the start
            lose(a, QStringLiteral("could not start: ") + m.value(QStringLiteral("failure")).toString());
            return;
        }
        a.phase = AgentLink::Phase::Final;
        release();
        publishStates();
    } else if (type == u"error") {
        lose(a, m.value(QStringLiteral("message")).toString());
    }
}

void Coordinator::onPong(AgentLink& a, const QJsonObject& m)
{
    ClockRound r;
    r.t1 = m.value(QStringLiteral("t1")).toInteger();
    r.t2 = m.value(QStringLiteral("realtime_ns")).toInteger();
    r.t3 = realtimeNs();
    a.rounds << r;
    if (a.rounds.size() < kClockRounds) {
        send(a, ping(realtimeNs()));
        return;
    }
    a.best = bestRound(a.rounds);
    a.phase = AgentLink::Phase::Probed;
    if (all(AgentLink::Phase::Probed))
        allProbed();
}

void Coordinator::onInterval(AgentLink& a, const QJsonObject& m)
{
    const int index = m.value(QStringLiteral("index")).toInt(-1);
    if (index != a.intervals.size()) {
        lose(a, QStringLiteral("sent interval %1 where %2 was due").arg(index).arg(a.intervals.size()));
        return;
    }
    a.intervals << LoadInterval::fromJson(m.value(QStringLiteral("interval")).toObject());
    a.cpuS = m.value(QStringLiteral("cpu_s")).toDouble(a.cpuS);
    release();
    publishStates();
}

bool Coordinator::all(AgentLink::Phase atLeast) const
{
    return std::all_of(m_agents.begin(), m_agents.end(), [atLeast](const auto& a) { return a->phase >= atLeast; });
}

// Every agent is connected and its clock measured: refuse a skew over a tenth of the interval, then start.
void Coordinator::allProbed()
{
    if (m_stopping)
        return;
    const double limitMs = m_spec.load.intervalSec * 100.0;
    for (const auto& a : m_agents) {
        const double off = a->offsetMs();
        if (std::abs(off) <= limitMs)
            continue;
        if (!m_spec.allowClockSkew) {
            fail(QStringLiteral("the clock of %1 is off by %2 ms from this machine's, more than a tenth of the "
                                "interval (%3 ms): synchronise the clocks (chrony, systemd-timesyncd) or give "
                                "--allow-clock-skew")
                     .arg(a->name(), Units::formatNumber(off, 1), Units::formatNumber(limitMs, 0)));
            return;
        }
        m_rec.addWarning(QStringLiteral("clock-skew"),
            QStringLiteral("the clock of %1 is off by %2 ms (allowed by the run's clock-skew setting): its intervals "
                           "are shifted by that")
                .arg(a->name(), Units::formatNumber(off, 1)));
    }
    sendStart();
}

void Coordinator::sendStart()
{
    int64_t maxRtt = 0;
    for (const auto& a : m_agents)
        if (a->best)
            maxRtt = std::max(maxRtt, a->best->rttNs());
    const int64_t now = realtimeNs();
    // The agents connect and bind, then wait idle until the start less the warm-up: the lead holds all of it.
    m_t0Real = now + std::max(kStartLeadNs + 2 * maxRtt, int64_t(m_spec.load.warmupSec * 1e9));
    for (auto& a : m_agents) {
        if (!a->best)
            continue;
        send(*a, start(m_t0Real + a->best->offsetNs()));
        a->phase = AgentLink::Phase::Started;
        a->lastHeardNs = monotonicNs();
    }
    m_hardDeadlineNs
        = monotonicNs() + uint64_t(m_t0Real - now) + uint64_t((m_totalSeconds + m_spec.load.failAfterSec + 30) * 1e9);
    m_ctx.setPhase(QStringLiteral("warming up"));
    const int64_t monLead = (m_t0Real - now) / 1000000 - int64_t(kMonitorLeadNs / 1000000);
    QTimer::singleShot(int(std::max<int64_t>(0, monLead)), this, [this] {
        if (m_monitorOk) {
            m_monStart = m_monitor->read(m_session, nullptr);
            // Read ahead of the start instant; without a warmup nothing is sent before it, so the first interval's
            // server span starts there too (else its rate is spread over 50 ms more than the client's).
            const int64_t readNs = realtimeNs();
            m_boundaries.push_back(
                { m_monStart, m_spec.load.warmupSec > 0 ? readNs : std::max<int64_t>(readNs, m_t0Real) });
            if (m_monStart.isEmpty())
                m_monitorOk = false;
            else
                readBoundary(); // schedules the first boundary
        }
        m_ctx.setPhase(QStringLiteral("measuring"));
    });
}

// Reads the counters at boundary k = m_boundaries.size() - 1 (none for k = 0, read already), then schedules the
// next one, up to the end of the measured span.
void Coordinator::readBoundary()
{
    const int64_t k = int64_t(m_boundaries.size()) - 1;
    if (k > 0) {
        const QMap<QString, double> now = m_monitor->read(m_session, nullptr);
        m_boundaries.back() = { now, realtimeNs() };
        release(); // an interval whose agents all reported before its end was read goes out now
    }
    const auto intervals = int64_t(std::ceil(m_totalSeconds / m_spec.load.intervalSec - 1e-9));
    if (m_stopping || k >= intervals)
        return;
    const int64_t next = m_t0Real + int64_t(double(k + 1) * m_spec.load.intervalSec * 1e9);
    m_boundaries.push_back({});
    QTimer::singleShot(
        int(std::max<int64_t>(0, (next - realtimeNs()) / 1000000)), Qt::PreciseTimer, this, [this] { readBoundary(); });
}

void Coordinator::tick()
{
    const uint64_t now = monotonicNs();
    if (m_ctx.stopRequested() && !m_stopping) {
        m_cancelled = true;
        stopAll(QStringLiteral("cancelled"));
    }
    const uint64_t silence = uint64_t((m_spec.load.intervalSec + m_spec.load.failAfterSec) * 1e9);
    for (auto& a : m_agents) {
        if (a->done() || m_stopping)
            continue;
        if (a->phase < AgentLink::Phase::Probed && now - m_launchNs > uint64_t(m_spec.readyTimeoutS * 1e9))
            lose(*a, QStringLiteral("was not ready within %1 s").arg(m_spec.readyTimeoutS));
        else if (a->phase == AgentLink::Phase::Started && now > a->lastHeardNs + silence && realtimeNs() > m_t0Real)
            lose(*a,
                QStringLiteral("was silent for %1 s (the interval and the failure window)")
                    .arg(Units::formatNumber(double(silence) / 1e9)));
    }
    if (m_hardDeadlineNs && now > m_hardDeadlineNs && !m_stopping)
        stopAll(QStringLiteral("the run's hard deadline passed"));
    if (m_stopping && now > m_stopDeadlineNs)
        for (auto& a : m_agents)
            if (a->proc && a->proc->state() != QProcess::NotRunning)
                a->proc->kill();
    release(); // an interval an agent is late with goes out without it
    if (m_t0Real > 0 && m_totalSeconds > 0)
        m_ctx.setProgress(std::clamp(double(realtimeNs() - m_t0Real) / 1e9 / m_totalSeconds, 0.0, 1.0));
}

QString Coordinator::sharpName(const AgentLink& a) const
{
    return QStringLiteral("agent ") + a.name();
}

// An agent lost: by default the run stops (failed, with what was merged); with --on-agent-loss continue the others
// go on, never taking over its share, and the intervals say how many agents reported.
void Coordinator::lose(AgentLink& a, const QString& why)
{
    if (a.done())
        return;
    const bool started = a.phase == AgentLink::Phase::Started;
    a.phase = AgentLink::Phase::Lost;
    a.lostWhy = why;
    if (a.proc && a.proc->state() != QProcess::NotRunning)
        a.proc->kill();
    const QString sentence
        = sharpName(a) + u' ' + why + (started ? QStringLiteral(" in interval %1").arg(a.intervals.size()) : QString());
    publishStates();
    if (m_stopping)
        return;
    if (!started || !m_spec.continueOnLoss) {
        fail(sentence);
        return;
    }
    m_rec.addWarning(QStringLiteral("agent-lost"),
        sentence
            + QStringLiteral("; the others went on with their own shares, so the offered load fell by its share "
                             "(intervals say agents_reporting)"));
}

void Coordinator::fail(const QString& sentence)
{
    if (m_failure.isEmpty())
        m_failure = sentence;
    stopAll(sentence);
}

void Coordinator::stopAll(const QString& reason)
{
    if (m_stopping)
        return;
    m_stopping = true;
    m_stopDeadlineNs = monotonicNs() + kStopGraceNs;
    m_ctx.setPhase(QStringLiteral("stopping agents"));
    for (auto& a : m_agents) {
        send(*a, stop(reason));
        if (a->proc)
            a->proc->closeWriteChannel();
    }
}

// Merged interval k goes out live once every agent still running has delivered it, or 2 s after its end with
// those that did (agents_reporting says how many); what comes late still reaches the record (record()).
void Coordinator::release()
{
    for (;;) {
        bool any = false, waiting = false;
        for (const auto& a : m_agents) {
            if (a->intervals.size() > m_released)
                any = true;
            else if (!a->done())
                waiting = true;
        }
        const int64_t due = m_t0Real + int64_t(double(m_released + 1) * m_spec.load.intervalSec * 1e9) + kLateNs;
        const auto end = size_t(m_released + 1); // the boundary that ends the interval: its counters come too
        const bool counting
            = m_monitorOk && !m_stopping && (m_boundaries.size() <= end || m_boundaries[end].realNs == 0);
        if (!any || ((waiting || counting) && (m_t0Real == 0 || realtimeNs() < due)))
            return;
        QList<LoadInterval> parts;
        for (const auto& a : m_agents)
            if (a->intervals.size() > m_released)
                parts << a->intervals.at(m_released);
        LoadInterval iv = mergeInterval(parts, false);
        iv.server = serverInterval(m_released);
        m_server[m_released] = iv.server;
        Sample smp;
        smp.t = iv.t;
        smp.values = iv.toJson();
        m_ctx.addSample(std::move(smp));
        ++m_released;
    }
}

// The server's counters over merged interval k: the delta between the readings at its two boundaries.
QJsonValue Coordinator::serverInterval(int64_t k) const
{
    if (k + 1 >= int64_t(m_boundaries.size()))
        return QJsonValue::Null;
    const Reading& a = m_boundaries[size_t(k)];
    const Reading& b = m_boundaries[size_t(k + 1)];
    if (a.counters.isEmpty() || b.counters.isEmpty())
        return QJsonValue::Null;
    return MonitorReader::intervalJson(a.counters, b.counters, double(b.realNs - a.realNs) / 1e9);
}

// The reading at the end of the measured span (before any agent's write-load cleanup), or nullptr when the run did
// not get there (cancelled, failed).
const QMap<QString, double>* Coordinator::endReading() const
{
    const auto intervals = size_t(std::ceil(m_totalSeconds / m_spec.load.intervalSec - 1e-9));
    if (m_boundaries.size() != intervals + 1 || m_boundaries.back().counters.isEmpty())
        return nullptr;
    return &m_boundaries.back().counters;
}

void Coordinator::checkDone()
{
    if (std::all_of(m_agents.begin(), m_agents.end(), [](const auto& a) { return a->gone; }))
        m_loop.quit();
}

} // namespace Agents
