// core/sandbox against the real slapd: what it serves is checked with the OpenLDAP command-line tools, and the
// CLI as a script would drive it. Every sandbox lives under one temporary parent and is stopped by a guard.
#include "core/run/runcontext.h"
#include "core/sandbox/ldifgenerator.h"
#include "core/sandbox/sandboxguard.h"
#include "core/sandbox/slapdsandbox.h"
#include "core/sandbox/slapdtools.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

class TstSandbox : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void searchFindsGeneratedEntries();
    void userBindsWithPasswordFile();
    void passwordStaysInItsFile();
    void monitorIsForTheAdminOnly();
    void rootDseIsOpenLdap();
    void saslExternalOverLdapiIsTheAdmin();
    void tlsWithTheGeneratedCertificate();
    void stopRemovesDirectoryAndProcess();
    void twoSandboxesGetDifferentPorts();
    void busyPortFailsWithSlapdsReason();
    void invalidOptionsAndCancel();
    void generatedEntriesAreAboutOneKilobyte();
    void cliStartStatusStop();
    void cliBadArguments();

private:
    struct Result
    {
        int code = -1;
        QByteArray out, err;
    };
    // Runs an OpenLDAP tool (or the CLI) with a clean LDAP environment plus `env`.
    Result run(const QString& program, const QStringList& args, const QStringList& env = {}, int timeoutMs = 60000);
    Result cli(const QStringList& args) { return run(QStringLiteral(DIRBENCH_CLI_PATH), args, {}, 120000); }
    std::optional<SandboxInfo> startSandbox(int entries, bool tls = false, int port = 0);
    QStringList sandboxDirs() const;

    QTemporaryDir m_parent;
    QTemporaryDir m_runtime; // XDG_RUNTIME_DIR: the "current sandbox" pointer of this test only
    SandboxGuard m_plain; // 1,000 entries, shared by the read-only tests
};

TstSandbox::Result TstSandbox::run(
    const QString& program, const QStringList& args, const QStringList& env, int timeoutMs)
{
    QProcess p;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& k : e.keys())
        if (k.startsWith(QLatin1String("LDAP")))
            e.remove(k);
    e.insert("LDAPCONF", "/dev/null"); // not /etc/ldap/ldap.conf's TLS settings
    e.insert("LDAPRC", "dirbench-no-such-ldaprc");
    for (const QString& kv : env)
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    p.setProcessEnvironment(e);
    p.start(program, args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

std::optional<SandboxInfo> TstSandbox::startSandbox(int entries, bool tls, int port)
{
    SandboxOptions o;
    o.entries = entries;
    o.tls = tls;
    o.port = port;
    o.parentDir = m_parent.path();
    ProbeError err;
    auto info = SlapdSandbox::start(o, &err);
    if (!info)
        qWarning("sandbox start failed: %s", qPrintable(err.message()));
    return info;
}

QStringList TstSandbox::sandboxDirs() const
{
    return QDir(m_parent.path()).entryList({ "dirbench-sandbox-*" }, QDir::Dirs);
}

void TstSandbox::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd ldap-utils): the sandbox cannot be tested");
    for (const char* tool : { "slapadd", "ldapsearch", "ldapwhoami", "openssl" })
        if (SlapdTools::findProgram(QLatin1String(tool)).isEmpty())
            QSKIP(qPrintable(
                QString("%1 is not installed (apt-get install slapd ldap-utils openssl)").arg(QLatin1String(tool))));
    QVERIFY(m_parent.isValid());
    QVERIFY(m_runtime.isValid());
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
    m_plain.reset(startSandbox(1000));
    QVERIFY(m_plain.isValid());
    QCOMPARE(m_plain->entries, 1000);
    QVERIFY(m_plain->uri.startsWith(QLatin1String("ldap://127.0.0.1:")));
    QVERIFY(m_plain->ldapsUri.isEmpty());
    QVERIFY(m_plain->caFile.isEmpty());
}

void TstSandbox::cleanupTestCase()
{
    m_plain.reset();
    // Whatever a failed test left: stop every slapd whose config is under our parent, then remove the dirs.
    for (const QString& d : sandboxDirs()) {
        SandboxInfo stray;
        stray.dir = m_parent.path() + u'/' + d;
        ProbeError err;
        QVERIFY2(SlapdSandbox::stop(stray, &err), qPrintable(err.message()));
    }
}

void TstSandbox::searchFindsGeneratedEntries()
{
    const auto& s = m_plain.info();
    Result r = run("ldapsearch", { "-LLL", "-x", "-H", s.uri, "-b", s.peopleBase, "(uid=user999)", "uid" });
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("dn: uid=user999,ou=people,dc=example,dc=com"), r.out.constData());
    r = run("ldapsearch", { "-LLL", "-x", "-H", s.uri, "-b", s.peopleBase, "(uid=user1000)", "uid" });
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.trimmed().isEmpty(), r.out.constData());
}

void TstSandbox::userBindsWithPasswordFile()
{
    const auto& s = m_plain.info();
    const QString user = "uid=user5," + s.peopleBase;
    Result r = run("ldapwhoami", { "-x", "-H", s.uri, "-D", user, "-y", s.passwordFile });
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), ("dn:" + user).toUtf8());
    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(s.passwordFile).constData(), &st), 0);
    QCOMPARE(st.st_mode & 0777, mode_t(0600));
    r = run("ldapwhoami", { "-x", "-H", s.uri, "-D", user, "-w", "not-the-password" });
    QCOMPARE(r.code, 49); // invalidCredentials
}

void TstSandbox::passwordStaysInItsFile()
{
    const auto& s = m_plain.info();
    QFile pw(s.passwordFile);
    QVERIFY(pw.open(QIODevice::ReadOnly));
    const QByteArray password = pw.readAll();
    QCOMPARE(password.size(), 24);
    QVERIFY(!password.contains('\n'));
    for (const char* name : { "slapd.conf", "sandbox.json", "slapd.args" }) {
        QFile f(s.dir + u'/' + QLatin1String(name));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY2(!f.readAll().contains(password), name);
    }
    QVERIFY(!s.toKeyValue().toUtf8().contains(password));
    QFile conf(s.dir + "/slapd.conf");
    QVERIFY(conf.open(QIODevice::ReadOnly));
    QVERIFY(conf.readAll().contains("rootpw {SSHA}"));
}

void TstSandbox::monitorIsForTheAdminOnly()
{
    const auto& s = m_plain.info();
    Result r = run("ldapsearch",
        { "-LLL", "-x", "-H", s.uri, "-D", s.bindDn, "-y", s.passwordFile, "-b", "cn=monitor", "-s", "base",
            "(objectClass=*)", "monitoredInfo" });
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("monitoredInfo: OpenLDAP: slapd 2.5"), r.out.constData());
    r = run("ldapsearch", { "-LLL", "-x", "-H", s.uri, "-b", "cn=monitor", "-s", "base", "monitoredInfo" });
    QVERIFY(!r.out.contains("monitoredInfo"));
}

void TstSandbox::rootDseIsOpenLdap()
{
    const Result r
        = run("ldapsearch", { "-LLL", "-x", "-H", m_plain->uri, "-b", QString(), "-s", "base", "objectClass" });
    QCOMPARE(r.code, 0);
    QVERIFY2(r.out.contains("objectClass: OpenLDAProotDSE"), r.out.constData());
}

void TstSandbox::saslExternalOverLdapiIsTheAdmin()
{
    const Result r = run("ldapwhoami", { "-Y", "EXTERNAL", "-H", m_plain->ldapiUri });
    QCOMPARE(r.code, 0);
    QCOMPARE(r.out.trimmed(), QByteArray("dn:cn=admin,dc=example,dc=com"));
}

void TstSandbox::tlsWithTheGeneratedCertificate()
{
    SandboxGuard g(startSandbox(100, true));
    QVERIFY(g.isValid());
    QVERIFY(g->ldapsUri.startsWith(QLatin1String("ldaps://127.0.0.1:")));
    QVERIFY(QFile::exists(g->caFile));
    const QStringList whoami { "-x", "-H", g->ldapsUri };
    const QString ca = "LDAPTLS_CACERT=" + g->caFile;
    Result r = run("ldapwhoami", whoami, { ca, "LDAPTLS_REQCERT=demand" });
    QVERIFY2(r.code == 0, r.err.constData());
    // StartTLS on the plain port, required (-ZZ).
    r = run("ldapwhoami", { "-ZZ", "-x", "-H", g->uri }, { ca, "LDAPTLS_REQCERT=demand" });
    QVERIFY2(r.code == 0, r.err.constData());
    // Without the CA the certificate is not trusted.
    r = run("ldapwhoami", whoami, { "LDAPTLS_REQCERT=demand" });
    QVERIFY(r.code != 0);
    // RSA-2048, as the brief and the measured LDAPS costs assume.
    r = run("openssl", { "x509", "-in", g->caFile, "-noout", "-text" });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("(2048 bit)"));
    QVERIFY(r.out.contains("IP Address:127.0.0.1"));
}

void TstSandbox::stopRemovesDirectoryAndProcess()
{
    auto info = startSandbox(10);
    QVERIFY(info);
    SandboxGuard g(info);
    QVERIFY(SlapdSandbox::isRunning(*info));
    const auto current = SlapdSandbox::findRunning(QString()); // the newest is "current"
    QVERIFY(current);
    QCOMPARE(current->dir, info->dir);
    ProbeError err;
    QVERIFY2(SlapdSandbox::stop(*g.release(), &err), qPrintable(err.message()));
    QVERIFY(!QFileInfo::exists(info->dir));
    QVERIFY(!SlapdTools::processAlive(info->pid));
    QVERIFY(!SlapdSandbox::findRunning(QString()));
    QVERIFY(!SlapdSandbox::findRunning(info->dir));
    QVERIFY(!QFile::exists(SlapdSandbox::currentFile()));
}

void TstSandbox::twoSandboxesGetDifferentPorts()
{
    SandboxGuard a(startSandbox(10));
    SandboxGuard b(startSandbox(10));
    QVERIFY(a.isValid() && b.isValid());
    QVERIFY(a->uri != b->uri);
    QVERIFY(a->dir != b->dir);
    for (const SandboxGuard* g : { &a, &b }) {
        const Result r = run(
            "ldapsearch", { "-LLL", "-x", "-H", g->info().uri, "-b", g->info().peopleBase, "(uid=user9)", "1.1" });
        QCOMPARE(r.code, 0);
        QVERIFY(r.out.contains("uid=user9,"));
    }
}

void TstSandbox::busyPortFailsWithSlapdsReason()
{
    const int busy = QStringView(m_plain->uri).mid(17).chopped(1).toInt();
    const QStringList before = sandboxDirs();
    SandboxOptions o;
    o.entries = 10;
    o.port = busy;
    o.parentDir = m_parent.path();
    ProbeError err;
    SandboxGuard g(SlapdSandbox::start(o, &err));
    QVERIFY(!g.isValid());
    QCOMPARE(err.kind, ProbeError::Kind::Io);
    QVERIFY2(err.detail.contains(QLatin1String("Address already in use")), qPrintable(err.detail));
    QCOMPARE(sandboxDirs(), before); // nothing left behind
}

void TstSandbox::invalidOptionsAndCancel()
{
    ProbeError err;
    SandboxOptions o;
    o.parentDir = m_parent.path();
    o.entries = 0;
    QVERIFY(!SlapdSandbox::start(o, &err));
    QCOMPARE(err.kind, ProbeError::Kind::InvalidSpec);
    QCOMPARE(err.field, "entries");
    o.entries = 10;
    o.parentDir = m_parent.path() + "/no-such-dir";
    QVERIFY(!SlapdSandbox::start(o, &err));
    QCOMPARE(err.field, "parentDir");

    const QStringList before = sandboxDirs();
    RunContext ctx;
    ctx.requestStop();
    o.parentDir = m_parent.path();
    o.entries = 5000;
    QVERIFY(!SlapdSandbox::start(o, &err, &ctx));
    QCOMPARE(err.kind, ProbeError::Kind::Cancelled);
    QCOMPARE(sandboxDirs(), before);
}

void TstSandbox::generatedEntriesAreAboutOneKilobyte()
{
    const QByteArray hash = "{SSHA}AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA";
    qint64 total = 0;
    for (int i = 0; i < 100; ++i) {
        QByteArray e;
        LdifGenerator::appendPerson(e, i * 997, hash);
        total += e.size();
        QVERIFY(e.contains(QByteArray(QByteArray("userPassword: ") + hash)));
    }
    QVERIFY2(total / 100 >= 900 && total / 100 <= 1300, qPrintable(QString::number(total / 100)));
    QByteArray a, b;
    LdifGenerator::appendPerson(a, 42, hash);
    LdifGenerator::appendPerson(b, 42, hash);
    QCOMPARE(a, b); // deterministic
}

void TstSandbox::cliStartStatusStop()
{
    Result r = cli({ "sandbox", "start", "--entries", "100", "--dir", m_parent.path() });
    QVERIFY2(r.code == 0, r.err.constData());
    QMap<QString, QString> kv;
    for (const QByteArray& line : r.out.split('\n'))
        if (line.contains('='))
            kv.insert(
                QString::fromUtf8(line.left(line.indexOf('='))), QString::fromUtf8(line.mid(line.indexOf('=') + 1)));
    SandboxGuard g(SlapdSandbox::load(kv.value("DIR")));
    QVERIFY(g.isValid());
    for (const char* key :
        { "URI", "LDAPI_URI", "BASE", "PEOPLE_BASE", "BIND_DN", "PASSWORD_FILE", "PID", "DIR", "ENTRIES" })
        QVERIFY2(!kv.value(QLatin1String(key)).isEmpty(), key);
    QVERIFY(!kv.contains("LDAPS_URI"));
    QCOMPARE(kv.value("ENTRIES"), "100");
    QCOMPARE(kv.value("BIND_DN"), "cn=admin,dc=example,dc=com");
    r = run("ldapwhoami", { "-x", "-H", kv.value("URI"), "-D", kv.value("BIND_DN"), "-y", kv.value("PASSWORD_FILE") });
    QCOMPARE(r.code, 0); // the server outlived the CLI

    r = cli({ "sandbox", "status", "--json" });
    QCOMPARE(r.code, 0);
    const QJsonObject o = QJsonDocument::fromJson(r.out).object();
    QCOMPARE(o.value("dir").toString(), kv.value("DIR"));
    QCOMPARE(o.value("entries").toInt(), 100);

    r = cli({ "sandbox", "stop" });
    QVERIFY2(r.code == 0, r.err.constData());
    g.release();
    QVERIFY(!QFileInfo::exists(kv.value("DIR")));
    QVERIFY(!SlapdTools::processAlive(kv.value("PID").toLongLong()));
    QCOMPARE(cli({ "sandbox", "stop" }).code, 1);
    QCOMPARE(cli({ "sandbox", "status" }).code, 1);

    // --tls --json, stopped by --dir.
    r = cli({ "sandbox", "start", "--entries", "10", "--tls", "--json", "--dir", m_parent.path() });
    QVERIFY2(r.code == 0, r.err.constData());
    const auto info = SandboxInfo::fromJson(QJsonDocument::fromJson(r.out).object());
    QVERIFY(info);
    SandboxGuard t(info);
    QVERIFY(!info->ldapsUri.isEmpty() && QFile::exists(info->caFile));
    QCOMPARE(cli({ "sandbox", "stop", "--dir", info->dir }).code, 0);
    t.release();
    QVERIFY(!QFileInfo::exists(info->dir));
}

void TstSandbox::cliBadArguments()
{
    const QStringList before = sandboxDirs();
    Result r = cli({ "sandbox", "start", "--entries", "0", "--dir", m_parent.path() });
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--entries: must be between 1 and 10000000"), r.err.constData());
    r = cli({ "sandbox", "start", "--port", "x" });
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--port"));
    r = cli({ "sandbox", "start", "--dir", m_parent.path() + "/missing" });
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--dir"));
    r = cli({ "sandbox", "restart" });
    QCOMPARE(r.code, 2);
    r = cli({ "sandbox", "stop", "--tls" });
    QCOMPARE(r.code, 2);
    QVERIFY(r.err.contains("--tls"));
    QCOMPARE(sandboxDirs(), before);
    r = cli({ "sandbox", "--help" });
    QCOMPARE(r.code, 0);
    QVERIFY(r.out.contains("PASSWORD_FILE"));
}

QTEST_GUILESS_MAIN(TstSandbox)
#include "tst_sandbox.moc"
