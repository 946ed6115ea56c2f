// What the disk tests write and where: unique data (every 4 KiB distinct, incompressible), one random pass as a
// permutation of the blocks, commit's overwrite and append regimes, and a readback of a real ext4 image.
#include "core/disk/diskengine.h"
#include "core/disk/iobackends.h"
#include "core/disk/testfile.h"
#include "core/run/runcontext.h"
#include "diskfixture.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <fcntl.h>
#include <unistd.h>
#include <vector>

using namespace DiskFixture;

namespace {

// A fresh ext4 image on a loop device, mounted; everything undone in the destructor, on every path.
class Ext4Image
{
public:
    explicit Ext4Image(const QString& dir, qint64 bytes)
        : m_image(dir + "/ext4.img")
        , m_mount(dir + "/mnt")
    {
        if (::geteuid() != 0) {
            m_skip = "not root: loop devices and mount need root";
            return;
        }
        if (!QFile::exists("/dev/loop-control")) {
            m_skip = "no /dev/loop-control: this kernel or container has no loop devices";
            return;
        }
        if (!step({ "truncate", "-s", QString::number(bytes), m_image })
            || !step({ "mkfs.ext4", "-q", "-b", "4096", m_image }))
            return;
        QString dev;
        if (!step({ "losetup", "-f", "--show", m_image }, &dev)) {
            m_skip = "losetup found no free loop device: " + m_error;
            m_error.clear();
            return;
        }
        m_device = dev.trimmed();
        QDir().mkpath(m_mount);
        if (step({ "mount", m_device, m_mount }))
            m_mounted = true;
    }
    ~Ext4Image() { release(); }

    // Unmounts and detaches, so the image file holds everything that was written.
    bool release()
    {
        bool ok = true;
        if (m_mounted)
            ok = step({ "umount", m_mount }) && ok;
        m_mounted = false;
        if (!m_device.isEmpty())
            ok = step({ "losetup", "-d", m_device }) && ok;
        m_device.clear();
        return ok;
    }

    QString skipReason() const { return m_skip; }
    QString error() const { return m_error; }
    bool ready() const { return m_mounted; }
    QString mountPoint() const { return m_mount; }
    QString image() const { return m_image; }

private:
    bool step(const QStringList& cmd, QString* out = nullptr)
    {
        QProcess p;
        p.start(cmd.first(), cmd.mid(1));
        const bool ok = p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
        if (out)
            *out = QString::fromLocal8Bit(p.readAllStandardOutput());
        if (!ok && m_error.isEmpty())
            m_error = cmd.join(' ') + ": " + QString::fromLocal8Bit(p.readAllStandardError()) + p.errorString();
        return ok;
    }

    QString m_image, m_mount, m_device, m_skip, m_error;
    bool m_mounted = false;
};

struct Stamp
{
    uint64_t magic, offset, sequence, seed;
};

// What the image holds, 4 KiB at a time.
struct Readback
{
    qint64 chunks = 0;
    qint64 distinctNonZero = 0;
    QHash<uint64_t, int> measured; // file offset -> chunks stamped by the measured phase
    QHash<uint64_t, int> any; // file offset -> chunks stamped by any phase (prefill included)
};

Readback readImage(const QString& path)
{
    Readback r;
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return r;
    QSet<QByteArray> seen;
    const QByteArray zero(int(UniqueData::kChunk), '\0');
    while (true) {
        const QByteArray c = f.read(qint64(UniqueData::kChunk));
        if (c.size() < int(UniqueData::kChunk))
            break;
        ++r.chunks;
        if (c == zero)
            continue;
        seen.insert(QCryptographicHash::hash(c, QCryptographicHash::Sha1));
        Stamp s {};
        std::memcpy(&s, c.constData(), sizeof s);
        if (s.magic != UniqueData::kMagic)
            continue;
        r.any[s.offset] += 1;
        if (!(s.sequence & UniqueData::kPrefillFlag))
            r.measured[s.offset] += 1;
    }
    r.distinctNonZero = seen.size();
    return r;
}

// Every 4 KiB offset of [0, bytes) appears exactly once in `m`.
QString everyChunkOnce(const QHash<uint64_t, int>& m, qint64 bytes)
{
    for (qint64 off = 0; off < bytes; off += qint64(UniqueData::kChunk)) {
        const int n = m.value(uint64_t(off));
        if (n != 1)
            return QString("offset %1 found %2 times").arg(off).arg(n);
    }
    if (m.size() != bytes / qint64(UniqueData::kChunk))
        return QString("%1 offsets stamped, expected %2").arg(m.size()).arg(bytes / qint64(UniqueData::kChunk));
    return {};
}

bool directAccepted(const QString& dir)
{
    const int fd = ::open(QFile::encodeName(dir).constData(), O_TMPFILE | O_RDWR | O_DIRECT, 0600);
    if (fd < 0)
        return false;
    ::close(fd);
    return true;
}

} // namespace

class TstDiskData : public QObject
{
    Q_OBJECT
private slots:
    void permutationVisitsEveryBlockOnce_data();
    void permutationVisitsEveryBlockOnce();
    void permutationDependsOnTheSeed();
    void uniqueChunksAreDistinctAndIncompressible();
    void dataNamesAndDefaults();
    void directWhereTheFileSystemTakesIt();
    void commitRegimes();
    void setupIsOutsideTheMeasuredSpan_data();
    void setupIsOutsideTheMeasuredSpan();
    void readbackOnExt4_data();
    void readbackOnExt4();
};

void TstDiskData::permutationVisitsEveryBlockOnce_data()
{
    QTest::addColumn<quint64>("n");
    for (quint64 n : { 1, 2, 3, 4, 5, 1000, 1024, 4097, 262144 })
        QTest::addRow("%llu", static_cast<unsigned long long>(n)) << n;
}

void TstDiskData::permutationVisitsEveryBlockOnce()
{
    QFETCH(quint64, n);
    for (uint64_t seed : { uint64_t(1), uint64_t(0xDEADBEEF), uint64_t(42) }) {
        const BlockPermutation perm(n, seed);
        std::vector<bool> seen(n, false);
        for (uint64_t i = 0; i < n; ++i) {
            const uint64_t b = perm.at(i);
            QVERIFY2(b < n, qPrintable(QString("at(%1) = %2 >= %3").arg(i).arg(b).arg(n)));
            QVERIFY2(!seen[b], qPrintable(QString("block %1 visited twice").arg(b)));
            seen[b] = true;
        }
    }
    if (n >= 1000) { // a shuffle, not the identity nor a shift: few blocks stay in place, neighbours scatter
        const BlockPermutation perm(n, 7);
        uint64_t fixed = 0, adjacent = 0;
        for (uint64_t i = 0; i < n; ++i) {
            fixed += perm.at(i) == i;
            if (i + 1 < n)
                adjacent += perm.at(i + 1) == perm.at(i) + 1;
        }
        QVERIFY2(
            fixed < n / 50 && adjacent < n / 50, qPrintable(QString("%1 fixed, %2 adjacent").arg(fixed).arg(adjacent)));
    }
}

void TstDiskData::permutationDependsOnTheSeed()
{
    const BlockPermutation a(4097, 1), b(4097, 2);
    int same = 0;
    for (uint64_t i = 0; i < 4097; ++i)
        same += a.at(i) == b.at(i);
    QVERIFY2(same < 100, qPrintable(QString::number(same)));
}

void TstDiskData::uniqueChunksAreDistinctAndIncompressible()
{
    // The worst case for a compressor or a deduper: one slot's buffer reused for 64 writes of 64 KiB.
    AlignedBuffer buf(64 * 1024);
    UniqueData::fillRandom(buf.data, buf.size, 99);
    QSet<QByteArray> seen;
    QByteArray stream;
    for (uint64_t seq = 0; seq < 64; ++seq) {
        const uint64_t offset = (seq * 7919 % 64) * buf.size;
        UniqueData::stamp(buf.data, buf.size, 99, offset, seq);
        for (size_t at = 0; at < buf.size; at += UniqueData::kChunk) {
            const QByteArray c(buf.data + at, int(UniqueData::kChunk));
            seen.insert(c);
            Stamp s {};
            std::memcpy(&s, c.constData(), sizeof s);
            QCOMPARE(s.magic, UniqueData::kMagic);
            QCOMPARE(s.offset, offset + at);
            QCOMPARE(s.sequence, seq);
        }
        stream.append(buf.data, int(buf.size));
    }
    QCOMPARE(seen.size(), 64 * 16); // every 4 KiB of every write distinct
    const double ratio = double(qCompress(stream, 9).size()) / double(stream.size());
    qInfo("zlib -9 on 64 writes of one reused 64 KiB buffer: %.4f of the raw size", ratio);
    QVERIFY2(ratio > 0.99, qPrintable(QString::number(ratio)));
}

void TstDiskData::dataNamesAndDefaults()
{
    QCOMPARE(DiskSpec::dataFromName("unique"), std::optional(DiskData::Unique));
    QCOMPARE(DiskSpec::dataFromName("random"), std::optional(DiskData::Unique)); // the old name
    QCOMPARE(DiskSpec::dataFromName("zeros"), std::optional(DiskData::Zeros));
    QVERIFY(!DiskSpec::dataFromName("ones"));
    DiskSpec s;
    for (const QString& p : DiskSpec::profileNames()) {
        s.profile = *DiskSpec::profileFromName(p);
        QCOMPARE(s.toJson().value("data").toString(), QString(p == "dd" ? "zeros" : "unique"));
    }
    s.profile = DiskProfile::Directory;
    QCOMPARE(s.toJson().value("dd_data").toString(), QString("zeros"));
    s.profile = DiskProfile::Dd;
    s.data = DiskData::Unique;
    QCOMPARE(s.toJson().value("data").toString(), QString("unique"));
    s.profile = DiskProfile::SeqWrite;
    s.data = DiskData::Zeros;
    QCOMPARE(s.toJson().value("data").toString(), QString("zeros"));
}

void TstDiskData::directWhereTheFileSystemTakesIt()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    if (!directAccepted(dir.path()))
        QSKIP(qPrintable("the file system of " + dir.path() + " refuses O_DIRECT on an O_TMPFILE file"));
    for (DiskProfile p :
        { DiskProfile::SeqWrite, DiskProfile::SeqRead, DiskProfile::RandRead, DiskProfile::RandWrite }) {
        RunContext ctx;
        const RunRecord rec = Disk::run(spec(p, dir.path(), 4 * MiB, 0), ctx);
        QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
        QVERIFY2(rec.engine.toObject().value("direct").toBool(), qPrintable(DiskSpec::profileName(p)));
        QVERIFY(!rec.hasWarning("direct-refused"));
    }
}

void TstDiskData::commitRegimes()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    RunContext ctx;
    DiskSpec s = spec(DiskProfile::Commit, dir.path(), 1 * MiB, 0.3);
    RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.spec.value("commit_regime").toString(), QString("overwrite"));
    QVERIFY(num(rec.summary, "ops") > 0);

    // Append: an empty file that grows; the phase ends at --size even though the duration is longer.
    s.commitAppend = true;
    s.sizeBytes = 256 * 1024;
    s.durationSec = 60;
    RunContext ctx2;
    rec = Disk::run(s, ctx2);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.spec.value("commit_regime").toString(), QString("append"));
    QCOMPARE(num(rec.summary, "ops"), 64.0);
    QVERIFY(num(rec.summary, "seconds") < 30);

    // The suite records its commit part's regime too; append elsewhere is refused, naming the field.
    s.profile = DiskProfile::Directory;
    QCOMPARE(s.toJson().value("commit_regime").toString(), QString("append"));
    s.profile = DiskProfile::RandWrite;
    QCOMPARE(s.validate().field, QString("commit-append"));
}

void TstDiskData::setupIsOutsideTheMeasuredSpan_data()
{
    QTest::addColumn<int>("engine");
    QTest::addRow("io_uring") << int(IoEngineChoice::IoUring);
    QTest::addRow("threads") << int(IoEngineChoice::Threads);
}

void TstDiskData::setupIsOutsideTheMeasuredSpan()
{
    // 8 slots of 32 MiB of unique data: 256 MiB of random bytes to make before the first write.
    QFETCH(int, engine);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    DiskSpec s = spec(DiskProfile::SeqWrite, dir.path(), 256 * MiB, 0);
    s.blockBytes = 32 * MiB;
    s.queueDepth = 8;
    s.engine = IoEngineChoice(engine);
    RunContext ctx;
    QElapsedTimer wall;
    wall.start();
    const RunRecord rec = Disk::run(s, ctx);
    const double wallSec = double(wall.nsecsElapsed()) / 1e9;
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const double setup = num(rec.summary, "setup_s"), measured = num(rec.summary, "seconds");
    qInfo("%s: setup %.3f s, measured %.3f s, whole run %.3f s", QTest::currentDataTag(), setup, measured, wallSec);
    QVERIFY2(setup > 0.005, qPrintable(QString::number(setup))); // the fill is really there
    // Disjoint spans: the measured one does not contain the setup (were it inside, setup + seconds > wall).
    QVERIFY2(setup + measured <= wallSec, qPrintable(QString("%1 + %2 > %3").arg(setup).arg(measured).arg(wallSec)));
}

void TstDiskData::readbackOnExt4_data()
{
    QTest::addColumn<int>("profile");
    QTest::addColumn<double>("duration");
    QTest::addRow("seq-write") << int(DiskProfile::SeqWrite) << 0.0;
    QTest::addRow("rand-write one pass") << int(DiskProfile::RandWrite) << 0.0;
    QTest::addRow("commit, overwrite") << int(DiskProfile::Commit) << 0.3;
}

void TstDiskData::readbackOnExt4()
{
    QFETCH(int, profile);
    QFETCH(double, duration);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    constexpr qint64 fileBytes = 32 * MiB;
    Ext4Image img(dir.path(), 128 * MiB);
    if (!img.skipReason().isEmpty())
        QSKIP(qPrintable(img.skipReason()));
    QVERIFY2(img.ready(), qPrintable(img.error()));

    RunContext ctx;
    DiskSpec s = spec(DiskProfile(profile), img.mountPoint(), fileBytes, duration);
    const RunRecord rec = Disk::run(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QCOMPARE(rec.spec.value("data").toString(), QString("unique"));
    if (DiskProfile(profile) == DiskProfile::Commit)
        QCOMPARE(rec.spec.value("commit_regime").toString(), QString("overwrite"));
    else
        QVERIFY(rec.engine.toObject().value("direct").toBool()); // ext4 takes O_DIRECT
    QVERIFY2(img.release(), qPrintable(img.error()));

    const Readback r = readImage(img.image());
    const qint64 written = fileBytes / qint64(UniqueData::kChunk);
    qInfo("%s: %lld of %lld image blocks distinct and non-zero; %lld file blocks written", QTest::currentDataTag(),
        static_cast<long long>(r.distinctNonZero), static_cast<long long>(r.chunks), static_cast<long long>(written));
    qInfo("stamped offsets: %d (measured %d)", int(r.any.size()), int(r.measured.size()));
    QVERIFY2(r.distinctNonZero >= written * 9 / 10, qPrintable(QString::number(r.distinctNonZero)));
    if (DiskProfile(profile) == DiskProfile::Commit) {
        // Pre-written: every block of the file holds data before the first commit, and exactly one copy.
        const QString bad = everyChunkOnce(r.any, fileBytes);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
        QVERIFY(!r.measured.isEmpty());
    } else {
        // One pass: the measured phase wrote every block of the file exactly once, at its own offset.
        const QString bad = everyChunkOnce(r.measured, fileBytes);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }
}

QTEST_GUILESS_MAIN(TstDiskData)
#include "tst_diskdata.moc"
