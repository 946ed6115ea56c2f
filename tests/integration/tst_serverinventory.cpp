// Sizing inputs read from live servers (issue 4: "or read from a live server"): the sandbox slapd (back-mdb) and a
// 389-ds sandbox (skips, saying why, without 389-ds-base). Each number read is checked against the same fact found
// another way: entries by a subtree count, db bytes by the files on disk, bytes per entry by the monitor's ratio.
#include "core/ldap/ldapsession.h"
#include "core/ldap/serverinventory.h"
#include "core/sandbox/ds389sandbox.h"
#include "core/sizing/sizinginput.h"
#include "ldapfixture.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TstServerInventory : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void openLdapBackMdb();
    void openLdapAnonymousSaysWhatIsMissing();
    void cliSizingFromServer();
    void cliRefusesBadArguments();
    void ds389();

private:
    static qint64 countEntries(const LdapTarget& t, const QString& base);
    QProcess* cli(const QStringList& args);

    QTemporaryDir m_parent;
    SandboxGuard m_slapd;
    QString m_why;
};

void TstServerInventory::initTestCase()
{
    QVERIFY(m_parent.isValid());
    LDAPFIXTURE_SKIP_WITHOUT_SLAPD(false);
    m_slapd = LdapFixture::start(3000, false, &m_why);
    QVERIFY2(m_slapd, qPrintable(LdapFixture::notStarted(m_why)));
}

void TstServerInventory::cleanupTestCase()
{
    m_slapd.reset();
}

qint64 TstServerInventory::countEntries(const LdapTarget& t, const QString& base)
{
    LdapSession s;
    if (s.open(t).isError())
        return -1;
    QList<LdapSession::Entry> all;
    if (s.search(base, LdapSession::Subtree, QStringLiteral("(objectClass=*)"), { QStringLiteral("1.1") }, &all)
            .isError())
        return -1;
    return all.size();
}

QProcess* TstServerInventory::cli(const QStringList& args)
{
    auto* p = new QProcess(this);
    p->start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    return p;
}

void TstServerInventory::openLdapBackMdb()
{
    const LdapTarget admin = LdapFixture::admin(m_slapd.info());
    ProbeError e;
    const auto inv = Ldap::readInventory(admin, {}, &e);
    QVERIFY2(inv, qPrintable(e.message()));
    QCOMPARE(inv->identity.kind, QStringLiteral("openldap"));
    QCOMPARE(inv->base, m_slapd->base);
    const qint64 counted = countEntries(admin, m_slapd->base);
    QVERIFY(counted > 3000);
    QCOMPARE(qint64(inv->values.value(QStringLiteral("entries"))), counted);
    QVERIFY(inv->evidence.value(QStringLiteral("entries")).contains(u"olmMDBEntries"));
    // Pages in use × 4 KiB can be no more than the data.mdb file and no more than the map.
    const double used = inv->values.value(QStringLiteral("db_files_bytes"));
    const double map = inv->values.value(QStringLiteral("db_map_bytes"));
    qint64 fileBytes = 0;
    const QFileInfoList mdb = QDir(m_slapd->dir).entryInfoList({ QStringLiteral("data.mdb") }, QDir::Files)
        + QDir(m_slapd->dir + QStringLiteral("/db")).entryInfoList({ QStringLiteral("data.mdb") }, QDir::Files);
    for (const auto& f : mdb)
        fileBytes = std::max(fileBytes, f.size());
    QVERIFY2(fileBytes > 0, "data.mdb not found in the sandbox directory");
    QVERIFY2(used > 3000 * 500.0 && used <= double(fileBytes),
        qPrintable(QStringLiteral("%1 used, file %2").arg(used).arg(fileBytes)));
    QVERIFY(map >= used);
    QVERIFY(inv->values.value(QStringLiteral("threads_open")) >= 1);
    // Round trip into the sizing input: the read values arrive with origin "monitor".
    SizingInput in;
    in.server = SizingServer::OpenLdap;
    const QStringList usedKeys = in.applyMonitor(inv->values);
    QVERIFY(usedKeys.contains(u"entries"));
    QCOMPARE(in.entries.value_or(0), counted);
    QCOMPARE(in.originOf(QStringLiteral("entries")), QStringLiteral("monitor"));
    QCOMPARE(in.dbSizeMb.value_or(0), used / 1e6);
}

void TstServerInventory::openLdapAnonymousSaysWhatIsMissing()
{
    LdapTarget anon;
    anon.uri = m_slapd->uri;
    ProbeError e;
    const auto inv = Ldap::readInventory(anon, {}, &e);
    QVERIFY2(inv, qPrintable(e.message()));
    QVERIFY(!inv->values.contains(QStringLiteral("entries")));
    QVERIFY(!inv->notes.isEmpty());
    QVERIFY2(inv->notes.join(u' ').contains(u"not readable"), qPrintable(inv->notes.join(u'|')));
}

void TstServerInventory::cliSizingFromServer()
{
    const LdapTarget admin = LdapFixture::admin(m_slapd.info());
    QProcess* p = cli(
        { QStringLiteral("sizing"), QStringLiteral("--uri"), m_slapd->uri, QStringLiteral("--bind-dn"), m_slapd->bindDn,
            QStringLiteral("--password-file"), m_slapd->passwordFile, QStringLiteral("--json"), QStringLiteral("-") });
    QVERIFY(p->waitForFinished(60000));
    const QByteArray err = p->readAllStandardError();
    QCOMPARE(p->exitCode(), 0);
    const QJsonObject rec = QJsonDocument::fromJson(p->readAllStandardOutput()).object();
    QCOMPARE(rec.value(u"kind").toString(), QStringLiteral("sizing"));
    QCOMPARE(rec.value(u"server").toObject().value(u"kind").toString(), QStringLiteral("openldap"));
    const QJsonObject inv = rec.value(u"server_inventory").toObject();
    QCOMPARE(qint64(inv.value(u"values").toObject().value(u"entries").toDouble()), countEntries(admin, m_slapd->base));
    QVERIFY(inv.value(u"used").toArray().contains(QStringLiteral("entries")));
    // The human lines (stderr, since --json - owns stdout) say where each number came from.
    QVERIFY2(err.contains("olmMDBEntries"), err.constData());
    QVERIFY(!err.contains(LdapFixture::password(m_slapd.info())));
    QVERIFY(inv.value(u"used").toArray().contains(QStringLiteral("db_files_bytes")));
    // A typed input wins over the read one (an input the OpenLDAP sizing uses: --entries is refused for it).
    QProcess* typed
        = cli({ QStringLiteral("sizing"), QStringLiteral("--uri"), m_slapd->uri, QStringLiteral("--bind-dn"),
            m_slapd->bindDn, QStringLiteral("--password-file"), m_slapd->passwordFile, QStringLiteral("--db-size-mb"),
            QStringLiteral("1234"), QStringLiteral("--json"), QStringLiteral("-"), QStringLiteral("--no-history") });
    QVERIFY(typed->waitForFinished(60000));
    QCOMPARE(typed->exitCode(), 0);
    const QJsonObject rec2 = QJsonDocument::fromJson(typed->readAllStandardOutput()).object();
    QVERIFY(!rec2.value(u"server_inventory")
                 .toObject()
                 .value(u"used")
                 .toArray()
                 .contains(QStringLiteral("db_files_bytes")));
    QCOMPARE(rec2.value(u"spec").toObject().value(u"db_size_mb").toDouble(), 1234.0);
}

void TstServerInventory::cliRefusesBadArguments()
{
    struct Case
    {
        QStringList args;
        const char* names;
    };
    const QList<Case> cases = {
        { { QStringLiteral("--server"), QStringLiteral("389ds"), QStringLiteral("--base"), QStringLiteral("dc=x") },
            "--base" },
        { { QStringLiteral("--uri"), QStringLiteral("http://x") }, "--uri" },
        { { QStringLiteral("--uri"), m_slapd->uri, QStringLiteral("--bind-dn"), QStringLiteral("cn=x"),
              QStringLiteral("--password-file"), QStringLiteral("/nonexistent/pw") },
            "--password-file" },
        { {}, "--server" },
    };
    for (const auto& c : cases) {
        QProcess* p = cli(QStringList { QStringLiteral("sizing") } + c.args);
        QVERIFY(p->waitForFinished(20000));
        QCOMPARE(p->exitCode(), 2);
        const QByteArray err = p->readAllStandardError();
        QVERIFY2(err.contains(c.names), err.constData());
    }
    // A server that is not there: a run failure (1), not an argument error.
    QProcess* gone = cli({ QStringLiteral("sizing"), QStringLiteral("--uri"), QStringLiteral("ldap://127.0.0.1:1"),
        QStringLiteral("--network-timeout"), QStringLiteral("2"), QStringLiteral("--no-history") });
    QVERIFY(gone->waitForFinished(20000));
    QCOMPARE(gone->exitCode(), 1);
}

void TstServerInventory::ds389()
{
    const QString why = Ds389Sandbox::unavailableReason();
    if (!why.isEmpty())
        QSKIP(qPrintable(QStringLiteral("389-ds: ") + why));
    Ds389Options o;
    o.entries = 2000;
    o.parentDir = m_parent.path();
    ProbeError e;
    Ds389Guard ds(Ds389Sandbox::start(o, &e));
    QVERIFY2(ds, qPrintable(e.message()));
    LdapTarget admin;
    admin.uri = ds->uri;
    admin.auth = LdapTarget::Auth::Simple;
    admin.bindDn = ds->bindDn;
    QFile pw(ds->passwordFile);
    QVERIFY(pw.open(QIODevice::ReadOnly));
    admin.password = pw.readAll().trimmed();
    const qint64 counted = countEntries(admin, ds->base); // also primes the entry cache
    QVERIFY(counted > 2000);
    {
        // Whole entries into the entry cache, so Equation 2 has a ratio to read.
        LdapSession s;
        QVERIFY(!s.open(admin).isError());
        QList<LdapSession::Entry> all;
        QVERIFY(!s.search(ds->base, LdapSession::Subtree, QStringLiteral("(objectClass=*)"), {}, &all).isError());
    }
    const auto inv = Ldap::readInventory(admin, ds->base, &e);
    QVERIFY2(inv, qPrintable(e.message()));
    QCOMPARE(inv->identity.kind, QStringLiteral("389ds"));
    QCOMPARE(qint64(inv->values.value(QStringLiteral("entries"))), counted);
    const double size = inv->values.value(QStringLiteral("entry_cache_size"));
    const double count = inv->values.value(QStringLiteral("entry_cache_count"));
    QVERIFY2(count > 1000 && count <= counted, qPrintable(QString::number(count)));
    const double perEntry = size / count;
    QVERIFY2(perEntry > 300 && perEntry < 50000, qPrintable(QString::number(perEntry)));
    QVERIFY(inv->values.value(QStringLiteral("threads_open")) >= 1);
    QVERIFY(inv->evidence.value(QStringLiteral("threads_open")).contains(u"nsslapd-threadnumber"));
    QVERIFY(inv->values.value(QStringLiteral("db_cache_size_bytes")) > 0);
    // The db files: read on this host, so the sum equals the files' sizes found here.
    QVERIFY2(inv->values.contains(QStringLiteral("db_files_bytes")), qPrintable(inv->notes.join(u'|')));
    const QString where = inv->evidence.value(QStringLiteral("db_files_bytes"));
    const QString dir = where.section(QStringLiteral(" in "), 1).section(QStringLiteral(" ("), 0, 0);
    double total = 0;
    for (const auto& f : QDir(dir).entryInfoList({ QStringLiteral("*.db"), QStringLiteral("*.db4") }, QDir::Files))
        total += double(f.size());
    QVERIFY2(total > 0, qPrintable(where));
    QCOMPARE(inv->values.value(QStringLiteral("db_files_bytes")), total);
    // Sized from the reading: Equation 2 uses the monitor's ratio.
    SizingInput in;
    in.server = SizingServer::Ds389;
    in.applyMonitor(inv->values);
    QCOMPARE(in.originOf(QStringLiteral("entry_cache_bytes_per_entry")), QStringLiteral("monitor"));
    QCOMPARE(in.entryCacheBytesPerEntry.value_or(0), perEntry);
}

QTEST_GUILESS_MAIN(TstServerInventory)
#include "tst_serverinventory.moc"
