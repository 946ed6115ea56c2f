// The typed record values of the probe, sizing and cloud records: read from the JSON their engines write, the
// sentences the CLI printer, the window and the report share (no server).
#include "core/common/runrecord.h"
#include "core/disk/diskrecordfacts.h"
#include "core/experiments/diskunderloadsummary.h"
#include "core/ldap/probesummary.h"
#include "core/sizing/serversizing.h"
#include "core/sizing/sizingsummary.h"

#include <QJsonArray>
#include <QTest>

#include <cstdio>

class TstRecordSummaries : public QObject
{
    Q_OBJECT
private slots:
    void probeReadsEveryPart();
    void probeWithoutServerOrTls();
    void serverShortName();
    void sizingAutotuneSentence();
    void sizingRecordParts();
    void diskUnderLoadParts();
    void diskFacts();
};

namespace {

RunRecord probeRecord()
{
    RunRecord r;
    r.kind = QStringLiteral("ldap-probe");
    r.server = QJsonObject { { "vendor", "OpenLDAP" }, { "version", "OpenLDAP: slapd 2.5.13 (Jan 1 2023)" },
        { "kind", "openldap" }, { "evidence", QJsonArray { "monitor: slapd 2.5.13" } } };
    r.summary.insert("timings_ms",
        QJsonObject { { "tcp_connect", 0.25 }, { "tls_handshake", 3.5 }, { "bind", 0.5 }, { "root_dse", 1.0 },
            { "search", QJsonValue::Null } });
    r.summary.insert("tls",
        QJsonObject { { "protocol", "TLSv1.3" }, { "cipher", "TLS_AES_256_GCM_SHA384" }, { "subject", "ldap.test" },
            { "issuer", "Test CA" }, { "key_type", "RSA" }, { "key_bits", 2048 }, { "not_after", "2027-01-01" },
            { "days_left", 25.0 }, { "sans", QJsonArray { "DNS:ldap.test" } }, { "verified", false } });
    r.summary.insert("root_dse",
        QJsonObject { { "namingContexts", QJsonArray { "dc=example,dc=com" } }, { "vendorName", "OpenLDAP" } });
    r.extra.insert("failure_cause", QJsonObject { { "cause", "bind" }, { "detail", "check {bind-dn}" } });
    return r;
}

} // namespace

void TstRecordSummaries::probeReadsEveryPart()
{
    const ProbeSummary p = ProbeSummary::of(probeRecord());
    QVERIFY(p.server.identified);
    QCOMPARE(p.server.id.kind, QStringLiteral("openldap"));
    QCOMPARE(p.server.id.evidence, QStringList { QStringLiteral("monitor: slapd 2.5.13") });
    QCOMPARE(p.timings.tcpConnect, std::optional<double>(0.25));
    QCOMPARE(p.timings.rootDse, std::optional<double>(1.0));
    QVERIFY(!p.timings.search);
    QVERIFY(p.tls);
    QCOMPARE(p.tls->keyBits, 2048);
    QCOMPARE(p.tls->daysLeft, std::optional<double>(25.0));
    QCOMPARE(p.tls->sans, QStringList { QStringLiteral("DNS:ldap.test") });
    QVERIFY(!p.tls->verified);
    QCOMPARE(p.rootDseValues(QStringLiteral("namingContexts")), QStringList { QStringLiteral("dc=example,dc=com") });
    QCOMPARE(p.rootDseString(QStringLiteral("vendorName")), std::optional<QString>(QStringLiteral("OpenLDAP")));
    QVERIFY(!p.rootDseString(QStringLiteral("monitorContext")));
    QVERIFY(p.hasFailureCause);
    QCOMPARE(p.failureDetail, QStringLiteral("check {bind-dn}"));
}

void TstRecordSummaries::probeWithoutServerOrTls()
{
    RunRecord r;
    r.kind = QStringLiteral("ldap-probe");
    r.status = QStringLiteral("failed");
    const ProbeSummary p = ProbeSummary::of(r);
    QVERIFY(!p.server.identified);
    QVERIFY(p.server.id.kind.isEmpty());
    QVERIFY(!p.tls);
    QVERIFY(!p.hasRootDse());
    QVERIFY(!p.hasFailureCause);
    QVERIFY(!p.timings.tcpConnect);
}

void TstRecordSummaries::serverShortName()
{
    QCOMPARE(RecordServer::of(probeRecord()).shortName(), QStringLiteral("OpenLDAP: slapd 2.5.13"));
    RunRecord r;
    r.server = QJsonObject { { "vendor", QJsonValue::Null }, { "version", QJsonValue::Null }, { "kind", "other" } };
    QCOMPARE(RecordServer::of(r).shortName(), QStringLiteral("other"));
    r.server = QJsonObject { { "vendor", "389 Project" }, { "version", "389-Directory/2.4.5" }, { "kind", "389ds" } };
    QCOMPARE(RecordServer::of(r).shortName(), QStringLiteral("389 Project 389-Directory/2.4.5"));
}

void TstRecordSummaries::sizingAutotuneSentence()
{
    SizingResult r;
    QVERIFY(!SizingAutotune::of(r));
    r.extra.insert("autotune",
        QJsonObject { { "ram_mb", 8000.0 }, { "ram_origin", "typed" }, { "dbcache_mb", 1536.25 },
            { "entry_cache_total_mb", 512.5 }, { "threads_rhds12", 8 }, { "threads_rhds11", 16 },
            { "threads_guide", 4 },
            { "vs_need",
                QJsonObject {
                    { "needed_mb", 1200.0 }, { "coverage", 0.42708 }, { "guide_relative_throughput", 0.61 } } } });
    const auto a = SizingAutotune::of(r);
    QVERIFY(a);
    // The sentence the CLI printed with printf before it was shared.
    char expected[1024];
    std::snprintf(expected, sizeof expected,
        "389 autotune on %s MB RAM (%s): dbcache %s MB, entry cache %s MB, threads %d (RHDS 12+) / %d "
        "(RHDS 11) vs %d (guide)\n  need %s MB of entry cache: autotune covers %s %% -> %s %% of the fully "
        "cached rate on the guide's test bed (uniform access)\n",
        qPrintable(SizingText::num(8000, 0)), "typed", qPrintable(SizingText::num(1536.25, 1)),
        qPrintable(SizingText::num(512.5, 1)), 8, 16, 4, qPrintable(SizingText::num(1200, 1)),
        qPrintable(SizingText::num(0.42708 * 100, 1)), qPrintable(SizingText::num(0.61 * 100, 1)));
    QCOMPARE(a->text(), QString::fromUtf8(expected));
}

void TstRecordSummaries::sizingRecordParts()
{
    SizingInput in;
    SizingResult r;
    r.server = QStringLiteral("389ds");
    r.terms = QJsonObject { { "total_ram_mb", 2926.8 }, { "base_mb", 29.0 } };
    r.extra.insert("autotune", QJsonObject { { "ram_mb", 8000.0 } });
    r.extra.insert("current", QJsonObject { { "threads", 16 } });
    r.apply = QStringLiteral("dsconf …\n");
    r.applyFormat = QStringLiteral("dsconf+ldif");
    Recommendation total;
    total.name = QStringLiteral("total RAM");
    total.value = 2926.8;
    total.unit = QStringLiteral("MB");
    total.isSetting = false;
    r.recommendations << total;
    const SizingSummary s = SizingSummary::of(ServerSizing::buildRecord(in, r));
    QCOMPARE(s.result.server, QStringLiteral("389ds"));
    QCOMPARE(s.result.recommendations.size(), 1);
    QCOMPARE(s.result.apply, r.apply);
    QVERIFY(s.applyNote.startsWith(QStringLiteral("DirBench shows this change")));
    QCOMPARE(s.autotuneBlock(), r.extra.value("autotune").toObject());
    QJsonObject terms = r.terms;
    terms.insert("current", r.extra.value("current"));
    QCOMPARE(s.termsShown(), terms);
    QCOMPARE(SizingSummary::totalRamMb(s.result), std::optional<double>(2926.8));
    QCOMPARE(SizingSummary::serverOfSpec(in.toJson()), std::optional<SizingServer>(in.server));
    QVERIFY(s.ldif.isEmpty());
}

void TstRecordSummaries::diskUnderLoadParts()
{
    RunRecord r;
    r.kind = QStringLiteral("disk-under-load");
    r.summary = QJsonObject { { "disk_idle", QJsonValue::Null },
        { "disk_loaded", QJsonObject { { "test", "seq-write" }, { "mb_per_s", 297.0 } } },
        { "ldap", QJsonObject { { "ok_per_s", 1000.0 } } } };
    DiskUnderLoadSummary s = DiskUnderLoadSummary::of(r);
    QVERIFY(!s.idle);
    QVERIFY(s.hasLoaded);
    QCOMPARE(s.loaded.mbPerS, std::optional<double>(297.0));
    QVERIFY(!s.hasChange);
    QCOMPARE(DiskUnderLoadSummary::ldapRecordOf(r).summary, r.summary.value("ldap").toObject());
    r.summary.insert("disk_idle", QJsonObject { { "test", "seq-write" }, { "mb_per_s", 304.0 } });
    r.summary.insert("change", QJsonObject { { "mb_per_s_pct", -2.3 }, { "iops_pct", QJsonValue::Null } });
    s = DiskUnderLoadSummary::of(r);
    QCOMPARE(s.idle->mbPerS, std::optional<double>(304.0));
    QVERIFY(s.hasChange);
    QCOMPARE(s.mbPerSPct, std::optional<double>(-2.3));
    QVERIFY(!s.iopsPct);
    QVERIFY(!s.p99Pct);
}

void TstRecordSummaries::diskFacts()
{
    RunRecord r;
    r.kind = QStringLiteral("disk");
    r.spec = QJsonObject { { "profile", "seq-write" }, { "size_bytes", 1073741824.0 } };
    r.environment = QJsonObject { { "filesystem", QJsonObject { { "type", "ext4" }, { "free_bytes", 5e9 } } } };
    r.engine = QJsonObject { { "io", "io_uring" }, { "direct", true } };
    DiskRecordFacts f = DiskRecordFacts::of(r);
    QCOMPARE(f.profile, QStringLiteral("seq-write"));
    QCOMPARE(f.sizeBytes, std::optional<double>(1073741824.0));
    QCOMPARE(f.fsType, QStringLiteral("ext4"));
    QCOMPARE(f.fsFreeBytes, std::optional<double>(5e9));
    QVERIFY(f.hasEngine);
    QCOMPARE(f.engineText(), QStringLiteral("io_uring, direct I/O"));
    r.kind = QStringLiteral("disk-under-load");
    r.spec = QJsonObject { { "disk", QJsonObject { { "profile", "rand-read" } } } };
    r.engine = QJsonValue::Null;
    f = DiskRecordFacts::of(r);
    QCOMPARE(f.profile, QStringLiteral("rand-read"));
    QVERIFY(!f.hasEngine);
}

QTEST_GUILESS_MAIN(TstRecordSummaries)
#include "tst_recordsummaries.moc"
