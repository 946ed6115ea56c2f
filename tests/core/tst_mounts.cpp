// Mounts::writable: the file systems a disk test on a host is offered (the Disk page's Check), from mountinfo.
#include "core/common/mounts.h"

#include <QTest>

class TestMounts : public QObject
{
    Q_OBJECT

private slots:
    void keepsWhatATestCanUse();
    void roundTripsThroughJson();
};

void TestMounts::keepsWhatATestCanUse()
{
    const QByteArray info = "22 1 253:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n"
                            "23 22 0:21 / /proc rw,nosuid - proc proc rw\n"
                            "24 22 0:5 / /dev/shm rw - tmpfs tmpfs rw\n"
                            "25 22 0:6 / /run rw - tmpfs tmpfs rw\n"
                            "26 22 253:2 / /srv/my\\040data rw - xfs /dev/vdb rw\n"
                            "27 22 7:0 / /snap/core ro - squashfs /dev/loop0 ro\n"
                            "28 22 253:1 / /mnt/ro ro,relatime - ext4 /dev/vda1 ro\n"
                            "29 22 253:1 / / rw,relatime shared:1 - ext4 /dev/vda1 rw\n";
    const QList<Mounts::FileSystem> all = Mounts::writable(info);
    QStringList points;
    for (const auto& fs : all)
        points << fs.mountPoint;
    QCOMPARE(points, (QStringList { QStringLiteral("/"), QStringLiteral("/dev/shm"), QStringLiteral("/srv/my data") }));
    QCOMPARE(all.at(0).device, QStringLiteral("/dev/vda1"));
    QCOMPARE(all.at(0).type, QStringLiteral("ext4"));
    QVERIFY(all.at(0).freeBytes > 0 && all.at(0).freeBytes <= all.at(0).totalBytes); // statvfs of this machine's /
    QCOMPARE(all.at(2).freeBytes, -1); // no such directory here: unknown, not zero
}

void TestMounts::roundTripsThroughJson()
{
    const QList<Mounts::FileSystem> here = Mounts::writable();
    QVERIFY(!here.isEmpty());
    QCOMPARE(Mounts::fromJson(Mounts::toJson(here)), here);
}

QTEST_GUILESS_MAIN(TestMounts)
#include "tst_mounts.moc"
