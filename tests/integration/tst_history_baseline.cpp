#include "core/ldap/ldaptarget.h"
#include "core/store/comparison.h"
#include "core/store/runstore.h"
#include "ldapfixture.h"

#include <QDir>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

// --baseline NAME --fail-if-slower PCT against a real slapd: a load run is saved as the baseline, then a run that is
// really slower (its rate throttled with --rate) must fail the check with exit 3, and a generous limit must pass.
class TstHistoryBaseline : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void slowerRunFailsTheBaseline();
    void allErrorRunHasHeadlineZero();

private:
    struct Result
    {
        int code = -1;
        QByteArray out;
        QByteArray err;
    };
    Result search(const QStringList& extra, const QString& base = {});

    SandboxGuard m_slapd;
    QTemporaryDir m_tmp;
};

void TstHistoryBaseline::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the baseline test needs a real server");
    QString why;
    m_slapd = LdapFixture::start(2000, false, &why);
    QVERIFY2(m_slapd, qPrintable(why));
}

void TstHistoryBaseline::cleanupTestCase()
{
    m_slapd.reset();
}

TstHistoryBaseline::Result TstHistoryBaseline::search(const QStringList& extra, const QString& base)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_tmp.filePath(QStringLiteral("history.sqlite")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        QStringList { "ldap", "search", "--uri", m_slapd->uri, "--bind-dn", m_slapd->bindDn, "--password-file",
            m_slapd->passwordFile, "--base", base.isEmpty() ? m_slapd->peopleBase : base, "--filter",
            "uid=user[0-1999]", "--attrs", "1.1", "--threads", "1", "--connections", "2", "--duration", "2", "--warmup",
            "0.5", "--quiet" }
            + extra);
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return {};
    }
    return { p.exitCode(), p.readAllStandardOutput(), p.readAllStandardError() };
}

void TstHistoryBaseline::slowerRunFailsTheBaseline()
{
    const Result base = search({ "--name", "nightly" });
    QVERIFY2(base.code == 0, base.err.constData());
    QVERIFY2(base.out.contains("saved in the history as run 1 'nightly'"), base.out.constData());
    RunStore store;
    QVERIFY(store.open(m_tmp.filePath(QStringLiteral("history.sqlite"))));
    const auto baseline = store.load(1);
    QVERIFY(baseline);
    const double baseOk = baseline->summary.value(QStringLiteral("ok_per_s")).toDouble();
    QVERIFY2(baseOk > 200, qPrintable(QString::number(baseOk))); // the throttled run below is really slower
    QCOMPARE(store.summary(1)->headline, Comparison::formatValue(baseOk, QStringLiteral("ok/s")));

    // 50 ops/s in total: slower than the baseline by far more than 20 %.
    const Result slow = search({ "--rate", "50", "--baseline", "nightly", "--fail-if-slower", "20" });
    QVERIFY2(slow.code == 3, QByteArray(slow.out + slow.err).constData());
    QVERIFY2(slow.out.contains("compared with the baseline, run 1 'nightly'"), slow.out.constData());
    QVERIFY2(slow.out.contains("baseline: ok/s worse by"), slow.out.constData()); // successes are judged
    QVERIFY2(slow.out.contains("FAIL (exit 3)"), slow.out.constData());

    // The same throttled run passes a limit it cannot exceed (worse by less than 100 %).
    const Result lenient = search({ "--rate", "50", "--baseline", "nightly", "--fail-if-slower", "100" });
    QVERIFY2(lenient.code == 0, QByteArray(lenient.out + lenient.err).constData());
    QVERIFY2(lenient.out.contains("PASS"), lenient.out.constData());

    // A baseline of another kind is refused before the run, naming --baseline.
    const QString disk = m_tmp.filePath(QStringLiteral("disk"));
    QVERIFY(QDir().mkpath(disk));
    QProcess d;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_tmp.filePath(QStringLiteral("history.sqlite")));
    d.setProcessEnvironment(env);
    d.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { "disk", "--dir", disk, "--profile", "commit", "--size", "1M", "--duration", "0.2", "--baseline", "nightly" });
    QVERIFY(d.waitForFinished(60000));
    QCOMPARE(d.exitCode(), 2);
    const QByteArray err = d.readAllStandardError();
    QVERIFY2(err.contains("--baseline") && err.contains("ldap-search"), err.constData());
    QCOMPARE(store.list().size(), 3);
}

// Every search fails (no such base: result 32), fast: many operations completed, none succeeded. The run fails
// (exit 1), its history headline is 0 ok/s, and it is refused as a baseline.
void TstHistoryBaseline::allErrorRunHasHeadlineZero()
{
    const Result r = search({ "--name", "nowhere" }, QStringLiteral("ou=nowhere,dc=example,dc=com"));
    QVERIFY2(r.code == 1, QByteArray(r.out + r.err).constData());
    QVERIFY2(r.out.contains("no operation succeeded"), r.out.constData());
    RunStore store;
    QVERIFY(store.open(m_tmp.filePath(QStringLiteral("history.sqlite"))));
    const auto id = store.findByName(QStringLiteral("nowhere"));
    QVERIFY(id);
    const auto rec = store.load(*id);
    QCOMPARE(rec->status, QStringLiteral("failed"));
    QVERIFY(rec->summary.value(QStringLiteral("errors")).toDouble() > 0);
    QVERIFY(rec->summary.value(QStringLiteral("ops_per_s")).toDouble() > 0); // completed, every one an error
    QCOMPARE(store.summary(*id)->headline, QStringLiteral("0.0 ok/s"));
    const auto h = Comparison::headline(*rec);
    QVERIFY(h && *h->value == 0.0 && !h->derived);
    const Result refused = search({ "--baseline", "nowhere" });
    QCOMPARE(refused.code, 2);
    QVERIFY2(refused.err.contains("--baseline") && refused.err.contains("did not complete"), refused.err.constData());
}

QTEST_GUILESS_MAIN(TstHistoryBaseline)
#include "tst_history_baseline.moc"
