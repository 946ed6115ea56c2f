// The agents' `ldap` command line made from an LdapLoadSpec (agentargs.h: `ldap --agents` and the LDAP page), the
// split's rules with their field names, and the agents' status samples (agentlive.h) that are never intervals.
// That every operation's line is taken by a real agent: tst_agents (CLI) and tst_ldapagents (the page).
#include "core/agents/agentargs.h"
#include "core/agents/agentlive.h"
#include "core/agents/remoteanalyze.h"
#include "core/agents/remoterun.h"
#include "core/common/sample.h"
#include "core/disk/diskspec.h"

#include <QTest>

#include <cmath>

class TestAgentArgs : public QObject
{
    Q_OBJECT
private slots:
    void searchCarriesTheTargetButNoSecretNorShare();
    void optionsFollowTheOperation();
    void splitRulesNameTheirField();
    void rateRampIsSplitStepByStep();
    void statusSamplesRoundTrip();
    void diskSpecCrossesAsAsked();
    void engineSpecIsChecked();
    void launchFailuresSayWhich();
    void intervalsRoundTrip();
    void hostPathsAreNamed();
};

namespace {

QString valueOf(const QStringList& args, const QString& option)
{
    const qsizetype i = args.indexOf(option);
    return i >= 0 && i + 1 < args.size() ? args.at(i + 1) : QString();
}

} // namespace

void TestAgentArgs::searchCarriesTheTargetButNoSecretNorShare()
{
    LdapLoadSpec s;
    s.target.uri = "ldaps://ds1.example.com:636";
    s.target.auth = LdapTarget::Auth::Simple;
    s.target.bindDn = "cn=admin,dc=example,dc=com";
    s.target.password = "s3cret";
    s.target.caFile = "/etc/ssl/ca.pem";
    s.target.opTimeoutMs = 2500;
    s.base = "ou=people,dc=example,dc=com";
    s.filter = "(uid=user[0-99])";
    s.attrs = { "cn", "mail" };
    s.threads = 8;
    s.rate = 1000;
    s.okCodes = { 0, 32 };
    const QStringList a = Agents::agentLoadArgs(s);
    QCOMPARE(a.first(), QStringLiteral("search"));
    QCOMPARE(valueOf(a, "--uri"), s.target.uri);
    QCOMPARE(valueOf(a, "--bind-dn"), s.target.bindDn);
    QCOMPARE(valueOf(a, "--ca-file"), s.target.caFile);
    QCOMPARE(valueOf(a, "--op-timeout"), QStringLiteral("2.5"));
    QCOMPARE(valueOf(a, "--filter"), s.filter);
    QCOMPARE(valueOf(a, "--attrs"), QStringLiteral("cn,mail"));
    QCOMPARE(valueOf(a, "--ok-codes"), QStringLiteral("0,32"));
    QCOMPARE(valueOf(a, "--duration"), QStringLiteral("10"));
    QCOMPARE(a.last(), QStringLiteral("--no-server-counters"));
    for (const QString& x : a)
        QVERIFY2(!x.contains("s3cret"), qPrintable(x)); // the password goes over the agent's stdin only
    QVERIFY(!a.contains("--threads")); // set per agent by the coordinator
    QVERIFY(!a.contains("--rate"));
    QVERIFY(!a.contains("--password-file"));
}

void TestAgentArgs::optionsFollowTheOperation()
{
    LdapLoadSpec bind;
    bind.target.uri = "ldap://127.0.0.1:389";
    bind.mix = { { LdapOpKind::Bind, 100 } };
    bind.dnPattern = "uid=user[0-9],ou=people,dc=example,dc=com";
    bind.bindNewConnection = true;
    const QStringList b = Agents::agentLoadArgs(bind);
    QCOMPARE(b.first(), QStringLiteral("bind"));
    QCOMPARE(valueOf(b, "--mode"), QStringLiteral("new-connection"));
    QVERIFY(!b.contains("--connections")); // refused with new-connection binds: each bind has its own
    QVERIFY(!b.contains("--outstanding")); // a bind is alone on its connection
    QVERIFY(!b.contains("--filter"));

    LdapLoadSpec mixed = bind;
    mixed.mix = { { LdapOpKind::Search, 80 }, { LdapOpKind::AddDelete, 20 } };
    mixed.filter = "(uid=x)";
    mixed.parentDn = "ou=people,dc=example,dc=com";
    mixed.ramp = "outstanding:1,2@5";
    const QStringList m = Agents::agentLoadArgs(mixed);
    QCOMPARE(m.mid(0, 3), QStringList({ "mixed", "--mix", "search=80,adddel=20" }));
    QCOMPARE(valueOf(m, "--parent"), mixed.parentDn);
    QVERIFY(!m.contains("--dn")); // neither search nor adddel takes it
    QVERIFY(!m.contains("--mode"));
    QCOMPARE(valueOf(m, "--ramp"), mixed.ramp);
    QVERIFY(!m.contains("--duration")); // the ramp sets it
}

void TestAgentArgs::splitRulesNameTheirField()
{
    LdapLoadSpec s;
    s.threads = 3;
    QVERIFY(!Agents::checkAgentSplit(s, 3).isError());
    const ProbeError few = Agents::checkAgentSplit(s, 4);
    QCOMPARE(few.field, QStringLiteral("threads"));
    QVERIFY2(few.detail.startsWith("3 threads for 4 agents"), qPrintable(few.detail));
    s.ramp = "rate:100,200@5";
    QVERIFY(!Agents::checkAgentSplit(s, 2).isError()); // split step by step (agentRamp)
}

// A rate ramp's steps are split as --rate is; the agents' steps add up to the ramp's. An outstanding ramp is per
// thread: every agent runs it as given.
void TestAgentArgs::rateRampIsSplitStepByStep()
{
    QCOMPARE(Agents::agentRamp("rate:1000,3000@5", 0, 2), QStringLiteral("rate:500,1500@5"));
    QCOMPARE(Agents::agentRamp("rate:1000,3000@5", 1, 2), QStringLiteral("rate:500,1500@5"));
    double first = 0, second = 0; // whole rates split in whole shares (334, 333, 333), others evenly
    for (int i = 0; i < 3; ++i) {
        const auto r = LoadRamp::parse(Agents::agentRamp("rate:1000,12.5@2.5", i, 3), nullptr);
        QVERIFY(r && r->what == LoadRamp::What::Rate);
        QCOMPARE(r->values.size(), 2);
        QCOMPARE(r->stepSeconds, 2.5);
        QVERIFY(r->values.at(0) == 333 || r->values.at(0) == 334);
        first += r->values.at(0);
        second += r->values.at(1);
    }
    QCOMPARE(first, 1000.0);
    QVERIFY(std::abs(second - 12.5) < 1e-9);
    QCOMPARE(Agents::agentRamp("outstanding:1,2,4@5", 1, 2), QStringLiteral("outstanding:1,2,4@5"));
}

void TestAgentArgs::statusSamplesRoundTrip()
{
    Agents::AgentsLive live;
    live.rows = { { "local 1", "running", 10.5, 11, 42, 0.25 }, { "local 2", "lost", 0, 0, 7, -1 } };
    const Sample s = live.toSample(3.5);
    QVERIFY(s.isStatus());
    QCOMPARE(s.t, 3.5);
    const auto back = Agents::AgentsLive::fromSample(s);
    QVERIFY(back);
    QCOMPARE(back->rows, live.rows);
    Sample interval;
    interval.values = { { "ok", 5 } };
    QVERIFY(!interval.isStatus());
    QVERIFY(!Agents::AgentsLive::fromSample(interval));
}

QTEST_MAIN(TestAgentArgs)
// A disk test on a host gets the spec as asked: defaults stay defaults (the dd profile refuses a size), every
// field set survives, and a field the agent does not know is named.
void TestAgentArgs::diskSpecCrossesAsAsked()
{
    DiskSpec dd;
    dd.profile = DiskProfile::Dd;
    dd.dir = QStringLiteral("/srv/data");
    QString why;
    const auto back = DiskSpec::fromWire(dd.toWire(), &why);
    QVERIFY2(back, qPrintable(why));
    QVERIFY(*back == dd);
    QVERIFY(!back->validateValues().isError());

    DiskSpec s;
    s.profile = DiskProfile::RandRead;
    s.dir = QStringLiteral("/var/lib/dirsrv");
    s.sizeBytes = 64 << 20;
    s.blockBytes = 8192;
    s.queueDepth = 8;
    s.durationSec = 12.5;
    s.repeat = 3;
    s.data = DiskData::Zeros;
    s.engine = IoEngineChoice::Threads;
    s.forceBuffered = true;
    s.intervalMs = 500;
    s.requirementProfile = QStringLiteral("seed");
    s.untilSteadySec = 90;
    const auto back2 = DiskSpec::fromWire(s.toWire(), &why);
    QVERIFY2(back2, qPrintable(why));
    QVERIFY(*back2 == s);

    QJsonObject wrong = s.toWire();
    wrong.insert(QStringLiteral("engine"), QStringLiteral("libaio"));
    QVERIFY(!DiskSpec::fromWire(wrong, &why));
    QVERIFY2(why.contains(QLatin1String("engine 'libaio'")), qPrintable(why));
}

// The agent checks its engine and the spec's values before it runs anything.
void TestAgentArgs::engineSpecIsChecked()
{
    Agents::AgentSpec spec;
    spec.engine = QStringLiteral("fio");
    QString why;
    QVERIFY(!Agents::engineJob(spec, &why));
    QVERIFY2(why.contains(QLatin1String("engine 'fio'")), qPrintable(why));
    DiskSpec d;
    d.dir = QStringLiteral("/nonexistent-dir");
    spec.engine = QStringLiteral("disk");
    spec.engineSpec = d.toWire();
    QVERIFY(!Agents::engineJob(spec, &why));
    QCOMPARE(why, QStringLiteral("--dir: /nonexistent-dir does not exist"));
    const auto parsed = Agents::AgentSpec::fromJson(spec.toJson(), &why);
    QVERIFY2(parsed, qPrintable(why));
    QCOMPARE(parsed->engine, QStringLiteral("disk"));
    QCOMPARE(parsed->engineSpec, d.toWire());
}

void TestAgentArgs::launchFailuresSayWhich()
{
    Agents::RemoteRunSpec r;
    r.host = Agents::AgentHost::named(QStringLiteral("ldap1"));
    QCOMPARE(Agents::launchFailureText(r, 255, QStringLiteral("ssh: Could not resolve hostname ldap1\n")),
        QStringLiteral("cannot reach ldap1 over ssh: ssh: Could not resolve hostname ldap1"));
    QVERIFY(Agents::launchFailureText(r, 127, QStringLiteral("sh: 1: dirbench-cli: not found"))
                .startsWith(QLatin1String("dirbench-cli is not installed on ldap1 (not found on its PATH): install the "
                                          "dirbench-cli package there")));
    QCOMPARE(Agents::launchFailureText(r, 3, QStringLiteral("boom\n")),
        QStringLiteral("the agent on ldap1 ended before it answered (exit status 3): boom"));
}

void TestAgentArgs::intervalsRoundTrip()
{
    Sample s;
    s.series = QStringLiteral("rand-read qd8");
    s.t = 1.25;
    s.values = QJsonObject { { QStringLiteral("mb_per_s"), 12.5 } };
    const Sample back = Sample::fromJson(s.toJson());
    QCOMPARE(back.series, s.series);
    QCOMPARE(back.t, s.t);
    QCOMPARE(back.values, s.values);
}

// HOST:/path names a file on a host; a local path (also one with a colon in a name) does not; logs on two machines
// are refused, naming both.
void TestAgentArgs::hostPathsAreNamed()
{
    const auto hp = Agents::hostPath(QStringLiteral("admin@ldap1:/var/log/dirsrv/slapd-x/access*"));
    QVERIFY(hp);
    QCOMPARE(hp->host, QStringLiteral("admin@ldap1"));
    QCOMPARE(hp->path, QStringLiteral("/var/log/dirsrv/slapd-x/access*"));
    QVERIFY(!Agents::hostPath(QStringLiteral("/var/log/a:b")));
    QVERIFY(!Agents::hostPath(QStringLiteral("ldap1:relative")));
    QVERIFY(!Agents::hostPath(QStringLiteral("-")));
    QString why;
    QCOMPARE(
        Agents::logsHost({ QStringLiteral("ldap1:/a"), QStringLiteral("ldap1:/b") }, &why), QStringLiteral("ldap1"));
    QVERIFY(why.isEmpty());
    QCOMPARE(Agents::logsHost({ QStringLiteral("/a"), QStringLiteral("-") }, &why), QString());
    QVERIFY(why.isEmpty());
    QVERIFY(Agents::logsHost({ QStringLiteral("ldap1:/a"), QStringLiteral("ldap2:/a") }, &why).isEmpty());
    QVERIFY2(why.contains(QLatin1String("ldap1 and ldap2")), qPrintable(why));
    why.clear();
    QVERIFY(Agents::logsHost({ QStringLiteral("ldap1:/a"), QStringLiteral("/b") }, &why).isEmpty());
    QVERIFY2(why.contains(QLatin1String("here and on ldap1")), qPrintable(why));
}

#include "tst_agentargs.moc"
