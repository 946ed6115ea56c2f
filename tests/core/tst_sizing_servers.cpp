// The other calculators (OpenLDAP, eDirectory, AD), the live-server hook and the "sizing" record.
#include "core/sizing/serversizing.h"
#include "tests/common/sizinghelpers.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

using namespace SizingHelpers;

class TstSizingServers : public QObject
{
    Q_OBJECT
private slots:
    // OpenLDAP (§3.4): 6 GB data.mdb, 16 threads -> maxsize 11.25 GB, RAM 6,000 + 16 × 8 MiB + 2,000 ≈ 8.1 GB.
    void openldap()
    {
        SizingInput in;
        in.server = SizingServer::OpenLdap;
        in.dbSizeMb = 6000;
        in.ldifIndexCandidates
            = { { QStringLiteral("uid"), QStringLiteral("eq") }, { QStringLiteral("cn"), QStringLiteral("eq,sub") } };
        ProbeError err;
        const auto r = ServerSizing::compute(in, &err);
        QVERIFY2(r, qPrintable(err.message()));
        QVERIFY(near(term(*r, "maxsize_mb"), 11250));
        QVERIFY(near(term(*r, "total_ram_mb"), 6000 + 16 * 8 * kMiB / 1e6 + 2000));
        QVERIFY(std::abs(term(*r, "total_ram_mb") / 1000 - 8.1) < 0.05);
        QVERIFY(r->apply.contains(QStringLiteral("olcDbMaxSize: 11250000000")));
        QVERIFY(r->apply.contains(QStringLiteral("olcThreads: 16")));
        QVERIFY(r->apply.contains(QStringLiteral("olcDbIndex: cn eq,sub")));
        QCOMPARE(r->find(QStringLiteral("olcThreads"))->inputs.first().origin, QStringLiteral("default"));
    }

    // eDirectory (§3.5): DIB 4 GB -> block 4 GB + entry 2 GB; with the default 50/50 split, 8 GB.
    void edirectory_data()
    {
        QTest::addColumn<double>("dib");
        QTest::addColumn<double>("block");
        QTest::addColumn<double>("entry");
        QTest::addColumn<double>("cache");
        QTest::newRow("4 GB") << 4000.0 << 4000.0 << 2000.0 << 8000.0;
        QTest::newRow("200 MB: all in both caches") << 200.0 << 200.0 << 200.0 << 400.0;
    }

    void edirectory()
    {
        QFETCH(double, dib);
        QFETCH(double, block);
        QFETCH(double, entry);
        QFETCH(double, cache);
        SizingInput in;
        in.server = SizingServer::EDirectory;
        in.dbSizeMb = dib;
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QVERIFY(near(term(*r, "block_cache_mb"), block));
        QVERIFY(near(term(*r, "entry_cache_mb"), entry));
        QVERIFY(near(term(*r, "cache_mb"), cache));
        QCOMPARE(r->apply, QStringLiteral("cache=%1\n").arg(qint64(cache * 1e6))); // ends with a newline
        QVERIFY(r->terms.value(QStringLiteral("total_ram_mb")).isNull());
    }

    // Active Directory (§3.6): 50,000 users -> NTDS 20 GB -> RAM 4 + 20 + 0.5 = 24.5 GB, 50 cores.
    void activeDirectory()
    {
        SizingInput in;
        in.server = SizingServer::ActiveDirectory;
        in.users = 50000;
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QVERIFY(near(term(*r, "ntds_mb"), 20000));
        QVERIFY(near(term(*r, "total_ram_mb"), 24500));
        QVERIFY(near(term(*r, "cores"), 50));
        QCOMPARE(r->applyFormat, QStringLiteral("none"));
    }

    void monitorHook()
    {
        SizingInput in = ds389(8);
        in.dbcacheMb = 685;
        in.origin.insert(QStringLiteral("dbcache_mb"), QStringLiteral("typed"));
        const QMap<QString, double> monitor { { QStringLiteral("entry_cache_size"), 1.5e9 },
            { QStringLiteral("entry_cache_count"), 500000 }, { QStringLiteral("entry_cache_max_size"), 2e9 },
            { QStringLiteral("entries"), 250000 }, { QStringLiteral("threads_open"), 24 },
            { QStringLiteral("search_completed"), 123 } };
        const QStringList used = in.applyMonitor(monitor);
        QVERIFY(used.contains(QStringLiteral("entry_cache_size")));
        QVERIFY(!used.contains(QStringLiteral("search_completed")));
        QCOMPARE(in.entryCacheBytesPerEntry.value_or(0), 3000.0);
        QCOMPARE(in.originOf(QStringLiteral("entry_cache_bytes_per_entry")), QStringLiteral("monitor"));
        QCOMPARE(in.entries.value_or(0), qint64(250000));
        QCOMPARE(in.currentThreads.value_or(0), 24);
        QVERIFY(!in.dbSizeMb); // absent key: untouched, not 0
        const auto r = ServerSizing::compute(in, nullptr);
        QVERIFY(r);
        QVERIFY(near(term(*r, "entry_caches_mb"), 750));
        QVERIFY(near(term(*r, "total_ram_mb"), 2926.8));
        const QJsonObject cur = r->extra.value(QStringLiteral("current")).toObject();
        QVERIFY(near(cur.value(QStringLiteral("coverage")).toDouble(), 1.0)); // 2,000 MB >= 750 MB
        // typed values win over the monitor
        SizingInput typed = ds389(8);
        typed.entries = 1000;
        typed.origin.insert(QStringLiteral("entries"), QStringLiteral("typed"));
        typed.applyMonitor(monitor);
        QCOMPARE(typed.entries.value_or(0), qint64(1000));
    }

    void everyNumberHasItsReasoning()
    {
        QList<SizingInput> inputs;
        SizingInput a = ds389(8);
        a.dbcacheMb = 685;
        a.entries = 250000;
        a.entryCacheBytesPerEntry = 3000;
        a.ramMb = 8000;
        a.cpus = 8;
        inputs << a;
        SizingInput b;
        b.server = SizingServer::OpenLdap;
        b.dbSizeMb = 500;
        inputs << b;
        SizingInput c;
        c.server = SizingServer::EDirectory;
        c.dbSizeMb = 500;
        inputs << c;
        SizingInput d;
        d.server = SizingServer::ActiveDirectory;
        d.dbSizeMb = 5000;
        d.users = 3000;
        inputs << d;
        for (const auto& in : inputs) {
            const auto r = ServerSizing::compute(in, nullptr);
            QVERIFY(r);
            QVERIFY(!r->recommendations.isEmpty());
            for (const auto& rec : r->recommendations) {
                QVERIFY2(!rec.formula.isEmpty() && !rec.computation.isEmpty() && !rec.source.isEmpty()
                        && !rec.inputs.isEmpty() && std::isfinite(rec.value),
                    qPrintable(r->server + u' ' + rec.name));
            }
            QVERIFY(r->apply.endsWith(u'\n'));
            const RunRecord rec = ServerSizing::buildRecord(in, *r);
            QCOMPARE(rec.kind, QStringLiteral("sizing"));
            QString why;
            const auto back = RunRecord::fromJsonBytes(rec.toJsonBytes(), &why);
            QVERIFY2(back, qPrintable(why));
            const QJsonObject s = back->summary;
            QCOMPARE(s.value(QStringLiteral("server")).toString(), r->server);
            QVERIFY(s.contains(QStringLiteral("total_ram_mb")));
            const QJsonArray recs = s.value(QStringLiteral("recommendations")).toArray();
            QCOMPARE(recs.size(), r->recommendations.size());
            for (const auto& v : recs)
                for (const char* k : { "name", "value", "unit", "formula", "inputs", "source", "apply" })
                    QVERIFY2(v.toObject().contains(QLatin1String(k)), k);
            QCOMPARE(s.value(QStringLiteral("apply")).toObject().value(QStringLiteral("applied")).toBool(true), false);
            // and the result read back from the saved record is the one computed (what the Sizing page shows)
            const auto shown = ServerSizing::resultOf(*back, &why);
            QVERIFY2(shown, qPrintable(why));
            QCOMPARE(shown->server, r->server);
            QCOMPARE(shown->terms, r->terms);
            QCOMPARE(shown->recommendations, r->recommendations);
            QCOMPARE(shown->warnings, r->warnings);
            QCOMPARE(shown->apply, r->apply);
            QCOMPARE(shown->applyFormat, r->applyFormat);
            QCOMPARE(shown->extra, r->extra);
            RunRecord other = *back;
            other.kind = QStringLiteral("curve");
            QVERIFY(!ServerSizing::resultOf(other, &why));
            QVERIFY2(why.contains(QStringLiteral("\"curve\"")), qPrintable(why));
        }
    }
};

QTEST_GUILESS_MAIN(TstSizingServers)
#include "tst_sizing_servers.moc"
