// Linked into every ui test (tests/CMakeLists.txt): the test runs with settings, data and a history of its own, in a
// fresh temporary directory made before the test object exists, so no test depends on another's leftovers (or on
// its own from an earlier run). A test may still point QSettings elsewhere; this is where it starts.
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>

namespace {

QTemporaryDir* g_home = nullptr;

void isolate()
{
    g_home = new QTemporaryDir(QDir::tempPath() + QStringLiteral("/dirbench-uitest-XXXXXX"));
    if (!g_home->isValid())
        qFatal("uitestenv: cannot make a temporary directory: %s", qPrintable(g_home->errorString()));
    const QString config = g_home->filePath(QStringLiteral("config"));
    const QString data = g_home->filePath(QStringLiteral("data"));
    const QString cache = g_home->filePath(QStringLiteral("cache"));
    for (const QString& d : { config, data, cache })
        QDir().mkpath(d);
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(config));
    qputenv("XDG_DATA_HOME", QFile::encodeName(data));
    qputenv("XDG_CACHE_HOME", QFile::encodeName(cache));
    qputenv("DIRBENCH_HISTORY", QFile::encodeName(data + QStringLiteral("/history.sqlite")));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, config);
    qAddPostRoutine([] {
        delete g_home;
        g_home = nullptr;
    });
}

} // namespace

Q_COREAPP_STARTUP_FUNCTION(isolate)
