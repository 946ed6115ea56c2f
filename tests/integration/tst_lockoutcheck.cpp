// The bind-load lockout warning against real servers: a slapd sandbox with the ppolicy overlay and a lockout
// default (SandboxOptions::ppolicyLockout), one without, and a 389-ds sandbox with passwordLockout switched on.
// Runs `dirbench-cli ldap bind` as a user would, and Ldap::addBindSafetyWarnings over setup sessions bound as the
// rootdn, as an ordinary user and anonymously.
#include "core/common/runrecord.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/lockoutcheck.h"
#include "core/ldap/serveridentity.h"
#include "core/ldap/valuepattern.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/slapdconfig.h"
#include "ldapfixture.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace LdapFixture;

namespace {

const QString kPeople = QStringLiteral("ou=people,dc=example,dc=com");
const QString kStrictDn = QStringLiteral("cn=strict,ou=policies,dc=example,dc=com");

QString user(int i)
{
    return QStringLiteral("uid=user%1,").arg(i) + kPeople;
}

// A session bound as `dn` with the sandbox's shared password (empty dn: anonymous).
bool openAs(LdapSession& s, const SandboxInfo& sbx, const QString& dn, QString* why = nullptr)
{
    LdapTarget t;
    t.uri = sbx.uri;
    if (!dn.isEmpty()) {
        t.auth = LdapTarget::Auth::Simple;
        t.bindDn = dn;
        t.password = password(sbx);
    }
    const ProbeError e = s.open(t);
    if (why)
        *why = e.message();
    return !e.isError();
}

// What addBindSafetyWarnings says over a session bound as `dn`, for loads that bind as `pattern`.
RunRecord check(const SandboxInfo& sbx, const QString& dn, const QString& pattern)
{
    RunRecord rec;
    LdapSession s;
    if (!openAs(s, sbx, dn))
        return rec;
    QList<LdapSession::Entry> dse;
    s.search(QString(), LdapSession::Base, QStringLiteral("(objectClass=*)"),
        { QStringLiteral("*"), QStringLiteral("+") }, &dse);
    const auto dns = ValuePattern::parse(pattern, QStringLiteral("dn"));
    Ldap::addBindSafetyWarnings(s, ServerIdentity::fromRootDse(dse.value(0)), dns.value_or(ValuePattern()), rec);
    return rec;
}

QString warning(const RunRecord& r, const QString& code)
{
    for (const RunWarning& w : r.warnings)
        if (w.code == code)
            return w.message;
    return {};
}

QString allWarnings(const RunRecord& r)
{
    QStringList out;
    for (const RunWarning& w : r.warnings)
        out << w.code + QStringLiteral(": ") + w.message;
    return out.join(u'\n');
}

// ldapmodify as the sandbox's admin, with an LDIF on stdin; returns its error output ("" when it worked).
QString ldapmodify(const SandboxInfo& sbx, const QByteArray& ldif)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    e.insert(QStringLiteral("LDAPCONF"), QStringLiteral("/dev/null"));
    e.insert(QStringLiteral("LDAPRC"), QStringLiteral("dirbench-no-such-ldaprc"));
    p.setProcessEnvironment(e);
    p.start(QStringLiteral("ldapmodify"),
        { QStringLiteral("-x"), QStringLiteral("-H"), sbx.uri, QStringLiteral("-D"), sbx.bindDn, QStringLiteral("-y"),
            sbx.passwordFile });
    p.write(ldif);
    p.closeWriteChannel();
    if (!p.waitForFinished(30000)) {
        p.kill();
        p.waitForFinished();
        return QStringLiteral("ldapmodify timed out");
    }
    const QString err = QString::fromLocal8Bit(p.readAllStandardError());
    return p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0 ? QString()
                                                                       : QStringLiteral("ldapmodify: ") + err;
}

} // namespace

class TstLockoutCheck : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void sandboxPolicyReallyLocksAccounts();
    void cliBindRunWarnsWithThePolicy();
    void cliBindRunWithoutPpolicyHasNoWarning();
    void directCall_data();
    void directCall();
    void entryOwnPolicyWins();
    void ds389LockoutFromConfig();

private:
    struct Cli
    {
        int code = -1;
        QJsonObject record;
        QByteArray err;
    };
    Cli bindRun(const SandboxInfo& sbx);

    QTemporaryDir m_tmp;
    SandboxGuard m_locked; // ppolicy overlay, default policy: lockout after 3 failures for 300 s
    SandboxGuard m_plain; // no ppolicy
};

void TstLockoutCheck::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the lockout check needs a real server");
    QVERIFY(m_tmp.isValid());
    SandboxOptions o;
    o.entries = 200;
    o.makeCurrent = false;
    o.parentDir = m_tmp.path();
    o.ppolicyLockout = true;
    ProbeError e;
    m_locked.reset(SlapdSandbox::start(o, &e));
    QVERIFY2(m_locked, qPrintable(e.message()));
    QCOMPARE(m_locked->policyDn, QLatin1String(LdifGenerator::kLockoutPolicyDn));
    o.ppolicyLockout = false;
    m_plain.reset(SlapdSandbox::start(o, &e));
    QVERIFY2(m_plain, qPrintable(e.message()));
    QVERIFY(m_plain->policyDn.isEmpty());
}

void TstLockoutCheck::cleanupTestCase()
{
    m_locked.reset();
    m_plain.reset();
}

// The option does what it says: three wrong passwords lock uid=user199 out, the right one is then refused too;
// the same four binds on the plain sandbox leave the account usable.
void TstLockoutCheck::sandboxPolicyReallyLocksAccounts()
{
    auto bind = [](const SandboxInfo& sbx, const QByteArray& pw) {
        LdapTarget t;
        t.uri = sbx.uri;
        t.auth = LdapTarget::Auth::Simple;
        t.bindDn = user(199);
        t.password = pw;
        LdapSession s;
        const ProbeError e = s.open(t);
        return e.isError() ? e.nativeCode : 0;
    };
    for (const SandboxGuard* g : { &m_locked, &m_plain }) {
        for (int i = 0; i < 3; ++i)
            QCOMPARE(bind(g->info(), "wrong-password"), 49);
        const int right = bind(g->info(), password(g->info()));
        QCOMPARE(right, g == &m_locked ? 49 : 0);
    }
    QList<LdapSession::Entry> out;
    LdapSession admin;
    QVERIFY(openAs(admin, m_locked.info(), m_locked->bindDn));
    QVERIFY(!admin
                 .search(user(199), LdapSession::Base, QStringLiteral("(objectClass=*)"),
                     { QStringLiteral("pwdAccountLockedTime"), QStringLiteral("pwdFailureTime") }, &out)
                 .isError());
    QVERIFY2(!out.value(0).first(QStringLiteral("pwdaccountlockedtime")).isEmpty(), "no pwdAccountLockedTime");
    QCOMPARE(out.value(0).attributes.value(QStringLiteral("pwdfailuretime")).size(), 3);
}

TstLockoutCheck::Cli TstLockoutCheck::bindRun(const SandboxInfo& sbx)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("DIRBENCH_HISTORY"), m_tmp.filePath(QStringLiteral("history.sqlite")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { "ldap", "bind", "--uri", sbx.uri, "--bind-dn", sbx.bindDn, "--password-file", sbx.passwordFile, "--dn",
            "uid=user[0-99],ou=people,dc=example,dc=com", "--threads", "1", "--connections", "2", "--duration", "1",
            "--no-history", "--json", "-" });
    Cli r;
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitCode();
    r.record = QJsonDocument::fromJson(p.readAllStandardOutput()).object();
    r.err = p.readAllStandardError();
    return r;
}

void TstLockoutCheck::cliBindRunWarnsWithThePolicy()
{
    const Cli r = bindRun(m_locked.info());
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.record.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const QJsonObject summary = r.record.value(QStringLiteral("summary")).toObject();
    QVERIFY(summary.value(QStringLiteral("ops")).toDouble() > 0);
    QCOMPARE(summary.value(QStringLiteral("errors")).toDouble(), 0.0); // right password: nobody locked
    QString lockout;
    for (const QJsonValue& w : r.record.value(QStringLiteral("warnings")).toArray())
        if (w.toObject().value(QStringLiteral("code")).toString() == u"lockout")
            lockout = w.toObject().value(QStringLiteral("message")).toString();
    qInfo("lockout warning: %s", qPrintable(lockout));
    QVERIFY2(lockout.contains(m_locked->policyDn), qPrintable(lockout));
    QVERIFY2(lockout.contains(QStringLiteral("after 3 failed binds for 300 s")), qPrintable(lockout));
    QVERIFY2(lockout.contains(QStringLiteral("olcPPolicyDefault of olcOverlay=")), qPrintable(lockout));
}

void TstLockoutCheck::cliBindRunWithoutPpolicyHasNoWarning()
{
    const Cli r = bindRun(m_plain.info());
    QVERIFY2(r.code == 0, r.err.constData());
    QCOMPARE(r.record.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    QVERIFY(r.record.value(QStringLiteral("summary")).toObject().value(QStringLiteral("ops")).toDouble() > 0);
    QVERIFY(r.record.contains(QStringLiteral("warnings")));
    for (const QJsonValue& w : r.record.value(QStringLiteral("warnings")).toArray())
        QVERIFY2(w.toObject().value(QStringLiteral("code")).toString() != u"lockout",
            qPrintable(w.toObject().value(QStringLiteral("message")).toString()));
}

void TstLockoutCheck::directCall_data()
{
    QTest::addColumn<QString>("bindDn");
    QTest::addColumn<QString>("source"); // where the warning says the policy was found
    QTest::newRow("rootdn") << QString::fromLatin1(SlapdConfig::kAdminDn) << QStringLiteral("olcPPolicyDefault of");
    QTest::newRow("user") << user(5) << QStringLiteral("found by a search");
    QTest::newRow("anonymous") << QString() << QStringLiteral("found by a search");
}

void TstLockoutCheck::directCall()
{
    QFETCH(QString, bindDn);
    QFETCH(QString, source);
    // Only the rootdn reads cn=config: the others must find the policy without it.
    LdapSession s;
    QString why;
    QVERIFY2(openAs(s, m_locked.info(), bindDn, &why), qPrintable(why));
    QList<LdapSession::Entry> cfg;
    const bool configReadable = !s.search(QStringLiteral("cn=config"), LdapSession::Base,
                                      QStringLiteral("(objectClass=*)"), { QStringLiteral("1.1") }, &cfg)
                                     .isError();
    QCOMPARE(configReadable, source.startsWith(u"olc"));

    const QString pattern = QStringLiteral("uid=user[10-99],") + kPeople;
    const RunRecord locked = check(m_locked.info(), bindDn, pattern);
    const QString w = warning(locked, QStringLiteral("lockout"));
    QVERIFY2(w.contains(QStringLiteral("a password policy (") + m_locked->policyDn), qPrintable(allWarnings(locked)));
    QVERIFY2(w.contains(QStringLiteral("after 3 failed binds for 300 s")), qPrintable(w));
    QVERIFY2(w.contains(source), qPrintable(w));

    const RunRecord plain = check(m_plain.info(), bindDn, pattern);
    QVERIFY2(plain.warnings.isEmpty(), qPrintable(allWarnings(plain)));
}

// An entry with a pwdPolicySubentry of its own: that policy applies, not the default, whoever reads it.
void TstLockoutCheck::entryOwnPolicyWins()
{
    if (QStandardPaths::findExecutable(QStringLiteral("ldapmodify")).isEmpty())
        QSKIP("ldapmodify is not installed (apt-get install ldap-utils): it adds the second policy");
    const QString err = ldapmodify(m_locked.info(),
        "dn: " + kStrictDn.toUtf8()
            + "\nchangetype: add\nobjectClass: organizationalRole\nobjectClass: pwdPolicy\ncn: strict\n"
              "pwdAttribute: userPassword\npwdLockout: TRUE\npwdMaxFailure: 5\n\n"
              "dn: "
            + user(7).toUtf8()
            + "\nchangetype: modify\nreplace: pwdPolicySubentry\npwdPolicySubentry: " + kStrictDn.toUtf8() + "\n");
    QVERIFY2(err.isEmpty(), qPrintable(err));
    for (const QString& dn : { QString::fromLatin1(SlapdConfig::kAdminDn), user(5) }) {
        const RunRecord r = check(m_locked.info(), dn, user(7));
        const QString w = warning(r, QStringLiteral("lockout"));
        QVERIFY2(w.contains(QStringLiteral("a password policy (") + kStrictDn
                     + QStringLiteral(", pwdPolicySubentry of ") + user(7)),
            qPrintable(allWarnings(r)));
        QVERIFY2(w.contains(QStringLiteral("after 5 failed binds until an administrator unlocks it")), qPrintable(w));
    }
    // The other entries still have the default.
    const RunRecord r = check(m_locked.info(), QString::fromLatin1(SlapdConfig::kAdminDn), user(8));
    QVERIFY2(warning(r, QStringLiteral("lockout")).contains(m_locked->policyDn), qPrintable(allWarnings(r)));
}

void TstLockoutCheck::ds389LockoutFromConfig()
{
    if (const QString why = Ds389Sandbox::unavailableReason(); !why.isEmpty())
        QSKIP(qPrintable(QStringLiteral("389-ds-base is not usable here: ") + why));
    Ds389Options o;
    o.entries = 100;
    o.parentDir = m_tmp.path();
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds, qPrintable(e.message()));
    const SandboxInfo& sbx = ds.info();
    const QString pattern = QStringLiteral("uid=user[0-99],") + kPeople;

    // The sandbox's defaults: no lockout, upgrade-hash off.
    RunRecord r = check(sbx, sbx.bindDn, pattern);
    QVERIFY2(r.warnings.isEmpty(), qPrintable(allWarnings(r)));

    LdapSession admin;
    QVERIFY(openAs(admin, sbx, sbx.bindDn));
    QVERIFY(!admin.modifyReplace(QStringLiteral("cn=config"), QStringLiteral("passwordLockout"), { "on" }).isError());
    QVERIFY(!admin.modifyReplace(QStringLiteral("cn=config"), QStringLiteral("passwordMaxFailure"), { "4" }).isError());
    r = check(sbx, sbx.bindDn, pattern);
    QString w = warning(r, QStringLiteral("lockout"));
    QVERIFY2(w.contains(QStringLiteral("(passwordLockout: on in cn=config) locks an account after 4 failed binds "
                                       "for 3600 s")),
        qPrintable(allWarnings(r)));
    QVERIFY(warning(r, QStringLiteral("upgrade-hash")).isEmpty());

    QVERIFY(!admin.modifyReplace(QStringLiteral("cn=config"), QStringLiteral("passwordUnlock"), { "off" }).isError());
    w = warning(check(sbx, sbx.bindDn, pattern), QStringLiteral("lockout"));
    QVERIFY2(w.contains(QStringLiteral("after 4 failed binds until an administrator unlocks it")), qPrintable(w));

    // Anonymous cannot read cn=config: the softer warning that says so.
    r = check(sbx, QString(), pattern);
    QVERIFY2(warning(r, QStringLiteral("upgrade-hash")).contains(QStringLiteral("cn=config was not readable")),
        qPrintable(allWarnings(r)));
}

QTEST_GUILESS_MAIN(TstLockoutCheck)
#include "tst_lockoutcheck.moc"
