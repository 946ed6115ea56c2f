// What the servers say about replication, decoded (core/experiments/replicationcsn.h) and set against the markers
// (ReplicationVendor::markerStateLagMs): CSNs of both vendors, RUV and agreement values as 389-ds writes them, the
// URI an agreement points at, and the markers' state difference the vendor's lag is compared with.
#include "core/experiments/replicationcsn.h"
#include "core/experiments/replicationvendor.h"

#include <QDateTime>
#include <QTest>
#include <QTimeZone>

class TstReplicationCsn : public QObject
{
    Q_OBJECT
private slots:
    void openLdapCsn();
    void ds389Csn();
    void ruvAndAgreementValues();
    void agreementUris();
    void markerStateLag();
    void markerLagRange();
    void disagreement();
};

void TstReplicationCsn::openLdapCsn()
{
    using namespace ReplicationCsn;
    const qint64 t = openLdapTimeUs("20261201155419.066839Z#000000#000#000000");
    QCOMPARE(t, QDateTime(QDate(2026, 12, 1), QTime(15, 54, 19), QTimeZone::utc()).toMSecsSinceEpoch() * 1000 + 66839);
    QCOMPARE(openLdapTimeUs("20261201155419.066840Z#000000#001#000000") - t, 1); // 1 us resolution
    QCOMPARE(openLdapSid("20261201155419.066839Z#000000#00a#000000"), QStringLiteral("00a"));
    QCOMPARE(openLdapTimeUs("20261201155419Z"), -1);
    QCOMPARE(openLdapTimeUs("20261399155419.066839Z#000000#000#000000"), -1); // month 13
    QVERIFY(openLdapSid("garbage").isEmpty());
}

void TstReplicationCsn::ds389Csn()
{
    using namespace ReplicationCsn;
    QCOMPARE(ds389TimeUs("5f5e1000000100010000"), qint64(0x5f5e1000) * 1000000);
    QCOMPARE(ds389TimeUs("5f5e1001000000010000") - ds389TimeUs("5f5e1000ffff00010000"), 1000000); // 1 s resolution
    QCOMPARE(ds389TimeUs("5f5e100000010001"), -1); // too short
    QCOMPARE(ds389TimeUs("unavailable"), -1);
}

void TstReplicationCsn::ruvAndAgreementValues()
{
    using namespace ReplicationCsn;
    const QList<RuvElement> ruv = parseRuv({ "{replicageneration} 6746a4b2000000010000",
        "{replica 1 ldap://127.0.0.1:4389} 6746a4b3000000010000 6746a4c1000500010000", "{replica 65535 ldap://x:1}" });
    QCOMPARE(ruv.size(), 2);
    QCOMPARE(ruv[0].rid, QStringLiteral("1"));
    QCOMPARE(ruv[0].url, QStringLiteral("ldap://127.0.0.1:4389"));
    QCOMPARE(ruv[0].maxCsn, QStringLiteral("6746a4c1000500010000"));
    QVERIFY(ruv[1].maxCsn.isEmpty());
    const QList<AgmtMaxCsn> m
        = parseAgmtMaxCsn({ "dc=example,dc=com;to-consumer;127.0.0.1;4390;65535;6746a4c1000500010000", "short;value" });
    QCOMPARE(m.size(), 1);
    QCOMPARE(m[0].suffix, QStringLiteral("dc=example,dc=com"));
    QCOMPARE(m[0].agreement, QStringLiteral("to-consumer"));
    QCOMPARE(m[0].port, 4390);
    QCOMPARE(m[0].rid, QStringLiteral("65535"));
    QCOMPARE(m[0].maxCsn, QStringLiteral("6746a4c1000500010000"));
    qint64 total = -1;
    const QJsonObject sent = parseChangesSent("1:25/3 2:4/0 ", &total);
    QCOMPARE(total, 29);
    QCOMPARE(sent.value("1").toObject().value("skipped").toInt(), 3);
    QCOMPARE(parseStatusJson(R"({"state": "green", "message": "Error (0) Replica acquired successfully"})")
                 .value("state")
                 .toString(),
        QStringLiteral("green"));
    QVERIFY(parseStatusJson("Error (0) not json").isEmpty());
}

void TstReplicationCsn::agreementUris()
{
    using namespace ReplicationCsn;
    bool startTls = true;
    QCOMPARE(agreementUri("127.0.0.1", 4390, "LDAP", &startTls), QStringLiteral("ldap://127.0.0.1:4390"));
    QVERIFY(!startTls);
    QCOMPARE(agreementUri("ds2", 636, "SSL", &startTls), QStringLiteral("ldaps://ds2:636"));
    QCOMPARE(agreementUri("::1", 389, "TLS", &startTls), QStringLiteral("ldap://[::1]:389"));
    QVERIFY(startTls);
    QCOMPARE(normalisedUri("LDAP://localhost:4390/"), normalisedUri("ldap://127.0.0.1:4390"));
    QCOMPARE(normalisedUri("ldap://127.0.0.1"), QStringLiteral("ldap://127.0.0.1:389"));
    QVERIFY(normalisedUri("ldap://127.0.0.1:4390") != normalisedUri("ldap://127.0.0.1:4391"));
}

void TstReplicationCsn::markerStateLag()
{
    using ReplicationVendor::markersShown;
    using ReplicationVendor::markerStateLagMs;
    const qint64 ms = 1000000;
    // Markers acknowledged at 100, 200, ..., 1000 ms (marker 4 failed); the watcher showed 1-3 by 350 ms, then
    // stopped.
    std::vector<qint64> acks { 100 * ms, 200 * ms, 300 * ms, -1, 500 * ms, 600 * ms, 700 * ms, 800 * ms, 900 * ms,
        1000 * ms };
    const std::vector<qint64> seen { 110 * ms, 210 * ms, 350 * ms };
    QCOMPARE(markersShown(seen, 1000 * ms), size_t(3));
    QCOMPARE(markersShown(seen, 350 * ms), size_t(3)); // shown at that very time
    QCOMPARE(markersShown(seen, 250 * ms), size_t(2));
    QCOMPARE(markersShown(seen, 100 * ms), size_t(0));
    QCOMPARE(*markerStateLagMs(acks, 3, 1000 * ms), 700.0); // 1000 - 300
    QCOMPARE(*markerStateLagMs(acks, 3, 650 * ms), 300.0); // the supplier read earlier: 600 - 300
    QCOMPARE(*markerStateLagMs(acks, 2, 1000 * ms), 800.0); // the consumer held 2
    QCOMPARE(*markerStateLagMs(acks, 3, 300 * ms), 0.0); // caught up with the supplier's reading
    QCOMPARE(*markerStateLagMs(acks, 7, 500 * ms), 0.0); // ahead of the supplier's (older) reading
    QVERIFY(!markerStateLagMs(acks, 3, 50 * ms)); // the supplier had acknowledged nothing
    QVERIFY(!markerStateLagMs(acks, 0, 1000 * ms)); // the consumer held none
    QCOMPARE(*markerStateLagMs(acks, 4, 1000 * ms), 700.0); // 4 failed: 3's ack stands in
    acks[3] = 400 * ms;
    QCOMPARE(*markerStateLagMs(acks, 4, 1000 * ms), 600.0);
}

// The range the markers allow, whatever the delays: marker k sent at 100k ms and acknowledged 30 ms later, except
// marker 5, whose ack took 250 ms (a loaded writer); marker 4 failed.
void TstReplicationCsn::markerLagRange()
{
    using namespace ReplicationVendor;
    const qint64 ms = 1000000;
    std::vector<qint64> sends, acks;
    for (qint64 k = 1; k <= 10; ++k) {
        sends.push_back(100 * k * ms);
        acks.push_back((100 * k + (k == 5 ? 250 : 30)) * ms);
    }
    acks[3] = -1;
    const Writes w { acks, sends };
    // The supplier read at 640 ms: 1-3 and 6 acknowledged by then (5's ack came at 750), 1-6 sent.
    auto r = markerLagRangeMs(w, 2, 3, 640 * ms);
    QVERIFY(r);
    QCOMPARE(r->low, 600.0 - 330.0); // marker 6 sent at 600, marker 3 acknowledged at 330
    QCOMPARE(*r->high, 630.0 - 200.0); // marker 6 acknowledged at 630 (by the reading), marker 2 sent at 200
    // Held none before the CSNs: no upper bound.
    r = markerLagRangeMs(w, 0, 3, 640 * ms);
    QVERIFY(r && !r->high);
    // Caught up: the consumer held 6 before and after.
    r = markerLagRangeMs(w, 6, 6, 640 * ms);
    QCOMPARE(r->low, 0.0);
    QCOMPARE(*r->high, 0.0);
    // Marker 7 sent at 700 and not yet acknowledged at a reading at 710: the supplier may hold it (by the reading).
    acks[6] = 0;
    r = markerLagRangeMs(w, 6, 6, 710 * ms);
    QCOMPARE(r->low, 0.0);
    QCOMPARE(*r->high, 710.0 - 600.0);
    // The consumer held a failed marker's number (4): the newest acknowledged below it (3) stands in for the low end.
    r = markerLagRangeMs(w, 4, 4, 640 * ms);
    QCOMPARE(r->low, 600.0 - 330.0);
    QVERIFY(!markerLagRangeMs(w, 2, 3, 50 * ms)); // the supplier had acknowledged nothing
    QVERIFY(!markerLagRangeMs(w, 0, 0, 640 * ms)); // the consumer held nothing
}

void TstReplicationCsn::disagreement()
{
    using namespace ReplicationVendor;
    QCOMPARE(toleranceMs(1000, 10, 5), 1255.0); // 389-ds: 1 s + 2 x 100 ms + 5 ms + 50 ms
    QCOMPARE(toleranceMs(0.001, 20, 5), 155.001); // OpenLDAP: 1 us + 2 x 50 ms + 5 ms + 50 ms
    const double t = toleranceMs(1000, 10, 5);
    const LagRange frozen { 2100, 2100 }, sameSecond { 0, 0 }, behind { 1000, 1000 }, ahead { 1300, 1300 };
    QVERIFY(!disagrees(3000, frozen, t)); // a frozen 389 consumer, RUV against markers
    QVERIFY(!disagrees(1000, sameSecond, t)); // the same CSN second or not
    QVERIFY(disagrees(3000, behind, t)); // a stale RUV: 2 s apart
    QVERIFY(disagrees(0, ahead, t));
    QVERIFY(!disagrees(std::nullopt, frozen, t)); // a figure unknown is no disagreement
    QVERIFY(!disagrees(5000, std::nullopt, t));
    const double o = toleranceMs(0.001, 20, 5); // OpenLDAP: 155 ms
    const LagRange wide { 978, 1480 };
    QVERIFY(!disagrees(1450, wide, o)); // inside
    QVERIFY(!disagrees(1600, wide, o)); // above, within the tolerance
    QVERIFY(disagrees(1700, wide, o));
    QVERIFY(disagrees(800, wide, o)); // below
    QVERIFY(!disagrees(99999, LagRange { 978, std::nullopt }, o)); // no upper bound
}

QTEST_GUILESS_MAIN(TstReplicationCsn)
#include "tst_replicationcsn.moc"
