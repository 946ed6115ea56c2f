// ReplayPlan and ReplaySpec without a server: the schedules (speed, rate profile, closed loop), the overlap rule,
// values mapped onto the key space by frequency rank, writes under the write base or skipped, --dry-run's counts,
// and the spec's errors naming their option; whole-second logs spread by a seed (one seed, one schedule); the rate
// fidelity's figures and verdict on given numbers.
#include "core/replay/replayfidelity.h"
#include "core/replay/replayplan.h"
#include "core/workload/workloadfile.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

constexpr uint64_t kMs = 1000000ULL;

WorkloadOp search(uint64_t atMs, const QString& token, std::optional<uint64_t> resultMs = std::nullopt)
{
    WorkloadOp op;
    op.offsetNs = atMs * kMs;
    op.kind = WorkloadOpKind::Search;
    op.templateId = 0;
    op.values = { token };
    op.base = "ou=people,dc=example,dc=com";
    op.resultCode = 0;
    op.entries = 1;
    op.etimeMs = 0.2;
    if (resultMs)
        op.resultOffsetNs = *resultMs * kMs;
    return op;
}

WorkloadOp dnOp(WorkloadOpKind kind, int tpl, uint64_t atMs, const QString& token)
{
    WorkloadOp op;
    op.offsetNs = atMs * kMs;
    op.kind = kind;
    op.templateId = tpl;
    op.values = { token };
    op.base = "uid=?1,ou=people,dc=example,dc=com";
    op.attrs = { "description" };
    op.resultCode = 0;
    return op;
}

Workload baseWorkload()
{
    Workload w;
    w.templates = { { WorkloadOpKind::Search, "(uid=?1)", 1 },
        { WorkloadOpKind::Bind, "uid=?1,ou=people,dc=example,dc=com", 1 },
        { WorkloadOpKind::Modify, "uid=?1,ou=people,dc=example,dc=com", 1 },
        { WorkloadOpKind::Add, "uid=?1,ou=people,dc=example,dc=com", 1 },
        { WorkloadOpKind::Delete, "uid=?1,ou=people,dc=example,dc=com", 1 } };
    return w;
}

ReplaySpec baseSpec()
{
    ReplaySpec s;
    s.target.uri = "ldap://127.0.0.1:1";
    s.workloadPath = "w.dbwl";
    s.keySpace = "uid=user[0-99],ou=people,dc=example,dc=com";
    s.sharedPasswordFile = "pw";
    return s;
}

ReplayPlan makePlan(const Workload& w, const ReplaySpec& s)
{
    ProbeError e;
    const ReplayPasswords pw = ReplayPasswords::shared("secret");
    auto plan = ReplayPlan::make(w, s, &pw, "T", &e);
    if (!plan)
        qFatal("plan refused: %s: %s", qPrintable(e.field), qPrintable(e.detail));
    return *plan;
}

} // namespace

class TstReplayPlan : public QObject
{
    Q_OBJECT
private slots:
    void speedDividesTheLoggedTimes();
    void rateProfileKeepsEachSecondsCount();
    void asFastAsPossibleIsClosedLoop();
    void overlapOnlyWhereTheLogShowsIt();
    void mappingKeepsTheFrequencyRanks();
    void writesSkippedOrMappedUnderTheWriteBase();
    void durationCutsTheSchedule();
    void dryRunCounts();
    void specErrorsNameTheOption_data();
    void specErrorsNameTheOption();
    void passwordsFileMustBePrivate();
    void planFromAWorkloadFile();
    void wholeSecondsSpreadBySeed();
    void seedRefusedWhereItDoesNotApply();
    void rateFidelityOnGivenNumbers();
};

void TstReplayPlan::speedDividesTheLoggedTimes()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.id = 7;
    c.openNs = 100 * kMs;
    c.closeNs = 3000 * kMs;
    c.ops = { search(200, "v1"), search(1000, "v2"), search(2000, "v1") };
    w.connections = { c };
    ReplaySpec s = baseSpec();
    s.speed = 2;
    const ReplayPlan p = makePlan(w, s);
    QCOMPARE(p.connections.size(), size_t(1));
    const auto& cp = p.connections[0];
    QCOMPARE(cp.logId, uint64_t(7));
    QCOMPARE(cp.openAtNs, 50 * kMs);
    QCOMPARE(cp.closeAtNs, 1500 * kMs);
    QCOMPARE(cp.ops[0].atNs, 100 * kMs);
    QCOMPARE(cp.ops[1].atNs, 500 * kMs);
    QCOMPARE(cp.ops[2].atNs, 1000 * kMs);
    QCOMPARE(p.spanNs, 1000 * kMs);
    QCOMPARE(p.loggedSpanNs, 1800 * kMs);
    QVERIFY(!p.closedLoop);
}

void TstReplayPlan::rateProfileKeepsEachSecondsCount()
{
    Workload w = baseWorkload();
    WorkloadConnection a, b;
    a.id = 1;
    b.id = 2;
    a.ops = { search(100, "v1"), search(900, "v1"), search(1500, "v2") };
    b.ops = { search(200, "v3") };
    w.connections = { a, b };
    ReplaySpec s = baseSpec();
    s.timing = ReplaySpec::Timing::RateProfile;
    const ReplayPlan p = makePlan(w, s);
    // Second 0 has three operations (at 100, 200 and 900 ms in log order): at 1/6, 3/6 and 5/6 of it.
    QCOMPARE(p.connections[0].ops[0].atNs, uint64_t(1e9 / 6));
    QCOMPARE(p.connections[1].ops[0].atNs, uint64_t(3e9 / 6));
    QCOMPARE(p.connections[0].ops[1].atNs, uint64_t(5e9 / 6));
    QCOMPARE(p.connections[0].ops[2].atNs, uint64_t(1.5e9)); // alone in second 1: its middle
    QCOMPARE(p.connections[0].openAtNs, uint64_t(0));
}

void TstReplayPlan::asFastAsPossibleIsClosedLoop()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.openNs = 5000 * kMs;
    c.ops = { search(5000, "v1"), search(9000, "v2") };
    w.connections = { c };
    ReplaySpec s = baseSpec();
    s.timing = ReplaySpec::Timing::AsFastAsPossible;
    s.durationSec = 1; // a limit of the run, not of the schedule
    const ReplayPlan p = makePlan(w, s);
    QVERIFY(p.closedLoop);
    QCOMPARE(p.connections[0].ops.size(), size_t(2));
    for (const auto& op : p.connections[0].ops)
        QCOMPARE(op.atNs, uint64_t(0));
}

void TstReplayPlan::overlapOnlyWhereTheLogShowsIt()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    // op0: 0..10 ms; op1 asked at 5 ms (before op0's result: may overlap), answered at 30; op2 asked at 31, 1 ms
    // after op1's answer (a reaction to it: waits), answered at 32; op3 asked at 45, 13 ms after that answer (the
    // client's own pace: may overlap). op4 has a predecessor without a result in the log: it waits.
    WorkloadOp bind = dnOp(WorkloadOpKind::Bind, 1, 60, QStringLiteral("u1"));
    bind.resultOffsetNs = 61 * kMs;
    c.ops = { search(0, "v1", 10), search(5, "v2", 30), search(31, "v3", 32), search(45, "v4"), search(50, "v5"), bind,
        search(90, "v6") };
    w.connections = { c };
    const ReplayPlan p = makePlan(w, baseSpec());
    const auto& ops = p.connections[0].ops;
    QVERIFY(!ops[0].mayOverlap);
    QVERIFY(ops[1].mayOverlap);
    QVERIFY(!ops[2].mayOverlap);
    QVERIFY(ops[3].mayOverlap);
    QVERIFY(!ops[4].mayOverlap);
    QVERIFY2(!ops[6].mayOverlap, "after a bind, even 29 ms after its answer, the next request waits for it");
}

void TstReplayPlan::mappingKeepsTheFrequencyRanks()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    // Zipf-like counts: v9 × 30, v3 × 10, v7 × 5, v1 × 1; v7 appears first.
    uint64_t t = 0;
    c.ops.push_back(search(t++, "v7"));
    for (int i = 0; i < 30; ++i)
        c.ops.push_back(search(t++, "v9"));
    for (int i = 0; i < 10; ++i)
        c.ops.push_back(search(t++, "v3"));
    for (int i = 0; i < 4; ++i)
        c.ops.push_back(search(t++, "v7"));
    c.ops.push_back(search(t++, "v1"));
    c.ops.push_back(dnOp(WorkloadOpKind::Bind, 1, t++, "v3")); // the same token in a bind DN
    w.connections = { c };
    const ReplayPlan p = makePlan(w, baseSpec());
    QHash<QByteArray, int> seen;
    for (const auto& op : p.connections[0].ops)
        if (op.kind == WorkloadOpKind::Search)
            ++seen[op.filter];
    QCOMPARE(seen.value("(uid=user0)"), 30); // the most frequent token: key 0
    QCOMPARE(seen.value("(uid=user1)"), 11 - 1); // v3: 10 searches (and the bind)
    QCOMPARE(seen.value("(uid=user2)"), 5);
    QCOMPARE(seen.value("(uid=user3)"), 1);
    QCOMPARE(seen.size(), 4);
    const ReplayOp& bind = p.connections[0].ops.back();
    QCOMPARE(bind.dn, QByteArray("uid=user1,ou=people,dc=example,dc=com"));
    QCOMPARE(bind.password, QByteArray("secret"));
    QCOMPARE(p.connections[0].ops[0].dn, QByteArray("ou=people,dc=example,dc=com"));
    QCOMPARE(p.mappedTokens, uint64_t(4));
    const QJsonArray top = p.mapping.value("top").toArray(); // the mapping, documented in the record
    QCOMPARE(top.size(), 4);
    QCOMPARE(top.at(0).toObject().value("token").toString(), QString("v9"));
    QCOMPARE(top.at(0).toObject().value("count").toDouble(), 30.0);
    QCOMPARE(top.at(0).toObject().value("value").toString(), QString("user0"));
    QCOMPARE(top.at(1).toObject().value("token").toString(), QString("v3"));
    QCOMPARE(top.at(1).toObject().value("count").toDouble(), 11.0);
    QCOMPARE(p.keysFolded, uint64_t(0));
    // A key space smaller than the tokens folds the rest back, and says how many.
    ReplaySpec small = baseSpec();
    small.keySpace = "uid=user[0-1]";
    const ReplayPlan f = makePlan(w, small);
    QCOMPARE(f.keysFolded, uint64_t(2));
    QCOMPARE(f.connections[0].ops[1].filter, QByteArray("(uid=user0)"));
    // Logged values, where the workload kept them.
    w.valuesKept = true;
    ReplaySpec logged = baseSpec();
    logged.values = ReplaySpec::Values::Log;
    logged.keySpace.clear();
    QCOMPARE(makePlan(w, logged).connections[0].ops[1].filter, QByteArray("(uid=v9)"));
}

void TstReplayPlan::writesSkippedOrMappedUnderTheWriteBase()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.ops = { search(0, "v5"), dnOp(WorkloadOpKind::Modify, 2, 1, "v5"), dnOp(WorkloadOpKind::Add, 3, 2, "v8"),
        dnOp(WorkloadOpKind::Modify, 2, 3, "v8"), dnOp(WorkloadOpKind::Delete, 4, 4, "v8"),
        dnOp(WorkloadOpKind::Delete, 4, 5, "v6") };
    WorkloadOp unbind;
    unbind.kind = WorkloadOpKind::Unbind;
    unbind.offsetNs = 6 * kMs;
    c.ops.push_back(unbind);
    w.connections = { c };
    const ReplayPlan skipped = makePlan(w, baseSpec());
    QCOMPARE(skipped.total.logged, uint64_t(6)); // the unbind is not an operation of the mix
    QCOMPARE(skipped.total.skippedWrites, uint64_t(5));
    QCOMPARE(skipped.total.send, uint64_t(1));
    QCOMPARE(skipped.byTemplate[2].skippedWrites, uint64_t(2));
    QVERIFY(skipped.touchedDns.empty() && skipped.addedDns.empty());
    QCOMPARE(skipped.connections[0].ops.back().action, ReplayOp::Action::Unbind);

    ReplaySpec s = baseSpec();
    s.allowWrites = true;
    s.writeBase = "ou=replay,dc=example,dc=com";
    const ReplayPlan p = makePlan(w, s);
    QCOMPARE(p.total.send, uint64_t(6));
    const auto& ops = p.connections[0].ops;
    QCOMPARE(ops[1].dn, QByteArray("uid=user0,ou=replay,dc=example,dc=com")); // v5 is the most frequent
    QCOMPARE(ops[1].attr, QByteArray("description"));
    QCOMPARE(ops[2].dn, QByteArray("uid=dirbench-replay-T-0,ou=replay,dc=example,dc=com"));
    QCOMPARE(ops[2].uid, QByteArray("dirbench-replay-T-0"));
    QCOMPARE(ops[3].dn, ops[2].dn); // the added entry, modified and deleted: the same DN
    QCOMPARE(ops[4].dn, ops[2].dn);
    QCOMPARE(p.addedDns, std::vector<QByteArray> { ops[2].dn });
    // Existing entries written: read before, restored after; the added one is not among them.
    const std::vector<QByteArray> touched { "uid=user0,ou=replay,dc=example,dc=com",
        "uid=user1,ou=replay,dc=example,dc=com" };
    QCOMPARE(p.touchedDns, touched);
}

void TstReplayPlan::durationCutsTheSchedule()
{
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.closeNs = 9000 * kMs;
    c.ops = { search(0, "v1"), search(900, "v1"), search(1100, "v1"), search(5000, "v1") };
    w.connections = { c };
    ReplaySpec s = baseSpec();
    s.durationSec = 1;
    const ReplayPlan p = makePlan(w, s);
    QCOMPARE(p.connections[0].ops.size(), size_t(2));
    QCOMPARE(p.cutByDuration, uint64_t(2));
    QCOMPARE(p.total.logged, uint64_t(2));
    QCOMPARE(p.connections[0].closeAtNs, 1000 * kMs);
}

void TstReplayPlan::dryRunCounts()
{
    Workload w = baseWorkload();
    for (uint64_t i = 0; i < 3; ++i) {
        WorkloadConnection c;
        c.id = 10 + i;
        c.openNs = i * 1000 * kMs;
        for (uint64_t k = 0; k <= i; ++k)
            c.ops.push_back(search(i * 1000 + k, "v" + QString::number(k)));
        c.ops.push_back(dnOp(WorkloadOpKind::Modify, 2, i * 1000 + 10, "v0"));
        w.connections.push_back(c);
    }
    const ReplayPlan p = makePlan(w, baseSpec());
    const QJsonObject j = p.dryRunJson();
    QCOMPARE(j.value("logged").toDouble(), 9.0);
    QCOMPARE(j.value("send").toDouble(), 6.0);
    QCOMPARE(j.value("skipped_writes").toDouble(), 3.0);
    const QJsonArray tpl = j.value("by_template").toArray();
    QCOMPARE(tpl.at(0).toObject().value("template").toString(), QString("(uid=?1)"));
    QCOMPARE(tpl.at(0).toObject().value("send").toDouble(), 6.0);
    QCOMPARE(tpl.at(2).toObject().value("skipped_writes").toDouble(), 3.0);
    const QJsonArray conns = j.value("by_connection").toArray();
    QCOMPARE(conns.size(), 3);
    QCOMPARE(conns.at(2).toObject().value("conn").toDouble(), 12.0);
    QCOMPARE(conns.at(2).toObject().value("send").toDouble(), 3.0);
    QCOMPARE(conns.at(2).toObject().value("open_s").toDouble(), 2.0);
    const QString text = p.dryRunText();
    QVERIFY2(text.contains("9 operations logged, 6 would be sent, 3 writes skipped"), qPrintable(text));
    QVERIFY(text.contains("(uid=?1)"));
}

void TstReplayPlan::specErrorsNameTheOption_data()
{
    QTest::addColumn<QString>("change");
    QTest::addColumn<QString>("field");
    QTest::newRow("speed 0") << "speed0"
                             << "speed";
    QTest::newRow("two password sources") << "bothpw"
                                          << "passwords";
    QTest::newRow("writes without a base") << "allow"
                                           << "write-base";
    QTest::newRow("a base without writes") << "base"
                                           << "allow-writes";
    QTest::newRow("a write base that is no DN") << "badbase"
                                                << "write-base";
    QTest::newRow("no source") << "nosource"
                               << "workload";
    QTest::newRow("two sources") << "twosources"
                                 << "workload";
    QTest::newRow("a key space without a range") << "keyconst"
                                                 << "key-space";
    QTest::newRow("a key space with two ranges") << "key2"
                                                 << "key-space";
    QTest::newRow("a key space that is no ATTR=") << "keyattr"
                                                  << "key-space";
    QTest::newRow("a key space whose parent is no DN") << "keyparent"
                                                       << "key-space";
    QTest::newRow("logged values of an anonymised workload") << "valueslog"
                                                             << "values";
    QTest::newRow("mapped values without a key space") << "nokeys"
                                                       << "key-space";
    QTest::newRow("binds without a password") << "nopw"
                                              << "shared-password-file";
}

void TstReplayPlan::specErrorsNameTheOption()
{
    QFETCH(QString, change);
    QFETCH(QString, field);
    ReplaySpec s = baseSpec();
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.ops = { search(0, "v1"), dnOp(WorkloadOpKind::Bind, 1, 1, "v1") };
    w.connections = { c };
    QVERIFY(!s.validate(&w).isError());
    if (change == "speed0")
        s.speed = 0;
    else if (change == "bothpw")
        s.passwordsFile = "f";
    else if (change == "allow")
        s.allowWrites = true;
    else if (change == "base")
        s.writeBase = "ou=x,dc=example,dc=com";
    else if (change == "badbase")
        s.allowWrites = true, s.writeBase = "not a dn";
    else if (change == "nosource")
        s.workloadPath.clear();
    else if (change == "twosources")
        s.logFiles = QStringList { "a.log" };
    else if (change == "keyconst")
        s.keySpace = "uid=user";
    else if (change == "key2")
        s.keySpace = "uid=user[0-9][0-9]";
    else if (change == "keyattr")
        s.keySpace = "user[0-9]";
    else if (change == "keyparent")
        s.keySpace = "uid=user[0-9],notadn";
    else if (change == "valueslog")
        s.values = ReplaySpec::Values::Log, s.keySpace.clear();
    else if (change == "nokeys")
        s.keySpace.clear();
    else if (change == "nopw")
        s.sharedPasswordFile.clear();
    const ProbeError e = s.validate(&w);
    QVERIFY2(e.isError(), qPrintable(change));
    QCOMPARE(e.field, field);
    QVERIFY(!e.detail.isEmpty());
    ProbeError pe;
    QVERIFY(!ReplayPlan::make(w, s, nullptr, "T", &pe));
    QCOMPARE(pe.field, field);
}

void TstReplayPlan::passwordsFileMustBePrivate()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("pw.tsv");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(
        "# DN<TAB>password\nuid=user1,ou=people,dc=example,dc=com\tone\n\nUID=User2,ou=people,dc=example,dc=com\ttwo "
        "words\n");
    f.close();
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0644) == 0);
    ProbeError e;
    QVERIFY(!ReplayPasswords::fromFile(path, &e));
    QCOMPARE(e.field, QString("passwords"));
    QVERIFY2(e.detail.contains("644"), qPrintable(e.detail));
    QVERIFY(::chmod(QFile::encodeName(path).constData(), 0600) == 0);
    const auto pw = ReplayPasswords::fromFile(path, &e);
    QVERIFY(pw);
    QCOMPARE(pw->size(), 2);
    QCOMPARE(pw->forDn("uid=user1,ou=people,dc=example,dc=com").value_or(""), QByteArray("one"));
    QCOMPARE(pw->forDn("uid=user2,ou=people,dc=example,dc=com").value_or(""), QByteArray("two words"));
    QVERIFY(!pw->forDn("uid=user3,ou=people,dc=example,dc=com"));
    // A bind whose DN has no password is not sent, and is counted.
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.ops = { dnOp(WorkloadOpKind::Bind, 1, 0, "v1"), dnOp(WorkloadOpKind::Bind, 1, 1, "v1"),
        dnOp(WorkloadOpKind::Bind, 1, 2, "v2") };
    w.connections = { c };
    ReplaySpec s = baseSpec();
    s.sharedPasswordFile.clear();
    s.passwordsFile = path;
    s.keySpace = "uid=user[1-99],ou=people,dc=example,dc=com"; // v1 (most frequent) is user1, v2 user2
    const auto p = ReplayPlan::make(w, s, &*pw, "T", &e);
    QVERIFY(p);
    QCOMPARE(p->total.send, uint64_t(3));
    s.keySpace = "uid=user[2-99],ou=people,dc=example,dc=com"; // v1 is user2, v2 user3: no password
    const auto q = ReplayPlan::make(w, s, &*pw, "T", &e);
    QCOMPARE(q->total.noPassword, uint64_t(1));
    QCOMPARE(q->connections[0].ops[2].action, ReplayOp::Action::NoPassword);
}

void TstReplayPlan::planFromAWorkloadFile()
{
    QTemporaryDir dir;
    Workload w = baseWorkload();
    WorkloadConnection c;
    c.id = 3;
    c.openNs = 0;
    c.ops = { search(0, "v1", 1), search(2, "v2", 3) };
    w.connections = { c };
    QString error;
    const QString path = dir.filePath("w.dbwl");
    QVERIFY2(WorkloadFile::write(w, path, &error), qPrintable(error));
    const auto back = WorkloadFile::read(path, &error);
    QVERIFY2(back, qPrintable(error));
    const ReplayPlan p = makePlan(*back, baseSpec());
    QCOMPARE(p.connections[0].ops[1].filter, QByteArray("(uid=user1)"));
    QCOMPARE(p.connections[0].ops[1].atNs, 2 * kMs);
}

namespace {

// Three connections logged to the second: 5 operations in second 0, 3 in second 1, 4 in second 3.
Workload wholeSeconds()
{
    Workload w = baseWorkload();
    const std::vector<std::vector<uint64_t>> times { { 0, 0, 1000, 3000 }, { 0, 0, 1000, 3000 },
        { 0, 1000, 3000, 3000 } };
    for (size_t i = 0; i < times.size(); ++i) {
        WorkloadConnection c;
        c.id = 10 + i;
        c.openNs = 0;
        for (uint64_t t : times[i])
            c.ops.push_back(search(t, "v" + QString::number(i)));
        w.connections.push_back(c);
    }
    return w;
}

std::vector<uint64_t> scheduleOf(const ReplayPlan& p)
{
    std::vector<uint64_t> out;
    for (const auto& c : p.connections)
        for (const auto& op : c.ops)
            out.push_back(op.atNs);
    return out;
}

} // namespace

void TstReplayPlan::wholeSecondsSpreadBySeed()
{
    const Workload w = wholeSeconds();
    QVERIFY(w.secondTimestamps());
    ReplaySpec s = baseSpec();
    s.seed = 42;
    const ReplayPlan a = makePlan(w, s), b = makePlan(w, s);
    QVERIFY(a.spread);
    QCOMPARE(scheduleOf(a), scheduleOf(b)); // one seed, one schedule
    s.seed = 43;
    QVERIFY(scheduleOf(makePlan(w, s)) != scheduleOf(a));
    s.seed = 42;
    QCOMPARE(s.toJson().value("seed").toString(), QString("42")); // recorded
    // Each operation stays in its logged second, no longer all at its start; log order kept on each connection.
    int atStart = 0;
    for (size_t c = 0; c < w.connections.size(); ++c) {
        const auto& ops = a.connections[c].ops;
        for (size_t i = 0; i < ops.size(); ++i) {
            const uint64_t logged = w.connections[c].ops[i].offsetNs;
            QVERIFY(ops[i].atNs >= logged && ops[i].atNs < logged + 1000 * kMs);
            atStart += ops[i].atNs == logged;
            if (i > 0)
                QVERIFY(ops[i].atNs >= ops[i - 1].atNs);
        }
    }
    QVERIFY(atStart < 3);
    // --speed 2 halves the spread times too; the per-second counts of the schedule are the log's.
    s.speed = 2;
    const ReplayPlan fast = makePlan(w, s);
    const auto ta = scheduleOf(a), tf = scheduleOf(fast);
    for (size_t i = 0; i < ta.size(); ++i)
        QVERIFY(std::abs(double(tf[i]) - double(ta[i]) / 2) <= 1);
    QCOMPARE(ReplayFidelity::scheduledPerSecond(a), (std::vector<uint64_t> { 5, 3, 0, 4 }));
    // A log with finer times is not spread.
    Workload fine = w;
    fine.connections[0].ops[1].offsetNs += 1;
    s.seed.reset();
    QVERIFY(!makePlan(fine, s).spread);
}

void TstReplayPlan::seedRefusedWhereItDoesNotApply()
{
    ReplaySpec s = baseSpec();
    s.seed = 1;
    s.timing = ReplaySpec::Timing::RateProfile;
    QCOMPARE(s.validate().field, QString("seed"));
    s.timing = ReplaySpec::Timing::AsFastAsPossible;
    QCOMPARE(s.validate().field, QString("seed"));
    s.timing = ReplaySpec::Timing::Speed;
    QVERIFY(!s.validate().isError());
    Workload fine = wholeSeconds();
    fine.connections[0].ops[1].offsetNs += 1;
    const ProbeError e = s.validate(&fine);
    QCOMPARE(e.field, QString("seed"));
    QVERIFY2(e.detail.contains("finer than a second"), qPrintable(e.detail));
}

void TstReplayPlan::rateFidelityOnGivenNumbers()
{
    using ReplayFidelity::RateFidelity;
    // The log's rate kept second by second: passes, every per-second difference 0.
    const RateFidelity same = RateFidelity::of({ 100, 200, 0, 100 }, { 100, 200, 0, 100 });
    QVERIFY(same.passed());
    QCOMPARE(*same.ratio, 1.0);
    QCOMPARE(same.seconds, uint64_t(4));
    QCOMPARE(same.quietSeconds, uint64_t(1));
    QCOMPARE(*same.perSecondP99, 0.0);
    QCOMPARE(same.loggedOpsPerS, 100.0);
    // 6 % short over the run: fails; 4 % short: passes. Per second: 10 %, 2 %, 6 % off.
    const RateFidelity shortBy6 = RateFidelity::of({ 100, 100, 100 }, { 90, 98, 94 });
    QVERIFY(!shortBy6.passed());
    QVERIFY(std::abs(*shortBy6.difference() - 0.06) < 1e-9);
    QVERIFY(std::abs(*shortBy6.perSecondP50 - 0.06) < 1e-9);
    QVERIFY(std::abs(*shortBy6.perSecondP99 - 0.10) < 1e-9);
    QVERIFY(!ReplayFidelity::rateVerdict(shortBy6).passed);
    QCOMPARE(ReplayFidelity::rateVerdict(shortBy6).measured, 6.0);
    QVERIFY(RateFidelity::of({ 100, 100 }, { 96, 96 }).passed());
    // Bursts moved between seconds keep the whole-run rate and show per second.
    const RateFidelity moved = RateFidelity::of({ 100, 100 }, { 150, 50 });
    QVERIFY(moved.passed());
    QCOMPARE(*moved.perSecondMax, 0.5);
    // Sends after the schedule's last second do not count: a replay that fell behind fails.
    QVERIFY(!RateFidelity::of({ 100, 100 }, { 50, 100, 50 }).passed());
    // The JSON round trip keeps the figures; an empty schedule has no ratio and does not pass.
    const RateFidelity back = RateFidelity::fromJson(shortBy6.toJson());
    QCOMPARE(back.passed(), false);
    QVERIFY(std::abs(*back.perSecondP99 - 0.10) < 1e-9);
    QCOMPARE(shortBy6.toJson().value("passed").toBool(), false);
    QVERIFY(!RateFidelity::of({}, {}).ratio);
    QVERIFY(!RateFidelity::of({}, {}).passed());
}

QTEST_GUILESS_MAIN(TstReplayPlan)
#include "tst_replayplan.moc"
