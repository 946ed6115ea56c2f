#include "core/catalog/seedexample.h"

#include "core/catalog/sources.h"

namespace CloudCatalog::SeedExample {

QString source()
{
    // A citation a reader can find (core/catalog/sources.h): the article's own measurements, not a provider's.
    return Sources::citation(*Sources::byId(QStringLiteral("edirectory-kb-cloud-disks")))
        + QStringLiteral(" (its own measurements, not a provider's figures)");
}

QString command()
{
    return QStringLiteral("dd if=/dev/zero of=FILE bs=64k count=8k conv=fdatasync");
}

QList<Case> cases()
{
    const Provisioning io1 { 32000, std::nullopt, false };
    const QString io1Note = QStringLiteral("\"Provisioned IOPS SSD, 1000 GB, IOPS - 32000\": io1 at 1,000 GiB");
    return {
        { QStringLiteral("azure-p30"), QStringLiteral("Azure P30 disk (1TB)"), QStringLiteral("azure-premium-ssd"),
            1024, QString(), {}, 50, true, QStringLiteral("Listed as 200MB/s but was returning less than 50MB/s."),
            QStringLiteral("no VM named") },
        { QStringLiteral("azure-p60"), QStringLiteral("Azure P60 disk"), QStringLiteral("azure-premium-ssd"), 8192,
            QString(), {}, 35, false, QStringLiteral("Listed as 500MB/s but returned 35 MB/s"),
            QStringLiteral(
                "the article writes \"P60 disk (1TB)\"; P60 is the 8 TiB tier, which is what lists 500 MB/s") },
        { QStringLiteral("azure-ds13v2-p60"), QStringLiteral("Standard_DS13_v2 + P60 (8 TB)"),
            QStringLiteral("azure-premium-ssd"), 8192, QStringLiteral("Standard_DS13_v2"), {}, 304, false,
            QStringLiteral("this configuration was returning 304-297 MB/s"),
            QStringLiteral("297 MB/s with an LDAP thread") },
        { QStringLiteral("aws-t2.micro"), QStringLiteral("t2.micro (not EBS-optimized) + io1 1000 GB"),
            QStringLiteral("aws-ebs-io1"), 1000, QStringLiteral("t2.micro"), io1, 72.2, false,
            QStringLiteral("536870912 bytes (537 MB, 512 MiB) copied, 7.43317 s, 72.2 MB/s"), io1Note },
        { QStringLiteral("aws-t3.medium"), QStringLiteral("t3.medium + io1 1000 GB"), QStringLiteral("aws-ebs-io1"),
            1000, QStringLiteral("t3.medium"), io1, 438, false,
            QStringLiteral("536870912 bytes (537 MB, 512 MiB) copied, 1.22511 s, 438 MB/s"), io1Note },
        { QStringLiteral("aws-r5ad.2xlarge"), QStringLiteral("r5ad.2xlarge + io1 1000 GB"),
            QStringLiteral("aws-ebs-io1"), 1000, QStringLiteral("r5ad.2xlarge"), io1, 784, false,
            QStringLiteral("536870912 bytes (537 MB, 512 MiB) copied, 0.684601 s, 784 MB/s"), io1Note },
    };
}

Measured measured(const Case& c)
{
    Measured m;
    m.label = c.label;
    m.test = QStringLiteral("dd");
    m.mbps = c.measuredMbps;
    m.upperBound = c.upperBound;
    m.blockKib = 64;
    m.buffered = true; // dd without oflag=direct: the kernel's writeback decides the queue depth
    return m;
}

} // namespace CloudCatalog::SeedExample
