// Faults produced for real: a process killed mid-test, a file system that fills up mid-run, a read-only mount.
#include "core/disk/diskengine.h"
#include "core/run/runcontext.h"
#include "diskfixture.h"

#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <csignal>
#include <fcntl.h>
#include <sys/statvfs.h>
#include <thread>
#include <unistd.h>

using namespace DiskFixture;

class TstDiskFaults : public QObject
{
    Q_OBJECT
private slots:
    void sigkillLeavesNoFile();
    void diskFullMidRun();
    void readOnlyFileSystemIsRefused();
    void permissionDeniedNamesTheDirectory();

private:
    // Mounts a size-limited tmpfs at `dir`; returns an empty string on success, else why it could not.
    static QString mountTmpfs(const QString& dir, const QString& options);
    static void unmount(const QString& dir);
};

QString TstDiskFaults::mountTmpfs(const QString& dir, const QString& options)
{
    QProcess p;
    p.start(QStringLiteral("mount"),
        { QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"), options, QStringLiteral("dirbench-test"),
            dir });
    if (!p.waitForFinished(10000) || p.exitCode() != 0)
        return QStringLiteral("mount -t tmpfs failed: ") + QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
    return {};
}

void TstDiskFaults::unmount(const QString& dir)
{
    // io_uring drops its file references asynchronously: the mount can be busy for a moment after the run.
    for (int i = 0; i < 50; ++i) {
        if (QProcess::execute(QStringLiteral("umount"), { dir }) == 0)
            return;
        QThread::msleep(100);
    }
    QProcess::execute(QStringLiteral("umount"), { QStringLiteral("-l"), dir });
}

void TstDiskFaults::sigkillLeavesNoFile()
{
    QTemporaryDir dir;
    QProcess cli;
    cli.setProgram(QStringLiteral(DIRBENCH_CLI_PATH));
    cli.setArguments({ QStringLiteral("disk"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--profile"),
        QStringLiteral("rand-write"), QStringLiteral("--size"), QStringLiteral("64M"), QStringLiteral("--duration"),
        QStringLiteral("60"), QStringLiteral("--interval"), QStringLiteral("0.1") });
    cli.start();
    QVERIFY(cli.waitForStarted(5000));
    // Wait until it is measuring: the test file exists (unnamed) and has been written.
    QByteArray out;
    while (!out.contains("t=") && cli.state() == QProcess::Running) {
        cli.waitForReadyRead(10000);
        out += cli.readAllStandardOutput();
    }
    QVERIFY2(out.contains("t="), out.constData());
    QVERIFY2(leftovers(dir.path()).isEmpty(), "the test file is visible while the test runs");
    ::kill(pid_t(cli.processId()), SIGKILL);
    QVERIFY(cli.waitForFinished(5000));
    QCOMPARE(cli.exitStatus(), QProcess::CrashExit);
    QVERIFY2(leftovers(dir.path()).isEmpty(), qPrintable(leftovers(dir.path()).join(u',')));
}

void TstDiskFaults::diskFullMidRun()
{
    QTemporaryDir mnt;
    if (::geteuid() != 0)
        QSKIP("not root: mounting a small tmpfs needs root (CI runs as root)");
    const QString failed = mountTmpfs(mnt.path(), QStringLiteral("size=64m,mode=0700"));
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    auto cleanup = qScopeGuard([&] { unmount(mnt.path()); });

    // A second writer fills the file system while the run is under way, so the run meets ENOSPC mid-run.
    // The commit test appends like a transaction log, allocating as it goes; the filler waits for the run's first
    // allocated megabyte, then takes every free block with fallocate. Should the run win the race, try again.
    for (int attempt = 1; attempt <= 5; ++attempt) {
        RunContext ctx;
        DiskSpec s = spec(DiskProfile::Commit, mnt.path(), 48 * MiB, 2);
        s.commitAppend = true; // the appending regime allocates as it goes (the default pre-writes the file)
        s.intervalMs = 50;
        std::atomic<bool> filled { false };
        const QByteArray fillPath = QFile::encodeName(mnt.path() + QStringLiteral("/filler"));
        const QByteArray mntPath = QFile::encodeName(mnt.path());
        std::thread filler([&] {
            // As soon as the run has allocated its first megabyte, take every block that is still free.
            struct statvfs v
            {
            };
            for (;;) {
                if (ctx.stopRequested() || ::statvfs(mntPath.constData(), &v) != 0)
                    return;
                if (qint64(v.f_blocks - v.f_bfree) * qint64(v.f_frsize) >= 1 * MiB)
                    break;
            }
            const int fd = ::open(fillPath.constData(), O_CREAT | O_WRONLY, 0600);
            for (qint64 size = qint64(v.f_bavail) * qint64(v.f_frsize); fd >= 0 && size > 0; size -= 256 * 1024)
                if (::fallocate(fd, 0, 0, size) == 0) {
                    filled = true;
                    break;
                }
            ::close(fd);
        });
        const RunRecord rec = Disk::run(s, ctx);
        ctx.requestStop();
        filler.join();
        QVERIFY(filled);
        QFile::remove(mnt.path() + QStringLiteral("/filler"));
        if (rec.status == u"ok") {
            qInfo("attempt %d: the run finished before the file system filled; trying again", attempt);
            continue;
        }
        QCOMPARE(rec.status, QStringLiteral("failed"));
        QVERIFY2(rec.failure.contains(QStringLiteral("disk full")), qPrintable(rec.failure));
        QVERIFY(rec.failure.contains(QStringLiteral("commit")));
        // What was measured before the fault is kept.
        QVERIFY(!rec.intervals.isEmpty());
        QVERIFY(num(rec.summary, QStringLiteral("bytes")) > 0);
        QCOMPARE(rec.summary.value(QStringLiteral("complete")).toBool(true), false);
        QVERIFY2(leftovers(mnt.path()).isEmpty(), qPrintable(leftovers(mnt.path()).join(u',')));
        return;
    }
    QFAIL("the run never met a full file system in 5 attempts");
}

void TstDiskFaults::readOnlyFileSystemIsRefused()
{
    QTemporaryDir mnt;
    if (::geteuid() != 0)
        QSKIP("not root: mounting a small tmpfs needs root (CI runs as root)");
    const QString failed = mountTmpfs(mnt.path(), QStringLiteral("size=8m,ro"));
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    auto cleanup = qScopeGuard([&] { unmount(mnt.path()); });
    DiskSpec s = spec(DiskProfile::SeqWrite, mnt.path(), 1 * MiB);
    const ProbeError e = s.validate();
    QCOMPARE(e.field, QStringLiteral("dir"));
    QVERIFY2(e.detail.contains(QStringLiteral("read-only")), qPrintable(e.detail));
}

void TstDiskFaults::permissionDeniedNamesTheDirectory()
{
    // Root may write anywhere; the fault is produced for real by running the CLI as an unprivileged user.
    QTemporaryDir dir;
    QStringList cmd;
    if (::geteuid() == 0) {
        if (QStandardPaths::findExecutable(QStringLiteral("setpriv")).isEmpty())
            QSKIP("running as root without setpriv: cannot drop privileges to produce EACCES");
        QFile::setPermissions(dir.path(),
            QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner | QFileDevice::ReadOther
                | QFileDevice::ExeOther);
        cmd = { QStringLiteral("setpriv"), QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
            QStringLiteral("--clear-groups"), QStringLiteral(DIRBENCH_CLI_PATH) };
    } else {
        QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner);
        cmd = { QStringLiteral(DIRBENCH_CLI_PATH) };
    }
    QProcess p;
    p.start(cmd.first(),
        cmd.mid(1)
            + QStringList { QStringLiteral("disk"), QStringLiteral("--dir"), dir.path(), QStringLiteral("--size"),
                QStringLiteral("1M") });
    QVERIFY(p.waitForFinished(30000));
    const QByteArray err = p.readAllStandardError();
    if (p.exitCode() == 127 || err.contains("cannot open shared object") || err.contains("failed to execute"))
        QSKIP(qPrintable(
            QStringLiteral("the unprivileged user cannot start the CLI here: ") + QString::fromLocal8Bit(err)));
    QCOMPARE(p.exitCode(), 2);
    QVERIFY2(err.contains("--dir") && err.contains("permission"), err.constData());
    QFile::setPermissions(dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

QTEST_GUILESS_MAIN(TstDiskFaults)
#include "tst_diskfaults.moc"
