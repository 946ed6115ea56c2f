#include "core/sizing/ds389autotune.h"
#include "core/sizing/ds389sizing.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/serversizing.h"
#include "tests/common/sizinghelpers.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace SizingHelpers;

class TstSizing : public QObject
{
    Q_OBJECT
private slots:
    // The guide's formula with the reference's worked numbers (§3.1): 8 threads, 250k entries, 3,000 B per cached
    // entry -> 750 MB of entry cache; dbcache 685 MB (all db4 files) or 354 MB (only what exact cn searches need).
    void guideWorkedExample_data()
    {
        QTest::addColumn<double>("dbcache");
        QTest::addColumn<double>("factor");
        QTest::addColumn<bool>("equation1"); // dbcache through --db-size-mb (Equation 1) rather than typed
        QTest::addColumn<double>("total");
        QTest::newRow("2.3, all db4 files (685 MB)") << 685.0 << 2.3 << false << 2926.8;
        QTest::newRow("seed's factor 2.0") << 685.0 << 2.0 << false << 2656.8;
        QTest::newRow("2.3, cn only (354 MB)") << 354.0 << 2.3 << false << 2529.6;
        QTest::newRow("Equation 1: Σ all db files 685 MB") << 685.0 << 2.3 << true << 2926.8;
        QTest::newRow("Equation 1: cn files only 354 MB") << 354.0 << 2.3 << true << 2529.6;
    }

    void guideWorkedExample()
    {
        QFETCH(double, dbcache);
        QFETCH(double, factor);
        QFETCH(bool, equation1);
        QFETCH(double, total);
        SizingInput in = ds389(8);
        in.entries = 250000;
        in.entryCacheBytesPerEntry = 3000;
        in.entryFactor = factor;
        if (equation1)
            in.dbSizeMb = dbcache;
        else
            in.dbcacheMb = dbcache;
        ProbeError err;
        const auto r = ServerSizing::compute(in, &err);
        QVERIFY2(r, qPrintable(err.message()));
        QVERIFY(near(term(*r, "base_mb"), 29.0));
        QVERIFY(near(term(*r, "dbcache_mb"), dbcache));
        QVERIFY(near(term(*r, "entry_caches_mb"), 750.0)); // Equation 2: 250,000 × 3,000 B
        QVERIFY(near(term(*r, "entry_caches_term_mb"), factor * 750.0));
        QVERIFY(near(term(*r, "import_cache_mb"), 0.0));
        QVERIFY2(near(term(*r, "total_ram_mb"), total, 1e-6), qPrintable(QString::number(term(*r, "total_ram_mb"))));
        const auto* dbRec = r->find(QStringLiteral("nsslapd-dbcachesize"));
        QVERIFY(dbRec);
        QCOMPARE(dbRec->formula.contains(QStringLiteral("Equation 1")), equation1);
        QVERIFY(dbRec->apply.contains(QStringLiteral("--dbcachesize=%1").arg(qint64(dbcache * 1e6))));
        const auto* ec = r->find(QStringLiteral("nsslapd-cachememsize"));
        QVERIFY(ec && ec->formula.contains(QStringLiteral("Equation 2")));
        QVERIFY(ec->apply.contains(QStringLiteral("--cache-memsize=750000000 userRoot")));
        const auto* tot = r->find(QStringLiteral("total RAM"));
        QVERIFY(tot);
        QVERIFY(tot->computation.endsWith(QStringLiteral("= %1 MB").arg(total)));
        QVERIFY(tot->source.contains(QStringLiteral("page 5")));
        QVERIFY(r->apply.contains(QStringLiteral("nsslapd-cachememsize: 750000000")));
        QVERIFY(r->apply.contains(QStringLiteral("nsslapd-cache-autosize: 0")));
    }

    void importCacheAndTypedEntryCache()
    {
        SizingInput in = ds389(8);
        in.dbcacheMb = 685;
        in.entryCacheMb = 750;
        in.importCacheMb = 200;
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QVERIFY(near(term(*r, "total_ram_mb"), 1.2 * (29 + 685 + 2.3 * 750 + 200)));
        QVERIFY(r->find(QStringLiteral("nsslapd-import-cachesize"))->apply.contains(QStringLiteral("200000000")));
        QVERIFY(r->apply.contains(QStringLiteral("nsslapd-import-cachesize: 200000000")));
        // the formula alone
        const auto t = Ds389Sizing::terms(8, 685, 750, 200, 2.3);
        QVERIFY(near(t.totalMb(), term(*r, "total_ram_mb")));
    }

    void threadsFromCpus()
    {
        SizingInput in;
        in.cpus = 8;
        in.dbcacheMb = 100;
        in.entryCacheMb = 100;
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QCOMPARE(term(*r, "threads"), 8.0);
        QVERIFY(near(term(*r, "base_mb"), 27 + 8 * 0.25));
        QVERIFY(r->find(QStringLiteral("nsslapd-threadnumber"))->formula.contains(QStringLiteral("CPU")));
    }

    void ldifEstimates()
    {
        SizingInput in = ds389(4);
        LdifStats s;
        s.entries = 1000;
        s.totalEntryBytes = 1000 * 1200;
        s.meanEntryBytes = 1200;
        in.applyLdif(s);
        QCOMPARE(in.entries.value_or(0), qint64(1000));
        QCOMPARE(in.originOf(QStringLiteral("entries")), QStringLiteral("ldif"));
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QVERIFY(near(term(*r, "dbcache_mb"), 1.2)); // id2entry ≈ LDIF entry bytes
        QVERIFY(near(term(*r, "entry_caches_mb"), 1000 * 1200 * 3.8 / 1e6));
        bool estimate = false;
        for (const auto& w : r->warnings)
            estimate = estimate || w.code == u"estimate";
        QVERIFY(estimate);
    }

    void missingOrBadInput_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("field");
        QTest::newRow("no dbcache source") << 0 << "dbcache-mb";
        QTest::newRow("no entries for Equation 2") << 1 << "entries";
        QTest::newRow("no bytes per entry") << 2 << "entry-cache-bytes-per-entry";
        QTest::newRow("threads 0") << 3 << "threads";
        QTest::newRow("negative dbcache") << 4 << "dbcache-mb";
        QTest::newRow("entry factor 0.5") << 5 << "entry-factor";
        QTest::newRow("openldap without size") << 6 << "db-size-mb";
        QTest::newRow("ad without size or users") << 7 << "db-size-mb";
        QTest::newRow("no threads, no cpus") << 8 << "threads";
    }

    void missingOrBadInput()
    {
        QFETCH(int, which);
        QFETCH(QString, field);
        SizingInput in = ds389(8);
        in.dbcacheMb = 100;
        in.entryCacheMb = 100;
        switch (which) {
        case 0:
            in.dbcacheMb.reset();
            break;
        case 1:
            in.entryCacheMb.reset();
            break;
        case 2:
            in.entryCacheMb.reset();
            in.entries = 1000;
            break;
        case 3:
            in.threads = 0;
            break;
        case 4:
            in.dbcacheMb = -1;
            break;
        case 5:
            in.entryFactor = 0.5;
            break;
        case 6:
            in.server = SizingServer::OpenLdap;
            break;
        case 7:
            in.server = SizingServer::ActiveDirectory;
            break;
        case 8:
            in.threads.reset();
            break;
        }
        ProbeError err;
        QVERIFY(!ServerSizing::compute(in, &err));
        QCOMPARE(err.kind, ProbeError::Kind::InvalidSpec);
        QCOMPARE(err.field, field);
        // the detail names other inputs by id: the CLI prints its options, a window its labels, never flags raw
        QVERIFY2(!err.detail.contains(QStringLiteral("--")), qPrintable(err.detail));
        const QString named
            = err.detailNaming([](const QString& f) -> QString { return QStringLiteral("<") + f + u'>'; });
        QVERIFY2(!named.contains(QStringLiteral("{{")), qPrintable(named));
    }

    // Settings as current -> proposed: an OpenLDAP map larger than needed is kept (never shrunk), and says so; a
    // 389 dbcache above the need is lowered only with the reason in its note.
    void currentValuesAreNeverShrunkSilently()
    {
        SizingInput in;
        in.server = SizingServer::OpenLdap;
        in.dbSizeMb = 1000;
        QMap<QString, double> monitor { { QStringLiteral("db_map_bytes"), 10e9 },
            { QStringLiteral("threads_open"), 16 } };
        in.applyMonitor(monitor);
        ProbeError err;
        auto r = ServerSizing::compute(in, &err);
        QVERIFY2(r, qPrintable(err.message()));
        const Recommendation* ms = r->find(QStringLiteral("olcDbMaxSize"));
        QVERIFY(ms);
        QCOMPARE(ms->current.value_or(0), 10000.0);
        QCOMPARE(ms->value, 10000.0); // kept: 1000 × 1.25 × 1.5 = 1875 MB is needed
        QCOMPARE(ms->change(), QStringLiteral("keep"));
        QVERIFY2(ms->note.contains(QStringLiteral("more than the 1875 MB needed")), qPrintable(ms->note));
        QVERIFY(!r->apply.contains(QStringLiteral("replace: olcDbMaxSize")));
        QVERIFY(!r->find(QStringLiteral("total RAM"))->isSetting);
        // a map smaller than needed is raised, current -> proposed
        in.currentMapMb = 500;
        r = ServerSizing::compute(in, &err);
        QCOMPARE(r->find(QStringLiteral("olcDbMaxSize"))->change(), QStringLiteral("raise"));
        QVERIFY(r->apply.contains(QStringLiteral("olcDbMaxSize: 1875000000")));
        // the round trip through a record keeps the current value
        const Recommendation back = Recommendation::fromJson(r->find(QStringLiteral("olcDbMaxSize"))->toJson());
        QCOMPARE(back.current.value_or(0), 500.0);

        SizingInput d = ds389(8);
        d.dbcacheMb = 685;
        d.entryCacheMb = 750;
        d.currentDbcacheMb = 2000;
        r = ServerSizing::compute(d, &err);
        QVERIFY2(r, qPrintable(err.message()));
        const Recommendation* db = r->find(QStringLiteral("nsslapd-dbcachesize"));
        QCOMPARE(db->change(), QStringLiteral("lower"));
        QVERIFY2(db->note.startsWith(QStringLiteral("below the 2000 MB the server has now")), qPrintable(db->note));
        QVERIFY(!r->find(QStringLiteral("nsslapd-cachememsize"))->current.has_value());
    }

    // 389's own autosizing, emulated (reference §3.2): 16 GiB, one back end, autosize 25, split 25 -> zone 4 GiB,
    // db 1 GiB, per back end 3 GiB -> dn 307.2 -> 320 MiB, entry 2,764.8 -> 2,816 MiB.
    void autotune_data()
    {
        QTest::addColumn<double>("ramGiB");
        QTest::addColumn<int>("backends");
        QTest::addColumn<double>("dbMiB"); // as written (after / 1.25 below 500 MiB)
        QTest::addColumn<double>("entryMiB");
        QTest::addColumn<double>("dnMiB");
        QTest::newRow("16 GiB (reference)") << 16.0 << 1 << 1024.0 << 2816.0 << 320.0;
        QTest::newRow("2 GiB: db below 500 MiB is divided") << 2.0 << 1 << 102.4 << 384.0 << 64.0;
        QTest::newRow("64 GiB: db capped at 1.5 GiB") << 64.0 << 1 << 1536.0 << 13376.0 << 1536.0;
        QTest::newRow("16 GiB, 2 back ends") << 16.0 << 2 << 1024.0 << 1408.0 << 192.0;
    }

    void autotune()
    {
        QFETCH(double, ramGiB);
        QFETCH(int, backends);
        QFETCH(double, dbMiB);
        QFETCH(double, entryMiB);
        QFETCH(double, dnMiB);
        Ds389AutotuneInput in;
        in.ramTotalBytes = ramGiB * 1024 * kMiB;
        in.backends = backends;
        const auto a = Ds389Autotune::compute(in);
        QVERIFY2(std::abs(a.dbcacheBytesWritten / kMiB - dbMiB) < 0.001,
            qPrintable(QString::number(a.dbcacheBytesWritten / kMiB)));
        QCOMPARE(a.entryCacheBytes.size(), backends);
        QCOMPARE(a.entryCacheBytes.first() / kMiB, entryMiB);
        QCOMPARE(a.dnCacheBytes.first() / kMiB, dnMiB);
        QVERIFY(!a.reduced);
    }

    void autotuneReducedAndBySize()
    {
        Ds389AutotuneInput in;
        in.ramTotalBytes = 16 * 1024 * kMiB;
        in.ramAvailableBytes = 2 * 1024 * kMiB; // less than the 4 GiB zone: half the available
        auto a = Ds389Autotune::compute(in);
        QVERIFY(a.reduced);
        QCOMPARE(a.zoneBytes, 1024 * kMiB);
        // PR #6808: weighted by back-end size, the db share is not taken off
        Ds389AutotuneInput w;
        w.ramTotalBytes = 16 * 1024 * kMiB;
        w.backends = 2;
        w.rule = Ds389AutotuneInput::Rule::BySize;
        w.backendPages = { 3, 1 };
        a = Ds389Autotune::compute(w);
        QCOMPARE(a.entryCacheBytes.at(0), Ds389Autotune::roundUp64MiB(std::floor((4096 - 64) * kMiB * 0.75 * 0.9)));
        QVERIFY(a.entryCacheBytes.at(0) > 2.5 * a.entryCacheBytes.at(1));
    }

    void autotuneThreads_data()
    {
        QTest::addColumn<int>("cpus");
        QTest::addColumn<int>("rhds12");
        QTest::addColumn<int>("rhds11");
        QTest::addColumn<bool>("exactRow");
        QTest::newRow("4") << 4 << 16 << 24 << true;
        QTest::newRow("8") << 8 << 16 << 32 << true;
        QTest::newRow("16") << 16 << 16 << 48 << true;
        QTest::newRow("17") << 17 << 17 << 49 << false;
        QTest::newRow("32") << 32 << 32 << 64 << true;
        QTest::newRow("64") << 64 << 64 << 96 << true;
        QTest::newRow("128") << 128 << 128 << 192 << true;
        QTest::newRow("256") << 256 << 256 << 384 << true;
        QTest::newRow("600") << 600 << 512 << 384 << false;
    }

    void autotuneThreads()
    {
        QFETCH(int, cpus);
        QFETCH(int, rhds12);
        QFETCH(int, rhds11);
        QFETCH(bool, exactRow);
        QCOMPARE(Ds389Autotune::threadsRhds12(cpus), rhds12);
        bool exact = false;
        QCOMPARE(Ds389Autotune::threadsRhds11(cpus, &exact), rhds11);
        QCOMPARE(exact, exactRow);
    }

    void autotuneVersusNeed()
    {
        SizingInput in = ds389(8);
        in.cpus = 8;
        in.dbcacheMb = 685;
        in.entries = 2000000;
        in.entryCacheBytesPerEntry = 3000; // 6,000 MB needed
        in.ramMb = 16 * 1024 * kMiB / 1e6;
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        const QJsonObject a = r->extra.value(QStringLiteral("autotune")).toObject();
        QVERIFY(near(a.value(QStringLiteral("entry_cache_total_mib")).toDouble(), 2816));
        const QJsonObject vs = a.value(QStringLiteral("vs_need")).toObject();
        const double coverage = 2816 * kMiB / 1e6 / 6000;
        QVERIFY(near(vs.value(QStringLiteral("coverage")).toDouble(), coverage, 1e-9));
        QVERIFY(vs.value(QStringLiteral("guide_relative_throughput")).toDouble() < 0.8);
        QCOMPARE(a.value(QStringLiteral("threads_rhds12")).toInt(), 16);
        QCOMPARE(a.value(QStringLiteral("threads_rhds11")).toInt(), 32);
        bool short_ = false;
        for (const auto& w : r->warnings)
            short_ = short_ || w.code == u"autotune-short";
        QVERIFY(short_);
    }
};

QTEST_GUILESS_MAIN(TstSizing)
#include "tst_sizing.moc"
