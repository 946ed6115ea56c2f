// The coverage vs ok/s curve against real servers: a working-set sweep on the OpenLDAP sandbox (slapd), and the
// 389-ds cache sweep on a 389-ds sandbox with 10,000 entries, restarted per point and online, with its settings
// put back afterwards, also on cancel. The 389-ds part skips, saying why, where 389-ds-base is not installed.
#include "core/experiments/curve.h"
#include "core/experiments/curvesummary.h"
#include "core/run/runcontext.h"
#include "core/sandbox/ds389sandbox.h"
#include "ldapfixture.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <thread>

using namespace LdapFixture;

namespace {

const QString kBackend = QStringLiteral("cn=userRoot,cn=ldbm database,cn=plugins,cn=config");
const QString kBdb = QStringLiteral("cn=bdb,cn=config,cn=ldbm database,cn=plugins,cn=config");

QByteArray attr(LdapSession& s, const QString& dn, const QString& name)
{
    QList<LdapSession::Entry> out;
    s.search(dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { name }, &out);
    return out.isEmpty() ? QByteArray() : out.first().first(name);
}

QJsonArray points(const RunRecord& r)
{
    return r.summary.value(QStringLiteral("points")).toArray();
}

void printPoints(const char* what, const RunRecord& r)
{
    for (const auto& v : points(r)) {
        const QJsonObject p = v.toObject();
        qInfo("%s: %s coverage %.3f (cache %.0f entries) lookups/search %.3f hit %s ok/s %.1f", what,
            qPrintable(p.value(QStringLiteral("series")).toString()), p.value(QStringLiteral("coverage")).toDouble(),
            p.value(QStringLiteral("cache_entries")).toDouble(),
            p.value(QStringLiteral("lookups_per_search")).toDouble(),
            p.value(QStringLiteral("hit_ratio")).isDouble()
                ? qPrintable(QString::number(p.value(QStringLiteral("hit_ratio")).toDouble(), 'f', 3))
                : "null",
            p.value(QStringLiteral("ok_per_s")).toDouble());
    }
    for (const auto& w : r.warnings)
        qInfo("%s: warning %s: %s", what, qPrintable(w.code), qPrintable(w.message));
    qInfo("%s: t_hit_us %s t_miss_us %s", what,
        qPrintable(QString::number(r.summary.value(QStringLiteral("t_hit_us")).toDouble())),
        qPrintable(QString::number(r.summary.value(QStringLiteral("t_miss_us")).toDouble())));
}

} // namespace

class TstCurve : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void badSpecsAreRefused_data();
    void badSpecsAreRefused();
    void cutRangeKeepsPadding();
    void workingSetOnOpenLdap();
    void cacheSweepRefusesOpenLdap();
    void cliWorkingSet();
    void cacheSweepOn389WithRestart();
    void cacheSweepOn389Online();
    void cancelledSweepPutsSettingsBack();

private:
    CurveSpec slapdSpec() const;
    CurveSpec ds389Spec() const;
    bool ensure389(); // starts the 389-ds sandbox on first use; false (m_why389 says why) when it did not start
    struct Settings
    {
        QByteArray memSize, cacheSize, autosize;
        QByteArray text() const { return memSize + ' ' + cacheSize + ' ' + autosize; }
    };
    Settings settings389();

    SandboxGuard m_slapd; // 2,000 entries
    QTemporaryDir m_parent;
    Ds389Guard m_389; // 10,000 entries
    QString m_why389;
};

void TstCurve::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the curve tests need a real server");
    QString why;
    m_slapd = start(2000, false, &why);
    QVERIFY2(m_slapd, qPrintable(why));
}

void TstCurve::cleanupTestCase()
{
    m_slapd.reset();
    m_389.reset();
}

CurveSpec TstCurve::slapdSpec() const
{
    CurveSpec c;
    c.mode = CurveSpec::Mode::WorkingSet;
    c.load.target = admin(m_slapd.info());
    c.load.base = m_slapd->peopleBase;
    c.load.filter = QStringLiteral("uid=user[0-1999]");
    c.load.attrs = { QStringLiteral("1.1") };
    c.load.durationSec = 2;
    c.load.warmupSec = 0.5;
    c.load.intervalSec = 0.5;
    c.cacheEntries = 500;
    c.points = { 0.25, 0.5, 1.0 };
    return c;
}

void TstCurve::badSpecsAreRefused_data()
{
    QTest::addColumn<int>("which");
    QTest::addColumn<QString>("field");
    QTest::newRow("working-set without a range") << 0 << "filter";
    QTest::newRow("cache-entries in a cache sweep") << 1 << "cache-entries";
    QTest::newRow("restart in a working-set sweep") << 2 << "restart";
    QTest::newRow("one point") << 3 << "points";
    QTest::newRow("cache holds the whole range") << 4 << "cache-entries";
    QTest::newRow("sandbox-dir without restart") << 5 << "sandbox-dir";
    QTest::newRow("cache sweep without a range or entries") << 6 << "entries";
}

void TstCurve::badSpecsAreRefused()
{
    QFETCH(int, which);
    QFETCH(QString, field);
    CurveSpec c = slapdSpec();
    c.load.target.uri = QStringLiteral("ldap://127.0.0.1:1/"); // nothing is contacted
    switch (which) {
    case 0:
        c.load.filter = QStringLiteral("uid=user7");
        break;
    case 1:
        c.mode = CurveSpec::Mode::CacheSweep;
        break;
    case 2:
        c.restart = true;
        break;
    case 3:
        c.points = { 0.5 };
        break;
    case 4:
        c.cacheEntries = 2000;
        break;
    case 5:
        c.sandboxDir = QStringLiteral("/tmp");
        break;
    case 6:
        c.mode = CurveSpec::Mode::CacheSweep, c.cacheEntries = 0, c.load.filter = QStringLiteral("uid=x");
        break;
    }
    const ProbeError invalid = c.validate();
    QCOMPARE(invalid.field, field);
    // The command line names its options, a window its fields: core's text names neither.
    const QString windowText = invalid.detailNaming([](const QString& f) { return QString(u'“' + f + u'”'); });
    QVERIFY2(!invalid.cliDetail().contains(u"{{") && !windowText.contains(u"--"), qPrintable(windowText));
    RunContext ctx;
    QElapsedTimer t;
    t.start();
    const RunRecord r = Experiments::runCurve(c, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY(r.failure.contains(field));
    QVERIFY(t.elapsed() < 1000);

    ProbeError e;
    QVERIFY(!CurveSpec::parsePoints(QStringLiteral("0,10,110"), &e));
    QCOMPARE(e.field, QStringLiteral("points"));
    QVERIFY(!CurveSpec::parsePoints(QStringLiteral("10,10"), &e));
    QVERIFY(!CurveSpec::parseMode(QStringLiteral("sweep"), &e));
    QCOMPARE(e.field, QStringLiteral("mode"));
    QCOMPARE(CurveSpec::parsePoints(QStringLiteral(" 0, 50 ,100"), &e).value(), (QList<double> { 0, 0.5, 1 }));
}

void TstCurve::cutRangeKeepsPadding()
{
    QCOMPARE(
        Experiments::cutRange(QStringLiteral("uid=user[0-99999]"), 2500).value(), QStringLiteral("uid=user[0-2499]"));
    QCOMPARE(Experiments::cutRange(QStringLiteral("(&(objectClass=person)(uid=u[00000-99999]))"), 10).value(),
        QStringLiteral("(&(objectClass=person)(uid=u[00000-00009]))"));
    QCOMPARE(Experiments::cutRange(QStringLiteral("uid=\\[x[10-20]"), 3).value(), QStringLiteral("uid=\\[x[10-12]"));
    QVERIFY(!Experiments::cutRange(QStringLiteral("uid=a[0-9]b[0-9]"), 3));
    QVERIFY(!Experiments::cutRange(QStringLiteral("uid=user1"), 3));
}

void TstCurve::workingSetOnOpenLdap()
{
    RunContext ctx;
    const RunRecord r = Experiments::runCurve(slapdSpec(), ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    printPoints("working set, OpenLDAP sandbox", r);
    QCOMPARE(r.kind, QStringLiteral("curve"));
    QCOMPARE(r.server.toObject().value(QStringLiteral("kind")).toString(), QStringLiteral("openldap"));
    const QJsonArray pts = points(r);
    QCOMPARE(pts.size(), 3);
    const QList<double> workingSets { 2000, 1000, 500 };
    QStringList series;
    for (int i = 0; i < 3; ++i) {
        const QJsonObject p = pts[i].toObject();
        QCOMPARE(p.value(QStringLiteral("coverage")).toDouble(), slapdSpec().points[i]);
        QCOMPARE(p.value(QStringLiteral("working_set")).toDouble(), workingSets[i]);
        QVERIFY(p.value(QStringLiteral("hit_ratio")).isNull()); // back-mdb has no entry cache counters
        QVERIFY(p.value(QStringLiteral("ok_per_s")).toDouble() > 0); // successful searches: the throughput
        QVERIFY(p.value(QStringLiteral("ops_per_s")).toDouble() >= p.value(QStringLiteral("ok_per_s")).toDouble());
        QCOMPARE(p.value(QStringLiteral("errors")).toDouble(), 0.0);
        series << p.value(QStringLiteral("series")).toString();
    }
    // The model is fitted to ok/s.
    const QJsonArray residuals
        = r.summary.value(QStringLiteral("fit")).toObject().value(QStringLiteral("residuals")).toArray();
    QCOMPARE(residuals.size(), 3);
    for (int i = 0; i < 3; ++i)
        QCOMPARE(residuals[i].toObject().value(QStringLiteral("measured")).toDouble(),
            pts[i].toObject().value(QStringLiteral("ok_per_s")).toDouble());
    QCOMPARE(pts[2].toObject().value(QStringLiteral("filter")).toString(), QStringLiteral("uid=user[0-499]"));
    for (const auto& v : r.intervals)
        QVERIFY(series.contains(v.toObject().value(QStringLiteral("series")).toString()));
    QVERIFY(r.intervals.size() >= 9);
    QVERIFY(r.summary.value(QStringLiteral("t_hit_us")).toDouble() > 0); // uniform: h = c, fitted
    QVERIFY(r.summary.value(QStringLiteral("t_miss_us")).isDouble());
    QCOMPARE(r.summary.value(QStringLiteral("cache_entries")).toDouble(), 500.0);
    QVERIFY(RunRecord::fromJsonBytes(r.toJsonBytes()).has_value());
}

void TstCurve::cacheSweepRefusesOpenLdap()
{
    CurveSpec c = slapdSpec();
    c.mode = CurveSpec::Mode::CacheSweep;
    c.cacheEntries = 0;
    RunContext ctx;
    const RunRecord r = Experiments::runCurve(c, ctx);
    QCOMPARE(r.status, QStringLiteral("failed"));
    QVERIFY(r.failure.contains(QStringLiteral("working-set")));
}

void TstCurve::cliWorkingSet()
{
    QTemporaryDir tmp;
    const QString json = tmp.filePath(QStringLiteral("curve.json"));
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { QStringLiteral("curve"), QStringLiteral("--uri"), m_slapd->uri, QStringLiteral("--bind-dn"), m_slapd->bindDn,
            QStringLiteral("--password-file"), m_slapd->passwordFile, QStringLiteral("--base"), m_slapd->peopleBase,
            QStringLiteral("--filter"), QStringLiteral("uid=user[0-1999]"), QStringLiteral("--mode"),
            QStringLiteral("working-set"), QStringLiteral("--cache-entries"), QStringLiteral("400"),
            QStringLiteral("--points"), QStringLiteral("20,100"), QStringLiteral("--seconds-per-point"),
            QStringLiteral("1"), QStringLiteral("--warmup"), QStringLiteral("0.2"), QStringLiteral("--attrs"),
            QStringLiteral("1.1"), QStringLiteral("--json"), json, QStringLiteral("--no-history"),
            QStringLiteral("--quiet") });
    QVERIFY(p.waitForFinished(60000));
    QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
    QFile f(json);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    QCOMPARE(o.value(QStringLiteral("kind")).toString(), QStringLiteral("curve"));
    QCOMPARE(o.value(QStringLiteral("summary")).toObject().value(QStringLiteral("points")).toArray().size(), 2);
    const QByteArray out = p.readAllStandardOutput();
    QVERIFY2(out.contains("coverage %") && out.contains("ok/s") && out.contains("ops/s"), out.constData());
    // The fit's sentence is the one the Curve page and the report say (CurveRecord::fitSentence).
    const auto record = RunRecord::fromJson(o);
    QVERIFY(record);
    const QString fit = CurveRecord::Summary::of(*record).fitText();
    QVERIFY2(!fit.isEmpty(), out.constData());
    QVERIFY2(QString::fromUtf8(out).contains(QStringLiteral("fit: ") + fit), out.constData());
    for (const auto& v : o.value(QStringLiteral("summary")).toObject().value(QStringLiteral("points")).toArray())
        QVERIFY(v.toObject().value(QStringLiteral("ok_per_s")).toDouble() > 0);

    QProcess bad;
    bad.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { QStringLiteral("curve"), QStringLiteral("--uri"), m_slapd->uri, QStringLiteral("--base"), m_slapd->peopleBase,
            QStringLiteral("--filter"), QStringLiteral("uid=user[0-9]"), QStringLiteral("--mode"),
            QStringLiteral("working-set"), QStringLiteral("--points"), QStringLiteral("5,500") });
    QVERIFY(bad.waitForFinished(20000));
    QCOMPARE(bad.exitCode(), 2);
    QVERIFY(bad.readAllStandardError().contains("--points"));
}

bool TstCurve::ensure389()
{
    if (m_389)
        return true;
    if (!m_why389.isEmpty())
        return false;
    Ds389Options o;
    o.entries = 10000;
    o.parentDir = m_parent.path();
    ProbeError e;
    QElapsedTimer t;
    t.start();
    m_389.reset(Ds389Sandbox::start(o, &e));
    if (!m_389) {
        m_why389 = QStringLiteral("the 389-ds sandbox did not start: ") + e.message();
        return false;
    }
    qInfo("389-ds sandbox, 10000 entries: ready in %.1f s", double(t.elapsed()) / 1000.0);
    return true;
}

CurveSpec TstCurve::ds389Spec() const
{
    CurveSpec c;
    c.mode = CurveSpec::Mode::CacheSweep;
    c.load.target.uri = m_389->uri;
    c.load.target.auth = LdapTarget::Auth::Simple;
    c.load.target.bindDn = m_389->bindDn;
    QFile f(m_389->passwordFile);
    if (f.open(QIODevice::ReadOnly))
        c.load.target.password = f.readAll().trimmed();
    c.load.base = m_389->peopleBase;
    c.load.filter = QStringLiteral("uid=user[0-9999]");
    c.load.attrs = { QStringLiteral("1.1") };
    c.load.durationSec = 2;
    c.load.warmupSec = 1;
    c.load.intervalSec = 0.5;
    return c;
}

TstCurve::Settings TstCurve::settings389()
{
    LdapSession s;
    if (s.open(ds389Spec().load.target).isError())
        return {};
    return { attr(s, kBackend, QStringLiteral("nsslapd-cachememsize")),
        attr(s, kBackend, QStringLiteral("nsslapd-cachesize")),
        attr(s, kBdb, QStringLiteral("nsslapd-cache-autosize")) };
}

void TstCurve::cacheSweepOn389WithRestart()
{
    if (const QString missing = Ds389Sandbox::unavailableReason(); !missing.isEmpty())
        QSKIP(qPrintable("389-ds cannot be tested: " + missing));
    QVERIFY2(ensure389(), qPrintable(m_why389));
    const Settings before = settings389();
    QVERIFY(!before.memSize.isEmpty());
    CurveSpec c = ds389Spec();
    c.restart = true;
    c.points = { 0.0, 0.5, 1.0 };
    RunContext ctx;
    QElapsedTimer t;
    t.start();
    const RunRecord r = Experiments::runCurve(c, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    qInfo("cache sweep with restarts, 3 points: %.1f s", double(t.elapsed()) / 1000.0);
    printPoints("389-ds cache sweep, restarted", r);
    QVERIFY(r.hasWarning(QStringLiteral("min-coverage"))); // 0 % is measured at 1 %
    QVERIFY(!r.hasWarning(QStringLiteral("online")));
    QVERIFY(!r.hasWarning(QStringLiteral("not-honoured")));
    const QJsonArray pts = points(r);
    QCOMPARE(pts.size(), 3);
    const QList<double> expect { 0.01, 0.5, 1.0 };
    for (int i = 0; i < 3; ++i) {
        const QJsonObject p = pts[i].toObject();
        QVERIFY2(std::abs(p.value(QStringLiteral("coverage")).toDouble() - expect[i]) < 0.08,
            qPrintable(QString::number(p.value(QStringLiteral("coverage")).toDouble())));
        // Uniform access: the hit ratio per search follows the coverage.
        QVERIFY2(std::abs(p.value(QStringLiteral("hit_ratio")).toDouble() - expect[i]) < 0.1,
            qPrintable(QString::number(p.value(QStringLiteral("hit_ratio")).toDouble())));
        QVERIFY2(std::abs(p.value(QStringLiteral("lookups_per_search")).toDouble() - 2.0) < 0.1,
            qPrintable(QJsonDocument(p).toJson(QJsonDocument::Compact)));
        QVERIFY(p.value(QStringLiteral("restarted")).toBool());
    }
    QVERIFY(r.summary.value(QStringLiteral("bytes_per_entry")).toDouble() > 1000);
    QVERIFY(r.summary.value(QStringLiteral("t_hit_us")).isDouble());
    QCOMPARE(settings389().text(), before.text());
}

void TstCurve::cacheSweepOn389Online()
{
    if (const QString missing = Ds389Sandbox::unavailableReason(); !missing.isEmpty())
        QSKIP(qPrintable("389-ds cannot be tested: " + missing));
    QVERIFY2(ensure389(), qPrintable(m_why389));
    const Settings before = settings389();
    CurveSpec c = ds389Spec();
    c.points = { 0.1, 1.0 };
    RunContext ctx;
    const RunRecord r = Experiments::runCurve(c, ctx);
    QVERIFY2(r.status == u"ok", qPrintable(r.failure));
    printPoints("389-ds cache sweep, online", r);
    QVERIFY(r.hasWarning(QStringLiteral("online")));
    const QJsonArray pts = points(r);
    QVERIFY(std::abs(pts[0].toObject().value(QStringLiteral("hit_ratio")).toDouble() - 0.1) < 0.08);
    QVERIFY(pts[1].toObject().value(QStringLiteral("hit_ratio")).toDouble() > 0.95);
    QCOMPARE(settings389().text(), before.text());
}

void TstCurve::cancelledSweepPutsSettingsBack()
{
    if (const QString missing = Ds389Sandbox::unavailableReason(); !missing.isEmpty())
        QSKIP(qPrintable("389-ds cannot be tested: " + missing));
    QVERIFY2(ensure389(), qPrintable(m_why389));
    const Settings before = settings389();
    CurveSpec c = ds389Spec();
    c.points = { 0.2, 0.6, 1.0 };
    c.load.durationSec = 30;
    RunContext ctx;
    RunRecord r;
    std::thread run([&] { r = Experiments::runCurve(c, ctx); });
    QTest::qWait(4000);
    ctx.requestStop();
    QElapsedTimer t;
    t.start();
    run.join();
    QVERIFY(t.elapsed() < 10000);
    QCOMPARE(r.status, QStringLiteral("cancelled"));
    QCOMPARE(settings389().text(), before.text());
}

QTEST_GUILESS_MAIN(TstCurve)
#include "tst_curve.moc"
