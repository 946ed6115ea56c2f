// The access-log formats admins have, from fixture files (tests/data/logs, each named in its README with the
// server code and release that prints its lines; one written by this machine's slapd 2.5.13): exact counts per
// kind and connection, every result joined to its request. A log with no operation recognised is an error naming
// the file, its first line and the formats read; more than 10 % of operation lines not understood is a warning.
#include "core/workload/logparser.h"
#include "core/workload/logquality.h"
#include "core/workload/openldapprefix.h"
#include "core/workload/serverlogview.h"
#include "core/workload/workloadanalyze.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/logs/") + QLatin1String(name);
}

AnalyzeResult analyze(const QString& path)
{
    AnalyzeOptions o;
    o.logs = { path };
    return WorkloadAnalyze::run(o);
}

QString write(const QTemporaryDir& dir, const char* name, const QByteArray& text)
{
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(text) != text.size())
        return {};
    return path;
}

} // namespace

class TstLogFormats : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }
    void fixtures_data();
    void fixtures();
    void prefixVariants();
    void closeBeforeTheLastResult();
    void noOperationIsAnError();
    void notUnderstoodWarns();
    void serverLogJoinSaysSo();

private:
    QTemporaryDir m_dir;
};

void TstLogFormats::fixtures_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    QTest::addColumn<QString>("first"); // the first event's time, as the analysis prints it
    QTest::addColumn<int>("connections");
    QTest::addColumn<int>("closes");
    QTest::addColumn<QList<int>>("kinds"); // bind, search, modify, compare, unbind
    // Two connections: an anonymous bind, a search and an unbind; a manager's bind, a modify and a search, then
    // the connection lost. (The accesslog has no close of the second.)
    const QList<int> two { 2, 2, 1, 0, 1 };
    QTest::newRow("slapd 2.5.13 logfile (this machine)")
        << fixture("openldap-2.5.13-logfile.log") << "openldap-stats"
        << "2026-12-06T17:37:37.455740495Z" << 4 << 4 << QList<int> { 4, 2, 1, 1, 4 };
    QTest::newRow("OpenLDAP 2.4 hex seconds") << fixture("openldap-2.4-hex.log") << "openldap-stats"
                                              << "2026-12-06T17:48:49" << 2 << 2 << two;
    QTest::newRow("syslog RFC 3164") << fixture("openldap-syslog-rfc3164.log") << "openldap-stats"
                                     << "2026-12-06T07:31:01" << 2 << 2 << two;
    QTest::newRow("syslog RFC 5424") << fixture("openldap-syslog-rfc5424.log") << "openldap-stats"
                                     << "2026-12-06T07:31:01.000123000Z" << 2 << 2 << two;
    QTest::newRow("slapo-accesslog LDIF") << fixture("openldap-accesslog.ldif") << "accesslog-ldif"
                                          << "2026-12-06T07:31:01" << 2 << 1 << two;
    QTest::newRow("389-ds 1.3.0") << fixture("389-ds-1.3.0-access.log") << "389-access"
                                  << "2026-12-06T07:31:01" << 2 << 2 << two;
    QTest::newRow("389-ds 1.4.4") << fixture("389-ds-1.4.4-access.log") << "389-access"
                                  << "2026-12-06T07:31:01.100200300Z" << 2 << 2 << two;
    QTest::newRow("389-ds 3.1 Disconnect") << fixture("389-ds-3.1-access.log") << "389-access"
                                           << "2026-12-06T07:31:01.100200300Z" << 2 << 2 << two;
}

void TstLogFormats::fixtures()
{
    QFETCH(QString, file);
    QFETCH(QString, format);
    QFETCH(QString, first);
    QFETCH(int, connections);
    QFETCH(int, closes);
    QFETCH(QList<int>, kinds);
    const AnalyzeResult r = analyze(file);
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QVERIFY2(r.warnings.isEmpty(), qPrintable(r.warnings.join(u'\n')));
    const QJsonObject a = r.analysis;
    QCOMPARE(a["source"].toObject()["format"].toString(), format);
    QVERIFY2(a["source"].toObject()["first"].toString().contains(first),
        qPrintable(a["source"].toObject()["first"].toString()));
    const QJsonObject ops = a["operations"].toObject();
    const char* names[] = { "bind", "search", "modify", "compare", "unbind" };
    int total = 0;
    for (int i = 0; i < 5; ++i) {
        QVERIFY2(ops[QLatin1String(names[i])].toInt() == kinds[i],
            qPrintable(
                QStringLiteral("%1: %2").arg(QLatin1String(names[i])).arg(ops[QLatin1String(names[i])].toInt())));
        total += kinds[i];
    }
    QCOMPARE(a["operations_total"].toInt(), total);
    QCOMPARE(a["connections"].toInt(), connections);
    QCOMPARE(a["churn"].toObject()["connects"].toInt(), connections); // every connection opens in the log
    QCOMPARE(a["churn"].toObject()["closes"].toInt(), closes);
    QCOMPARE(a["unmatched"].toObject()["results_without_request"].toInt(), 0);
    QCOMPARE(a["unmatched"].toObject()["requests_without_result"].toInt(), 0);
}

// Prefixes no fixture carries: 2.5's microsecond fraction (no clock_gettime), a <PRI> before an RFC 3164 stamp,
// RFC 5424 with structured data and a nil timestamp; and what is not a prefix.
void TstLogFormats::prefixVariants()
{
    using OpenLdapPrefix::parse;
    const uint64_t now = 1796500000; // 2026-12-06
    auto at = [&](const char* line, uint64_t ns, const char* message) {
        const auto st = parse(line, 2026, now);
        QVERIFY2(st.known, line);
        QCOMPARE(st.ns.value_or(0), ns);
        QCOMPARE(QByteArray(line + st.messageAt), QByteArray(message));
    };
    at("6b15a001.0001e 0x7f0158bfe6c0 conn=1 op=0 UNBIND", 0x6b15a001ull * 1000000000ull + 30000, "conn=1 op=0 UNBIND");
    at("<38>Dec  6 07:31:02 ldap1 slapd[812]: conn=1 op=0 UNBIND", 1796542262ull * 1000000000ull, "conn=1 op=0 UNBIND");
    at("<167>1 2026-12-06T07:31:02Z ldap1 slapd 812 - [origin ip=\"10.0.0.1\" x=\"a\\]b\"] conn=1 op=0 UNBIND",
        1796542262ull * 1000000000ull, "conn=1 op=0 UNBIND");
    at("<167>1 - ldap1 slapd 812 - - conn=1 op=0 UNBIND", 0, "conn=1 op=0 UNBIND");
    QVERIFY(!parse("2026/12/06-07:31:02 conn=1 op=0 UNBIND", 2026, now).known);
    QVERIFY(!parse("6b15a0 conn=1 op=0 UNBIND", 2026, now).known); // fewer than 8 hex digits: not 2.4's "%08x"
}

// The 2.4 prefix read as an unknown one (a slash-dated stamp no server writes): nothing recognised, exit-1 error.
// 389-ds 2.3.1 here wrote a connection's UNBIND and Disconnect lines before the RESULT of its last modify (the result
// stamped earlier; its threads log in either order): the modify still joins its result, on its one connection.
void TstLogFormats::closeBeforeTheLastResult()
{
    const QByteArray text = "[06/Dec/2026:19:59:06.720271215 +0000] conn=6 fd=66 slot=66 connection from 127.0.0.1 "
                            "to 127.0.0.1\n"
                            "[06/Dec/2026:19:59:09.803596602 +0000] conn=6 op=1262 MOD "
                            "dn=\"uid=user981,ou=people,dc=example,dc=com\"\n"
                            "[06/Dec/2026:19:59:09.806160812 +0000] conn=6 op=1263 UNBIND\n"
                            "[06/Dec/2026:19:59:09.807544494 +0000] conn=6 op=1263 fd=66 Disconnect - Cleanly Closed "
                            "Connection - U1\n"
                            "[06/Dec/2026:19:59:09.806001699 +0000] conn=6 op=1262 RESULT err=0 tag=103 nentries=0 "
                            "wtime=0.000124687 optime=0.002409305 etime=0.002532900\n";
    const AnalyzeResult r = analyze(write(m_dir, "close-first.log", text));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    const QJsonObject unmatched = r.analysis["unmatched"].toObject();
    QCOMPARE(unmatched["results_without_request"].toInt(), 0);
    QCOMPARE(unmatched["requests_without_result"].toInt(), 0);
    QCOMPARE(r.analysis["connections"].toInt(), 1);
}

void TstLogFormats::noOperationIsAnError()
{
    QFile in(fixture("openldap-2.4-hex.log"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    QByteArray text = in.readAll();
    text.replace("6b15a00", "2026/12/06-07:31:0");
    const QString path = write(m_dir, "unknown-prefix.log", text);
    const AnalyzeResult r = analyze(path);
    QVERIFY(r.unrecognised);
    QVERIFY2(r.error.startsWith(path + QStringLiteral(": no operation recognised in 20 lines")), qPrintable(r.error));
    QVERIFY2(r.error.contains(QStringLiteral("its first line reads \"2026/12/06-07:31:00 @(#) $OpenLDAP")),
        qPrintable(r.error));
    QVERIFY2(r.error.contains(LogQuality::formatsRead()), qPrintable(r.error));

    const QString prose = write(m_dir, "prose.txt", "Dear admin,\nthis is not a log.\n");
    const AnalyzeResult p = analyze(prose);
    QVERIFY(p.unrecognised);
    QVERIFY2(p.error.startsWith(prose
                 + QStringLiteral(": no operation recognised in 2 lines; its first line reads "
                                  "\"Dear admin,\"")),
        qPrintable(p.error));
    const AnalyzeResult e = analyze(write(m_dir, "empty.log", ""));
    QVERIFY2(e.unrecognised && e.error.contains(QStringLiteral("it is empty")), qPrintable(e.error));
}

// An unknown operation word on 3 of 20 operation lines (15 %) warns with the count and the first; 1 of 19 does not.
void TstLogFormats::notUnderstoodWarns()
{
    QFile in(fixture("389-ds-3.1-access.log"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray base = in.readAll();
    QByteArray text = base;
    text += "[06/Dec/2026:07:31:04.000000000 +0000] conn=3 op=0 FROB dn=\"x\"\n"
            "[06/Dec/2026:07:31:04.000000000 +0000] conn=3 op=1 FROB dn=\"y\"\n"
            "[06/Dec/2026:07:31:04.000000000 +0000] conn=3 op=2 FROB dn=\"z\"\n";
    const AnalyzeResult r = analyze(write(m_dir, "frob.log", text));
    QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
    QCOMPARE(r.warnings.size(), qsizetype(1));
    QVERIFY2(r.warnings[0].startsWith(QStringLiteral("3 of 21 operation lines (14.3 %) were not understood")),
        qPrintable(r.warnings[0]));
    QVERIFY2(r.warnings[0].endsWith(QStringLiteral("the first: \"[06/Dec/2026:07:31:04.000000000 +0000] conn=3 op=0 "
                                                   "FROB dn=\"x\"\"")),
        qPrintable(r.warnings[0]));
    const QJsonArray w = r.analysis["warnings"].toArray();
    QCOMPARE(w.size(), qsizetype(1));
    QCOMPARE(w[0].toObject()["code"].toString(), QString("log-not-understood"));
    QCOMPARE(r.analysis["operations"].toObject()["search"].toInt(), 2); // what was understood is still counted

    const AnalyzeResult few = analyze(write(m_dir, "onefrob.log", base + "conn=3 op=0 FROB\n"));
    QVERIFY2(few.error.isEmpty(), qPrintable(few.error));
    QVERIFY2(few.warnings.isEmpty(), qPrintable(few.warnings.join(u'\n')));
}

// The server-log join reads the part of a log written during a load: nothing recognised is its error, a log
// partly not understood its note.
void TstLogFormats::serverLogJoinSaysSo()
{
    const QString path = write(m_dir, "server.log", "2026/12/06-07:31:01 conn=1 op=0 BIND dn=\"\" method=128\n");
    ServerLogView::Window window { 1, 2000000000ull * 1000000000ull, QJsonArray {} };
    QString error;
    QVERIFY(!ServerLogView::read(path, 0, window, &error));
    QVERIFY2(error.startsWith(path + QStringLiteral(": no operation recognised")), qPrintable(error));

    QFile in(fixture("389-ds-3.1-access.log"));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QString partly = write(m_dir, "server2.log",
        in.readAll() + "conn=3 op=0 FROB\nconn=3 op=1 FROB\nconn=3 op=2 FROB\nconn=3 op=3 FROB\n");
    const auto view = ServerLogView::read(partly, 0, window, &error);
    QVERIFY2(view, qPrintable(error));
    QVERIFY2(view->value("not_understood").toString().startsWith(QStringLiteral("4 of 22 operation lines")),
        qPrintable(view->value("not_understood").toString()));
}

QTEST_GUILESS_MAIN(TstLogFormats)
#include "tst_logformats.moc"
