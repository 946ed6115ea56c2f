// The replication probe beside a write load (core/experiments/replicationload.h) on a real OpenLDAP provider and
// syncrepl consumer: a short modify ramp runs on the supplier with the markers, its writes land there (the
// supplier's cn=Monitor counts them), each interval has the load's and the markers' write rates and a lag per
// consumer, the summary has the load's summary, the steps and the knee; an adddel load removes what it added and
// the marker entry is gone; the CLI takes the load options and refuses those that do not apply.
#include "core/experiments/replication.h"
#include "core/experiments/replicationload.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/monitorreader.h"
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

#include <csignal>
#include <functional>
#include <thread>
#include <time.h>

class TstReplicationLoad : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void rampedModifyLoadBesideTheProbe();
    void adddelEntriesAreRemoved();
    void specChecks();
    void cliRampRecord();
    void cliBadArguments();
    void cliInterruptCleansUp();
    void longGraceIsNoSupplierFailure();

private:
    LdapTarget admin(const QString& uri) const;
    ReplicationSpec spec(double rate) const;
    LdapLoadSpec modifyLoad() const;
    double modifiesCompleted();
    bool markerGone();
    int addedEntries(const QString& uri);
    QStringList cliBase() const;

    QTemporaryDir m_parent;
    SandboxGuard m_pair;
    QString m_consumer;
    const QString m_marker = QStringLiteral("cn=dirbench-load-marker,dc=example,dc=com");
};

void TstReplicationLoad::initTestCase()
{
    if (const QString why = LdapFixture::replicasUnavailable(); !why.isEmpty())
        QSKIP(qPrintable(why));
    ProbeError e;
    m_pair.reset(LdapFixture::startReplicated(m_parent.path(), 1, &e, 200));
    QVERIFY2(m_pair.isValid(), qPrintable(e.message()));
    m_consumer = m_pair->replicas.constFirst().uri;
}

LdapTarget TstReplicationLoad::admin(const QString& uri) const
{
    return LdapFixture::admin(m_pair.info(), uri);
}

ReplicationSpec TstReplicationLoad::spec(double rate) const
{
    ReplicationSpec s;
    s.supplier = admin(m_pair->uri);
    s.consumers = { admin(m_consumer) };
    s.markerDn = m_marker;
    s.markerRate = rate;
    return s;
}

LdapLoadSpec TstReplicationLoad::modifyLoad() const
{
    LdapLoadSpec l;
    l.mix = { { LdapOpKind::Modify, 1 } };
    l.dnPattern = QStringLiteral("uid=user[0-199],") + m_pair->peopleBase;
    l.attr = QStringLiteral("description");
    l.valuePattern = QStringLiteral("load-[0-999999]");
    l.threads = 1;
    l.connections = 1;
    return l;
}

double TstReplicationLoad::modifiesCompleted()
{
    LdapSession s;
    if (s.open(admin(m_pair->uri)).isError())
        return -1;
    MonitorReader reader(QStringLiteral("openldap"));
    ProbeError e;
    return reader.read(s, &e).value(QStringLiteral("modify_completed"), -1);
}

bool TstReplicationLoad::markerGone()
{
    LdapSession s;
    if (s.open(admin(m_pair->uri)).isError())
        return false;
    QList<LdapSession::Entry> found;
    const ProbeError e = s.search(m_marker, LdapSession::Base, QStringLiteral("(objectClass=*)"), {}, &found);
    return e.isError() && e.nativeCode == 32;
}

// Entries an adddel load names uid=dirbench-TAG-...: how many are under the people base of this server.
int TstReplicationLoad::addedEntries(const QString& uri)
{
    LdapSession s;
    if (s.open(admin(uri)).isError())
        return -1;
    QList<LdapSession::Entry> found;
    if (s.search(m_pair->peopleBase, LdapSession::OneLevel, QStringLiteral("(uid=dirbench-*)"), { "1.1" }, &found)
            .isError())
        return -1;
    return int(found.size());
}

void TstReplicationLoad::rampedModifyLoadBesideTheProbe()
{
    ReplicationSpec s = spec(10);
    LdapLoadSpec l = modifyLoad();
    l.ramp = QStringLiteral("rate:50,100@2");
    ReplicationLoad::attach(s, l);
    QCOMPARE(s.durationS, 4.0);
    QVERIFY2(!s.validate().isError(), qPrintable(s.validate().message()));
    const double before = modifiesCompleted();
    QVERIFY2(before >= 0, "the supplier's cn=Monitor (modify_completed) is readable by the sandbox's rootdn");
    RunContext ctx;
    const RunRecord rec = Experiments::runReplication(s, ctx);
    const double after = modifiesCompleted();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));

    // Every measured interval: the load's and the markers' write rates, their sum, the step, a lag.
    QVERIFY(rec.intervals.size() >= 4);
    double stepWrites[2] = { 0, 0 };
    for (int i = 0; i < 4; ++i) {
        const QJsonObject iv = rec.intervals.at(i).toObject();
        const double load = iv.value("load_write_ok_per_s").toDouble(-1);
        const double marker = iv.value("marker_write_ok_per_s").toDouble(-1);
        QVERIFY2(load > 0 && marker > 0, qPrintable(QJsonDocument(iv).toJson(QJsonDocument::Compact)));
        QVERIFY(std::abs(iv.value("write_ok_per_s").toDouble() - load - marker) < 1e-6);
        QCOMPARE(iv.value("step").toInt(-1), i / 2);
        QCOMPARE(iv.value("target_rate").toDouble(), i < 2 ? 50.0 : 100.0);
        const QJsonObject c = iv.value("consumers").toObject().value(m_consumer).toObject();
        QVERIFY2(c.value("lag_ms").isObject(), qPrintable(QJsonDocument(iv).toJson(QJsonDocument::Compact)));
        stepWrites[i / 2] += load;
    }
    qInfo("load writes per s: step 0 %.1f, step 1 %.1f", stepWrites[0] / 2, stepWrites[1] / 2);
    QVERIFY(stepWrites[1] > stepWrites[0]);

    // The summary: the load's own, the write rates, the load's writes counted by the supplier itself.
    const QJsonObject sum = rec.summary;
    const QJsonObject load = sum.value("load").toObject();
    QCOMPARE(load.value("status").toString(), QStringLiteral("ok"));
    const double ok = load.value("ok").toDouble();
    QVERIFY2(ok >= 150 && load.value("errors").toDouble() == 0, qPrintable(QString::number(ok)));
    QVERIFY(std::abs(sum.value("write_ok_per_s").toDouble() - sum.value("load_write_ok_per_s").toDouble()
                - sum.value("marker_write_ok_per_s").toDouble())
        < 1e-6);
    const double markers = sum.value("markers_written").toDouble();
    qInfo("supplier modify_completed +%.0f: load %.0f ok, %.0f markers", after - before, ok, markers);
    QVERIFY2(after - before >= ok + markers, qPrintable(QString::number(after - before)));
    QVERIFY(load.value("server").toObject().value("modify_completed").toDouble() >= ok);

    // The steps and the knee (there may or may not be one on an idle pair; the keys are there).
    const QJsonArray steps = sum.value("steps").toArray();
    QCOMPARE(steps.size(), 2);
    for (int i = 0; i < 2; ++i) {
        const QJsonObject st = steps.at(i).toObject();
        QCOMPARE(st.value("target_rate").toDouble(), i == 0 ? 50.0 : 100.0);
        QVERIFY(st.value("write_rate").toDouble() > 0);
        const QJsonObject c = st.value("consumers").toObject().value(m_consumer).toObject();
        QVERIFY2(c.value("p99_ms").isDouble() && c.value("markers").toInt() >= 10,
            qPrintable(QJsonDocument(st).toJson(QJsonDocument::Compact)));
    }
    QVERIFY(sum.contains("knee_write_rate") && sum.contains("knee_step"));

    // Both lags of every marker: from the send is never below from the ack (every order statistic follows), and
    // the markers the consumer showed before their ack came are counted, never more than those seen.
    const QJsonObject c = sum.value("consumers").toObject().value(m_consumer).toObject();
    const QJsonObject fromAck = c.value("lag_ms").toObject(), fromSend = c.value("lag_from_send_ms").toObject();
    for (const char* k : { "p50", "p99", "max" })
        QVERIFY2(fromSend.value(k).toDouble() >= fromAck.value(k).toDouble(),
            qPrintable(QJsonDocument(c).toJson(QJsonDocument::Compact)));
    QCOMPARE(fromSend.value("markers").toInt(), fromAck.value("markers").toInt());
    const qint64 beforeAck = qint64(c.value("seen_before_ack").toDouble(-1));
    qInfo("under the write load: lag from the ack p50/p99 %.1f/%.1f ms, from the send %.1f/%.1f ms, %lld markers seen "
          "before their ack, %lld missed",
        fromAck.value("p50").toDouble(), fromAck.value("p99").toDouble(), fromSend.value("p50").toDouble(),
        fromSend.value("p99").toDouble(), static_cast<long long>(beforeAck),
        static_cast<long long>(sum.value("markers_missed").toDouble(-1)));
    QVERIFY(beforeAck >= 0 && beforeAck <= c.value("markers_seen").toInt());
    QVERIFY(sum.value("markers_missed").toDouble(-1) >= 0);
    timespec now {};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const double t0 = sum.value("t0_monotonic_s").toDouble();
    QVERIFY(t0 > 0 && t0 < double(now.tv_sec) + 1);
    QVERIFY(markerGone());
}

void TstReplicationLoad::adddelEntriesAreRemoved()
{
    ReplicationSpec s = spec(10);
    LdapLoadSpec l = modifyLoad();
    l.mix = { { LdapOpKind::Modify, 1 }, { LdapOpKind::AddDelete, 1 } };
    l.parentDn = m_pair->peopleBase;
    l.rate = 40;
    l.durationSec = 2;
    ReplicationLoad::attach(s, l);
    RunContext ctx;
    const RunRecord rec = Experiments::runReplication(s, ctx);
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QJsonObject load = rec.summary.value("load").toObject();
    const QJsonObject byOp = load.value("by_operation").toObject();
    QVERIFY(byOp.value("adddel").toObject().value("ok").toDouble() > 0);
    QVERIFY(byOp.value("modify").toObject().value("ok").toDouble() > 0);
    QVERIFY(load.value("cleanup_removed").isDouble());
    QVERIFY(rec.summary.value("load_write_ok_per_s").toDouble() > 0);
    QVERIFY(!rec.summary.contains("steps")); // no ramp
    QCOMPARE(addedEntries(m_pair->uri), 0);
    QVERIFY(markerGone());
    // The deletes replicate too: the consumer ends without them (polled: replication has no signal to wait on).
    const QDeadlineTimer deadline(15000);
    while (addedEntries(m_consumer) != 0 && !deadline.hasExpired())
        QThread::msleep(100);
    QCOMPARE(addedEntries(m_consumer), 0);
}

void TstReplicationLoad::specChecks()
{
    auto fieldOf = [this](const std::function<void(ReplicationSpec&, LdapLoadSpec&)>& change) {
        ReplicationSpec s = spec(10);
        LdapLoadSpec l = modifyLoad();
        change(s, l);
        ReplicationLoad::attach(s, l);
        return s.validate().field;
    };
    QCOMPARE(fieldOf([](ReplicationSpec&, LdapLoadSpec&) {}), QString());
    QCOMPARE(fieldOf([](ReplicationSpec&, LdapLoadSpec& l) {
        l.mix = { { LdapOpKind::Search, 1 } };
        l.base = QStringLiteral("dc=example,dc=com");
        l.filter = QStringLiteral("(uid=user1)");
    }),
        QStringLiteral("mix"));
    QCOMPARE(fieldOf([](ReplicationSpec&, LdapLoadSpec& l) { l.ramp = QStringLiteral("rate:10,20@1.5"); }),
        QStringLiteral("ramp"));
    QCOMPARE(fieldOf([](ReplicationSpec&, LdapLoadSpec& l) { l.durationSec = 2.5; }), QStringLiteral("duration"));
    QCOMPARE(fieldOf([](ReplicationSpec&, LdapLoadSpec& l) { l.valuePattern = QStringLiteral("[9-1]"); }),
        QStringLiteral("value"));
    ReplicationSpec s = spec(10);
    ReplicationLoad::attach(s, modifyLoad());
    s.load->target.uri = m_consumer; // changed after attach
    QCOMPARE(s.validate().field, QStringLiteral("supplier"));
    s = spec(10);
    ReplicationLoad::attach(s, modifyLoad());
    s.durationS = 3;
    QCOMPARE(s.validate().field, QStringLiteral("duration"));
}

QStringList TstReplicationLoad::cliBase() const
{
    return { "replication", "--supplier", m_pair->uri, "--consumer", m_consumer, "--marker-dn", m_marker,
        "--marker-rate", "10", "--bind-dn", m_pair->bindDn, "--password-file", m_pair->passwordFile, "--no-history" };
}

void TstReplicationLoad::cliRampRecord()
{
    QProcess help;
    help.start(QStringLiteral(DIRBENCH_CLI_PATH), { "replication", "--help" });
    QVERIFY(help.waitForFinished(30000));
    const QByteArray text = help.readAllStandardOutput();
    QCOMPARE(help.exitCode(), 0);
    for (const char* want : { "--mix", "--ramp", "--rate", "--threads", "--warmup", "--interval", "knee" })
        QVERIFY2(text.contains(want), want);

    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        cliBase()
            + QStringList { "--mix", "modify=1", "--dn", "uid=user[0-199]," + m_pair->peopleBase, "--attr",
                "description", "--value", "cli-[0-999]", "--ramp", "rate:20,40@1", "--threads", "1", "--json", "-" });
    QVERIFY(p.waitForFinished(120000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QJsonObject rec = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(rec.value("kind").toString(), QStringLiteral("replication"));
    QVERIFY(rec.value("spec").toObject().value("load").isObject());
    QVERIFY(rec.value("intervals").toArray().first().toObject().value("load_write_ok_per_s").toDouble() > 0);
    const QJsonObject sum = rec.value("summary").toObject();
    QCOMPARE(sum.value("steps").toArray().size(), 2);
    QVERIFY(sum.contains("knee_write_rate"));
    QVERIFY(sum.value("load").toObject().value("ok").toDouble() > 0);
    QVERIFY(markerGone());
}

void TstReplicationLoad::cliBadArguments()
{
    const QStringList modify { "--mix", "modify=1", "--dn", "uid=user[0-199]," + m_pair->peopleBase, "--attr",
        "description", "--value", "x" };
    const QList<QPair<QStringList, QByteArray>> bad {
        { { "--duration", "2", "--mix", "search=1", "--filter", "(uid=user1)", "--base", "dc=example,dc=com" },
            "--mix" },
        { { "--duration", "2", "--rate", "10" }, "--rate" },
        { { "--duration", "2", "--ramp", "rate:10,20@1" }, "--ramp" },
        { modify + QStringList { "--ramp", "rate:10,20@1", "--duration", "2" }, "--duration" },
        { modify + QStringList { "--duration", "2.5" }, "--duration" },
        { modify + QStringList { "--ramp", "rate:10,20@1.5" }, "--ramp" },
        { modify + QStringList { "--duration", "2", "--filter", "(uid=x)" }, "--filter" },
        { modify + QStringList { "--duration", "2", "--threads", "0" }, "--threads" },
        { modify, "--duration" },
    };
    for (const auto& [args, field] : bad) {
        QProcess p;
        p.start(QStringLiteral(DIRBENCH_CLI_PATH), cliBase() + args);
        QVERIFY(p.waitForFinished(30000));
        const QByteArray err = p.readAllStandardError();
        QVERIFY2(p.exitCode() == 2, qPrintable(args.join(u' ')));
        QVERIFY2(err.contains(field), qPrintable(args.join(u' ') + u'\n' + QString::fromUtf8(err)));
    }
    QVERIFY(markerGone()); // nothing was written
}

// Ctrl-C in the middle of an adddel load beside the probe: cancelled (exit 1), the load's entries and the marker
// entry removed all the same.
void TstReplicationLoad::cliInterruptCleansUp()
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        cliBase()
            + QStringList { "--mix", "adddel=1", "--parent", m_pair->peopleBase, "--rate", "50", "--threads", "1",
                "--duration", "60" });
    QVERIFY(p.waitForStarted());
    QByteArray out;
    const QDeadlineTimer deadline(30000);
    while (!out.contains("writes") && !deadline.hasExpired() && p.waitForReadyRead(int(deadline.remainingTime())))
        out += p.readAllStandardOutput();
    QVERIFY2(out.contains("writes"), out.constData()); // measuring: entries are being added
    QVERIFY(!markerGone());
    ::kill(pid_t(p.processId()), SIGINT);
    QVERIFY(p.waitForFinished(30000));
    out += p.readAllStandardOutput();
    QCOMPARE(p.exitCode(), 1); // cancelled
    QVERIFY2(out.contains("added entries removed"), out.constData());
    QCOMPARE(addedEntries(m_pair->uri), 0);
    QVERIFY(markerGone());
}

// A consumer far behind at the end (as after a ramp past the knee): the grace outlasts the failure window, and the
// supplier, whose writer has stopped, is not taken for lost (it was, before: "acknowledged no marker for ... s").
void TstReplicationLoad::longGraceIsNoSupplierFailure()
{
    ReplicationSpec s = spec(20);
    s.durationS = 2;
    s.failAfterS = 0.5;
    const qint64 pid = m_pair->replicas.constFirst().pid;
    RunContext ctx;
    RunRecord rec;
    std::thread run([&] { rec = Experiments::runReplication(s, ctx); });
    const QDeadlineTimer started(30000);
    while (ctx.samplesAdded() < 1 && !started.hasExpired())
        QThread::msleep(10);
    ::kill(pid_t(pid), SIGSTOP); // the injected fault, timed on purpose: 2.5 s, past the end of the markers
    QThread::msleep(2500);
    ::kill(pid_t(pid), SIGCONT);
    run.join();
    QVERIFY2(rec.status == u"ok", qPrintable(rec.failure));
    const QJsonObject c = rec.summary.value("consumers").toObject().value(m_consumer).toObject();
    QCOMPARE(c.value("unseen").toInt(), 0); // caught up in the grace
    QVERIFY(c.value("lag_ms").toObject().value("max").toDouble() > 1000);
    QVERIFY(markerGone());
}

QTEST_GUILESS_MAIN(TstReplicationLoad)
#include "tst_replicationload.moc"
