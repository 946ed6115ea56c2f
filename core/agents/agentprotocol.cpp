#include "core/agents/agentprotocol.h"

#include <QJsonDocument>
#include <QSysInfo>
#include <QThread>

#include <algorithm>
#include <ctime>
#include <unistd.h>

namespace Agents {

namespace {

int64_t clockNs(clockid_t id)
{
    timespec ts {};
    clock_gettime(id, &ts);
    return int64_t(ts.tv_sec) * 1000000000LL + ts.tv_nsec;
}

QJsonObject typed(const char* type)
{
    return QJsonObject { { QStringLiteral("type"), QLatin1String(type) } };
}

} // namespace

QByteArray encode(const QJsonObject& message)
{
    return QJsonDocument(message).toJson(QJsonDocument::Compact) + '\n';
}

std::optional<QJsonObject> decode(const QByteArray& line, QString* error)
{
    QJsonParseError pe {};
    const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        *error = QStringLiteral("not a JSON object: ") + QString::fromUtf8(line.left(80));
        return std::nullopt;
    }
    const QJsonObject o = doc.object();
    if (!o.value(QStringLiteral("type")).isString()) {
        *error = QStringLiteral("a message without \"type\": ") + QString::fromUtf8(line.left(80));
        return std::nullopt;
    }
    return o;
}

QList<QByteArray> LineBuffer::take()
{
    QList<QByteArray> lines;
    qsizetype from = 0;
    for (qsizetype nl = m_buf.indexOf('\n'); nl >= 0; nl = m_buf.indexOf('\n', from)) {
        QByteArray line = m_buf.mid(from, nl - from).trimmed();
        if (!line.isEmpty())
            lines << line;
        from = nl + 1;
    }
    m_buf.remove(0, from);
    return lines;
}

int64_t realtimeNs()
{
    return clockNs(CLOCK_REALTIME);
}

uint64_t monotonicNs()
{
    return uint64_t(clockNs(CLOCK_MONOTONIC));
}

uint64_t monotonicAt(int64_t epochNs)
{
    const int64_t mono = int64_t(monotonicNs());
    const int64_t real = realtimeNs();
    return uint64_t(std::max<int64_t>(0, mono + (epochNs - real)));
}

QJsonObject hello(const QString& version, int64_t realtime)
{
    QJsonObject o = typed("hello");
    o.insert(QStringLiteral("proto"), kProtocol);
    o.insert(QStringLiteral("version"), version);
    o.insert(QStringLiteral("host"), QSysInfo::machineHostName());
    o.insert(QStringLiteral("pid"), double(::getpid()));
    o.insert(QStringLiteral("cpus"), QThread::idealThreadCount());
    o.insert(QStringLiteral("realtime_ns"), qint64(realtime));
    o.insert(QStringLiteral("monotonic_ns"), qint64(monotonicNs()));
    return o;
}

QJsonObject ping(int64_t t1)
{
    QJsonObject o = typed("ping");
    o.insert(QStringLiteral("t1"), qint64(t1));
    return o;
}

QJsonObject pong(int64_t t1, int64_t realtime, uint64_t monotonic)
{
    QJsonObject o = typed("pong");
    o.insert(QStringLiteral("t1"), qint64(t1));
    o.insert(QStringLiteral("realtime_ns"), qint64(realtime));
    o.insert(QStringLiteral("monotonic_ns"), qint64(monotonic));
    return o;
}

QJsonObject start(int64_t atEpochNs)
{
    QJsonObject o = typed("start");
    o.insert(QStringLiteral("at_epoch_ns"), qint64(atEpochNs));
    return o;
}

QJsonObject stop(const QString& reason)
{
    QJsonObject o = typed("stop");
    o.insert(QStringLiteral("reason"), reason);
    return o;
}

QJsonObject error(const QString& message, int exitCode)
{
    QJsonObject o = typed("error");
    o.insert(QStringLiteral("message"), message);
    o.insert(QStringLiteral("exit"), exitCode);
    return o;
}

QJsonObject AgentSpec::toJson() const
{
    QJsonObject o = typed("spec");
    o.insert(QStringLiteral("proto"), kProtocol);
    o.insert(QStringLiteral("args"), QJsonArray::fromStringList(args));
    o.insert(QStringLiteral("password"), QString::fromUtf8(password));
    o.insert(QStringLiteral("run_tag"), QString::fromLatin1(runTag));
    o.insert(QStringLiteral("index"), index);
    o.insert(QStringLiteral("agents"), agents);
    o.insert(QStringLiteral("deadline_s"), deadlineS);
    if (!engine.isEmpty()) {
        o.insert(QStringLiteral("engine"), engine);
        o.insert(QStringLiteral("engine_spec"), engineSpec);
    }
    return o;
}

std::optional<AgentSpec> AgentSpec::fromJson(const QJsonObject& o, QString* error)
{
    if (o.value(QStringLiteral("type")).toString() != u"spec") {
        *error = QStringLiteral("expected the spec first, got \"") + o.value(QStringLiteral("type")).toString() + u'"';
        return std::nullopt;
    }
    if (o.value(QStringLiteral("proto")).toInt() != kProtocol) {
        *error = QStringLiteral("protocol %1 is not this agent's (%2): install the same DirBench version")
                     .arg(o.value(QStringLiteral("proto")).toInt())
                     .arg(kProtocol);
        return std::nullopt;
    }
    AgentSpec s;
    const QJsonArray args = o.value(QStringLiteral("args")).toArray();
    for (const auto& a : args)
        s.args << a.toString();
    s.engine = o.value(QStringLiteral("engine")).toString();
    s.engineSpec = o.value(QStringLiteral("engine_spec")).toObject();
    if (s.args.isEmpty() && s.engine.isEmpty()) {
        *error = QStringLiteral("spec.args: empty (the ldap operation and its options)");
        return std::nullopt;
    }
    s.password = o.value(QStringLiteral("password")).toString().toUtf8();
    s.runTag = o.value(QStringLiteral("run_tag")).toString().toLatin1();
    s.index = o.value(QStringLiteral("index")).toInt();
    s.agents = std::max(1, o.value(QStringLiteral("agents")).toInt(1));
    s.deadlineS = o.value(QStringLiteral("deadline_s")).toDouble();
    return s;
}

std::optional<ClockRound> bestRound(const QList<ClockRound>& rounds)
{
    if (rounds.isEmpty())
        return std::nullopt;
    return *std::min_element(
        rounds.begin(), rounds.end(), [](const ClockRound& a, const ClockRound& b) { return a.rttNs() < b.rttNs(); });
}

} // namespace Agents
