// The LDAP probe and load generator against a real slapd (the sandbox), with real faults: a wrong password, an
// untrusted certificate, the server killed, the server killed and restarted.
#include "core/ldap/loadgenerator.h"
#include "core/ldap/probe.h"
#include "core/run/runcontext.h"
#include "ldapfixture.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QTest>

#include <thread>

using namespace LdapFixture;

class TstLdapLoad : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void probeRecognisesOpenLdap();
    void searchLoadMatchesServerCounters();
    void wrongPasswordIsResultCode49();
    void badTemplatesAreRefusedBeforeConnecting_data();
    void badTemplatesAreRefusedBeforeConnecting();
    void ldapsNeedsTrust();
    void rateAndRampHitTheirTargets();
    void writeLoadsCleanUp();
    void bindLoads();
    void cancelStopsWithinOneSecond();
    void serverKilledFailsWithinTheWindow();
    void serverRestartedWithinTheWindowReconnects();

private:
    LdapLoadSpec searchSpec(double seconds) const;
    SandboxGuard m_sbx;
};

void TstLdapLoad::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the LDAP integration tests need a real server");
    QString why;
    m_sbx = start(2000, true, &why);
    QVERIFY2(m_sbx, qPrintable(why));
}

void TstLdapLoad::cleanupTestCase()
{
    m_sbx.reset();
}

LdapLoadSpec TstLdapLoad::searchSpec(double seconds) const
{
    LdapLoadSpec s;
    s.target = admin(m_sbx.info());
    s.base = m_sbx->peopleBase;
    s.filter = QStringLiteral("uid=user[0-1999]");
    s.attrs = { QStringLiteral("1.1") };
    s.durationSec = seconds;
    s.intervalSec = 0.5;
    return s;
}

void TstLdapLoad::probeRecognisesOpenLdap()
{
    ProbeSpec p;
    p.target = admin(m_sbx.info());
    RunContext ctx;
    const RunRecord r = Ldap::probe(p, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("ldap-probe"));
    const QJsonObject srv = r.server.toObject();
    QCOMPARE(srv.value(QStringLiteral("kind")).toString(), QStringLiteral("openldap"));
    QVERIFY(srv.value(QStringLiteral("version")).toString().contains(QStringLiteral("slapd 2.")));
    const QString evidence = srv.value(QStringLiteral("evidence")).toVariant().toStringList().join(u'|');
    QVERIFY(evidence.contains(QStringLiteral("OpenLDAProotDSE")));
    QVERIFY(evidence.contains(QStringLiteral("cn=Monitor")));
    const QJsonObject t = r.toJson().value(QStringLiteral("timings_ms")).toObject();
    for (const char* k : { "tcp_connect", "bind", "root_dse", "search" })
        QVERIFY2(t.value(QLatin1String(k)).toDouble(-1) >= 0, k);
    QVERIFY(r.summary.value(QStringLiteral("root_dse"))
                .toObject()
                .value(QStringLiteral("namingContexts"))
                .toArray()
                .contains(QStringLiteral("dc=example,dc=com")));
    // Anonymous: no monitor access, so the version is unknown and the record says why (null, never a guess).
    p.target = LdapTarget();
    p.target.uri = m_sbx->uri;
    const RunRecord anon = Ldap::probe(p, ctx);
    QVERIFY(anon.server.toObject().value(QStringLiteral("version")).isNull());
}

void TstLdapLoad::searchLoadMatchesServerCounters()
{
    RunContext ctx;
    const RunRecord r = Ldap::runLoad(searchSpec(5), ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("ldap-search"));
    const double ops = r.summary.value(QStringLiteral("ops")).toDouble();
    QVERIFY(ops > 0);
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);
    QCOMPARE(r.summary.value(QStringLiteral("result_codes")).toObject().value(QStringLiteral("0")).toDouble(), ops);
    QCOMPARE(r.summary.value(QStringLiteral("no_entry")).toDouble(), 0.0);
    QCOMPARE(r.summary.value(QStringLiteral("entries")).toDouble(), ops); // one entry per search
    const double server
        = r.summary.value(QStringLiteral("server")).toObject().value(QStringLiteral("search_completed")).toDouble();
    qInfo("client counted %.0f searches, the server %.0f (%.1f ops/s, %.1f us client CPU/op)", ops, server,
        r.summary.value(QStringLiteral("ops_per_s")).toDouble(),
        r.summary.value(QStringLiteral("client_cpu_us_per_op")).toDouble());
    // The server also completes what was in flight at both ends of the measured phase: a few windows' worth.
    QVERIFY2(std::abs(server - ops) <= 0.02 * ops + 200, qPrintable(QStringLiteral("%1 vs %2").arg(server).arg(ops)));
    QVERIFY(r.summary.value(QStringLiteral("client_cpu_us_per_op")).toDouble() > 0);
    const QJsonObject lat = r.summary.value(QStringLiteral("latency_ms")).toObject();
    QVERIFY(lat.value(QStringLiteral("p50")).toDouble() <= lat.value(QStringLiteral("p99")).toDouble());
    QVERIFY(lat.value(QStringLiteral("p99")).toDouble() <= lat.value(QStringLiteral("p999")).toDouble());
    QVERIFY(r.intervals.size() >= 9);
    for (const auto& v : r.intervals) {
        const QJsonObject i = v.toObject();
        for (const char* k : { "t", "ops_per_s", "errors" })
            QVERIFY2(i.contains(QLatin1String(k)), k);
        QVERIFY(i.value(QStringLiteral("latency_ms")).toObject().contains(QStringLiteral("p99")));
        QVERIFY(i.value(QStringLiteral("server")).toObject().value(QStringLiteral("search_completed_per_s")).toDouble()
            > 0);
    }
    // A search that finds nothing is counted apart, and the record says so.
    LdapLoadSpec miss = searchSpec(1);
    miss.base = QStringLiteral("ou=people,dc=example,dc=com");
    miss.filter = QStringLiteral("(uid=nobody[0-9])");
    const RunRecord m = Ldap::runLoad(miss, ctx);
    QCOMPARE(m.summary.value(QStringLiteral("no_entry")).toDouble(), m.summary.value(QStringLiteral("ops")).toDouble());
    QVERIFY(m.hasWarning(QStringLiteral("no-entry")));
}

void TstLdapLoad::wrongPasswordIsResultCode49()
{
    LdapLoadSpec s = searchSpec(1);
    s.target.password = "wrong";
    RunContext ctx;
    const RunRecord r = Ldap::runLoad(s, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QCOMPARE(r.summary.value(QStringLiteral("setup_result_code")).toInt(), 49);
    QCOMPARE(r.summary.value(QStringLiteral("result_codes")).toObject().value(QStringLiteral("49")).toInt(), 1);
    QVERIFY2(r.failure.contains(QStringLiteral("Invalid credentials")), qPrintable(r.failure));
    QVERIFY(!r.toJsonBytes().contains("wrong")); // the password is in no record
    QVERIFY(!r.toJsonBytes().contains(password(m_sbx.info())));
}

void TstLdapLoad::badTemplatesAreRefusedBeforeConnecting_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("access");
    QTest::addColumn<QString>("field");
    QTest::newRow("unbalanced") << "(uid=user[1-9]"
                                << "uniform"
                                << "filter";
    QTest::newRow("range backwards") << "uid=user[9-1]"
                                     << "uniform"
                                     << "filter";
    QTest::newRow("unclosed range") << "uid=user[1-9"
                                    << "uniform"
                                    << "filter";
    QTest::newRow("bad access") << "uid=user[1-9]"
                                << "zipf:x"
                                << "access";
}

void TstLdapLoad::badTemplatesAreRefusedBeforeConnecting()
{
    QFETCH(QString, filter);
    QFETCH(QString, access);
    QFETCH(QString, field);
    LdapLoadSpec s = searchSpec(1);
    s.target.uri = QStringLiteral("ldap://127.0.0.1:1"); // nothing listens: a connection attempt would say so
    s.filter = filter;
    s.access = access;
    ProbeError e;
    QVERIFY(!CompiledLoad::compile(s, &e));
    QCOMPARE(e.field, field);
    RunContext ctx;
    const RunRecord r = Ldap::runLoad(s, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY2(r.failure.startsWith(field + QStringLiteral(": ")), qPrintable(r.failure));
    QVERIFY(!r.failure.contains(QStringLiteral("contact")));
}

void TstLdapLoad::ldapsNeedsTrust()
{
    ProbeSpec p;
    p.target.uri = m_sbx->ldapsUri;
    RunContext ctx;
    RunRecord r = Ldap::probe(p, ctx); // the system's CAs do not know the sandbox's self-signed certificate
    QCOMPARE(r.status, QStringLiteral("failed"));
    p.target.insecure = true;
    r = Ldap::probe(p, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QVERIFY(r.hasWarning(QStringLiteral("tls-unverified")));
    QCOMPARE(r.summary.value(QStringLiteral("tls")).toObject().value(QStringLiteral("verified")).toBool(), false);
    p.target.insecure = false;
    p.target.caFile = m_sbx->caFile;
    r = Ldap::probe(p, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    const QJsonObject tls = r.summary.value(QStringLiteral("tls")).toObject();
    QCOMPARE(tls.value(QStringLiteral("key_type")).toString(), QStringLiteral("RSA"));
    QCOMPARE(tls.value(QStringLiteral("key_bits")).toInt(), 2048);
    QVERIFY(tls.value(QStringLiteral("protocol")).toString().startsWith(QStringLiteral("TLS")));
    QVERIFY(r.toJson().value(QStringLiteral("timings_ms")).toObject().value(QStringLiteral("tls_handshake")).toDouble()
        > 0);
    // StartTLS on ldap:// is checked the same way.
    p.target.uri = m_sbx->uri;
    p.target.startTls = true;
    r = Ldap::probe(p, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    p.target.caFile.clear();
    r = Ldap::probe(p, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
}

namespace {

// An open-loop rate: never above its target (5 % covers the operations in flight at the edges of the measured phase
// and of a ramp step), and below it by no more than a sanitizer build on two shared cores loses (30 %). A closed loop
// runs at ten times these targets here, so the upper bound is what shows the schedule holds.
bool rateHolds(double got, double target)
{
    return got >= 0.7 * target && got <= 1.05 * target;
}

} // namespace

void TstLdapLoad::rateAndRampHitTheirTargets()
{
    RunContext ctx;
    LdapLoadSpec s = searchSpec(3);
    s.rate = 2000;
    s.outstanding = 32; // an open loop needs room: rate <= operations in flight / latency (Little's law)
    RunRecord r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    const double got = r.summary.value(QStringLiteral("ops_per_s")).toDouble();
    qInfo("rate 2000 ops/s -> %.1f", got);
    QVERIFY2(rateHolds(got, 2000), qPrintable(QString::number(got)));

    s = searchSpec(0);
    s.outstanding = 32;
    s.ramp = QStringLiteral("rate:1000,3000@2");
    r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QMap<int, QPair<double, double>> perStep; // ops, seconds
    double lastT = 0;
    for (const auto& v : r.intervals) {
        const QJsonObject i = v.toObject();
        const double t = i.value(QStringLiteral("t")).toDouble();
        perStep[i.value(QStringLiteral("step")).toInt()].first += i.value(QStringLiteral("ops")).toDouble();
        perStep[i.value(QStringLiteral("step")).toInt()].second += t - lastT;
        lastT = t;
    }
    QCOMPARE(perStep.size(), 2);
    const double s0 = perStep[0].first / perStep[0].second, s1 = perStep[1].first / perStep[1].second;
    qInfo("ramp steps: %.1f and %.1f ops/s (targets 1000 and 3000)", s0, s1);
    QVERIFY2(rateHolds(s0, 1000), qPrintable(QString::number(s0)));
    // An open loop that fell behind in the first step (a loaded machine: 905 ops/s of 1,000 seen) sends those late
    // operations at the start of the second, which then counts them: up to 10 % over its own target there, while
    // the whole ramp never sends more than it scheduled (5 %).
    QVERIFY2(s1 >= 0.7 * 3000 && s1 <= 1.10 * 3000, qPrintable(QString::number(s1)));
    const double scheduled = 1000 * perStep[0].second + 3000 * perStep[1].second;
    const double sent = perStep[0].first + perStep[1].first;
    QVERIFY2(sent <= 1.05 * scheduled, qPrintable(QStringLiteral("%1 of %2").arg(sent).arg(scheduled)));
}

void TstLdapLoad::writeLoadsCleanUp()
{
    RunContext ctx;
    LdapLoadSpec s = searchSpec(1.5);
    s.failAfterSec = 60; // writes wait for the disk (back-mdb syncs each one): a busy disk must not fail them
    s.mix = { { LdapOpKind::Modify, 100 } };
    s.dnPattern = QStringLiteral("uid=user[0-99],ou=people,dc=example,dc=com");
    s.attr = QStringLiteral("description");
    s.valuePattern = QStringLiteral("changed by dirbench [0-999]");
    RunRecord r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("ldap-modify"));
    QVERIFY(r.summary.value(QStringLiteral("ops")).toDouble() > 0);
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);

    s.mix = { { LdapOpKind::Compare, 100 } };
    s.attr = QStringLiteral("sn");
    s.valuePattern = QStringLiteral("nobody");
    r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QVERIFY(r.summary.value(QStringLiteral("result_codes")).toObject().contains(QStringLiteral("5"))); // compareFalse
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);

    s.mix = { { LdapOpKind::AddDelete, 100 } };
    s.parentDn = m_sbx->peopleBase;
    r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QVERIFY(r.summary.value(QStringLiteral("ops")).toDouble() > 0);
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);

    s.mix = { { LdapOpKind::Search, 90 }, { LdapOpKind::AddDelete, 10 } };
    r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QCOMPARE(r.kind, QStringLiteral("ldap-mixed"));

    // Nothing the runs added is left behind.
    LdapSession check;
    QVERIFY(!check.open(admin(m_sbx.info())).isError());
    QList<LdapSession::Entry> left;
    QVERIFY(!check
                 .search(m_sbx->peopleBase, LdapSession::OneLevel, QStringLiteral("(uid=dirbench-*)"),
                     { QStringLiteral("1.1") }, &left)
                 .isError());
    QCOMPARE(left.size(), 0);
}

void TstLdapLoad::bindLoads()
{
    RunContext ctx;
    LdapLoadSpec s = searchSpec(1.5);
    s.mix = { { LdapOpKind::Bind, 100 } };
    s.dnPattern = QStringLiteral("uid=user[0-1999],ou=people,dc=example,dc=com");
    RunRecord r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QVERIFY(r.summary.value(QStringLiteral("ops")).toDouble() > 0);
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);
    const double rebindServer
        = r.summary.value(QStringLiteral("server")).toObject().value(QStringLiteral("bind_completed")).toDouble();
    QVERIFY(rebindServer >= r.summary.value(QStringLiteral("ops")).toDouble());

    s.bindNewConnection = true;
    r = Ldap::runLoad(s, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    const double ops = r.summary.value(QStringLiteral("ops")).toDouble();
    QVERIFY(ops > 0);
    QCOMPARE(r.summary.value(QStringLiteral("errors")).toDouble(), 0.0);
    // One connection per bind: the server saw about as many connections as binds.
    const double conns
        = r.summary.value(QStringLiteral("server")).toObject().value(QStringLiteral("connections_total")).toDouble();
    QVERIFY2(conns >= ops, qPrintable(QStringLiteral("%1 connections for %2 binds").arg(conns).arg(ops)));
}

void TstLdapLoad::cancelStopsWithinOneSecond()
{
    RunContext ctx;
    LdapLoadSpec s = searchSpec(60);
    RunRecord r;
    std::thread t([&] { r = Ldap::runLoad(s, ctx); });
    QThread::msleep(1500);
    QElapsedTimer timer;
    timer.start();
    ctx.requestStop();
    t.join();
    const qint64 ms = timer.elapsed();
    qInfo("cancel took %lld ms (promised 1 s; asserted with a 5x margin)", ms);
    QVERIFY2(ms < 5000, qPrintable(QString::number(ms)));
    QCOMPARE(r.status, QStringLiteral("cancelled"));
    QVERIFY(!r.intervals.isEmpty());
}

void TstLdapLoad::serverKilledFailsWithinTheWindow()
{
    QString why;
    SandboxGuard own = start(200, false, &why);
    QVERIFY2(own, qPrintable(why));
    LdapLoadSpec s = searchSpec(60);
    s.target = admin(own.info());
    s.base = own->peopleBase;
    s.filter = QStringLiteral("uid=user[0-199]");
    s.failAfterSec = 2;
    s.target.networkTimeoutMs = 500;
    RunContext ctx;
    RunRecord r;
    QElapsedTimer sinceKill;
    std::thread t([&] { r = Ldap::runLoad(s, ctx); });
    QThread::msleep(1500);
    QVERIFY(::kill(pid_t(own->pid), SIGKILL) == 0);
    sinceKill.start();
    t.join();
    const qint64 ms = sinceKill.elapsed();
    qInfo("the run failed %lld ms after the server was killed (window 2 s)", ms);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY2(r.failure.contains(QStringLiteral("no operation succeeded")), qPrintable(r.failure));
    QVERIFY2(ms >= 1900 && ms < 2000 + 5 * 1000, qPrintable(QString::number(ms)));
    QVERIFY(r.summary.value(QStringLiteral("ops")).toDouble() > 0); // what was measured is kept
    QVERIFY(!r.intervals.isEmpty());
}

void TstLdapLoad::serverRestartedWithinTheWindowReconnects()
{
    QString why;
    SandboxGuard own = start(200, false, &why);
    QVERIFY2(own, qPrintable(why));
    const QStringList argv = cmdline(own->pid);
    QVERIFY(!argv.isEmpty());
    LdapLoadSpec s = searchSpec(6);
    s.target = admin(own.info());
    s.base = own->peopleBase;
    s.filter = QStringLiteral("uid=user[0-199]");
    s.failAfterSec = 10;
    RunContext ctx;
    RunRecord r;
    std::thread t([&] { r = Ldap::runLoad(s, ctx); });
    QThread::msleep(1500);
    QVERIFY(::kill(pid_t(own->pid), SIGKILL) == 0);
    QVERIFY(waitGone(own->pid));
    QThread::msleep(500);
    QVERIFY(restart(argv, own->uri));
    t.join();
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    QVERIFY(r.summary.value(QStringLiteral("reconnects")).toDouble() >= 1);
    QVERIFY(r.hasWarning(QStringLiteral("reconnects")));
    // The operations in flight when slapd died failed, and nothing else did: at least one (the windows were full),
    // at most what the connections held (each is lost once; refused reconnects are not operations), each one a lost
    // connection (81, server down).
    const double errors = r.summary.value(QStringLiteral("errors")).toDouble();
    const double inFlight = s.threads * s.connections * s.outstanding;
    qInfo("%.0f errors (at most %.0f operations were in flight), %.0f reconnects", errors, inFlight,
        r.summary.value(QStringLiteral("reconnects")).toDouble());
    QVERIFY2(errors >= 1 && errors <= inFlight, qPrintable(QString::number(errors)));
    QCOMPARE(r.summary.value(QStringLiteral("result_codes")).toObject().value(QStringLiteral("81")).toDouble(), errors);
    // Operations succeeded after the restart: the last interval has successes.
    const QJsonObject last = r.intervals.last().toObject();
    QVERIFY(last.value(QStringLiteral("ops")).toDouble() > last.value(QStringLiteral("errors")).toDouble());
}

QTEST_GUILESS_MAIN(TstLdapLoad)
#include "tst_ldapload.moc"
