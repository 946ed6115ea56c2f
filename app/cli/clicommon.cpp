#include "app/cli/clicommon.h"

#include "core/run/proberunner.h"
#include "core/store/recordfile.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFile>
#include <QSaveFile>
#include <QTimer>

#include <atomic>
#include <csignal>

namespace Cli {

namespace {
std::atomic<int> g_signal { 0 };
void onSignal(int sig)
{
    g_signal.store(sig);
}
} // namespace

int badArgument(const QString& option, const QString& message)
{
    std::fprintf(stderr, "dirbench-cli: %s: %s\n", qPrintable(option), qPrintable(message));
    return ExitBadArgs;
}

int refuseRepeated(const QCommandLineParser& parser)
{
    QStringList seen;
    for (const QString& name : parser.optionNames()) {
        if (seen.contains(name))
            return badArgument((name.size() > 1 ? QStringLiteral("--") : QStringLiteral("-")) + name,
                QStringLiteral("given more than once"));
        seen << name;
    }
    return ExitOk;
}

int refuseOptions(const QCommandLineParser& parser, const QStringList& options, const QString& why)
{
    for (const QString& name : options)
        if (parser.isSet(name))
            return badArgument(QStringLiteral("--") + name, why);
    return ExitOk;
}

int refuseForeign(const QCommandLineParser& parser, const QString& command, const QString& sub,
    const QMap<QString, QStringList>& owners)
{
    for (const QString& name : parser.optionNames()) {
        if (owners.value(sub).contains(name))
            continue;
        QStringList others;
        for (auto it = owners.cbegin(); it != owners.cend(); ++it)
            if (it.value().contains(name))
                others << command + u' ' + it.key();
        return badArgument((name.size() > 1 ? QStringLiteral("--") : QStringLiteral("-")) + name,
            QStringLiteral("not an option of ") + command + u' ' + sub
                + (others.isEmpty() ? QString()
                                    : QStringLiteral(" (it is for ") + others.join(QStringLiteral(", ")) + u')'));
    }
    return ExitOk;
}

bool helpRequested(const QCommandLineParser& parser)
{
    return parser.isSet(QStringLiteral("help")) || parser.isSet(QStringLiteral("help-all"));
}

QList<QCommandLineOption> onlyOptions(const QList<QCommandLineOption>& all, const QStringList& names)
{
    QList<QCommandLineOption> out;
    for (const QCommandLineOption& o : all)
        if (names.contains(o.names().constFirst()))
            out << o;
    return out;
}

QString helpTextOf(const QCommandLineParser& parser, const QString& words)
{
    QString text = parser.helpText();
    const QString usage = QStringLiteral("Usage: ");
    const qsizetype at = text.indexOf(QStringLiteral(" [options]"));
    if (text.startsWith(usage) && at > 0)
        text.replace(usage.size(), at - usage.size(), QStringLiteral("dirbench-cli ") + words);
    return text;
}

int printHelp(const QCommandLineParser& parser, const QString& words, bool toStderr)
{
    std::FILE* out = toStderr ? stderr : stdout;
    std::fputs(qPrintable(helpTextOf(parser, words)), out);
    std::fflush(out);
    return toStderr ? ExitBadArgs : ExitOk;
}

int printUsage(
    const QString& words, const QString& description, const QList<QCommandLineOption>& options, const QString& args)
{
    QCommandLineParser h;
    h.setApplicationDescription(description);
    h.addHelpOption();
    h.addOptions(options);
    QString text = helpTextOf(h, words);
    if (!args.isEmpty())
        text.insert(text.indexOf(u'\n'), args);
    std::fputs(qPrintable(text), stdout);
    std::fflush(stdout);
    return ExitOk;
}

std::FILE* humanStream(bool jsonOnStdout)
{
    return jsonOnStdout ? stderr : stdout;
}

bool writeRecord(const RunRecord& rec, const QString& path)
{
    const QByteArray bytes = rec.toJsonBytes();
    if (path == u"-") {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        std::fflush(stdout);
        return true;
    }
    // Records name hosts and servers: the file is private to the user (0600), as history exports are.
    QString error;
    if (!RecordFile::write(rec, path, &error)) {
        std::fprintf(stderr, "dirbench-cli: --json: cannot write %s\n", qPrintable(error));
        return false;
    }
    return true;
}

RunRecord runWithSignals(ProbeRunner& runner, const std::function<RunRecord(RunContext&)>& job,
    const std::function<void(const SampleBatch&)>& onSamples)
{
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    RunRecord result;
    const int id = runner.start(job);
    QObject::connect(&runner, &ProbeRunner::samplesArrived, &runner, [&](int runId, const SampleBatch& batch) {
        if (runId == id)
            onSamples(batch);
    });
    QObject::connect(&runner, &ProbeRunner::finished, &runner, [&](int runId, const RunRecord& rec) {
        if (runId != id)
            return;
        result = rec;
        QCoreApplication::quit();
    });
    QTimer poll;
    poll.setInterval(50);
    QObject::connect(&poll, &QTimer::timeout, &runner, [&]() {
        if (g_signal.load() != 0 && runner.isRunning(id)) {
            std::fprintf(stderr, "dirbench-cli: cancelling (signal %d)...\n", g_signal.load());
            g_signal.store(0);
            runner.cancel(id);
        }
    });
    poll.start();
    QCoreApplication::exec();
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    return result;
}

} // namespace Cli
