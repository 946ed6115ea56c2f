// A server that hangs mid-run: the sandbox's slapd frozen with SIGSTOP while dirbench-cli (and, in-process,
// Ldap::runLoad) puts load on it. The connections stay up and nothing answers: every operation in flight must time
// out (--op-timeout), the run must fail within its failure window (--fail-after) plus the operation timeout, keep
// what it measured before, and leave nothing running. slapd is resumed afterwards and must serve again.
#include "core/ldap/loadgenerator.h"
#include "core/run/runcontext.h"
#include "ldapfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace LdapFixture;

namespace {

constexpr int kEntries = 2000;
constexpr double kFailAfterS = 3;
constexpr double kOpTimeoutS = 1;
constexpr int kThreads = 2, kConnections = 2, kOutstanding = 4;
// The promise: failed within the window plus one operation timeout of the stop. Asserted with 5x (sanitizers).
constexpr qint64 kPromiseMs = qint64((kFailAfterS + kOpTimeoutS) * 1000);
constexpr qint64 kBoundMs = 5 * kPromiseMs;

// Freezes a process and always lets it go again: resumed on scope exit, also when an assertion returns early.
// Declare it after the SandboxGuard so that it is destroyed first (a stopped slapd cannot be stopped cleanly).
class Freeze
{
public:
    explicit Freeze(qint64 pid)
        : m_pid(pid)
    { }
    ~Freeze() { resume(); }
    Q_DISABLE_COPY_MOVE(Freeze)
    bool stop()
    {
        m_stopped = ::kill(pid_t(m_pid), SIGSTOP) == 0;
        return m_stopped;
    }
    bool resume()
    {
        if (!m_stopped)
            return true;
        m_stopped = false;
        return ::kill(pid_t(m_pid), SIGCONT) == 0;
    }

private:
    qint64 m_pid;
    bool m_stopped = false;
};

// Processes whose parent is this test (the CLI must be gone, not orphaned or lingering).
QStringList childrenOfThisProcess()
{
    QStringList out;
    const QString me = QString::number(::getpid());
    for (const QString& d : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/") + d + QStringLiteral("/stat"));
        if (!f.open(QIODevice::ReadOnly))
            continue;
        const QByteArray stat = f.readAll();
        const int close = stat.lastIndexOf(')');
        const QList<QByteArray> rest = stat.mid(close + 2).split(' '); // state ppid ...
        if (close > 0 && rest.size() > 1 && rest.at(1) == me.toLatin1())
            out << d + u' ' + QString::fromLatin1(stat.mid(stat.indexOf('(') + 1, close - stat.indexOf('(') - 1));
    }
    return out;
}

double sumOf(const QJsonArray& intervals, const char* key)
{
    double s = 0;
    for (const QJsonValue& v : intervals)
        s += v.toObject().value(QLatin1String(key)).toDouble();
    return s;
}

} // namespace

class TstSigstop : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cliLoadFailsWithinTheWindow_data();
    void cliLoadFailsWithinTheWindow();
    void runLoadFailsWithinTheWindow();
    void writeLoadEndingOnAFrozenServerLeavesNothing();

private:
    static QStringList loadArgs(const QString& kind, const SandboxInfo& s, const QString& json);
    static LdapLoadSpec inProcessSpec(const SandboxInfo& s, int timeoutMs, double failAfterS);
    static void checkServesAgain(const SandboxInfo& s);
    static void checkRecord(const QJsonObject& r, qint64 stoppedAtMs);
};

void TstSigstop::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the SIGSTOP tests need a real server");
    qInfo("window --fail-after %g s, --op-timeout %g s: promise %lld ms after the stop, asserted < %lld ms",
        kFailAfterS, kOpTimeoutS, kPromiseMs, kBoundMs);
}

QStringList TstSigstop::loadArgs(const QString& kind, const SandboxInfo& s, const QString& json)
{
    // Bound as the admin, so the run also reads cn=monitor every interval: those reads meet the frozen server too.
    QStringList a { "ldap", kind, "--uri", s.uri, "--bind-dn", s.bindDn, "--password-file", s.passwordFile, "--threads",
        QString::number(kThreads), "--connections", QString::number(kConnections), "--outstanding",
        QString::number(kOutstanding), "--duration", "120", "--interval", "1", "--fail-after",
        QString::number(kFailAfterS), "--op-timeout", QString::number(kOpTimeoutS), "--network-timeout", "1",
        "--no-history", "--json", json };
    const QString uids = QStringLiteral("[0-%1]").arg(kEntries - 1);
    if (kind == u"search")
        a << "--base" << s.peopleBase << "--filter"
          << "uid=user" + uids << "--attrs"
          << "1.1";
    else // mixed: searches and modifies of the same entries
        a << "--mix"
          << "search=80,modify=20"
          << "--base" << s.peopleBase << "--filter"
          << "uid=user" + uids << "--dn"
          << "uid=user" + uids + u',' + s.peopleBase << "--attr"
          << "description"
          << "--value"
          << "sigstop [0-999]";
    return a;
}

// An in-process load as the admin (cn=monitor read each interval), of kThreads x kConnections x kOutstanding, long
// enough that only its failure window or a stop ends it.
LdapLoadSpec TstSigstop::inProcessSpec(const SandboxInfo& sbx, int timeoutMs, double failAfterS)
{
    LdapLoadSpec s;
    s.target = admin(sbx);
    s.target.networkTimeoutMs = timeoutMs;
    s.target.opTimeoutMs = timeoutMs;
    s.threads = kThreads;
    s.connections = kConnections;
    s.outstanding = kOutstanding;
    s.durationSec = 120;
    s.failAfterSec = failAfterS;
    return s;
}

void TstSigstop::checkRecord(const QJsonObject& r, qint64 stoppedAtMs)
{
    QCOMPARE(r.value("status").toString(), QStringLiteral("failed"));
    const QString failure = r.value("failure").toString();
    QVERIFY2(failure.contains("no operation succeeded for 3"), qPrintable(failure));
    QVERIFY2(failure.contains("no answer within the operation timeout (1"), qPrintable(failure)); // what went wrong
    const QJsonArray iv = r.value("intervals").toArray();
    // The intervals measured before the stop are kept, with successes in them.
    int before = 0;
    for (const QJsonValue& v : iv) {
        const QJsonObject o = v.toObject();
        if (o.value("t").toDouble() * 1000 <= double(stoppedAtMs) && o.value("ops").toDouble() > 0
            && o.value("ops").toDouble() > o.value("errors").toDouble())
            ++before;
    }
    QVERIFY2(before >= 2, qPrintable(QStringLiteral("%1 intervals with successes before the stop").arg(before)));
    // Every operation in flight at the stop timed out (and so did those sent in their slots since).
    const QJsonObject sum = r.value("summary").toObject();
    const double timeouts = sum.value("timeouts").toDouble();
    const double inIntervals = sumOf(iv, "timeouts");
    qInfo("  %lld intervals, %.0f ops, %.0f timeouts (%.0f of them in the intervals), %.0f errors",
        qlonglong(iv.size()), sum.value("ops").toDouble(), timeouts, inIntervals, sum.value("errors").toDouble());
    QVERIFY2(timeouts >= kThreads * kConnections * kOutstanding, qPrintable(QString::number(timeouts)));
    // The summary also counts the last sliver of an interval (< 1/10 of one), which gets no interval of its own.
    QVERIFY2(inIntervals >= kThreads * kConnections * kOutstanding && inIntervals <= timeouts,
        qPrintable(QString::number(inIntervals)));
    QVERIFY(sum.value("ops").toDouble() > timeouts);
}

void TstSigstop::checkServesAgain(const SandboxInfo& s)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { "ldap", "search", "--uri", s.uri, "--base", s.peopleBase, "--filter", "uid=user[0-99]", "--duration", "1",
            "--fail-after", "10", "--no-history", "--json", "-" });
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitStatus(), QProcess::NormalExit);
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    const QJsonObject r = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    QCOMPARE(r.value("status").toString(), QStringLiteral("ok"));
    QVERIFY(r.value("summary").toObject().value("ops").toDouble() > 0);
    QCOMPARE(r.value("summary").toObject().value("timeouts").toDouble(), 0.0);
}

void TstSigstop::cliLoadFailsWithinTheWindow_data()
{
    QTest::addColumn<QString>("kind");
    QTest::newRow("search") << "search";
    QTest::newRow("mixed search+modify") << "mixed";
}

void TstSigstop::cliLoadFailsWithinTheWindow()
{
    QFETCH(QString, kind);
    QString why;
    SandboxGuard sbx = start(kEntries, false, &why);
    QVERIFY2(sbx, qPrintable(why));
    Freeze freeze(sbx->pid); // destroyed before sbx: slapd is resumed, then stopped
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString json = dir.filePath("run.json");

    QProcess cli; // its destructor kills the CLI if an assertion returns early
    cli.start(QStringLiteral(DIRBENCH_CLI_PATH), loadArgs(kind, sbx.info(), json));
    QVERIFY(cli.waitForStarted());
    QElapsedTimer sinceStart;
    sinceStart.start();
    // A few seconds of load: wait for the third interval line ("t=   3.00 s ...").
    QByteArray out;
    while (out.count("\nt=") + out.startsWith("t=") < 3 && sinceStart.elapsed() < 60000
        && cli.state() == QProcess::Running) {
        cli.waitForReadyRead(200);
        out += cli.readAllStandardOutput();
    }
    QVERIFY2(cli.state() == QProcess::Running, cli.readAllStandardError().constData());
    QVERIFY2(out.count("t=") >= 3, out.constData());
    QVERIFY(freeze.stop());
    QElapsedTimer sinceStop;
    sinceStop.start();
    const qint64 stoppedAtMs = sinceStart.elapsed(); // an upper bound of the stop's `t` in the record
    QVERIFY(cli.waitForFinished(int(kBoundMs) + 30000));
    const qint64 ms = sinceStop.elapsed();
    qInfo("ldap %s: the run failed %lld ms after slapd was stopped (promise %lld ms, bound %lld ms)", qPrintable(kind),
        ms, kPromiseMs, kBoundMs);
    const QByteArray err = cli.readAllStandardError();
    out += cli.readAllStandardOutput();
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QVERIFY2(cli.exitCode() == 1, err.constData());
    // The summary (stdout, as --json names a file) ends with the status and the reason.
    QVERIFY2(out.contains("status: failed: no operation succeeded"), out.right(600).constData());
    QVERIFY2(out.contains("no answer within the operation timeout"), out.right(600).constData());
    QVERIFY2(ms >= qint64(kFailAfterS * 1000) - 300 && ms < kBoundMs, qPrintable(QString::number(ms)));
    QVERIFY2(childrenOfThisProcess().isEmpty(), qPrintable(childrenOfThisProcess().join(u", ")));

    QFile f(json);
    QVERIFY2(f.open(QIODevice::ReadOnly), "no record written");
    const QJsonObject r = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(r.value("kind").toString(), "ldap-" + kind);
    checkRecord(r, stoppedAtMs);
    if (QTest::currentTestFailed())
        return;

    QVERIFY(freeze.resume());
    checkServesAgain(sbx.info());
}

void TstSigstop::runLoadFailsWithinTheWindow()
{
    QString why;
    SandboxGuard sbx = start(kEntries, false, &why);
    QVERIFY2(sbx, qPrintable(why));
    Freeze freeze(sbx->pid);
    LdapLoadSpec s = inProcessSpec(sbx.info(), int(kOpTimeoutS * 1000), kFailAfterS);
    s.base = sbx->peopleBase;
    s.filter = QStringLiteral("uid=user[0-%1]").arg(kEntries - 1);
    s.attrs = { QStringLiteral("1.1") };
    RunContext ctx;
    RunRecord r;
    QElapsedTimer sinceStart;
    sinceStart.start();
    std::thread t([&] { r = Ldap::runLoad(s, ctx); });
    // A thread must be joined whatever happens below.
    struct Join
    {
        std::thread& t;
        RunContext& ctx;
        ~Join()
        {
            if (t.joinable()) {
                ctx.requestStop();
                t.join();
            }
        }
    } join { t, ctx };
    while (ctx.samplesAdded() < 3 && sinceStart.elapsed() < 60000)
        QThread::msleep(20);
    QVERIFY(ctx.samplesAdded() >= 3);
    QVERIFY(freeze.stop());
    QElapsedTimer sinceStop;
    sinceStop.start();
    const qint64 stoppedAtMs = sinceStart.elapsed();
    t.join();
    const qint64 ms = sinceStop.elapsed();
    qInfo("Ldap::runLoad: the run failed %lld ms after slapd was stopped (promise %lld ms, bound %lld ms)", ms,
        kPromiseMs, kBoundMs);
    QVERIFY2(ms >= qint64(kFailAfterS * 1000) - 300 && ms < kBoundMs, qPrintable(QString::number(ms)));
    checkRecord(r.toJson(), stoppedAtMs);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(freeze.resume());
    checkServesAgain(sbx.info());
}

// An add+delete load whose end meets a server that answers late (slapd frozen for kLateMs at the stop, longer than
// the end's old 500 ms wait): the adds in flight are answered after all, and the cleanup, which looks only after
// them, removes every entry the run made. Before, they were abandoned and could commit after the cleanup looked.
void TstSigstop::writeLoadEndingOnAFrozenServerLeavesNothing()
{
    constexpr unsigned long kLateMs = 1500; // how long the server does not answer: a fault's length, not a wait
    QString why;
    SandboxGuard sbx = start(kEntries, false, &why);
    QVERIFY2(sbx, qPrintable(why));
    Freeze freeze(sbx->pid);
    LdapLoadSpec s = inProcessSpec(sbx.info(), 10000, 30);
    s.mix = { { LdapOpKind::AddDelete, 100 } };
    s.parentDn = sbx->peopleBase;
    RunContext ctx;
    RunRecord r;
    std::thread t([&] { r = Ldap::runLoad(s, ctx); });
    QElapsedTimer sinceStart;
    sinceStart.start();
    while (ctx.samplesAdded() < 2 && sinceStart.elapsed() < 60000)
        QThread::msleep(20);
    const bool loaded = ctx.samplesAdded() >= 2;
    const bool frozen = loaded && freeze.stop();
    ctx.requestStop(); // the end arrives while the adds in flight have no answer
    if (frozen)
        QThread::msleep(kLateMs);
    const bool resumed = freeze.resume();
    t.join();
    QVERIFY2(loaded && frozen && resumed, "the load did not get going, or slapd could not be frozen or resumed");
    const QJsonObject rec = r.toJson();
    const QJsonObject sum = rec.value("summary").toObject();
    qInfo("  %.0f adds ok, %.0f errors, %.0f removed by the cleanup", sum.value("ok").toDouble(),
        sum.value("errors").toDouble(), sum.value("cleanup_removed").toDouble());
    QVERIFY(sum.value("ok").toDouble() > 0);
    for (const QJsonValue& w : rec.value("warnings").toArray())
        QVERIFY2(!w.toObject().value("code").toString().startsWith(u"cleanup"),
            qPrintable(w.toObject().value("message").toString()));
    LdapSession check;
    QVERIFY(!check.open(admin(sbx.info())).isError());
    QList<LdapSession::Entry> left;
    QVERIFY(!check
                 .search(sbx->peopleBase, LdapSession::OneLevel, QStringLiteral("(uid=dirbench-*)"),
                     { QStringLiteral("1.1") }, &left)
                 .isError());
    QCOMPARE(left.size(), 0);
}

QTEST_GUILESS_MAIN(TstSigstop)
#include "tst_sigstop.moc"
