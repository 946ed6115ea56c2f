#include "app/cli/agentcommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/ldapcommand.h"
#include "core/agents/agentprotocol.h"
#include "core/agents/remoterun.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/loadgenerator.h"
#include "core/run/runcontext.h"

#include <QJsonArray>

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <optional>
#include <poll.h>
#include <sys/resource.h>
#include <thread>
#include <unistd.h>

namespace Cli {

namespace {

const char* const kHelp = R"(Usage: dirbench-cli agent

One agent of a load from many hosts. It is started by a coordinator ('dirbench-cli ldap ... --agents HOSTS',
over ssh or as a local process) and speaks newline-delimited JSON on stdin and stdout: it reads its share of
the load and the password from stdin (never from the command line), connects, binds and warms up, reports
ready, answers clock probes, starts at the absolute instant it is given, and streams each interval (counters
and latency histograms) and a final message. Started by 'dirbench-cli disk --host HOST', it runs the disk test
on its own machine, streams its intervals and sends back the whole record made there. Human text goes to stderr. When its stdin closes (the coordinator
or its ssh session is gone) it stops within a second, and it has a hard deadline besides. It saves no history.
)";

// Tests only: DIRBENCH_TEST_CLOCK_OFFSET_MS shifts the clock this agent reports and starts by, as if its clock
// were off: "300" for every agent, "0,300,0" for agent i the i-th value (set once the spec names the index).
std::atomic<int64_t> g_clockShiftNs { 0 };

void setClockShift(int index)
{
    const QList<QByteArray> values = qgetenv("DIRBENCH_TEST_CLOCK_OFFSET_MS").split(',');
    const QByteArray v = values.size() == 1 ? values.first() : values.value(index);
    g_clockShiftNs.store(v.trimmed().toLongLong() * 1000000LL);
}

// The agent's clock as it reports it: CLOCK_REALTIME (shifted in tests).
int64_t agentRealtime()
{
    return Agents::realtimeNs() + g_clockShiftNs.load();
}

double cpuSeconds()
{
    rusage ru {};
    getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

class Agent
{
public:
    int run();

private:
    void send(const QJsonObject& m);
    std::optional<QJsonObject> readSpecLine();
    void readLoop();
    void pumpLoop();
    void watchdog();
    std::optional<uint64_t> waitForStart();
    void sendIntervals();
    void sendProgress();
    int runEngine(const Agents::AgentSpec& spec);
    int fail(const QString& message, int code);
    int reach(const QString& uri);

    std::mutex m_outMutex;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::optional<int64_t> m_startAt;
    bool m_eof = false;
    std::atomic<bool> m_quit { false };
    Agents::LineBuffer m_in;
    RunContext m_ctx;
    int64_t m_interval = 0;
    uint64_t m_deadlineNs = 0;
    bool m_engine = false; // an engine run on this host (progress messages too), not a share of a load
    QString m_sentPhase;
    double m_sentProgress = -1;
};

void Agent::send(const QJsonObject& m)
{
    const QByteArray line = Agents::encode(m);
    std::lock_guard<std::mutex> lock(m_outMutex);
    if (::write(STDOUT_FILENO, line.constData(), size_t(line.size())) < 0)
        m_ctx.requestStop(); // the coordinator is gone
}

int Agent::fail(const QString& message, int code)
{
    std::fprintf(stderr, "dirbench-cli agent: %s\n", qPrintable(message));
    send(Agents::error(message, code));
    return code;
}

std::optional<QJsonObject> Agent::readSpecLine()
{
    char buf[65536];
    for (;;) {
        QList<QByteArray> lines = m_in.take();
        if (!lines.isEmpty()) {
            QString why;
            auto m = Agents::decode(lines.takeFirst(), &why);
            for (const QByteArray& rest : lines) // anything sent early after the spec
                m_in.feed(rest + '\n');
            if (!m)
                fail(why, ExitBadArgs);
            return m;
        }
        pollfd pfd { STDIN_FILENO, POLLIN, 0 };
        if (::poll(&pfd, 1, 60000) <= 0) {
            fail(QStringLiteral("no spec on stdin within 60 s"), ExitBadArgs);
            return std::nullopt;
        }
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0)
            return std::nullopt;
        m_in.feed(QByteArray(buf, n));
    }
}

// stdin: pings are answered at once; start and stop are handed to the run; end of file means stop.
void Agent::readLoop()
{
    char buf[65536];
    while (!m_quit.load()) {
        for (const QByteArray& line : m_in.take()) {
            QString why;
            const auto m = Agents::decode(line, &why);
            const QString type = m ? m->value(QStringLiteral("type")).toString() : QString();
            if (type == u"ping") {
                send(Agents::pong(m->value(QStringLiteral("t1")).toInteger(), agentRealtime(), Agents::monotonicNs()));
            } else if (type == u"start") {
                std::lock_guard<std::mutex> lock(m_mutex);
                m_startAt = m->value(QStringLiteral("at_epoch_ns")).toInteger();
                m_cv.notify_all();
            } else if (type == u"stop") {
                std::fprintf(stderr, "dirbench-cli agent: stopping (%s)\n",
                    qPrintable(m->value(QStringLiteral("reason")).toString()));
                m_ctx.requestStop();
            } else if (!m) {
                std::fprintf(stderr, "dirbench-cli agent: ignored: %s\n", qPrintable(why));
            }
        }
        pollfd pfd { STDIN_FILENO, POLLIN, 0 };
        if (::poll(&pfd, 1, 100) <= 0)
            continue;
        const ssize_t n = ::read(STDIN_FILENO, buf, sizeof buf);
        if (n <= 0) {
            std::fprintf(stderr, "dirbench-cli agent: stdin closed: stopping\n");
            std::lock_guard<std::mutex> lock(m_mutex);
            m_eof = true;
            m_ctx.requestStop();
            m_cv.notify_all();
            return;
        }
        m_in.feed(QByteArray(buf, n));
    }
}

void Agent::sendIntervals()
{
    for (const Sample& smp : m_ctx.takeSamples()) {
        QJsonObject m { { QStringLiteral("type"), QStringLiteral("interval") },
            { QStringLiteral("index"), double(m_interval++) }, { QStringLiteral("interval"), smp.toJson() },
            { QStringLiteral("cpu_s"), cpuSeconds() } };
        send(m);
    }
}

void Agent::sendProgress()
{
    const double fraction = m_ctx.progress();
    const QString phase = m_ctx.phase();
    if (phase == m_sentPhase && std::abs(fraction - m_sentProgress) < 0.005)
        return;
    m_sentPhase = phase;
    m_sentProgress = fraction;
    send(QJsonObject { { QStringLiteral("type"), QStringLiteral("progress") }, { QStringLiteral("fraction"), fraction },
        { QStringLiteral("phase"), phase } });
}

void Agent::pumpLoop()
{
    while (!m_quit.load()) {
        sendIntervals();
        if (m_engine)
            sendProgress();
        if (m_deadlineNs && Agents::monotonicNs() > m_deadlineNs) {
            if (!m_ctx.stopRequested())
                std::fprintf(stderr, "dirbench-cli agent: hard deadline passed: stopping\n");
            m_ctx.requestStop();
            if (Agents::monotonicNs() > m_deadlineNs + 30000000000ULL) // cleanup hung: give up
                ::_exit(ExitFailed);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
}

std::optional<uint64_t> Agent::waitForStart()
{
    send(QJsonObject { { QStringLiteral("type"), QStringLiteral("ready") } });
    std::unique_lock<std::mutex> lock(m_mutex);
    while (!m_startAt && !m_eof && !m_ctx.stopRequested())
        m_cv.wait_for(lock, std::chrono::milliseconds(50));
    if (!m_startAt || m_ctx.stopRequested())
        return std::nullopt;
    const int64_t shift = agentRealtime() - Agents::realtimeNs();
    return Agents::monotonicAt(*m_startAt - shift);
}

// `agents check`: answer the clock probes, and connect to the target (anonymous) to see that it is reachable.
int Agent::reach(const QString& uri)
{
    std::thread reader([this] { readLoop(); });
    bool reached = true;
    QJsonObject m { { QStringLiteral("type"), QStringLiteral("reach") }, { QStringLiteral("ok"), reached },
        { QStringLiteral("message"), QStringLiteral("(no --uri)") } };
    if (!uri.isEmpty()) {
        LdapTarget t;
        t.uri = uri;
        t.networkTimeoutMs = 5000;
        t.opTimeoutMs = 5000;
        LdapSession session;
        const ProbeError e = t.validate().isError() ? t.validate() : session.open(t);
        reached = !e.isError();
        m.insert(QStringLiteral("ok"), reached);
        m.insert(QStringLiteral("message"), e.isError() ? e.message() : QStringLiteral("reached ") + uri);
    }
    send(m);
    const uint64_t until = Agents::monotonicNs() + 30000000000ULL;
    while (!m_ctx.stopRequested() && Agents::monotonicNs() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    m_quit.store(true);
    reader.join();
    return reached ? ExitOk : ExitFailed;
}

// One engine's whole run on this host (a disk test): checked here, run at once, its record sent back whole.
int Agent::runEngine(const Agents::AgentSpec& spec)
{
    QString why;
    const auto job = Agents::engineJob(spec, &why);
    if (!job)
        return fail(why, ExitBadArgs);
    m_engine = true;
    if (spec.deadlineS > 0)
        m_deadlineNs = Agents::monotonicNs() + uint64_t(spec.deadlineS * 1e9);
    std::thread reader([this] { readLoop(); });
    std::thread pump([this] { pumpLoop(); });
    send(QJsonObject { { QStringLiteral("type"), QStringLiteral("started") },
        { QStringLiteral("realtime_ns"), qint64(agentRealtime()) },
        { QStringLiteral("monotonic_ns"), qint64(Agents::monotonicNs()) } });
    RunRecord rec = (*job)(m_ctx);
    m_quit.store(true);
    pump.join();
    sendIntervals();
    Agents::addReachedOver(&rec.environment);
    send(QJsonObject { { QStringLiteral("type"), QStringLiteral("final") }, { QStringLiteral("status"), rec.status },
        { QStringLiteral("record"), rec.toJson() }, { QStringLiteral("cpu_s"), cpuSeconds() } });
    reader.join();
    return rec.status == u"ok" ? ExitOk : ExitFailed;
}

int Agent::run()
{
    send(Agents::hello(QStringLiteral(DIRBENCH_VERSION), agentRealtime()));
    const auto first = readSpecLine();
    if (!first)
        return ExitBadArgs;
    QString why;
    const auto spec = Agents::AgentSpec::fromJson(*first, &why);
    if (!spec)
        return fail(why, ExitBadArgs);
    setClockShift(spec->index);
    if (!spec->engine.isEmpty())
        return runEngine(*spec);
    if (spec->args.first() == u"reach")
        return reach(spec->args.value(1));
    LdapLoadSpec load;
    if (int rc = ldapLoadFromArgs(spec->args, spec->password, &load))
        return fail(QStringLiteral("its share of the load was refused (the reason is on its stderr, shown by the "
                                   "coordinator as [NAME] lines)"),
            rc);
    load.intervalHistograms = true;
    load.readServerCounters = false;
    if (spec->deadlineS > 0)
        m_deadlineNs = Agents::monotonicNs() + uint64_t(spec->deadlineS * 1e9);
    std::thread reader([this] { readLoop(); });
    std::thread pump([this] { pumpLoop(); });
    Ldap::LoadRunOptions options;
    options.startGate = [this] { return waitForStart(); };
    options.onStarted = [this](uint64_t mono) {
        send(QJsonObject { { QStringLiteral("type"), QStringLiteral("started") },
            { QStringLiteral("realtime_ns"), qint64(agentRealtime()) },
            { QStringLiteral("monotonic_ns"), qint64(mono) } });
    };
    options.runTag = spec->runTag + "-a" + QByteArray::number(spec->index);
    const RunRecord rec = Ldap::runLoad(load, m_ctx, options);
    m_quit.store(true);
    pump.join();
    sendIntervals();
    QJsonArray warnings;
    for (const RunWarning& w : rec.warnings)
        warnings.append(QJsonObject { { QStringLiteral("code"), w.code }, { QStringLiteral("message"), w.message } });
    send(QJsonObject { { QStringLiteral("type"), QStringLiteral("final") }, { QStringLiteral("status"), rec.status },
        { QStringLiteral("failure"), rec.failure.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(rec.failure) },
        { QStringLiteral("summary"), rec.summary }, { QStringLiteral("warnings"), warnings },
        { QStringLiteral("cpu_s"), cpuSeconds() } });
    reader.join();
    return rec.status == u"ok" ? ExitOk : ExitFailed;
}

} // namespace

int runAgentCommand(const QStringList& args)
{
    if (args.size() > 1 && (args.at(1) == u"--help" || args.at(1) == u"-h")) {
        std::fputs(kHelp, stdout);
        return ExitOk;
    }
    if (args.size() > 1)
        return badArgument(args.at(1), QStringLiteral("dirbench-cli agent takes no argument: its spec comes on stdin"));
    std::signal(SIGPIPE, SIG_IGN);
    Agent agent;
    return agent.run();
}

} // namespace Cli
