#include "core/agents/agentcheck.h"

#include "core/agents/agentprotocol.h"

#include <QProcess>

#include <memory>
#include <vector>

namespace Agents {

namespace {

constexpr int kClockRounds = 8;

struct Conversation
{
    AgentCheck result;
    std::unique_ptr<QProcess> proc;
    LineBuffer buf;
};

std::optional<QJsonObject> nextMessage(Conversation& c, int timeoutMs)
{
    for (;;) {
        QList<QByteArray> lines = c.buf.take();
        if (!lines.isEmpty()) {
            for (qsizetype i = 1; i < lines.size(); ++i)
                c.buf.feed(lines.at(i) + '\n');
            QString why;
            auto m = decode(lines.first(), &why);
            if (!m)
                c.result.error = why;
            return m;
        }
        if (!c.proc->waitForReadyRead(timeoutMs)) {
            c.result.error = QStringLiteral("no answer within %1 s (%2)")
                                 .arg(timeoutMs / 1000)
                                 .arg(QString::fromUtf8(c.proc->readAllStandardError()).trimmed().right(200));
            return std::nullopt;
        }
        c.buf.feed(c.proc->readAllStandardOutput());
    }
}

bool isType(const std::optional<QJsonObject>& m, const char16_t* type)
{
    return m && m->value(QStringLiteral("type")).toString() == QStringView(type);
}

void converse(Conversation& c, const QString& uri)
{
    const auto hello = nextMessage(c, 30000);
    if (!hello)
        return;
    c.result.hello = *hello;
    AgentSpec spec;
    spec.args = { QStringLiteral("reach"), uri };
    c.proc->write(encode(spec.toJson()));
    QList<ClockRound> rounds;
    for (int i = 0; i < kClockRounds; ++i) {
        ClockRound r;
        r.t1 = realtimeNs();
        c.proc->write(encode(ping(r.t1)));
        std::optional<QJsonObject> m;
        while ((m = nextMessage(c, 10000)) && !isType(m, u"pong"))
            if (isType(m, u"reach"))
                c.result.reach = *m;
        if (!m)
            return;
        r.t3 = realtimeNs();
        r.t2 = m->value(QStringLiteral("realtime_ns")).toInteger();
        rounds << r;
    }
    if (const auto best = bestRound(rounds)) {
        c.result.offsetMs = double(best->offsetNs()) / 1e6;
        c.result.rttMs = double(best->rttNs()) / 1e6;
    }
    while (c.result.reach.isEmpty()) {
        const auto m = nextMessage(c, 30000);
        if (!m)
            return;
        if (isType(m, u"reach"))
            c.result.reach = *m;
    }
}

} // namespace

QString AgentCheck::version() const
{
    return hello.value(QStringLiteral("version")).toString();
}

int AgentCheck::cpus() const
{
    return hello.value(QStringLiteral("cpus")).toInt();
}

bool AgentCheck::reached() const
{
    return reach.value(QStringLiteral("ok")).toBool();
}

QString AgentCheck::targetText() const
{
    return !error.isEmpty() ? error : reach.value(QStringLiteral("message")).toString();
}

QList<AgentCheck> checkAgents(const CoordinatorSpec& spec, const QString& uri)
{
    std::vector<Conversation> all(size_t(spec.hosts.size()));
    for (size_t i = 0; i < all.size(); ++i) {
        all[i].result.host = spec.hosts.at(qsizetype(i));
        all[i].proc = std::make_unique<QProcess>();
        const QStringList cmd = agentCommandLine(spec, all[i].result.host);
        all[i].proc->start(cmd.first(), cmd.mid(1));
    }
    QList<AgentCheck> out;
    for (Conversation& c : all) {
        converse(c, uri);
        c.proc->closeWriteChannel();
        c.proc->waitForFinished(5000);
        out << c.result;
    }
    return out;
}

} // namespace Agents
