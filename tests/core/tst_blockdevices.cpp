#include "core/disk/blockdevices.h"
#include "core/disk/diskengine.h"
#include "core/disk/fscompression.h"
#include "core/run/runcontext.h"
#include "diskfixture.h"

#include <QFile>
#include <QJsonArray>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace DiskFixture;

namespace {

struct Sh
{
    int rc = -1;
    QString out;
};

Sh sh(const QString& program, const QStringList& args)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(program, args);
    Sh r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished(5000);
        r.out = program + " did not finish: " + p.errorString();
        return r;
    }
    r.rc = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromLocal8Bit(p.readAll()).trimmed();
    return r;
}

// An image file on a loop device, optionally under a device-mapper linear target, with a file system mounted.
// The destructor unmounts, removes and detaches whatever was set up, on every path (a failed QVERIFY included).
struct ImageStack
{
    QTemporaryDir tmp { "/var/tmp/tst_blockdevices-XXXXXX" };
    QString image, loop, dm, mnt;

    ~ImageStack()
    {
        if (!mnt.isEmpty() && sh("umount", { mnt }).rc != 0)
            sh("umount", { "-l", mnt });
        if (!dm.isEmpty())
            sh("dmsetup", { "remove", "--retry", dm });
        if (!loop.isEmpty())
            sh("losetup", { "-d", loop });
    }

    // Why this machine cannot have the stack (a program is not installed, not root, no loop devices or device
    // mapper in this kernel): the caller skips. Empty when it can.
    static QString unavailable(const QString& mkfs, bool withDm)
    {
        for (const QString& tool : { QString("losetup"), mkfs, QString("mount") })
            if (QStandardPaths::findExecutable(tool).isEmpty())
                return tool + " is not installed";
        if (withDm && QStandardPaths::findExecutable("dmsetup").isEmpty())
            return "dmsetup is not installed (apt-get install dmsetup)";
        if (::geteuid() != 0)
            return "not root: losetup and mount need root";
        if (!QFile::exists("/dev/loop-control"))
            return "no /dev/loop-control: this kernel or container has no loop devices";
        if (withDm && !QFile::exists("/dev/mapper/control"))
            return "no /dev/mapper/control: this kernel has no device mapper";
        return {};
    }

    // "" on success, else why it could not be built (the caller fails with that reason).
    QString build(qint64 bytes, const QString& mkfs, const QStringList& mountOptions, bool withDm)
    {
        if (!tmp.isValid())
            return "no temporary directory in /var/tmp";
        image = tmp.filePath("image");
        mnt = QString();
        QFile f(image);
        if (!f.open(QIODevice::WriteOnly) || !f.resize(bytes))
            return "cannot create the image file";
        f.close();
        // Direct I/O on the backing file: the loop's writes reach the disk under it at once, not via its cache.
        Sh r = sh("losetup", { "--direct-io=on", "-f", "--show", image });
        if (r.rc != 0)
            return "losetup refused: " + r.out;
        loop = r.out;
        QString dev = loop;
        if (withDm) {
            const QString sectors = QString::number(bytes / 512);
            const QString name = "tst_blockdevices-" + QString::number(::getpid());
            r = sh("dmsetup", { "create", name, "--table", "0 " + sectors + " linear " + loop + " 0" });
            if (r.rc != 0)
                return "dmsetup create refused: " + r.out;
            dm = name;
            dev = "/dev/mapper/" + name;
        }
        if ((r = sh(mkfs, { "-q", dev })).rc != 0)
            return mkfs + " failed: " + r.out;
        const QString target = tmp.filePath("mnt");
        QDir().mkpath(target);
        QStringList args;
        if (!mountOptions.isEmpty())
            args << "-o" << mountOptions.join(',');
        if ((r = sh("mount", args << dev << target)).rc != 0)
            return "mount failed: " + r.out;
        mnt = target;
        return {};
    }
};

// The sum of a field over the devices of one layer ("filesystem" or "disk").
double deviceBytes(const QJsonArray& devices, const char* key, const QString& layer)
{
    double sum = 0;
    for (const auto& d : devices)
        if (d.toObject().value("layer").toString() == layer)
            sum += d.toObject().value(QLatin1String(key)).toDouble();
    return sum;
}

QStringList codes(const RunRecord& rec)
{
    QStringList out;
    for (const auto& w : rec.warnings)
        out << w.code + ": " + w.message;
    return out;
}

} // namespace

class TstBlockDevices : public QObject
{
    Q_OBJECT
private slots:
    void deltaIsBytesAndNullWhenUnreadable();
    void sumAddsIntervals();
    void compressionFromMountOptions();
    void rootResolvesToRealDisks();
    void tmpfsHasNoDisk();
    void loopResolvesAndCountsDirectWrites_data();
    void loopResolvesAndCountsDirectWrites();
    void btrfsCompressionIsNamedAndSeenByTheDevice();
    void readTestBesideAWriterWarnsOtherIo();
};

void TstBlockDevices::deltaIsBytesAndNullWhenUnreadable()
{
    BlockDevices::Counters a, b;
    a.ok = b.ok = true;
    a.writeSectors = 100;
    b.writeSectors = 300;
    a.writeIos = 1;
    b.writeIos = 5;
    b.readMs = 7;
    b.writeMs = 13;
    const QJsonObject d = BlockDevices::delta("sdz", a, b).toJson();
    QCOMPARE(d.value("name").toString(), QString("sdz"));
    QCOMPARE(d.value("write_bytes").toDouble(), 200.0 * 512);
    QCOMPARE(d.value("write_ios").toDouble(), 4.0);
    QCOMPARE(d.value("io_ms").toDouble(), 20.0);
    QCOMPARE(d.value("read_bytes").toDouble(), 0.0);
    b.ok = false;
    const QJsonObject n = BlockDevices::delta("sdz", a, b).toJson();
    for (const char* k :
        { "read_ios", "write_ios", "read_bytes", "write_bytes", "read_merges", "write_merges", "io_ms" })
        QVERIFY2(n.value(QLatin1String(k)).isNull(), k);
}

void TstBlockDevices::sumAddsIntervals()
{
    const QJsonArray a { QJsonObject { { "name", "x" }, { "write_bytes", 10.0 }, { "io_ms", QJsonValue() } } };
    const QJsonArray b { QJsonObject { { "name", "x" }, { "write_bytes", 5.0 }, { "io_ms", 3.0 } } };
    const QJsonObject s = DiskDeviceSum::add(*DiskDeviceSum::fromJson(a), *DiskDeviceSum::fromJson(b)).at(0).toJson();
    QCOMPARE(s.value("write_bytes").toDouble(), 15.0);
    QVERIFY(s.value("io_ms").isNull());
}

void TstBlockDevices::compressionFromMountOptions()
{
    using FsCompression::fromMountOptions;
    QCOMPARE(fromMountOptions("btrfs", { "rw", "relatime", "compress-force=zstd:3", "space_cache=v2" }),
        QString("compress-force=zstd:3"));
    QCOMPARE(fromMountOptions("btrfs", { "rw", "compress" }), QString("compress"));
    QCOMPARE(fromMountOptions("btrfs", { "rw", "compress=no", "ssd" }), QString());
    QCOMPARE(fromMountOptions("btrfs", { "rw", "nodatacow" }), QString());
    QCOMPARE(
        fromMountOptions("bcachefs", { "rw", "background_compression=lz4" }), QString("background_compression=lz4"));
    QCOMPARE(fromMountOptions("bcachefs", { "compression=none" }), QString());
    QCOMPARE(fromMountOptions("f2fs", { "rw", "compress_algorithm=lz4" }), QString("compress_algorithm=lz4"));
    QCOMPARE(fromMountOptions("ext4", { "rw", "compress" }), QString()); // not an option ext4 compresses by
}

void TstBlockDevices::rootResolvesToRealDisks()
{
    const QStringList disks = BlockDevices::disksUnder("/");
    if (disks.isEmpty()) {
        const BlockDevices::Mount m = BlockDevices::mountOf("/");
        QSKIP(qPrintable("the root file system (" + m.fsType + " on " + m.source + ") has no block device"));
    }
    qInfo() << "root file system on" << disks;
    const QList<BlockDevices::Device> stack = BlockDevices::stackUnder("/");
    QVERIFY(!stack.isEmpty());
    for (const auto& d : stack)
        qInfo() << "  " << d.layer << d.name << (d.witness ? "witness" : "");
    QCOMPARE(stack.last().name, disks.last());
    QCOMPARE(stack.last().layer, QString("disk"));
    // Either the root's own partition is the witness, or the file system sits on the whole disk and it is.
    QCOMPARE(stack.first().witness, true);
    for (const QString& d : disks) {
        QVERIFY2(QFile::exists("/sys/block/" + d + "/stat"), qPrintable(d));
        QVERIFY2(!QFile::exists("/sys/class/block/" + d + "/partition"), qPrintable(d + " is a partition"));
        QVERIFY(BlockDevices::read(d).ok);
        const QJsonObject desc = BlockDevices::describe(d);
        QCOMPARE(desc.value("name").toString(), d);
        QVERIFY(desc.value("rotational").isBool());
        QVERIFY(desc.contains("model") && desc.contains("scheduler") && desc.contains("write_cache"));
    }
}

void TstBlockDevices::tmpfsHasNoDisk()
{
    const BlockDevices::Mount m = BlockDevices::mountOf("/dev/shm");
    if (m.fsType != "tmpfs")
        QSKIP("/dev/shm is not a tmpfs here");
    QVERIFY(BlockDevices::disksUnder("/dev/shm").isEmpty());
    QVERIFY(!FsCompression::of("/dev/shm").compresses());
}

void TstBlockDevices::loopResolvesAndCountsDirectWrites_data()
{
    QTest::addColumn<bool>("withDm");
    QTest::newRow("ext4 on loop") << false;
    QTest::newRow("ext4 on dm-linear on loop") << true;
}

void TstBlockDevices::loopResolvesAndCountsDirectWrites()
{
    QFETCH(bool, withDm);
    if (const QString missing = ImageStack::unavailable("mkfs.ext4", withDm); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    ImageStack st;
    const QString failed = st.build(512 * MiB, "mkfs.ext4", {}, withDm);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    // The resolver goes through the loop device (and the dm target) to the disk that holds the image.
    const QStringList under = BlockDevices::disksUnder(st.mnt);
    const QStringList imageDisks = BlockDevices::disksUnder(st.image);
    qInfo() << "mount on" << under << "; image file on" << imageDisks;
    QCOMPARE(BlockDevices::mountOf(st.mnt).source, withDm ? "/dev/mapper/" + st.dm : st.loop);
    QVERIFY(!under.isEmpty());
    QVERIFY(!under.contains(st.loop.section('/', -1)));
    QCOMPARE(under, imageDisks);
    QVERIFY(!FsCompression::of(st.mnt).compresses());
    const QList<BlockDevices::Device> stack = BlockDevices::stackUnder(st.mnt);
    QCOMPARE(stack.size(), 1 + under.size());
    QCOMPARE(stack.first().layer, QString("filesystem"));
    // A loop device carries this file system alone: it is the witness; a dm layer may shrink data below
    // itself, so under it the disks are.
    QCOMPARE(stack.first().witness, !withDm);
    QCOMPARE(stack.last().witness, withDm);
    const QString witnessLayer = withDm ? "disk" : "filesystem";

    RunContext ctx;
    const qint64 size = 256 * MiB;
    const RunRecord rec = Disk::run(spec(DiskProfile::SeqWrite, st.mnt, size, 0), ctx);
    QCOMPARE(rec.status, QString("ok"));
    QVERIFY(rec.engine.toObject().value("direct").toBool());
    const QJsonArray env = rec.environment.value("devices").toArray();
    QCOMPARE(env.size(), stack.size());
    QCOMPARE(env.at(0).toObject().value("name").toString(), stack.first().name);
    QCOMPARE(env.last().toObject().value("name").toString(), under.last());
    QVERIFY(!rec.intervals.isEmpty());
    double sum = 0;
    for (const auto& v : rec.intervals) {
        const QJsonArray devs = v.toObject().value("devices").toArray();
        QCOMPARE(devs.size(), stack.size());
        for (const auto& d : devs)
            QVERIFY(d.toObject().value("write_bytes").isDouble() && d.toObject().value("io_ms").isDouble());
        sum += deviceBytes(devs, "write_bytes", witnessLayer);
    }
    const QJsonArray totals = rec.summary.value("devices").toArray();
    const double top = deviceBytes(totals, "write_bytes", "filesystem");
    const double disk = deviceBytes(totals, "write_bytes", "disk");
    qInfo("seq-write of %lld bytes: %s wrote %.0f bytes (%.3fx), the disks under it %.0f (%.3fx); witness "
          "intervals sum %.0f; warnings: %s",
        size, qPrintable(stack.first().name), top, top / double(size), disk, disk / double(size), sum,
        qPrintable(codes(rec).join(" | ")));
    // The file system's own device carries nothing else: about the bytes written (plus journal and metadata).
    QVERIFY2(top >= 0.95 * double(size) && top < 1.5 * double(size), qPrintable(QString::number(top)));
    // The disk is shared with whatever else the machine does: at least what the loop device passed down.
    QVERIFY2(disk >= 0.8 * double(size), qPrintable(QString::number(disk)));
    QVERIFY(sum >= 0.8 * double(size));
    QVERIFY(!rec.hasWarning("device-saw-less"));
}

// A read test while another process writes to the same device: the device line counts the test's direction (its
// reads, about the test's bytes), and the writes are a warning with their size, never added to the test's figure.
void TstBlockDevices::readTestBesideAWriterWarnsOtherIo()
{
    if (const QString missing = ImageStack::unavailable("mkfs.ext4", false); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    if (QStandardPaths::findExecutable("dd").isEmpty() || QStandardPaths::findExecutable("timeout").isEmpty())
        QSKIP("dd or timeout is not installed");
    ImageStack st;
    const QString failed = st.build(512 * MiB, "mkfs.ext4", {}, false);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    // The other writer: 8 MiB direct writes over one 64 MiB file, until stopped (at most 60 s or 20,000 writes).
    QProcess writer;
    writer.start("timeout",
        { "60", "sh", "-c",
            "i=0; while [ $i -lt 20000 ]; do dd if=/dev/zero of=\"$1/other\" bs=1M count=8 "
            "seek=$(( (i % 8) * 8 )) oflag=direct conv=notrunc status=none || exit 1; "
            "i=$((i + 1)); done",
            "writer", st.mnt });
    QVERIFY(writer.waitForStarted());
    RunContext ctx;
    const qint64 size = 64 * MiB;
    // 4 KiB reads one at a time: the reader does not take the whole device, so the writer's share is not a rounding.
    DiskSpec read4k = spec(DiskProfile::SeqRead, st.mnt, size, 3);
    read4k.blockBytes = 4096;
    read4k.queueDepth = 1;
    const RunRecord rec = Disk::run(read4k, ctx);
    const bool writerWasRunning = writer.state() == QProcess::Running;
    writer.kill();
    writer.waitForFinished();
    QFile::remove(st.mnt + "/other");
    QVERIFY2(writerWasRunning, writer.readAllStandardError().constData());
    QCOMPARE(rec.status, QString("ok"));
    const QJsonArray totals = rec.summary.value("devices").toArray();
    const double read = deviceBytes(totals, "read_bytes", "filesystem");
    const double wrote = deviceBytes(totals, "write_bytes", "filesystem");
    const double tested = rec.summary.value("bytes").toDouble();
    qInfo("seq-read of %.0f bytes beside a writer: the device read %.0f (%.3fx) and wrote %.0f; warnings: %s", tested,
        read, read / tested, wrote, qPrintable(codes(rec).join(" | ")));
    QVERIFY(tested > 0);
    QVERIFY2(rec.hasWarning("device-other-io"), qPrintable(codes(rec).join(" | ")));
    QString message;
    for (const RunWarning& w : rec.warnings)
        if (w.code == u"device-other-io")
            message = w.message;
    QVERIFY2(message.contains("while the test read") && message.contains(" wrote "), qPrintable(message));
    QVERIFY(!rec.hasWarning("device-saw-more"));
    QVERIFY2(read >= 0.8 * tested && read < 1.5 * tested, qPrintable(QString::number(read / tested)));
}

void TstBlockDevices::btrfsCompressionIsNamedAndSeenByTheDevice()
{
    QFile fss("/proc/filesystems");
    if (!fss.open(QIODevice::ReadOnly) || !fss.readAll().contains("btrfs"))
        QSKIP("the kernel has no btrfs");
    if (const QString missing = ImageStack::unavailable("mkfs.btrfs", false); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    ImageStack st;
    const QString failed = st.build(1024 * MiB, "mkfs.btrfs", { "compress-force=zstd" }, false);
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    const FsCompression::Info info = FsCompression::of(st.mnt);
    qInfo() << "btrfs compression:" << info.setting << "; devices" << BlockDevices::disksUnder(st.mnt);
    QCOMPARE(info.fsType, QString("btrfs"));
    QVERIFY2(info.setting.startsWith("compress-force=zstd"), qPrintable(info.setting));
    QVERIFY(!BlockDevices::disksUnder(st.mnt).isEmpty());

    RunContext ctx;
    const RunRecord rec = Disk::run(spec(DiskProfile::Dd, st.mnt, 0), ctx);
    QCOMPARE(rec.status, QString("ok"));
    const double wrote = rec.summary.value("bytes").toDouble();
    const double dev = deviceBytes(rec.summary.value("devices").toArray(), "write_bytes", "filesystem");
    const double disk = deviceBytes(rec.summary.value("devices").toArray(), "write_bytes", "disk");
    qInfo("dd wrote %.0f bytes of zeros; the loop device wrote %.0f (ratio %.4f), %.0f before the fdatasync; "
          "the disk under it %.0f (shared); warnings: %s",
        wrote, dev, dev / wrote, rec.summary.value("device_bytes_before_sync").toDouble(-1), disk,
        qPrintable(codes(rec).join(" | ")));
    QVERIFY(rec.hasWarning("compressing-fs"));
    QVERIFY(rec.hasWarning("device-saw-less"));
    QVERIFY(rec.summary.value("device_bytes_before_sync").isDouble());
    QCOMPARE(rec.environment.value("filesystem").toObject().value("compression").toString(), info.setting);
    QVERIFY(dev < 0.8 * wrote);

    // A loop device whose backing file is gone (deleted while attached) stands for itself.
    QVERIFY(QFile::remove(st.image));
    const QString loopName = st.loop.section('/', -1);
    QCOMPARE(BlockDevices::disksUnder(st.mnt), QStringList { loopName });
    const QList<BlockDevices::Device> stack = BlockDevices::stackUnder(st.mnt);
    QCOMPARE(stack.size(), 1);
    QCOMPARE(stack.first().name, loopName);
    QVERIFY(stack.first().witness);
}

QTEST_GUILESS_MAIN(TstBlockDevices)
#include "tst_blockdevices.moc"
