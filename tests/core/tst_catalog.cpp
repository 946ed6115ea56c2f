// The cloud catalog: the built-in file loads; every performance model against the rows and worked examples the
// catalog lists; a bad file is refused with the JSON path of the bad field; the effective limit names what binds.
#include "core/catalog/catalog.h"
#include "core/catalog/evaluation.h"
#include "core/catalog/models.h"
#include "core/catalog/sources.h"
#include "core/disk/requirements.h"

#include <QFile>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace CloudCatalog;

namespace {

const Catalog& cat()
{
    static const Catalog c = Catalog::load();
    return c;
}

DiskLimits at(const char* id, double gib, Provisioning p = {}, Access a = Access::Write)
{
    const DiskType* d = cat().disk(QString::fromLatin1(id));
    Q_ASSERT(d);
    QString f, e;
    const auto l = Models::evaluate(*d, gib, p, a, &f, &e);
    if (!l)
        qFatal("%s at %g: %s: %s", id, gib, qPrintable(f), qPrintable(e));
    return *l;
}

// A row's size: a number, "1-33.33" (both ends), "5334+" (the start), or size_tib.
QList<double> rowSizes(const QJsonObject& row)
{
    if (row.contains("size_tib"))
        return { row.value("size_tib").toDouble() * 1024 };
    const QJsonValue v = row.value("size_gib");
    if (v.isDouble())
        return { v.toDouble() };
    QString s = v.toString();
    s.remove('+');
    const QStringList parts = s.split('-');
    QList<double> out { std::ceil(parts.first().toDouble()) };
    if (parts.size() > 1)
        out << std::floor(parts.last().toDouble());
    return out;
}

QJsonObject builtInJson()
{
    QFile f(":/dirbench/catalog/cloud-disks.json");
    if (!f.open(QIODevice::ReadOnly))
        qFatal("no built-in catalog");
    return QJsonDocument::fromJson(f.readAll()).object();
}

} // namespace

class TstCatalog : public QObject
{
    Q_OBJECT
private slots:
    void sourcesCoverEveryRequirement();
    void sourcesOfOldRecordsReadWell();
    void builtInLoads();
    void gp2Rows();
    void hddRows_data();
    void hddRows();
    void azureTiers();
    void ultraRows();
    void workedExamples();
    void gcpPerGib();
    void provisioningOutOfRange();
    void validationNamesField_data();
    void validationNamesField();
    void loadFileErrors();
    void effectiveLimitBinding();
};

void TstCatalog::builtInLoads()
{
    const Catalog& c = cat();
    QCOMPARE(c.schemaVersion, 2);
    QCOMPARE(c.disks.size(), 17);
    QCOMPARE(c.vms.size(), 8);
    QCOMPARE(c.providers(), QStringList({ "aws", "azure", "gcp" }));
    for (const auto& d : c.disks) {
        QVERIFY2(!d.sources.isEmpty() && !d.sources.first().url.isEmpty(), qPrintable(d.id));
        QVERIFY2(Models::isKnown(d.model), qPrintable(d.id));
    }
    for (const auto& v : c.vms)
        QVERIFY2(!v.sources.isEmpty(), qPrintable(v.id));
    // the same file as the one in the repository, every source kept
    QFile repo(DIRBENCH_SOURCE_DIR "/resources/catalog/cloud-disks.json");
    QVERIFY(repo.open(QIODevice::ReadOnly));
    QCOMPARE(QJsonDocument::fromJson(repo.readAll()).object(), builtInJson());
    QVERIFY(c.disk("gp2"));
    QCOMPARE(c.disk("gp2")->id, QString("aws-ebs-gp2"));
    QVERIFY(c.vm("standard_ds13_v2"));
}

void TstCatalog::gp2Rows()
{
    const DiskType* d = cat().disk("aws-ebs-gp2");
    QVERIFY(d->rows.size() >= 6);
    for (const auto& rv : d->rows) {
        const QJsonObject row = rv.toObject();
        for (double size : rowSizes(row)) {
            const DiskLimits l = at("aws-ebs-gp2", size);
            QCOMPARE(*l.iops, row.value("baseline_iops").toDouble());
            if (row.value("burst_iops").isNull()) {
                QVERIFY2(!l.burstIops, qPrintable(QString::number(size)));
                continue;
            }
            QCOMPARE(*l.burstIops, row.value("burst_iops").toDouble());
            if (row.contains("burst_seconds_full_bucket"))
                QVERIFY2(std::abs(*l.burstSeconds - row.value("burst_seconds_full_bucket").toDouble()) < 1,
                    qPrintable(QString("%1 GiB: %2 s").arg(size).arg(*l.burstSeconds)));
            if (row.contains("refill_seconds"))
                QVERIFY(std::abs(*l.refillSeconds - row.value("refill_seconds").toDouble()) < 1);
        }
    }
    // throughput bands: <= 170 GiB 128 MiB/s, 170..334 bursts to 250, >= 334 250 sustained
    QCOMPARE(*at("aws-ebs-gp2", 170).mbps, 127.5); // 510 IOPS × 256 KiB
    QCOMPARE(*at("aws-ebs-gp2", 250).mbps, 128.0);
    QCOMPARE(*at("aws-ebs-gp2", 250).burstMbps, 250.0);
    QCOMPARE(*at("aws-ebs-gp2", 334).mbps, 250.0);
    QCOMPARE(*at("aws-ebs-gp2", 100).mbps, 75.0);
    QCOMPARE(*at("aws-ebs-gp2", 100).burstMbps, 128.0);
}

void TstCatalog::hddRows_data()
{
    QTest::addColumn<QString>("id");
    QTest::newRow("st1") << "aws-ebs-st1";
    QTest::newRow("sc1") << "aws-ebs-sc1";
}

void TstCatalog::hddRows()
{
    QFETCH(QString, id);
    const DiskType* d = cat().disk(id);
    QVERIFY(d->rows.size() >= 15);
    for (const auto& rv : d->rows) {
        const QJsonObject row = rv.toObject();
        const double size = rowSizes(row).first();
        const DiskLimits l = at(qPrintable(id), size);
        // the provider rounds 31.25 to 31
        QVERIFY2(std::abs(*l.mbps - row.value("baseline_mibps").toDouble()) <= 0.5, qPrintable(QString::number(size)));
        const double burst = l.burstMbps.value_or(*l.mbps);
        QVERIFY2(std::abs(burst - row.value("burst_mibps").toDouble()) <= 0.5, qPrintable(QString::number(size)));
        if (l.burstMbps) // a full bucket (1 TiB of credits per TiB) lasts bucket / (burst - baseline)
            QVERIFY(std::abs(*l.burstSeconds - size * 1024 / (burst - *l.mbps)) < 1e-6);
    }
    QCOMPARE(*at(qPrintable(id), 2048).iops, id == "aws-ebs-st1" ? 500.0 : 250.0);
}

void TstCatalog::azureTiers()
{
    for (const char* id : { "azure-premium-ssd", "azure-standard-ssd", "azure-standard-hdd" }) {
        const DiskType* d = cat().disk(id);
        double previous = 0;
        for (const auto& rv : d->rows) {
            const QJsonObject row = rv.toObject();
            const double size = row.value("size_gib").toDouble();
            for (double s :
                { size, std::max({ previous + 1, size - 1, d->minGib }) }) { // a size rounds up to the next tier
                const DiskLimits l = at(id, s);
                QCOMPARE(l.tier, row.value("sku").toString());
                QCOMPARE(*l.iops, row.value(row.contains("iops") ? "iops" : "iops_up_to").toDouble());
                QCOMPARE(*l.mbps, row.value(row.contains("mbps") ? "mbps" : "mbps_up_to").toDouble());
                if (row.value("burst_iops").isDouble()) {
                    QCOMPARE(*l.burstIops, row.value("burst_iops").toDouble());
                    QCOMPARE(*l.burstMbps, row.value("burst_mbps").toDouble());
                } else {
                    QVERIFY(!l.burstIops);
                }
            }
            previous = size;
        }
    }
    // the seed's P30 and P60
    QCOMPARE(*at("azure-premium-ssd", 1024).mbps, 200.0);
    QCOMPARE(*at("azure-premium-ssd", 8192).mbps, 500.0);
    QCOMPARE(at("azure-premium-ssd", 512).burstSeconds.value(), 30 * 60.0); // P20: credit bursting, 30 min
    QVERIFY(std::isinf(at("azure-premium-ssd", 1024).burstSeconds.value())); // P30: on demand
    QCOMPARE(at("azure-premium-ssd", 1024).burstKind, QString("on-demand"));
}

void TstCatalog::ultraRows()
{
    const DiskType* d = cat().disk("azure-ultra-disk");
    for (const auto& rv : d->rows) {
        const QJsonObject row = rv.toObject();
        for (double size : rowSizes(row)) {
            const DiskLimits l = at("azure-ultra-disk", size);
            QCOMPARE(*l.maxProvisionableIops, row.value("iops_cap").toDouble());
            QCOMPARE(*l.maxProvisionableMbps, row.value("mbps_cap").toDouble());
        }
    }
}

void TstCatalog::workedExamples()
{
    // io1: the seed's 1,000 GB at 32,000 IOPS has a 500 MiB/s ceiling; 1,280 GiB is the least for 64,000 IOPS;
    // the 500 MiB/s peak comes at 2,000 IOPS; 64,000 IOPS give 1,000 MiB/s
    QCOMPARE(*at("aws-ebs-io1", 1000, { 32000., {}, false }).mbps, 500.0);
    QCOMPARE(*at("aws-ebs-io1", 1280).maxProvisionableIops, 64000.0);
    QVERIFY(*at("aws-ebs-io1", 1279).maxProvisionableIops < 64000);
    QCOMPARE(*at("aws-ebs-io1", 1000, { 2000., {}, false }).mbps, 500.0);
    QCOMPARE(*at("aws-ebs-io1", 1999, { 1999., {}, false }).mbps, 499.75);
    QCOMPARE(*at("aws-ebs-io1", 1280, { 64000., {}, false }).mbps, 1000.0);
    QCOMPARE(*at("aws-ebs-io2", 128).maxProvisionableIops, 64000.0);
    // io2 Block Express: max IOPS from 256 GiB, max throughput at >= 16,000 IOPS
    QCOMPARE(*at("aws-ebs-io2-bx", 256).maxProvisionableIops, 256000.0);
    QVERIFY(*at("aws-ebs-io2-bx", 255).maxProvisionableIops < 256000);
    QCOMPARE(*at("aws-ebs-io2-bx", 100, { 16000., {}, false }).mbps, 4000.0);
    // gp3: 3,000 IOPS / 125 MiB/s included; max IOPS needs >= 32 GiB; 1,000 MiB/s needs >= 4,000 IOPS
    const DiskLimits gp3 = at("aws-ebs-gp3", 8);
    QCOMPARE(*gp3.iops, 3000.0);
    QCOMPARE(*gp3.mbps, 125.0);
    QVERIFY(!gp3.burstIops);
    QCOMPARE(*at("aws-ebs-gp3", 32).maxProvisionableIops, 16000.0);
    QCOMPARE(*at("aws-ebs-gp3", 31).maxProvisionableIops, 15500.0);
    QCOMPARE(*at("aws-ebs-gp3", 8, { 4000., 1000., false }).mbps, 1000.0);
    // Premium SSD v2: "3,000 IOPS allows up to 750 MB/s"; 80,000 IOPS from 160 GiB; <= 6 GiB: 3,000
    QCOMPARE(*at("azure-premium-ssd-v2", 100, { 3000., {}, true }).mbps, 750.0);
    QCOMPARE(*at("azure-premium-ssd-v2", 160).maxProvisionableIops, 80000.0);
    QCOMPARE(*at("azure-premium-ssd-v2", 6).maxProvisionableIops, 3000.0);
    QCOMPARE(*at("azure-premium-ssd-v2", 1000, { 5000., {}, true }).mbps, 1200.0);
    // Hyperdisk Balanced: 3,000 IOPS and 140 MiB/s included
    QCOMPARE(*at("gcp-hyperdisk-balanced", 100).iops, 3000.0);
    QCOMPARE(*at("gcp-hyperdisk-balanced", 100).mbps, 140.0);
    // st1 at 1 TiB: 40 MiB/s baseline, 250 burst
    QCOMPARE(*at("aws-ebs-st1", 1024).mbps, 40.0);
    QCOMPARE(*at("aws-ebs-st1", 1024).burstMbps, 250.0);
}

void TstCatalog::gcpPerGib()
{
    const DiskLimits ssd = at("gcp-pd-ssd", 1000);
    QCOMPARE(*ssd.iops, 30000.0);
    QCOMPARE(*ssd.mbps, 480.0);
    QCOMPARE(*at("gcp-pd-ssd", 5000).mbps, 1200.0); // per-instance cap
    QCOMPARE(*at("gcp-pd-standard", 1000, {}, Access::Write).iops, 1500.0);
    QCOMPARE(*at("gcp-pd-standard", 1000, {}, Access::Read).iops, 750.0);
    QCOMPARE(*at("gcp-pd-standard", 10000, {}, Access::Write).mbps, 400.0);
    QCOMPARE(*at("gcp-pd-standard", 10000, {}, Access::Read).mbps, 1200.0);
    QCOMPARE(*at("gcp-pd-balanced", 500).iops, 3000.0);
    QCOMPARE(*at("gcp-pd-extreme", 1000, {}, Access::Read).mbps, 4000.0);
}

void TstCatalog::provisioningOutOfRange()
{
    QString f, e;
    const DiskType* io1 = cat().disk("aws-ebs-io1");
    QVERIFY(!Models::evaluate(*io1, 100, { 6000., {}, false }, Access::Write, &f, &e)); // 50 IOPS/GiB
    QCOMPARE(f, QString("provisioned-iops"));
    QVERIFY2(e.contains("100..5000"), qPrintable(e));
    QVERIFY(!Models::evaluate(*io1, 2, {}, Access::Write, &f, &e));
    QCOMPARE(f, QString("size-gb"));
    QVERIFY(!Models::evaluate(*cat().disk("aws-ebs-gp3"), 100, { 3000., 800., false }, Access::Write, &f,
        &e)); // 0.25 MiB/s per IOPS: 750 at most
    QCOMPARE(f, QString("provisioned-mbps"));
}

void TstCatalog::validationNamesField_data()
{
    QTest::addColumn<QString>("path"); // where to change the document
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<QString>("expected");
    QTest::newRow("model") << "disk_types[3].performance_model" << QJsonValue("x")
                           << "disk_types[3].performance_model: unknown model 'x'";
    QTest::newRow("parameter") << "disk_types[0].parameters.iops_per_gib" << QJsonValue()
                               << "disk_types[0].parameters.iops_per_gib: missing";
    QTest::newRow("parameter type") << "disk_types[1].parameters.max_iops" << QJsonValue("many")
                                    << "disk_types[1].parameters.max_iops: must be a number >= 0";
    QTest::newRow("unit") << "disk_types[2].throughput_unit" << QJsonValue("GB/h")
                          << "disk_types[2].throughput_unit: 'GB/h' is not MiB/s or MB/s";
    QTest::newRow("source") << "disk_types[5].sources" << QJsonValue(QJsonArray())
                            << "disk_types[5].sources: needs at least one source";
    QTest::newRow("tier size") << "disk_types[7].tiers[2].size_gib" << QJsonValue("big")
                               << "disk_types[7].tiers[2].size_gib: must be a number";
    QTest::newRow("vm") << "vm_caps[0].sustained.mbps" << QJsonValue(-3)
                        << "vm_caps[0].sustained.mbps: must not be negative";
    QTest::newRow("schema") << "schema_version" << QJsonValue(1) << "schema_version: 1 is not 2";
    QTest::newRow("latency") << "disk_types[4].typical_latency_ms.value" << QJsonValue(0)
                             << "disk_types[4].typical_latency_ms.value: must be > 0";
}

// Sets (or removes, for an undefined value) the field at a path like "disk_types[3].parameters.x".
static QJsonValue setAt(const QJsonValue& node, QStringList parts, const QJsonValue& value)
{
    QString part = parts.takeFirst();
    int index = -1;
    if (part.contains('[')) {
        index = part.section('[', 1).chopped(1).toInt();
        part = part.section('[', 0, 0);
    }
    QJsonObject o = node.toObject();
    if (index >= 0) {
        QJsonArray a = o.value(part).toArray();
        a[index] = parts.isEmpty() ? value : setAt(a.at(index), parts, value);
        o[part] = a;
    } else if (parts.isEmpty()) {
        if (value.isUndefined() || value.isNull())
            o.remove(part);
        else
            o[part] = value;
    } else {
        o[part] = setAt(o.value(part), parts, value);
    }
    return o;
}

void TstCatalog::validationNamesField()
{
    QFETCH(QString, path);
    QFETCH(QJsonValue, value);
    QFETCH(QString, expected);
    const QJsonObject bad = setAt(builtInJson(), path.split('.'), value).toObject();
    QString error;
    QVERIFY(!Catalog::fromJson(bad, &error));
    QCOMPARE(error.left(expected.size()), expected);
}

void TstCatalog::loadFileErrors()
{
    QTemporaryDir dir;
    QString error;
    QVERIFY(!Catalog::loadFile(dir.filePath("absent.json"), &error));
    QVERIFY(error.contains("absent.json"));
    QFile junk(dir.filePath("junk.json"));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("{ not json");
    junk.close();
    QVERIFY(!Catalog::loadFile(junk.fileName(), &error));
    QVERIFY2(error.contains("junk.json: not a JSON object"), qPrintable(error));
    // a newer file: the built-in one with gp3's included throughput raised
    const QJsonObject newer
        = setAt(builtInJson(), QString("disk_types[1].parameters.included_mbps").split('.'), 200).toObject();
    QFile good(dir.filePath("newer.json"));
    QVERIFY(good.open(QIODevice::WriteOnly));
    good.write(QJsonDocument(newer).toJson());
    good.close();
    const auto c = Catalog::loadFile(good.fileName(), &error);
    QVERIFY2(c, qPrintable(error));
    QCOMPARE(c->origin, good.fileName());
    QString f, e;
    QCOMPARE(*Models::evaluate(*c->disk("gp3"), 100, {}, Access::Write, &f, &e)->mbps, 200.0);
}

void TstCatalog::effectiveLimitBinding()
{
    QString f, e;
    // QD1 × 64 KiB at gp3's assumed 1 ms: 65.5 MB/s, below the disk's 131 MB/s (125 MiB/s)
    Workload w { 1, 64, Access::Write, std::nullopt };
    auto ev = evaluate(*cat().disk("gp3"), 100, nullptr, {}, w, &f, &e);
    QVERIFY(ev);
    QCOMPARE(ev->binding, QString("queue-depth"));
    QVERIFY(std::abs(*ev->effective.mbps - 65.536) < 1e-6);
    QVERIFY(std::abs(*ev->diskLimit.mbps - 131.072) < 1e-6); // MiB/s -> MB/s
    // the seed's final setup: P60 (500 MB/s) on Standard_DS13_v2 (384 MB/s uncached) at QD 32 × 1 MiB
    w = { 32, 1024, Access::Write, std::nullopt };
    ev = evaluate(*cat().disk("azure-premium-ssd"), 8192, cat().vm("Standard_DS13_v2"), {}, w, &f, &e);
    QVERIFY(ev);
    QCOMPARE(ev->binding, QString("vm"));
    QCOMPARE(*ev->effective.mbps, 384.0);
    // without a VM the disk binds; a measured latency replaces the typical one
    w = { 32, 1024, Access::Write, 2.0 };
    ev = evaluate(*cat().disk("azure-premium-ssd"), 8192, nullptr, {}, w, &f, &e);
    QCOMPARE(ev->binding, QString("disk"));
    QCOMPARE(*ev->effective.mbps, 500.0);
    QCOMPARE(ev->latencyBasis, QString("measured"));
    // 4 KiB random I/O on P30: 5,000 IOPS × 4 KiB = 20.48 MB/s, far below the listed 200 MB/s
    w = { 64, 4, Access::Write, 0.5 };
    ev = evaluate(*cat().disk("azure-premium-ssd"), 1024, nullptr, {}, w, &f, &e);
    QVERIFY(std::abs(*ev->effective.mbps - 20.48) < 1e-6);
    QCOMPARE(*ev->effective.iops, 5000.0);
    // a bad queue depth names its field
    w = { -1, 4, Access::Write, std::nullopt };
    QVERIFY(!evaluate(*cat().disk("gp3"), 100, nullptr, {}, w, &f, &e));
    QCOMPARE(f, QString("queue-depth"));
}

// Every requirement the shipped profiles judge has a document in the source catalog, by its id and by its label
// (records before stored ids), and the citations stored in new records name no path of this repository.
void TstCatalog::sourcesCoverEveryRequirement()
{
    QString error;
    const QList<RequirementProfile> profiles = Requirements::load(&error);
    QVERIFY2(!profiles.isEmpty(), qPrintable(error));
    int n = 0;
    for (const RequirementProfile& p : profiles) {
        QVERIFY2(!Sources::hasRepositoryPath(p.source) && !p.source.contains("seed 000"), qPrintable(p.source));
        QVERIFY2(!p.name.contains("seed"), qPrintable(p.name));
        for (const DiskRequirement& r : p.requirements) {
            const Sources::Source* byId = Sources::forRequirement(r.id);
            QVERIFY2(byId, qPrintable(r.id));
            QCOMPARE(Sources::forRequirement(r.label), byId);
            // What the record stores names the same document.
            QCOMPARE(Sources::namedIn(p.name + " — " + p.source), byId);
            ++n;
        }
    }
    QVERIFY(n >= 4);
    const Sources::Source* hp = Sources::byId("hpux-ds81-guide");
    QVERIFY(hp);
    QCOMPARE(Sources::citation(*hp, "Table 2"),
        QString("“HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines”, technical white paper, HP, "
                "Table 2"));
    const Sources::Source* kb = Sources::byId("edirectory-kb-cloud-disks");
    QVERIFY(kb);
    const QString full = Sources::fullCitation(*kb);
    QVERIFY(full.contains("docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-volume-types.html"));
    QVERIFY(full.contains("docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html"));
    QVERIFY(full.contains("azure.microsoft.com/en-au/pricing/details/managed-disks/"));
    for (const Sources::Source& s : Sources::all())
        QVERIFY2(!Sources::hasRepositoryPath(Sources::fullCitation(s)), qPrintable(s.id));
}

void TstCatalog::sourcesOfOldRecordsReadWell()
{
    Verdict old;
    old.requirement = "sequential write ≥ 100 MB/s, as the seed measured it (dd: buffered, one fdatasync)";
    old.source = "eDirectory (seed 000): sequential write ≥ 100 MB/s — NetIQ/Micro Focus KB, eDirectory 9.2 on "
                 "AWS/Azure cloud disks (shared/seeds/000): \"eDirectory requires a minimum of 100 MB/s\", measured "
                 "with dd bs=64k count=8k conv=fdatasync";
    QCOMPARE(Sources::requirementIdOf(old), QString("seed-dd"));
    QCOMPARE(Sources::ofVerdict(old),
        QString("“eDirectory 9.2 on the Amazon AWS or Microsoft Azure cloud platform”, knowledge-base article, NetIQ / "
                "Micro Focus, which says “eDirectory requires a minimum of 100 MB/s”"));
    // Experiments stored the guide as a path; sizing rules carried notes' section numbers.
    QCOMPARE(Sources::readable("HP-UX Directory Server 8.1 performance tuning and sizing guide (shared/seeds/003), "
                               "Table 5"),
        QString("“HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines”, technical white paper, HP, "
                "Table 5"));
    QCOMPARE(Sources::readable("slapd-mdb(5) (maxsize, searchstack; https://man7.org/linux/man-pages/man5/"
                               "slapd-mdb.5.html); reference §3.4"),
        QString("slapd-mdb(5) (maxsize, searchstack; https://man7.org/linux/man-pages/man5/slapd-mdb.5.html)"));
    QCOMPARE(Sources::readable("Vendor table (shared/data/cloud-disks.json)"), QString("Vendor table"));
    QVERIFY(Sources::hasRepositoryPath("see shared/seeds/000"));
    QVERIFY(!Sources::hasRepositoryPath("https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/ebs-optimized.html"));
    // A verdict the catalog does not know keeps its text, without paths.
    Verdict unknown { "IOPS as listed", "Vendor table (resources/x.json)", false, 1, 2, "IO/s", {}, {} };
    QCOMPARE(Sources::ofVerdict(unknown), QString("Vendor table"));
}

QTEST_GUILESS_MAIN(TstCatalog)
#include "tst_catalog.moc"
