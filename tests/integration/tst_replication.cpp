// The replication marker probe (core/experiments/replication.h) against a real OpenLDAP provider and syncrepl
// consumer (a replicated sandbox, syncprov on the consumer too): the consumer watched by push (RFC 4533 sync,
// chosen from its root DSE) with lag measured and small on an idle pair; the consumer frozen with SIGSTOP for 3 s
// shows lag rising to about 3 s and recovering with no marker dropped; --watch poll still polls; --watch push
// refuses a consumer without syncprov and auto polls it ("mixed"); the marker entry is gone after each run (an
// existing one gets its description back), also after SIGINT; the CLI's record and its bad arguments.
// What the server says (ReplicationVendor): contextCSN per server ID and the consumer's cn=Monitor syncrepl entry in
// every interval, its lag beside the markers' and within the tolerance; a frozen consumer's state is its last
// reading, marked so, and its lag grows with the markers'; --consumer-bind-dn/--consumer-password-file are what the
// consumers are read with.
#include "core/experiments/replication.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/ldapwatch.h"
#include "core/run/runcontext.h"
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdconfig.h"
#include "core/sandbox/slapdsandbox.h"
#include "tests/integration/ldapfixture.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QUrl>

#include <csignal>
#include <thread>

class TstReplication : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void idlePairHasSmallLag();
    void frozenConsumerFallsBehindAndRecovers_data();
    void frozenConsumerFallsBehindAndRecovers();
    void frozenForTheRestFailsTheVerdict();
    void pushRefusedWhereNotOffered();
    void cliRecordAndRestore();
    void cliBadArguments();
    void cliInterruptRemovesMarker();
    void killedConsumerIsAWarning();
    void cliConsumerCredentials();

private:
    static int vendorAgreements(const RunRecord& rec, const QString& uri);
    LdapTarget admin(const QString& uri) const;
    ReplicationSpec spec(double rate, double duration) const;
    bool markerGone();
    QPair<int, QByteArray> cli(const QStringList& args);
    QStringList connection() const;

    QTemporaryDir m_parent;
    SandboxGuard m_pair;
    const QString m_marker = QStringLiteral("cn=dirbench-marker,dc=example,dc=com");
};

void TstReplication::initTestCase()
{
    if (const QString why = LdapFixture::replicasUnavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    ProbeError e;
    m_pair.reset(LdapFixture::startReplicated(m_parent.path(), 1, &e));
    QVERIFY2(m_pair.isValid(), qPrintable(e.message()));
}

LdapTarget TstReplication::admin(const QString& uri) const
{
    return LdapFixture::admin(m_pair.info(), uri);
}

// Intervals in which both the server's lag and the markers' (from the consumer's copy of the marker entry) are known;
// each pair must agree within the tolerance the record states (-1 when one does not).
int TstReplication::vendorAgreements(const RunRecord& rec, const QString& uri)
{
    int both = 0;
    for (const QJsonValue iv : rec.intervals) {
        const QJsonObject v
            = iv.toObject().value("consumers").toObject().value(uri).toObject().value("vendor").toObject();
        if (v.value("kind").toString() != u"openldap")
            return -1;
        if (!v.value("lag_ms").isDouble() || !v.value("measured_lag_ms").isDouble())
            continue;
        if (v.value("measured_from").toString() != u"marker-entry") { // the consumer's copy, not the watcher's view
            qWarning("interval at %.1f s: measured from %s", iv.toObject().value("t").toDouble(),
                qPrintable(v.value("measured_from").toString()));
            return -1;
        }
        // What the markers allow for the state difference, whatever the delays (the record's range).
        const double lag = v.value("lag_ms").toDouble(), tolerance = v.value("tolerance_ms").toDouble();
        const QJsonArray range = v.value("measured_lag_range_ms").toArray();
        const double after = range.at(0).toDouble(), before = range.at(1).toDouble(1e12);
        if (range.size() != 2 || after > v.value("measured_lag_ms").toDouble() || lag < after - tolerance
            || lag > before + tolerance || v.value("vendor_disagrees").toBool()) {
            qWarning("interval at %.1f s: contextCSN lag %.1f ms, markers %.1f-%.1f ms",
                iv.toObject().value("t").toDouble(), lag, after, before);
            return -1;
        }
        ++both;
    }
    return both;
}

ReplicationSpec TstReplication::spec(double rate, double duration) const
{
    ReplicationSpec s;
    s.supplier = admin(m_pair->uri);
    s.consumers = { admin(m_pair->replicas.constFirst().uri) };
    s.markerDn = m_marker;
    s.markerRate = rate;
    s.durationS = duration;
    return s;
}

bool TstReplication::markerGone()
{
    LdapSession s;
    if (s.open(admin(m_pair->uri)).isError())
        return false;
    QList<LdapSession::Entry> found;
    const ProbeError e = s.search(m_marker, LdapSession::Base, QStringLiteral("(objectClass=*)"), {}, &found);
    return e.isError() && e.nativeCode == 32;
}

void TstReplication::idlePairHasSmallLag()
{
    RunContext ctx;
    const RunRecord rec = Experiments::runReplication(spec(20, 3), ctx);
    QCOMPARE(rec.status, QStringLiteral("ok"));
    QCOMPARE(rec.kind, QStringLiteral("replication"));
    QVERIFY(rec.intervals.size() >= 3);
    const QJsonObject c = rec.summary.value("consumers").toObject().value(m_pair->replicas.constFirst().uri).toObject();
    const qint64 written = qint64(rec.summary.value("markers_written").toDouble());
    // 60 asked (20/s for 3 s). A loaded machine slows the writer (34 beside the whole suite and a CPU hog), and the
    // record then says so and states the lag at the rate written.
    QVERIFY2(written >= 30, qPrintable(QString::number(written)));
    const double perS = rec.summary.value("write_ok_per_s").toDouble();
    QVERIFY2(std::abs(perS - double(written) / 3) < 0.2 * perS, qPrintable(QString::number(perS)));
    if (written < 50)
        QVERIFY2(rec.hasWarning("marker-rate-not-reached"), qPrintable(QString::number(written)));
    QCOMPARE(qint64(c.value("markers_seen").toDouble()), written);
    QCOMPARE(c.value("unseen").toInt(), 0);
    QCOMPARE(c.value("method").toString(), QStringLiteral("sync")); // auto: the consumer offers RFC 4533 sync
    QCOMPARE(rec.summary.value("method").toString(), QStringLiteral("sync"));
    const double p99 = c.value("lag_ms").toObject().value("p99").toDouble(-1);
    qInfo("idle pair: lag p50 %.2f ms, p99 %.2f ms, seen before ack %d",
        c.value("lag_ms").toObject().value("p50").toDouble(), p99, c.value("seen_before_ack").toInt());
    // Small: a loopback push; the margin is for a loaded 2-core machine (p99 of ~60 markers).
    QVERIFY2(c.value("lag_ms").toObject().value("p50").toDouble(-1) < 200, "p50");
    QVERIFY2(p99 >= 0 && p99 < 2000, qPrintable(QString::number(p99)));
    QVERIFY(markerGone());

    // What the server says, beside it.
    const QString uri = m_pair->replicas.constFirst().uri;
    const QJsonObject v = c.value("vendor").toObject();
    QCOMPARE(v.value("kind").toString(), QStringLiteral("openldap"));
    QCOMPARE(v.value("resolution_ms").toDouble(), 0.001);
    QVERIFY(v.value("supplier_csn").toObject().contains("000")); // the provider's SID (no serverID: 000)
    QVERIFY(v.value("consumer_csn").toObject().value("000").toString().contains("Z#"));
    QVERIFY2(v.value("lag_max_ms").isDouble() && v.value("lag_max_ms").toDouble() < 2000,
        qPrintable(QJsonDocument(v).toJson()));
    QVERIFY(v.value("readings").toInt() >= 3);
    const QJsonObject monitor = v.value("monitor").toObject();
    QCOMPARE(monitor.size(), 1); // one syncrepl stanza: cn=Consumer 001
    const QJsonObject sr = monitor.begin().value().toObject();
    QVERIFY2(sr.value("provider_uris").toString().contains(QUrl(m_pair->uri).authority()),
        qPrintable(QJsonDocument(sr).toJson()));
    QCOMPARE(sr.value("phase").toString(), QStringLiteral("Persist")); // idle, refreshAndPersist
    QVERIFY(sr.value("last_cookie_received").toString().contains("csn="));
    QVERIFY(!rec.hasWarning("vendor-lag-disagrees"));
    const int both = vendorAgreements(rec, uri);
    qInfo("idle pair: contextCSN lag p99 %.3f ms, max %.3f ms; %d intervals with both figures",
        v.value("lag_p99_ms").toDouble(), v.value("lag_max_ms").toDouble(), both);
    QVERIFY2(both >= 3, qPrintable(QString::number(both)));
}

void TstReplication::frozenConsumerFallsBehindAndRecovers_data()
{
    QTest::addColumn<QString>("watch");
    QTest::addColumn<QString>("method");
    QTest::newRow("pushed") << "auto"
                            << "sync";
    QTest::newRow("polled") << "poll"
                            << "poll";
}

void TstReplication::frozenConsumerFallsBehindAndRecovers()
{
    QFETCH(QString, watch);
    QFETCH(QString, method);
    const qint64 pid = m_pair->replicas.constFirst().pid;
    RunContext ctx;
    RunRecord rec;
    ReplicationSpec s = spec(20, 8);
    s.watch = watch;
    std::thread run([&] { rec = Experiments::runReplication(s, ctx); });
    // Freeze the consumer once the run has measured two intervals, for 3 s (the injected fault, timed on purpose).
    const QDeadlineTimer started(30000);
    while (ctx.samplesAdded() < 2 && !started.hasExpired())
        QThread::msleep(10);
    ::kill(pid_t(pid), SIGSTOP);
    QThread::msleep(3000);
    ::kill(pid_t(pid), SIGCONT);
    run.join();
    QCOMPARE(rec.status, QStringLiteral("ok"));
    const QString uri = m_pair->replicas.constFirst().uri;
    double oldest = 0, previous = 0;
    int rising = 0; // intervals in which the oldest unseen marker got older
    for (const QJsonValue v : rec.intervals) {
        const double o
            = v.toObject().value("consumers").toObject().value(uri).toObject().value("oldest_unseen_s").toDouble();
        rising += o > previous && o > 0 ? 1 : 0;
        previous = o;
        oldest = std::max(oldest, o);
    }
    const QJsonObject c = rec.summary.value("consumers").toObject().value(uri).toObject();
    QCOMPARE(c.value("method").toString(), method); // across the freeze
    const double max = c.value("lag_ms").toObject().value("max").toDouble();
    qInfo("frozen 3 s, %s: behind for at least %.2f s at worst (%d intervals rising), lag max %.0f ms",
        qPrintable(method), oldest, rising, max);
    // Intervals are cut every second and the writer may be slow to resume on a loaded machine: a margin.
    QVERIFY2(oldest >= 1.5, qPrintable(QString::number(oldest)));
    QVERIFY2(rising >= 2, qPrintable(QString::number(rising))); // second by second
    QVERIFY2(max >= 2000 && max < 6000, qPrintable(QString::number(max)));
    QCOMPARE(qint64(c.value("markers_seen").toDouble()), qint64(rec.summary.value("markers_written").toDouble()));
    QCOMPARE(c.value("unseen").toInt(), 0); // no marker dropped
    const QJsonObject lastInterval
        = rec.intervals.last().toObject().value("consumers").toObject().value(uri).toObject();
    QCOMPARE(lastInterval.value("behind").toInt(), 0); // recovered
    QVERIFY(markerGone());

    // The server's state: unread while it is frozen (never made up), beside the markers' before and after.
    int unread = 0;
    double grown = 0; // the largest contextCSN lag while the consumer could not be read
    for (const QJsonValue iv : rec.intervals) {
        const QJsonObject v
            = iv.toObject().value("consumers").toObject().value(uri).toObject().value("vendor").toObject();
        if (v.value("reachable").toBool(true))
            continue;
        ++unread;
        QVERIFY(!v.value("error").toString().isEmpty());
        QCOMPARE(v.value("lag_source").toString(), QStringLiteral("last-reading"));
        grown = std::max(grown, v.value("lag_ms").toDouble());
    }
    const int both = vendorAgreements(rec, uri);
    qint64 watcherBehind = 0; // markers the consumer held at its reading that its watcher had not yet shown
    double bracket = 0; // the widest range the markers allowed
    for (const QJsonValue iv : rec.intervals) {
        const QJsonObject v
            = iv.toObject().value("consumers").toObject().value(uri).toObject().value("vendor").toObject();
        watcherBehind = std::max(
            watcherBehind, qint64(v.value("consumer_marker").toDouble() - v.value("watcher_marker").toDouble()));
        const QJsonArray range = v.value("measured_lag_range_ms").toArray();
        if (range.size() == 2 && range.at(1).isDouble())
            bracket = std::max(bracket, range.at(1).toDouble() - range.at(0).toDouble());
    }
    qInfo("frozen 3 s: the watcher showed up to %lld markers fewer than the consumer held at a reading; the markers' "
          "range up to %.0f ms wide",
        static_cast<long long>(watcherBehind), bracket);
    const QJsonObject v = c.value("vendor").toObject();
    qInfo("frozen 3 s: %d intervals unread (contextCSN lag up to %.0f ms), %d with both figures, lag max %.1f ms",
        unread, grown, both, v.value("lag_max_ms").toDouble());
    QVERIFY2(unread >= 1, qPrintable(QString::number(unread)));
    QVERIFY2(grown >= 1000, qPrintable(QString::number(grown))); // it grows with the markers' while frozen
    QVERIFY2(both >= 4, qPrintable(QString::number(both)));
    QVERIFY(!rec.hasWarning("vendor-lag-disagrees"));
    QVERIFY(v.value("reachable").toBool()); // the last reading, after it resumed
}

// The consumer frozen (SIGSTOP) from the second interval to the end of the run: the markers it never showed are
// censored, not dropped; the p99 is a lower bound ("> X ms") and the verdict fails, whatever the markers it did show.
void TstReplication::frozenForTheRestFailsTheVerdict()
{
    const qint64 pid = m_pair->replicas.constFirst().pid;
    RunContext ctx;
    RunRecord rec;
    ReplicationSpec s = spec(20, 5);
    s.maxLagMs = 1000;
    s.graceS = 1; // the consumer stays frozen: the grace only prolongs the run
    std::thread run([&] { rec = Experiments::runReplication(s, ctx); });
    struct Resume // whatever happens below, the shared consumer runs again
    {
        qint64 pid;
        ~Resume() { ::kill(pid_t(pid), SIGCONT); }
    } resume { pid };
    const QDeadlineTimer started(30000);
    while (ctx.samplesAdded() < 2 && !started.hasExpired())
        QThread::msleep(10);
    ::kill(pid_t(pid), SIGSTOP); // the injected fault, timed on purpose: frozen from here to the end of the run
    run.join();
    ::kill(pid_t(pid), SIGCONT);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QString uri = m_pair->replicas.constFirst().uri;
    const QJsonObject c = rec.summary.value("consumers").toObject().value(uri).toObject();
    const QJsonObject lag = c.value("lag_ms").toObject();
    const qint64 written = qint64(rec.summary.value("markers_written").toDouble());
    const qint64 unseen = qint64(c.value("unseen").toDouble());
    qInfo("frozen for the rest: %lld of %lld markers unseen, p99 %s%.1f ms, sentence: %s",
        static_cast<long long>(unseen), static_cast<long long>(written), lag.value("p99_at_least").toBool() ? "> " : "",
        lag.value("p99").toDouble(), qPrintable(rec.summary.value("verdict_sentences").toArray().at(0).toString()));
    QVERIFY2(unseen >= written / 3, qPrintable(QString::number(unseen)));
    QCOMPARE(qint64(lag.value("markers").toDouble()), written); // every acknowledged marker counts
    QCOMPARE(qint64(lag.value("censored").toDouble()), unseen);
    QCOMPARE(qint64(c.value("markers_seen").toDouble()) + unseen, written);
    QVERIFY(lag.value("p99_at_least").toBool());
    QVERIFY(lag.value("max_at_least").toBool());
    QVERIFY(lag.value("p99").toDouble() >= 1000); // frozen for at least the grace: 1 s and more
    QVERIFY(c.value("lag_from_send_ms").toObject().value("p99").toDouble() >= lag.value("p99").toDouble());
    QCOMPARE(rec.verdicts.size(), 1);
    QVERIFY(!rec.verdicts.constFirst().passed);
    QVERIFY2(rec.verdicts.constFirst().note.contains(QStringLiteral("never seen")),
        qPrintable(rec.verdicts.constFirst().note));
    const QString sentence = rec.summary.value("verdict_sentences").toArray().at(0).toString();
    QVERIFY2(sentence.contains(QStringLiteral("p99 lag > ")) && sentence.contains(QStringLiteral("not within")),
        qPrintable(sentence));
    QVERIFY(markerGone());
}

// A consumer without syncprov (a plain sandbox of its own, not replicating): --watch push refuses it before the first
// marker, naming --watch and its URI; nothing is left on the supplier.
void TstReplication::pushRefusedWhereNotOffered()
{
    SandboxOptions o;
    o.entries = 10;
    o.parentDir = m_parent.path();
    o.makeCurrent = false;
    ProbeError e;
    SandboxGuard plain(SlapdSandbox::start(o, &e));
    QVERIFY2(plain.isValid(), qPrintable(e.message()));
    ReplicationSpec s = spec(10, 2);
    s.watch = QStringLiteral("push");
    s.consumers = { s.consumers.constFirst(), admin(plain->uri) };
    QFile pw(plain->passwordFile);
    QVERIFY(pw.open(QIODevice::ReadOnly));
    s.consumers[1].password = pw.readAll().trimmed();
    RunContext ctx;
    const RunRecord rec = Experiments::runReplication(s, ctx);
    QCOMPARE(rec.status, QStringLiteral("failed"));
    QVERIFY2(rec.failure.contains(QStringLiteral("--watch push")) && rec.failure.contains(plain->uri),
        qPrintable(rec.failure));
    QVERIFY(rec.intervals.isEmpty()); // refused before the first marker
    QCOMPARE(rec.summary.value("markers_written").toInt(-1), 0);
    const QJsonObject refusedConsumers = rec.summary.value("consumers").toObject();
    QCOMPARE(refusedConsumers.value(plain->uri).toObject().value("method").toString(), QStringLiteral("unknown"));
    QCOMPARE(refusedConsumers.value(s.consumers[0].uri).toObject().value("method").toString(), QStringLiteral("sync"));
    QVERIFY(markerGone());

    // Asked anyway, the plain server refuses the sync search (the control is sent critical) instead of answering
    // it once as a plain search.
    LdapSession direct;
    QVERIFY(!direct.open(s.consumers[1]).isError());
    LdapWatch w(direct);
    QVERIFY(!w.start(LdapWatch::Mode::Sync, plain->base, { QStringLiteral("description") }).isError());
    LdapWatch::Event ev = LdapWatch::Event::Nothing;
    QList<LdapSession::Entry> got;
    ProbeError refusedSync;
    const QDeadlineTimer deadline(10000);
    while (ev == LdapWatch::Event::Nothing && !deadline.hasExpired())
        ev = w.next(100, &got, &refusedSync);
    QCOMPARE(int(ev), int(LdapWatch::Event::Ended));
    QVERIFY(got.isEmpty());
    QVERIFY2(refusedSync.nativeCode == 12 || refusedSync.nativeCode == 53, qPrintable(refusedSync.message()));

    // auto on the same pair of consumers: the replica pushed, the plain one polled (it never sees a marker: it does
    // not replicate; no grace to wait for it).
    s.watch = QStringLiteral("auto");
    s.durationS = 1;
    s.graceS = 0;
    RunContext again;
    const RunRecord mixed = Experiments::runReplication(s, again);
    QCOMPARE(mixed.status, QStringLiteral("ok"));
    const QJsonObject consumers = mixed.summary.value("consumers").toObject();
    QCOMPARE(consumers.value(s.consumers[0].uri).toObject().value("method").toString(), QStringLiteral("sync"));
    QCOMPARE(consumers.value(plain->uri).toObject().value("method").toString(), QStringLiteral("poll"));
    QCOMPARE(mixed.summary.value("method").toString(), QStringLiteral("mixed"));
    QVERIFY(consumers.value(plain->uri).toObject().value("unseen").toInt() > 0);
    QVERIFY(markerGone());
}

QStringList TstReplication::connection() const
{
    return { "--bind-dn", m_pair->bindDn, "--password-file", m_pair->passwordFile };
}

QPair<int, QByteArray> TstReplication::cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), QStringList { "replication" } + args);
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return { -1, {} };
    }
    return { p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, p.readAllStandardOutput() };
}

void TstReplication::cliRecordAndRestore()
{
    // An existing entry as the marker: its description comes back after the run.
    const QString dn = "uid=user3," + m_pair->peopleBase;
    LdapSession s;
    QVERIFY(!s.open(admin(m_pair->uri)).isError());
    QVERIFY(!s.modifyReplace(dn, "description", { "original", "second" }).isError());
    const auto [code, out]
        = cli(QStringList { "--supplier", m_pair->uri, "--consumer", m_pair->replicas.constFirst().uri, "--marker-dn",
                  dn, "--marker-rate", "10", "--duration", "2", "--max-lag-ms", "1000", "--watch", "poll",
                  "--no-history", "--json", m_parent.filePath("restore.json") }
            + connection());
    QCOMPARE(code, 0);
    // The summary's headline and verdict as the report and the window word them (core/experiments/replicationfigures).
    QVERIFY2(out.contains("\nheadline: p99 lag ") && out.contains("1 consumer") && out.contains(" 0 unseen, "),
        out.constData());
    QFile json(m_parent.filePath("restore.json"));
    QVERIFY(json.open(QIODevice::ReadOnly));
    const QJsonObject rec = QJsonDocument::fromJson(json.readAll()).object();
    QCOMPARE(rec.value("kind").toString(), QStringLiteral("replication"));
    // --watch poll: read every 5 ms although the consumer offers sync, and every marker seen so.
    const QJsonObject summary = rec.value("summary").toObject();
    QCOMPARE(summary.value("method").toString(), QStringLiteral("poll"));
    const QJsonObject c = summary.value("consumers").toObject().value(m_pair->replicas.constFirst().uri).toObject();
    QCOMPARE(c.value("method").toString(), QStringLiteral("poll"));
    QVERIFY(summary.value("markers_written").toInt() >= 15);
    QCOMPARE(c.value("markers_seen").toInt(), summary.value("markers_written").toInt());
    QCOMPARE(rec.value("spec").toObject().value("watch").toString(), QStringLiteral("poll"));
    QVERIFY(rec.value("intervals").toArray().first().toObject().contains("write_ok_per_s"));
    QCOMPARE(rec.value("verdicts").toArray().size(), 1);
    QList<LdapSession::Entry> found;
    QVERIFY(!s.search(dn, LdapSession::Base, "(objectClass=*)", { "description" }, &found).isError());
    QCOMPARE(found.size(), 1);
    QList<QByteArray> values = found.constFirst().attributes.value("description");
    std::sort(values.begin(), values.end());
    QCOMPARE(values, (QList<QByteArray> { "original", "second" }));
}

void TstReplication::cliBadArguments()
{
    const QStringList base { "--supplier", m_pair->uri, "--consumer", m_pair->replicas.constFirst().uri, "--marker-dn",
        m_marker, "--marker-rate", "10", "--duration", "2" };
    const QList<QPair<QStringList, QByteArray>> bad {
        { { "--supplier", m_pair->uri, "--marker-dn", m_marker, "--marker-rate", "1", "--duration", "1" },
            "--consumer" },
        { base + QStringList { "--uri", m_pair->uri }, "uri" },
        { base + QStringList { "--poll-ms", "0" }, "--poll-ms" },
        { base + QStringList { "--watch", "sometimes" }, "--watch" },
        { base + QStringList { "--max-lag-ms", "-1" }, "--max-lag-ms" },
        { base + QStringList { "--marker-rate", "5000" }, "--marker-rate" },
        { base + QStringList { "--consumer", m_pair->uri }, "--consumer" },
        { base + QStringList { "--ca-file", "/etc/hosts" }, "--ca-file" },
        { base + QStringList { "--consumer-bind-dn", m_pair->bindDn }, "--consumer-password-file" },
        { base + QStringList { "--consumer-password-file", m_pair->passwordFile }, "--consumer-bind-dn" },
        { base + QStringList { "--consumer-bind-dn", "not a dn", "--consumer-password-file", m_pair->passwordFile },
            "--consumer-bind-dn" },
        { base + QStringList { "--consumer-bind-dn", m_pair->bindDn, "--consumer-password-file", "/nonexistent/pw" },
            "--consumer-password-file" },
    };
    for (const auto& [args, field] : bad) {
        QProcess p;
        p.start(QStringLiteral(DIRBENCH_CLI_PATH), QStringList { "replication" } + args + connection());
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 2, qPrintable(args.join(u' ')));
        QVERIFY2(p.readAllStandardError().contains(field), field.constData());
    }
    QVERIFY(markerGone()); // nothing was written
}

void TstReplication::cliInterruptRemovesMarker()
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        QStringList { "replication", "--supplier", m_pair->uri, "--consumer", m_pair->replicas.constFirst().uri,
            "--marker-dn", m_marker, "--marker-rate", "10", "--duration", "60", "--no-history" }
            + connection());
    QVERIFY(p.waitForStarted());
    QByteArray out;
    const QDeadlineTimer deadline(30000);
    while (!out.contains("writes") && !deadline.hasExpired() && p.waitForReadyRead(int(deadline.remainingTime())))
        out += p.readAllStandardOutput();
    QVERIFY2(out.contains("writes"), out.constData()); // the first interval line: the marker entry exists
    QVERIFY(!markerGone());
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(20000));
    QCOMPARE(p.exitCode(), 1); // cancelled
    QVERIFY(markerGone());
}

// A pair of its own (two consumers): one is killed mid-run; the run goes on, measures the other, and warns.
void TstReplication::killedConsumerIsAWarning()
{
    SandboxOptions o;
    o.entries = 50;
    o.parentDir = m_parent.path();
    o.makeCurrent = false;
    o.topology = SandboxTopology::withReplicas(2);
    ProbeError e;
    SandboxGuard trio(SlapdSandbox::start(o, &e));
    QVERIFY2(trio.isValid(), qPrintable(e.message()));
    ReplicationSpec s = spec(20, 4);
    s.maxLagMs = 60000; // the live consumer passes; the killed one cannot, however long the bound
    s.failAfterS = 2;
    s.supplier.uri = trio->uri;
    QFile pw(trio->passwordFile);
    QVERIFY(pw.open(QIODevice::ReadOnly));
    s.supplier.password = pw.readAll().trimmed(); // the trio's own

    s.consumers = { s.supplier, s.supplier };
    s.consumers[0].uri = trio->replicas[0].uri;
    s.consumers[1].uri = trio->replicas[1].uri;
    RunContext ctx;
    RunRecord rec;
    std::thread run([&] { rec = Experiments::runReplication(s, ctx); });
    const QDeadlineTimer started(30000);
    while (ctx.samplesAdded() < 1 && !started.hasExpired() && !ctx.stopRequested())
        QThread::msleep(10);
    ::kill(pid_t(trio->replicas[1].pid), SIGKILL);
    run.join();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    QVERIFY(rec.hasWarning(QStringLiteral("consumer-unreachable")));
    const QJsonObject consumers = rec.summary.value("consumers").toObject();
    const QJsonObject alive = consumers.value(trio->replicas[0].uri).toObject();
    const QJsonObject dead = consumers.value(trio->replicas[1].uri).toObject();
    QCOMPARE(qint64(alive.value("markers_seen").toDouble()), qint64(rec.summary.value("markers_written").toDouble()));
    QVERIFY(dead.value("unseen").toInt() > 0); // kept, not dropped
    QVERIFY(dead.value("behind_for_at_least_s").toDouble() > 1);
    // Unreadable for longer than the failure window: a failed consumer in the verdict, not a warning beside a pass.
    QVERIFY2(dead.value("longest_unreadable_s").toDouble() > 2,
        qPrintable(QString::number(dead.value("longest_unreadable_s").toDouble())));
    QCOMPARE(rec.verdicts.size(), 2);
    for (const Verdict& v : rec.verdicts) {
        const bool isDead = v.requirement.contains(trio->replicas[1].uri);
        QVERIFY2(v.passed != isDead, qPrintable(v.requirement + u": " + v.note));
        if (isDead)
            QVERIFY2(v.note.contains(QStringLiteral("could not be read")), qPrintable(v.note));
    }
}

// The consumers are read as --consumer-bind-dn with --consumer-password-file: a wrong password there makes the only
// consumer unreadable (the run fails, exit 1), while the supplier, bound with --password-file, takes the markers.
void TstReplication::cliConsumerCredentials()
{
    const QString wrong = m_parent.path() + "/wrong-password";
    QFile f(wrong);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("not-the-password\n");
    f.close();
    const QStringList base { "--supplier", m_pair->uri, "--consumer", m_pair->replicas.constFirst().uri, "--marker-dn",
        m_marker, "--marker-rate", "10", "--duration", "1", "--no-history", "--json", "-" };
    const auto [bad, badOut] = cli(
        base + connection() + QStringList { "--consumer-bind-dn", m_pair->bindDn, "--consumer-password-file", wrong });
    QCOMPARE(bad, 1);
    const QJsonObject badRec = QJsonDocument::fromJson(badOut).object();
    QVERIFY(badRec.value("failure").toString().contains("no consumer"));
    QVERIFY(QJsonDocument(badRec.value("warnings").toArray()).toJson().contains("consumer-unreachable"));
    QVERIFY(markerGone());
    const auto [good, goodOut] = cli(base + connection()
        + QStringList { "--consumer-bind-dn", m_pair->bindDn, "--consumer-password-file", m_pair->passwordFile });
    QCOMPARE(good, 0);
    const QJsonObject rec = QJsonDocument::fromJson(goodOut).object();
    QCOMPARE(rec.value("spec").toObject().value("consumer_bind_dn").toString(), m_pair->bindDn);
    const QByteArray password = admin(m_pair->uri).password;
    QVERIFY(!password.isEmpty() && !goodOut.contains(password)); // never in the record
    QVERIFY(markerGone());
}

QTEST_GUILESS_MAIN(TstReplication)
#include "tst_replication.moc"
