// The exact merge of agents' loads (no server): the split of totals, intervals merged bucket-wise with percentiles
// read from the merged histogram (not averaged), sums that stay exact, records refused when they do not line up,
// the protocol's line framing and clock rounds, and the --agents list.
#include "core/agents/agenthosts.h"
#include "core/agents/agentmerge.h"
#include "core/agents/agentprotocol.h"
#include "core/agents/coordinator.h"
#include "core/agents/k8smanifest.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <utility>

class TstAgentMerge : public QObject
{
    Q_OBJECT
private slots:
    void splitsAsEvenlyAsPossible();
    void histogramsMergeBucketWise();
    void percentilesComeFromTheMergedHistogram();
    void sumsStayExact();
    void sendLagsMergeExactly();
    void missingIntervalsCountAgentsReporting();
    void recordsThatDoNotLineUpAreRefused();
    void lineBufferKeepsPartialLines();
    void lowestRoundTripWins();
    void agentListForms();
    void ansibleGroupsFollowChildren();
    void k8sManifestIsAnIndexedJobWithStdin();
    void k8sPodsAreAttachedTo();
};

namespace {

// An interval as an agent sends it: `n` successes at `latencyNs`, `errors` failures (code 32).
LoadInterval agentInterval(uint64_t n, uint64_t latencyNs, uint64_t errors = 0, double seconds = 1.0)
{
    LoadCounts c;
    c.latency.recordN(latencyNs, n + errors);
    c.ok = n;
    c.errors = errors;
    c.resultCodes[0] = n;
    if (errors)
        c.resultCodes[32] = errors;
    LoadInterval iv;
    iv.seconds = seconds;
    iv.t = seconds;
    iv.all = OpFigures::of(c, seconds);
    iv.all.latencyHistogramNs = c.latency.toJson();
    OpFigures search = iv.all;
    iv.byOperation[QStringLiteral("search")] = search;
    return LoadInterval::fromJson(iv.toJson()); // as it arrives over the wire
}

uint64_t bucketCount(const QJsonObject& h, int bucket)
{
    return uint64_t(h.value(QStringLiteral("buckets")).toObject().value(QString::number(bucket)).toDouble());
}

} // namespace

void TstAgentMerge::splitsAsEvenlyAsPossible()
{
    QCOMPARE(Agents::splitEvenly(10, 3), (QList<int> { 4, 3, 3 }));
    QCOMPARE(Agents::splitEvenly(3, 3), (QList<int> { 1, 1, 1 }));
    QCOMPARE(Agents::splitEvenly(64, 64).count(1), 64);
    QCOMPARE(Agents::splitRate(1000, 3), (QList<double> { 334, 333, 333 }));
    QCOMPARE(Agents::splitRate(0, 2), (QList<double> { 0, 0 }));
    const QList<double> frac = Agents::splitRate(2.5, 2);
    QCOMPARE(frac, (QList<double> { 1.25, 1.25 }));
    double sum = 0;
    for (double r : Agents::splitRate(100003, 7))
        sum += r;
    QCOMPARE(sum, 100003.0);
}

void TstAgentMerge::histogramsMergeBucketWise()
{
    const LoadInterval a = agentInterval(100, 300000); // 0.3 ms
    const LoadInterval b = agentInterval(50, 300000);
    const LoadInterval c = agentInterval(7, 9000000); // 9 ms
    const LoadInterval m = Agents::mergeInterval({ a, b, c }, true);
    const int fast = LatencyHistogram::bucketOf(300000), slow = LatencyHistogram::bucketOf(9000000);
    QCOMPARE(bucketCount(m.all.latencyHistogramNs, fast), uint64_t(150));
    QCOMPARE(bucketCount(m.all.latencyHistogramNs, slow), uint64_t(7));
    QCOMPARE(m.all.latencyHistogramNs.value(QStringLiteral("count")).toDouble(), 157.0);
    QCOMPARE(bucketCount(m.byOperation.at(QStringLiteral("search")).latencyHistogramNs, fast), uint64_t(150));
    // without keepHistograms the merged interval carries none, its figures are the same
    const LoadInterval bare = Agents::mergeInterval({ a, b, c }, false);
    QVERIFY(bare.all.latencyHistogramNs.isEmpty());
    QCOMPARE(bare.all.latencyMs.p99, m.all.latencyMs.p99);
}

void TstAgentMerge::percentilesComeFromTheMergedHistogram()
{
    // Agent A: 990 fast operations; agent B: 10 slow ones. The run's p95 is fast, its p99.9 slow; the average of
    // the agents' p95 (0.3 and 9 ms) would be 4.65 ms, which no operation took.
    const LoadInterval a = agentInterval(990, 300000);
    const LoadInterval b = agentInterval(10, 9000000);
    const LoadInterval m = Agents::mergeInterval({ a, b }, false);
    QVERIFY(m.all.latencyMs.p95);
    QVERIFY2(std::abs(*m.all.latencyMs.p95 - 0.3) < 0.01, qPrintable(QString::number(*m.all.latencyMs.p95)));
    QVERIFY(std::abs(*m.all.latencyMs.p999 - 9.0) < 0.05 || std::abs(*m.all.latencyMs.max - 9.0) < 0.05);
    const double averaged = (*a.all.latencyMs.p95 + *b.all.latencyMs.p95) / 2;
    QVERIFY(std::abs(*m.all.latencyMs.p95 - averaged) > 4.0);
    QCOMPARE(*m.all.latencyMs.max, *b.all.latencyMs.max);
    const LoadInterval kept = Agents::mergeInterval({ a, b }, true);
    QCOMPARE(LatencyHistogram::fromJson(kept.all.latencyHistogramNs).min(),
        LatencyHistogram::fromJson(a.all.latencyHistogramNs).min());
}

void TstAgentMerge::sumsStayExact()
{
    QList<QList<LoadInterval>> perAgent;
    QList<LoadSummary> summaries;
    double okSum = 0, errSum = 0;
    for (int agent = 0; agent < 3; ++agent) {
        QList<LoadInterval> list;
        for (int k = 0; k < 5; ++k) {
            const uint64_t ok = uint64_t(97 + agent * 13 + k), errors = uint64_t(agent);
            list << agentInterval(ok, uint64_t(200000 + 50000 * k), errors);
            okSum += double(ok);
            errSum += double(errors);
        }
        perAgent << list;
        LoadSummary s;
        s.seconds = 5.0 + agent * 0.001;
        s.clientCpuS = 0.5;
        s.loadCpuS = 0.25;
        summaries << s;
    }
    const QList<LoadInterval> merged = Agents::mergeByIndex(perAgent, false);
    QCOMPARE(merged.size(), 5);
    double intervalOk = 0;
    for (const LoadInterval& iv : merged) {
        intervalOk += iv.all.ok;
        QCOMPARE(iv.agentsReporting, std::optional<int>(3));
    }
    const LoadSummary s = Agents::mergeSummary(perAgent, summaries);
    QCOMPARE(s.all.ok, okSum);
    QCOMPARE(intervalOk, okSum);
    QCOMPARE(s.all.errors, errSum);
    QCOMPARE(s.all.resultCodes.at(32), errSum);
    QCOMPARE(s.byOperation.at(QStringLiteral("search")).ok, okSum);
    QCOMPARE(s.seconds, 5.002);
    QCOMPARE(*s.clientCpuS, 1.5);
    QCOMPARE(LatencyHistogram::fromJson(s.latencyHistogramNs).count(), uint64_t(okSum + errSum));
    QVERIFY(!s.sendLagMs.p50); // closed loop: no send lag
    QVERIFY(s.sendLagHistogramNs.isEmpty());
}

// Open loop: each agent's send lags merge bucket-wise, as the latencies do, and the percentiles come from the merged
// histogram (agent 0 sends 900 on time, agent 1 100 late: the p99 is agent 1's, the p50 agent 0's).
void TstAgentMerge::sendLagsMergeExactly()
{
    QList<LoadSummary> summaries;
    for (const auto& [n, lagNs] : { std::pair<uint64_t, uint64_t> { 900, 20000 }, { 100, 5000000 } }) {
        LatencyHistogram h;
        h.recordN(lagNs, n);
        LoadSummary a;
        a.seconds = 2;
        a.sendLagMs = LatencyFigures::of(h);
        a.sendLagHistogramNs = h.toJson();
        summaries << LoadSummary::fromJson(a.toJson()); // as it arrives over the wire
    }
    const LoadSummary s = Agents::mergeSummary({ { agentInterval(10, 1000) }, { agentInterval(10, 1000) } }, summaries);
    QCOMPARE(LatencyHistogram::fromJson(s.sendLagHistogramNs).count(), uint64_t(1000));
    QVERIFY(std::abs(*s.sendLagMs.p50 - 0.02) < 0.001);
    QVERIFY(std::abs(*s.sendLagMs.p99 - 5.0) < 0.03);
    QVERIFY(std::abs(*s.sendLagMs.mean - (900 * 0.02 + 100 * 5.0) / 1000) < 0.001);
    QVERIFY(s.toJson().contains(QStringLiteral("send_lag_ms")));
    // An agent that had send lags but sent no histogram (an older one): no merged figure rather than a wrong one.
    summaries[1].sendLagHistogramNs = {};
    QVERIFY(
        !Agents::mergeSummary({ { agentInterval(10, 1000) }, { agentInterval(10, 1000) } }, summaries).sendLagMs.p50);
}

void TstAgentMerge::missingIntervalsCountAgentsReporting()
{
    const QList<LoadInterval> lost { agentInterval(10, 100000), agentInterval(10, 100000) };
    const QList<LoadInterval> full { agentInterval(5, 100000), agentInterval(5, 100000), agentInterval(5, 100000) };
    const QList<LoadInterval> merged = Agents::mergeByIndex({ lost, full }, false);
    QCOMPARE(merged.size(), 3);
    QCOMPARE(merged.at(1).agentsReporting, std::optional<int>(2));
    QCOMPARE(merged.at(1).all.ok, 15.0);
    QCOMPARE(merged.at(2).agentsReporting, std::optional<int>(1));
    QCOMPARE(merged.at(2).all.ok, 5.0);
}

void TstAgentMerge::recordsThatDoNotLineUpAreRefused()
{
    auto rec = [](double startNs, bool histograms) {
        RunRecord r;
        r.kind = QStringLiteral("ldap-search");
        r.spec.insert(QStringLiteral("interval_s"), 1.0);
        r.spec.insert(QStringLiteral("threads"), 1);
        r.spec.insert(QStringLiteral("start_at_epoch_ns"), startNs);
        LoadInterval iv = agentInterval(10, 100000);
        if (!histograms)
            iv.all.latencyHistogramNs = {};
        r.intervals.append(iv.toJson());
        LoadSummary s;
        s.all = iv.all;
        s.seconds = 1;
        r.summary = s.toJson();
        return r;
    };
    QString why;
    const auto ok = Agents::mergeRecords(
        { rec(1e18, true), rec(1e18, true) }, { QStringLiteral("a.json"), QStringLiteral("b.json") }, &why);
    QVERIFY2(ok, qPrintable(why));
    QCOMPARE(ok->summary.value(QStringLiteral("ok")).toDouble(), 20.0);
    QCOMPARE(ok->spec.value(QStringLiteral("threads")).toDouble(), 2.0);
    QCOMPARE(ok->extra.value(QStringLiteral("agents")).toArray().size(), 2);
    QVERIFY(!Agents::mergeRecords(
        { rec(1e18, true), rec(2e18, true) }, { QStringLiteral("a.json"), QStringLiteral("b.json") }, &why));
    QVERIFY2(why.startsWith(QLatin1String("b.json ")) && why.contains(QLatin1String("--start-at")), qPrintable(why));
    QVERIFY(!Agents::mergeRecords(
        { rec(1e18, true), rec(1e18, false) }, { QStringLiteral("a.json"), QStringLiteral("b.json") }, &why));
    QVERIFY2(why.contains(QLatin1String("--interval-histograms")), qPrintable(why));
    RunRecord other = rec(1e18, true);
    other.kind = QStringLiteral("ldap-modify");
    QVERIFY(!Agents::mergeRecords({ rec(1e18, true), other }, {}, &why));
    QVERIFY2(why.contains(QLatin1String("ldap-modify")), qPrintable(why));
}

void TstAgentMerge::lineBufferKeepsPartialLines()
{
    Agents::LineBuffer b;
    b.feed(Agents::encode(Agents::ping(42)) + "{\"type\":\"po");
    const QList<QByteArray> first = b.take();
    QCOMPARE(first.size(), 1);
    QString why;
    QCOMPARE(Agents::decode(first.first(), &why)->value(QStringLiteral("t1")).toDouble(), 42.0);
    QVERIFY(b.hasPartial());
    b.feed("ng\"}\n\n");
    const QList<QByteArray> second = b.take();
    QCOMPARE(second.size(), 1);
    QCOMPARE(Agents::decode(second.first(), &why)->value(QStringLiteral("type")).toString(), QStringLiteral("pong"));
    // Clock readings cross the stream to the nanosecond (integers, not doubles: 2^53 ns is only 104 days).
    const int64_t t = 1796155297626797651LL;
    const auto pong = Agents::decode(Agents::encode(Agents::pong(t, t + 1, uint64_t(t) + 2)).trimmed(), &why);
    QCOMPARE(pong->value(QStringLiteral("t1")).toInteger(), t);
    QCOMPARE(pong->value(QStringLiteral("realtime_ns")).toInteger(), t + 1);
    QCOMPARE(Agents::decode(Agents::encode(Agents::start(t)).trimmed(), &why)
                 ->value(QStringLiteral("at_epoch_ns"))
                 .toInteger(),
        t);
    QVERIFY(!Agents::decode("[1,2]", &why));
    QVERIFY(!Agents::decode("{\"no\":1}", &why));
    QVERIFY(why.contains(QLatin1String("type")));
    Agents::AgentSpec s;
    s.args = { QStringLiteral("search"), QStringLiteral("--uri"), QStringLiteral("ldap://x") };
    s.password = "sécret";
    QJsonObject j = s.toJson();
    QCOMPARE(Agents::AgentSpec::fromJson(j, &why)->password, QByteArray("sécret"));
    j.insert(QStringLiteral("proto"), 99);
    QVERIFY(!Agents::AgentSpec::fromJson(j, &why));
    QVERIFY(why.contains(QLatin1String("protocol 99")));
}

void TstAgentMerge::lowestRoundTripWins()
{
    // Agent 300 ms ahead; a slow round (asymmetric delay) would say 290 ms.
    const QList<Agents::ClockRound> rounds { { 1000, 1000 + 300000000 + 5000000, 1000 + 30000000 },
        { 2000000000LL, 2000000000LL + 300000000 + 100, 2000000000LL + 200 },
        { 3000, 3000 + 280000000, 3000 + 9000000 } };
    const auto best = Agents::bestRound(rounds);
    QVERIFY(best);
    QCOMPARE(best->rttNs(), int64_t(200));
    QCOMPARE(best->offsetNs(), int64_t(300000000));
    QVERIFY(!Agents::bestRound({}));
}

void TstAgentMerge::agentListForms()
{
    QString why;
    auto l = Agents::parseAgentList(QStringLiteral("local:3"), &why);
    QVERIFY(l && l->size() == 3 && l->at(2).local && l->at(2).name == u"local 3");
    l = Agents::parseAgentList(QStringLiteral("this,load1, load2"), &why);
    QVERIFY(l && l->size() == 3 && l->at(0).local && !l->at(1).local && l->at(2).name == u"load2");
    QTemporaryDir dir;
    QFile f(dir.filePath(QStringLiteral("hosts.txt")));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("# load generators\nload1\n\nload2  # rack 2\n");
    f.close();
    l = Agents::parseAgentList(u'@' + f.fileName(), &why);
    QVERIFY2(l && l->size() == 2 && l->at(1).name == u"load2", qPrintable(why));
    QVERIFY(!Agents::parseAgentList(QStringLiteral("local:0"), &why));
    QVERIFY(why.contains(QLatin1String("local:N")));
    QVERIFY(!Agents::parseAgentList(QStringLiteral("-Jbastion"), &why));
    QVERIFY(why.contains(QLatin1String("--ssh-option")));
    QVERIFY(!Agents::parseAgentList(QStringLiteral(" , "), &why));
    QVERIFY(!Agents::parseAgentList(u'@' + dir.filePath(QStringLiteral("none")), &why));
    QVERIFY(why.contains(QLatin1String("cannot be read")));
}

void TstAgentMerge::ansibleGroupsFollowChildren()
{
    const QByteArray inv = R"({"_meta":{"hostvars":{}},"all":{"children":["ungrouped","loadgen"]},
        "loadgen":{"hosts":["load1"],"children":["rack2"]},"rack2":{"hosts":["load2","load1"]},"ungrouped":{}})";
    QString why;
    QCOMPARE(Agents::ansibleGroupHosts(inv, QStringLiteral("loadgen"), &why),
        (QStringList { QStringLiteral("load1"), QStringLiteral("load2") }));
    QVERIFY(Agents::ansibleGroupHosts(inv, QStringLiteral("nope"), &why).isEmpty());
    QVERIFY(why.contains(QLatin1String("nope")));
}

void TstAgentMerge::k8sManifestIsAnIndexedJobWithStdin()
{
    Agents::K8sJobSpec s;
    s.image = QStringLiteral("registry.example.com/dirbench:0.1");
    s.agents = 8;
    s.nameSpace = QStringLiteral("perf");
    const QJsonObject job = Agents::k8sIndexedJob(s);
    QCOMPARE(job.value(QStringLiteral("apiVersion")).toString(), QStringLiteral("batch/v1"));
    QCOMPARE(job.value(QStringLiteral("kind")).toString(), QStringLiteral("Job"));
    QCOMPARE(job.value(QStringLiteral("metadata")).toObject().value(QStringLiteral("namespace")).toString(),
        QStringLiteral("perf"));
    const QJsonObject spec = job.value(QStringLiteral("spec")).toObject();
    QCOMPARE(spec.value(QStringLiteral("completionMode")).toString(), QStringLiteral("Indexed"));
    QCOMPARE(spec.value(QStringLiteral("completions")).toInt(), 8);
    QCOMPARE(spec.value(QStringLiteral("parallelism")).toInt(), 8);
    QCOMPARE(spec.value(QStringLiteral("backoffLimit")).toInt(), 0); // a lost agent is not restarted behind the run
    QVERIFY(spec.value(QStringLiteral("activeDeadlineSeconds")).toInt() > 0);
    const QJsonObject pod = spec.value(QStringLiteral("template")).toObject().value(QStringLiteral("spec")).toObject();
    QCOMPARE(pod.value(QStringLiteral("restartPolicy")).toString(), QStringLiteral("Never"));
    const QJsonArray containers = pod.value(QStringLiteral("containers")).toArray();
    QCOMPARE(containers.size(), 1);
    const QJsonObject c = containers.first().toObject();
    QCOMPARE(c.value(QStringLiteral("image")).toString(), s.image);
    QCOMPARE(c.value(QStringLiteral("command")).toArray(),
        (QJsonArray { QStringLiteral("dirbench-cli"), QStringLiteral("agent") }));
    QCOMPARE(c.value(QStringLiteral("stdin")).toBool(), true);
    QCOMPARE(c.value(QStringLiteral("stdinOnce")).toBool(), true);
    QCOMPARE(c.value(QStringLiteral("tty")).toBool(), false);
    s.nameSpace.clear();
    QVERIFY(
        !Agents::k8sIndexedJob(s).value(QStringLiteral("metadata")).toObject().contains(QStringLiteral("namespace")));
}

// --agents k8s:[NAMESPACE/]JOB:N: a host per completion index, reached by a shell that finds the pod by the Job
// controller's labels and execs kubectl attach -i on the container "agent" (the manifest's). No cluster here: the
// command line is checked, and sh parses it.
void TstAgentMerge::k8sPodsAreAttachedTo()
{
    QString why;
    const auto pods = Agents::parseAgentList(QStringLiteral("k8s:perf/dirbench-agents:3,load1"), &why);
    QVERIFY2(pods && pods->size() == 4, qPrintable(why));
    QCOMPARE(pods->at(2).name, QStringLiteral("dirbench-agents/2"));
    QVERIFY(pods->at(2).isPod() && !pods->at(2).local && !pods->at(3).isPod());
    QCOMPARE(pods->at(2).k8sNamespace, QStringLiteral("perf"));
    Agents::CoordinatorSpec spec;
    const QStringList cmd = Agents::agentCommandLine(spec, pods->at(2));
    QCOMPARE(cmd.mid(0, 2), (QStringList { QStringLiteral("sh"), QStringLiteral("-c") }));
    const QString script = cmd.at(2);
    QVERIFY2(script.contains(QLatin1String("kubectl get pods -n perf -l job-name=dirbench-agents,"
                                           "batch.kubernetes.io/job-completion-index=2 -o name")),
        qPrintable(script));
    QVERIFY2(script.contains(QLatin1String("exec kubectl attach -i -q -n perf -c agent \"$pod\"")), qPrintable(script));
    QCOMPARE(QProcess::execute(QStringLiteral("sh"), { QStringLiteral("-n"), QStringLiteral("-c"), script }), 0);
    const auto noNs = Agents::parseAgentList(QStringLiteral("k8s:job1:1"), &why);
    QVERIFY(noNs && noNs->size() == 1 && noNs->first().k8sNamespace.isEmpty());
    const QString noNsScript = Agents::agentCommandLine(spec, noNs->first()).at(2);
    QVERIFY2(noNsScript.contains(QLatin1String("kubectl get pods -l job-name=job1,"))
            && noNsScript.contains(QLatin1String("kubectl attach -i -q -c agent")),
        qPrintable(noNsScript));
    for (const char* bad : { "k8s:job", "k8s:job:0", "k8s:Job:2", "k8s:a/b/c:2", "k8s:job:x" }) {
        QVERIFY2(!Agents::parseAgentList(QLatin1String(bad), &why), bad);
        QVERIFY2(why.contains(QLatin1String("k8s:[NAMESPACE/]JOB:N")), qPrintable(why));
    }
}

QTEST_GUILESS_MAIN(TstAgentMerge)
#include "tst_agentmerge.moc"
