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
