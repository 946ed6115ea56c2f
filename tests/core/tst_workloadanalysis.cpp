// The workload analysis: the key-skew fit on generated keys (Zipf alpha within 0.1, a hot set, uniform), and the
// whole analysis and saved workload of a generated 389-ds log (mix per second, templates, churn, pseudonyms).
#include "core/workload/analysis.h"
#include "core/workload/keysummary.h"
#include "core/workload/pseudonym.h"
#include "core/workload/workloadanalyze.h"
#include "core/workload/workloadfile.h"
#include "core/workload/workloadsummary.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

namespace {

// prefix + n (not operator+: GCC 12's -Wrestrict false positive).
std::string key(const char* prefix, long n)
{
    std::string k(prefix);
    k.append(std::to_string(n));
    return k;
}

KeySummary zipfKeys(double alpha, int keys, int samples, uint64_t seed)
{
    std::vector<double> cdf(static_cast<size_t>(keys));
    double sum = 0;
    for (int i = 0; i < keys; ++i)
        cdf[size_t(i)] = (sum += std::pow(double(i + 1), -alpha));
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(0, sum);
    KeySummary s;
    for (int i = 0; i < samples; ++i) {
        const auto k = size_t(std::lower_bound(cdf.begin(), cdf.end(), u(rng)) - cdf.begin());
        s.add(KeySummary::hashKey(key("user", long(k))));
    }
    return s;
}

QString at(int ms)
{
    return QStringLiteral("[01/Dec/2026:10:%1:%2.%3 +0000] ")
        .arg(ms / 60000, 2, 10, QLatin1Char('0'))
        .arg(ms / 1000 % 60, 2, 10, QLatin1Char('0'))
        .arg(ms % 1000 * 1000000, 9, 10, QLatin1Char('0'));
}

} // namespace

class TstWorkloadAnalysis : public QObject
{
    Q_OBJECT
private slots:
    void zipfAlphaRecovered_data();
    void zipfAlphaRecovered();
    void hotSet();
    void uniform();
    void distinctEstimate();
    void pseudonymsAreConsistent();
    void generatedLog();
};

void TstWorkloadAnalysis::zipfAlphaRecovered_data()
{
    QTest::addColumn<double>("alpha");
    QTest::addColumn<int>("keys");
    QTest::newRow("0.8 over 100k keys") << 0.8 << 100000;
    QTest::newRow("1.0 over 100k keys") << 1.0 << 100000;
    QTest::newRow("1.2 over 20k keys") << 1.2 << 20000;
}

void TstWorkloadAnalysis::zipfAlphaRecovered()
{
    QFETCH(double, alpha);
    QFETCH(int, keys);
    const KeySummary s = zipfKeys(alpha, keys, 500000, 42);
    const KeySummary::Fit f = s.fit();
    QCOMPARE(f.model, QString("zipf"));
    QVERIFY2(std::abs(f.alpha - alpha) <= 0.1,
        qPrintable(
            QString("fitted %1 for %2 over %3 ranks, r2 %4").arg(f.alpha).arg(alpha).arg(f.ranksFitted).arg(f.r2)));
    QVERIFY(f.ranksFitted >= 10);
    QVERIFY(f.r2 > 0.95);
}

void TstWorkloadAnalysis::hotSet()
{
    // 5 % of 10,000 keys get 90 % of the operations.
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> hot(0, 499), cold(500, 9999);
    KeySummary s;
    for (int i = 0; i < 500000; ++i)
        s.add(KeySummary::hashKey(key("k", u(rng) < 0.9 ? hot(rng) : cold(rng))));
    const KeySummary::Fit f = s.fit();
    QCOMPARE(f.model, QString("hot"));
    QVERIFY2(std::abs(f.hotKeysPct - 5.0) < 0.5, qPrintable(QString::number(f.hotKeysPct)));
    QVERIFY2(std::abs(f.hotOpsPct - 90.0) < 2.0, qPrintable(QString::number(f.hotOpsPct)));
}

void TstWorkloadAnalysis::uniform()
{
    std::mt19937_64 rng(9);
    for (int keys : { 10000, 100, 3 }) {
        std::uniform_int_distribution<int> pick(0, keys - 1);
        KeySummary s;
        for (int i = 0; i < 500000; ++i)
            s.add(KeySummary::hashKey(key("k", pick(rng))));
        const KeySummary::Fit f = s.fit();
        QVERIFY2(f.model == "uniform", qPrintable(QString("%1 keys: %2 alpha %3").arg(keys).arg(f.model).arg(f.alpha)));
    }
    KeySummary one;
    for (int i = 0; i < 100; ++i)
        one.add(KeySummary::hashKey("same"));
    QCOMPARE(one.fit().model, QString("uniform"));
    QCOMPARE(one.fit().topShare, 1.0);
}

void TstWorkloadAnalysis::distinctEstimate()
{
    for (int n : { 10, 1000, 100000 }) {
        KeySummary s;
        for (int i = 0; i < n; ++i)
            s.add(KeySummary::hashKey(key("x", i)));
        QVERIFY2(std::abs(s.distinctEstimate() - n) <= 0.06 * n + 1, qPrintable(QString::number(s.distinctEstimate())));
    }
}

void TstWorkloadAnalysis::pseudonymsAreConsistent()
{
    const Pseudonymizer p(1, 2);
    QCOMPARE(p.token("user1"), p.token("user1"));
    QVERIFY(p.token("user1") != p.token("user2"));
    QCOMPARE(p.token("user1").size(), size_t(14));
    QCOMPARE(p.token("10.0.0.1", 'c').front(), 'c');
    const Pseudonymizer q(3, 4); // another save: other tokens
    QVERIFY(p.token("user1") != q.token("user1"));
    QCOMPARE(p.sized("abc", 40).size(), size_t(40));
    QCOMPARE(p.sized("abc", 3).size(), size_t(3));
    const std::string dn = p.dn("uid=user1,ou=people,dc=example,dc=com");
    // The entry's values become tokens; the structure (dc, o, ou, c, l, st) stays, as in the templates.
    QCOMPARE(dn, "uid=" + p.token("user1") + ",ou=people,dc=example,dc=com");
    QCOMPARE(p.dn("cn=a+sn=b,dc=x"), "cn=" + p.token("a") + "+sn=" + p.token("b") + ",dc=x");
    QCOMPARE(p.dn("uid=u,cn=Users,O=Org"), "uid=" + p.token("u") + ",cn=" + p.token("Users") + ",O=Org");
    QCOMPARE(p.dn("cn=Directory Manager"), std::string("cn=Directory Manager")); // one RDN: the server's own
    QCOMPARE(p.dn(""), std::string());
}

void TstWorkloadAnalysis::generatedLog()
{
    // 3 seconds; 20 connections, each: connect, bind, 10 searches (uid of 5 keys; one unindexed filter), a
    // modify, unbind, close. Connections overlap in pairs.
    QTemporaryDir dir;
    QByteArray log;
    int t = 0;
    for (int c = 1; c <= 20; ++c) {
        t = (c - 1) * 150;
        auto line = [&](const QString& s) { log += (at(t) + s + "\n").toUtf8(); };
        line(QString("conn=%1 fd=64 slot=64 connection from 10.0.0.%2 to 10.0.0.1").arg(c).arg(c % 4));
        line(QString("conn=%1 op=0 BIND dn=\"uid=user%1,ou=people,dc=x\" method=128 version=3").arg(c));
        t += 1;
        line(QString("conn=%1 op=0 RESULT err=0 tag=97 nentries=0 wtime=0.000100 optime=0.000900 etime=0.001000 "
                     "dn=\"uid=user%1,ou=people,dc=x\"")
                 .arg(c));
        for (int op = 1; op <= 10; ++op) {
            line(QString("conn=%1 op=%2 SRCH base=\"ou=people,dc=x\" scope=2 filter=\"(uid=user%3)\" attrs=\"cn\"")
                     .arg(c)
                     .arg(op)
                     .arg(op % 5));
            t += 2;
            line(QString("conn=%1 op=%2 RESULT err=0 tag=101 nentries=1 wtime=0.000010 optime=0.001990 "
                         "etime=0.002000")
                     .arg(c)
                     .arg(op));
        }
        line(QString("conn=%1 op=11 SRCH base=\"dc=x\" scope=2 filter=\"(description=*x*)\" attrs=ALL").arg(c));
        t += 5;
        line(QString("conn=%1 op=11 RESULT err=0 tag=101 nentries=0 wtime=0.0 optime=0.005 etime=0.005000 notes=A")
                 .arg(c));
        line(QString("conn=%1 op=12 MOD dn=\"uid=user%1,ou=people,dc=x\"").arg(c));
        t += 1;
        line(QString("conn=%1 op=12 RESULT err=%2 tag=103 nentries=0 etime=0.001").arg(c).arg(c % 2 ? 0 : 50));
        line(QString("conn=%1 op=13 UNBIND").arg(c));
        line(QString("conn=%1 op=13 fd=64 closed - U1").arg(c));
    }
    QFile f(dir.filePath("access"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(log);
    f.close();

    AnalyzeOptions o;
    o.logs = { dir.filePath("access") };
    o.buildWorkload = true;
    const AnalyzeResult r = WorkloadAnalyze::run(o);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const QJsonObject a = r.analysis;
    QCOMPARE(a["schema"].toString(), QString("dirbench.workload/1"));
    QCOMPARE(a["source"].toObject()["format"].toString(), QString("389-access"));
    QCOMPARE(a["source"].toObject()["first"].toString(), QString("2026-12-01T10:00:00.000000000Z"));
    const QJsonObject ops = a["operations"].toObject();
    QCOMPARE(ops["bind"].toInt(), 20);
    QCOMPARE(ops["search"].toInt(), 220);
    QCOMPARE(ops["modify"].toInt(), 20);
    QCOMPARE(ops["unbind"].toInt(), 20);
    QCOMPARE(a["connections"].toInt(), 20);
    const QJsonArray templates = a["templates"].toArray();
    QCOMPARE(templates.size(), 4);
    const QJsonObject top = templates[0].toObject();
    QCOMPARE(top["template"].toString(), QString("(uid=?1)"));
    QCOMPARE(top["count"].toInt(), 200);
    QCOMPARE(top["share"].toDouble(), 0.714); // 200 of 280
    QCOMPARE(top["etime_ms"].toObject()["p50"].toDouble(), 2.0);
    QCOMPARE(top["entries"].toObject()["mean"].toDouble(), 1.0);
    QCOMPARE(top["skew"].toObject()["model"].toString(), QString("uniform")); // 5 keys, 40 each
    QCOMPARE(top["skew"].toObject()["keys_estimated"].toInt(), 5);
    QCOMPARE(top["unindexed_share"].toDouble(), 0.0);
    QJsonObject unindexed, modify;
    for (const auto& v : templates) {
        if (v.toObject()["template"].toString() == "(description=*?1*)")
            unindexed = v.toObject();
        if (v.toObject()["kind"].toString() == "modify")
            modify = v.toObject();
    }
    QCOMPARE(unindexed["unindexed_share"].toDouble(), 1.0);
    QCOMPARE(unindexed["entries"].toObject()["zero_share"].toDouble(), 1.0);
    QCOMPARE(modify["template"].toString(), QString("uid=?1,ou=people,dc=x"));
    QCOMPARE(modify["result_codes"].toObject()["0"].toInt(), 10);
    QCOMPARE(modify["result_codes"].toObject()["50"].toInt(), 10);
    // Per second: connections start every 150 ms, each lasts 27 ms.
    const QJsonArray perSecond = a["per_second"].toArray();
    QCOMPARE(perSecond.size(), 3);
    int sum = 0;
    for (const auto& s : perSecond)
        sum += s.toObject()["ops"].toInt();
    QCOMPARE(sum, 280);
    QCOMPARE(perSecond[0].toObject()["bind"].toInt(), 7); // connections 1..7 start in the first second
    const double inFlight = perSecond[0].toObject()["in_flight"].toDouble(); // 7 x 27 ms of server time
    QVERIFY2(std::abs(inFlight - 0.189) < 0.001, qPrintable(QString::number(inFlight)));
    const QJsonObject churn = a["churn"].toObject();
    QCOMPARE(churn["connects"].toInt(), 20);
    QCOMPARE(churn["closes"].toInt(), 20);
    QCOMPARE(churn["open_at_end"].toInt(), 0);
    QCOMPARE(churn["binds_per_connection"].toObject()["mean"].toDouble(), 1.0);
    QCOMPARE(churn["lifetime_s"].toObject()["p50"].toDouble(), 0.027);
    QVERIFY(a["summary_bounds"].toObject()["top_k"].toInt() == KeySummary::TopK);

    // The typed reading the CLI printer and the Workload page share.
    const WorkloadSummary ws = WorkloadSummary::fromJson(a);
    QCOMPARE(ws.format, QString("389-access"));
    QCOMPARE(ws.files, qsizetype(1));
    QCOMPARE(ws.operationsTotal, 280.0);
    QCOMPARE(ws.connections, 20.0);
    QCOMPARE(ws.templates.size(), qsizetype(4));
    QCOMPARE(ws.templates[0].text, QString("(uid=?1)"));
    QCOMPARE(*ws.templates[0].etimeP50Ms, 2.0);
    QCOMPARE(*ws.templates[0].entriesMean, 1.0);
    QCOMPARE(ws.templates[0].skew.shortText(), QString("uniform"));
    QCOMPARE(ws.buckets.size(), qsizetype(3));
    QCOMPARE(ws.buckets[0].byKind[ws.operationKinds().indexOf("bind")], 7.0);
    QCOMPARE(ws.churn.connects, 20.0);
    QVERIFY(ws.churn.hasLifetime);
    QCOMPARE(ws.churn.lifetimeP50S, 0.027);
    QCOMPARE(WorkloadSkew::fromJson(QJsonObject { { "model", "zipf" }, { "alpha", 0.956 } }).shortText(),
        QString("zipf a=0.96"));
    QCOMPARE(
        WorkloadSkew::fromJson(QJsonObject { { "model", "hot" }, { "keys_pct", 5 }, { "ops_pct", 90 } }).shortText(),
        QString("hot 5.0%/90.0%"));

    // The saved workload: per connection in op order, anonymised consistently.
    QVERIFY(r.workload);
    const Workload& w = *r.workload;
    QVERIFY(w.anonymised && !w.valuesKept);
    QCOMPARE(w.connections.size(), size_t(20));
    QCOMPARE(w.operationCount(), uint64_t(280));
    const WorkloadConnection& c1 = w.connections[0];
    QCOMPARE(c1.id, uint64_t(1));
    QCOMPARE(*c1.openNs, uint64_t(0));
    QCOMPARE(*c1.closeNs, uint64_t(27) * 1000000);
    QCOMPARE(c1.ops.size(), size_t(14));
    QCOMPARE(int(c1.ops[0].kind), int(WorkloadOpKind::Bind));
    QCOMPARE(int(c1.ops[13].kind), int(WorkloadOpKind::Unbind));
    QCOMPARE(c1.ops[1].offsetNs, uint64_t(1000000));
    QCOMPARE(w.templates[size_t(c1.ops[1].templateId)].text, QString("(uid=?1)"));
    QVERIFY(!c1.client.contains("10.0.0"));
    QCOMPARE(c1.client, w.connections[4].client); // 10.0.0.1 both
    QVERIFY(c1.client != w.connections[1].client);
    // user1 searched in conn 1 op 1 and op 6 gets one token; user2 another.
    QCOMPARE(c1.ops[1].values, c1.ops[6].values);
    QVERIFY(c1.ops[1].values != c1.ops[2].values);
    QCOMPARE(c1.ops[1].values, w.connections[5].ops[1].values);
    QVERIFY(!c1.ops[0].base.contains("user1"));
    QCOMPARE(c1.ops[0].base, c1.ops[12].base); // bind and modify of the same DN
    QCOMPARE(*c1.ops[1].etimeMs, 2.0);
    QCOMPARE(*c1.ops[1].entries, qint64(1));
    QCOMPARE(w.analysis["schema"].toString(), QString("dirbench.workload/1"));
    // Through the file and back; no logged value in it.
    const QString path = dir.filePath("w.dbwl");
    QString error;
    QVERIFY2(WorkloadFile::write(w, path, &error), qPrintable(error));
    QFile saved(path);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    const QByteArray text = saved.readAll();
    // No entry's value nor client address; the DN structure above the entries stays in the templates.
    QVERIFY(!text.contains("user1") && !text.contains("user2") && !text.contains("10.0.0."));
    QVERIFY(text.contains("uid=?1,ou=people,dc=x"));
    const auto back = WorkloadFile::read(path, &error);
    QVERIFY2(back, qPrintable(error));
    QCOMPARE(back->operationCount(), uint64_t(280));

    // --keep-values keeps them.
    o.keepValues = true;
    const AnalyzeResult kept = WorkloadAnalyze::run(o);
    QVERIFY(kept.workload->valuesKept);
    QCOMPARE(kept.workload->connections[0].ops[1].values, QStringList { "user1" });
    QCOMPARE(kept.workload->connections[0].ops[0].base, QString("uid=user1,ou=people,dc=x"));
    QCOMPARE(kept.workload->connections[0].client, QString("10.0.0.1"));
}

QTEST_GUILESS_MAIN(TstWorkloadAnalysis)
#include "tst_workloadanalysis.moc"
