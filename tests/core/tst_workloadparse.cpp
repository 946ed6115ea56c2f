// The access-log parsers (389-ds, OpenLDAP stats, slapo-accesslog LDIF) on hand-made lines: joins of interleaved
// connections, results that never come or come first, truncated lines; the reader on gzip'd, rotated files and
// standard input (through dirbench-cli).
#include "core/workload/logparser.h"
#include "core/workload/logreader.h"
#include "core/workload/parse389.h"
#include "core/workload/parseopenldap.h"
#include "core/workload/workloadanalyze.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

namespace {

struct Event
{
    char type; // 'o' opened, 'p' operation, 'c' closed
    uint64_t conn;
    uint64_t ns;
    std::string client;
    JoinedOp op;
};

class Collect : public WorkloadSink
{
public:
    std::vector<Event> events;
    void connectionOpened(uint64_t conn, uint64_t ns, std::string_view client) override
    {
        events.push_back({ 'o', conn, ns, std::string(client), {} });
    }
    void operation(const JoinedOp& op) override { events.push_back({ 'p', op.conn, op.startNs, {}, op }); }
    void connectionClosed(uint64_t conn, uint64_t ns) override { events.push_back({ 'c', conn, ns, {}, {} }); }
    std::vector<JoinedOp> ops() const
    {
        std::vector<JoinedOp> out;
        for (const auto& e : events)
            if (e.type == 'p')
                out.push_back(e.op);
        return out;
    }
    const JoinedOp* find(uint64_t conn, int64_t op) const
    {
        for (const auto& e : events)
            if (e.type == 'p' && e.op.conn == conn && e.op.op == op)
                return &e.op;
        return nullptr;
    }
};

void feed(LogParser& p, const QStringList& lines)
{
    for (const QString& l : lines) {
        const std::string s = l.toStdString();
        p.line(s);
    }
    p.finish();
}

const QString T = "[01/Dec/2026:10:00:00.%1 +0000] ";
QString at(int micros)
{
    return T.arg(QString::number(micros * 1000).rightJustified(9, '0'));
}

constexpr uint64_t kBase = 1796119200ull * 1000000000ull; // 2026-12-01T10:00:00Z

void writeFile(const QString& path, const QByteArray& data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(f.write(data), data.size());
}

QJsonObject runCli(const QStringList& args, const QByteArray& stdinData = {})
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForStarted())
        return {};
    p.write(stdinData);
    p.closeWriteChannel();
    p.waitForFinished(60000);
    const QJsonDocument d = QJsonDocument::fromJson(p.readAllStandardOutput());
    if (p.exitCode() != 0)
        qWarning() << p.readAllStandardError();
    return d.object();
}

} // namespace

class TstWorkloadParse : public QObject
{
    Q_OBJECT
private slots:
    void ds389Stamp();
    void ds389InterleavedJoins();
    void ds389ResultNeverComes();
    void ds389ResultBeforeRequest();
    void ds389TruncatedAndGarbage();
    void ds389TimesOutOfRange();
    void ds389FilterCutAt512();
    void ds389OlderFormat();
    void ds389AllOperations();
    void openldapSyslog();
    void openldapDebugStamp();
    void openldapBareLines();
    void accesslogLdif();
    void detectFormats();
    void readerGzipAndPlain();
    void readerCutsHugeLines();
    void readerOrdersRotatedFiles();
    void analysisStopsWhenAsked();
    void cliReadsStdinAndGzip();
};

void TstWorkloadParse::ds389Stamp()
{
    bool sub = false;
    QCOMPARE(Parse389::parseStamp("[01/Dec/2026:10:00:00.123456789 +0000]", &sub), kBase + 123456789);
    QVERIFY(sub);
    QCOMPARE(Parse389::parseStamp("[01/Dec/2026:11:00:00.5 +0100]"), kBase + 500000000);
    sub = false;
    QCOMPARE(Parse389::parseStamp("[01/Dec/2026:10:00:00 +0000]", &sub), kBase);
    QVERIFY(!sub);
    QVERIFY(!Parse389::parseStamp("[01/Dex/2026:10:00:00 +0000]"));
    QVERIFY(!Parse389::parseStamp("[01/Dec/2026:10:00"));
}

void TstWorkloadParse::ds389InterleavedJoins()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(0) + "conn=1 fd=64 slot=64 connection from 10.0.0.5 to 10.0.0.1",
            at(1) + "conn=2 fd=65 slot=65 connection from 10.0.0.6 to 10.0.0.1",
            at(2) + "conn=1 op=0 BIND dn=\"uid=a,dc=x\" method=128 version=3",
            at(3) + "conn=2 op=0 SRCH base=\"dc=x\" scope=2 filter=\"(uid=b)\" attrs=\"cn mail\"",
            at(4) + "conn=1 op=1 SRCH base=\"dc=x\" scope=1 filter=\"(uid=c)\" attrs=ALL",
            at(5) + "conn=2 op=0 RESULT err=0 tag=101 nentries=1 wtime=0.000010 optime=0.000020 etime=0.000030",
            at(6) + "conn=1 op=0 RESULT err=49 tag=97 nentries=0 wtime=0.000001 optime=0.000002 etime=0.000003",
            at(7) + "conn=1 op=1 RESULT err=0 tag=101 nentries=7 wtime=0.0001 optime=0.0002 etime=0.0003 notes=U",
            at(8) + "conn=2 op=1 UNBIND", at(9) + "conn=2 op=1 fd=65 closed - U1" });
    QCOMPARE(c.events.front().type, 'o');
    QCOMPARE(c.events.front().client, std::string("10.0.0.5"));
    QCOMPARE(c.events.front().ns, kBase);
    const auto* bind = c.find(1, 0);
    QVERIFY(bind);
    QCOMPARE(int(bind->kind), int(WorkloadOpKind::Bind));
    QCOMPARE(bind->dn, std::string("uid=a,dc=x"));
    QCOMPARE(bind->err, 49);
    QVERIFY(bind->haveRequest && bind->haveResult);
    QCOMPARE(bind->startNs, kBase + 2000);
    QCOMPARE(bind->endNs, kBase + 6000);
    const auto* s2 = c.find(2, 0);
    QVERIFY(s2);
    QCOMPARE(s2->filter, std::string("(uid=b)"));
    QCOMPARE(s2->attrs, std::string("cn mail"));
    QCOMPARE(s2->scope, 2);
    QCOMPARE(s2->nentries, qint64(1));
    QCOMPARE(s2->etimeMs, 0.03);
    QCOMPARE(s2->wtimeMs, 0.01);
    QCOMPARE(s2->optimeMs, 0.02);
    QVERIFY(!s2->unindexed);
    const auto* s1 = c.find(1, 1);
    QVERIFY(s1);
    QCOMPARE(s1->filter, std::string("(uid=c)"));
    QCOMPARE(s1->attrs, std::string());
    QCOMPARE(s1->scope, 1);
    QCOMPARE(s1->nentries, qint64(7));
    QVERIFY(s1->unindexed);
    const auto* unbind = c.find(2, 1);
    QVERIFY(unbind);
    QCOMPARE(int(unbind->kind), int(WorkloadOpKind::Unbind));
    QCOMPARE(c.events.back().type, 'c');
    QCOMPARE(c.events.back().conn, uint64_t(2));
    QCOMPARE(p.stats().resultsWithoutRequest, uint64_t(0));
    QCOMPARE(p.stats().requestsWithoutResult, uint64_t(0));
    QCOMPARE(c.ops().size(), size_t(4));
}

void TstWorkloadParse::ds389ResultNeverComes()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(0) + "conn=1 op=0 SRCH base=\"dc=x\" scope=2 filter=\"(uid=a)\" attrs=ALL",
            at(1) + "conn=1 op=1 SRCH base=\"dc=x\" scope=2 filter=\"(uid=b)\" attrs=ALL",
            at(2) + "conn=1 op=1 RESULT err=0 tag=101 nentries=1 etime=0.0001",
            at(3) + "conn=1 op=2 fd=64 closed - B1", // op 0 never answered: handed on at the close
            at(4) + "conn=3 op=0 SRCH base=\"dc=x\" scope=2 filter=\"(uid=z)\" attrs=ALL" }); // the log ends
    const auto* a = c.find(1, 0);
    QVERIFY(a);
    QVERIFY(a->haveRequest);
    QVERIFY(!a->haveResult);
    QCOMPARE(a->err, -1);
    const auto* z = c.find(3, 0);
    QVERIFY(z);
    QVERIFY(!z->haveResult);
    QCOMPARE(p.stats().requestsWithoutResult, uint64_t(2));
    // Op 0 came out before the close event of its connection.
    size_t opAt = 0, closeAt = 0;
    for (size_t i = 0; i < c.events.size(); ++i) {
        if (c.events[i].type == 'p' && c.events[i].op.op == 0 && c.events[i].conn == 1)
            opAt = i;
        if (c.events[i].type == 'c')
            closeAt = i;
    }
    QVERIFY(opAt < closeAt);
}

void TstWorkloadParse::ds389ResultBeforeRequest()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(500) + "conn=7 op=3 RESULT err=0 tag=101 nentries=2 wtime=0.0 optime=0.0001 etime=0.000200",
            at(600) + "conn=7 op=4 RESULT err=0 tag=103 nentries=0 etime=0.0001",
            at(700) + "conn=7 op=5 SRCH base=\"dc=x\" scope=2 filter=\"(cn=q)\" attrs=ALL",
            at(800) + "conn=7 op=5 RESULT err=32 tag=101 nentries=0 etime=0.0001" });
    QCOMPARE(p.stats().resultsWithoutRequest, uint64_t(2));
    const auto* r3 = c.find(7, 3);
    QVERIFY(r3);
    QVERIFY(!r3->haveRequest);
    QVERIFY(r3->haveResult);
    QCOMPARE(int(r3->kind), int(WorkloadOpKind::Search));
    QCOMPARE(r3->nentries, qint64(2));
    QCOMPARE(r3->startNs, kBase + 500000 - 200000); // the result's time less its etime
    QCOMPARE(int(c.find(7, 4)->kind), int(WorkloadOpKind::Modify));
    const auto* r5 = c.find(7, 5);
    QVERIFY(r5 && r5->haveRequest && r5->haveResult);
    QCOMPARE(r5->err, 32);
}

void TstWorkloadParse::ds389TruncatedAndGarbage()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { "", "garbage", "[01/Dec/2026:10:00", "[01/Dec/2026:10:00:00.1 +0000] conn=", "conn=x op=1 SRCH",
            at(1) + "conn=1 op=", at(1) + "conn=1 op=0", at(1) + "conn=Internal(0) op=0(1)(0) SRCH base=\"cn=config\"",
            at(2) + "conn=1 op=1 SRCH base=\"dc=x\" scope=2 filt", // cut mid-line (a log being written)
            at(3) + "conn=1 op=2 BIND dn=\"uid=a", at(4) + "conn=1 op=1 RESULT err=0 tag=101 nent",
            at(5) + "conn=1 op=9 RESULT", QString(3000, 'x') });
    QCOMPARE(p.stats().lines, uint64_t(13));
    QVERIFY(p.stats().ignoredLines >= 8);
    QVERIFY(p.stats().cutLines >= 1);
    const auto* s = c.find(1, 1);
    QVERIFY(s);
    QCOMPARE(s->dn, std::string("dc=x"));
    QVERIFY(s->haveResult);
    QCOMPARE(s->nentries, qint64(-1)); // "nent" is no count
    const auto* b = c.find(1, 2);
    QVERIFY(b);
    QCOMPARE(b->dn, std::string("uid=a"));
}

// A corrupt time (the fuzzer's etime of 1e21 s) is unknown (-1), not a value whose nanoseconds overflow a uint64_t;
// the longest time still read is 999999999 s.
void TstWorkloadParse::ds389TimesOutOfRange()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(1) + "conn=1 op=1 SRCH base=\"dc=x\" scope=2 filter=\"(uid=a)\" attrs=ALL",
            at(2)
                + "conn=1 op=1 RESULT err=0 tag=101 nentries=1 wtime=1e18 optime=1000000000 "
                  "etime=1000000000000000000000",
            at(3) + "conn=1 op=2 SRCH base=\"dc=x\" scope=2 filter=\"(uid=b)\" attrs=ALL",
            at(4) + "conn=1 op=2 RESULT err=0 tag=101 nentries=1 wtime=0.5 optime=0.25 etime=999999999.5" });
    const auto* bad = c.find(1, 1);
    QVERIFY(bad && bad->haveResult);
    QCOMPARE(bad->etimeMs, -1.0);
    QCOMPARE(bad->optimeMs, -1.0);
    QCOMPARE(bad->wtimeMs, 1000.0); // "1e18": the digits before the 'e' only, as the server never writes exponents
    const auto* longest = c.find(1, 2);
    QVERIFY(longest && longest->haveResult);
    QCOMPARE(longest->etimeMs, 999999999500.0);
    QCOMPARE(longest->wtimeMs, 500.0);
}

void TstWorkloadParse::ds389FilterCutAt512()
{
    const QString longFilter = "(|" + QString("(uid=abcdefgh)").repeated(40) + ")"; // 562 characters
    const QString logged = longFilter.left(512) + "...";
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(1) + "conn=1 op=0 SRCH base=\"dc=x\" scope=2 filter=\"" + logged + "\" attrs=ALL",
            at(2) + "conn=1 op=0 RESULT err=0 tag=101 nentries=0 etime=0.001",
            at(3) + "conn=1 op=1 SRCH base=\"dc=x\" scope=2 filter=\"(uid=ok...)\" attrs=ALL",
            at(4) + "conn=1 op=1 RESULT err=0 tag=101 nentries=0 etime=0.001" });
    QVERIFY(c.find(1, 0)->filterCut);
    QCOMPARE(c.find(1, 0)->filter.size(), size_t(512));
    QVERIFY(!c.find(1, 1)->filterCut); // a short filter ending in "..." is a value
    QCOMPARE(p.stats().filtersCut, uint64_t(1));
    QVERIFY(p.gaps().first().contains("filters cut at 512 characters (1)"));
}

void TstWorkloadParse::ds389OlderFormat()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { "[01/Dec/2026:10:00:00 +0000] conn=5 fd=64 slot=64 connection from ::1 to ::1",
            "[01/Dec/2026:10:00:00 +0000] conn=5 op=0 SRCH base=\"dc=x\" scope=0 filter=\"(objectClass=*)\" attrs=ALL",
            "[01/Dec/2026:10:00:01 +0000] conn=5 op=0 RESULT err=0 tag=101 nentries=1 etime=0",
            "[01/Dec/2026:10:00:02 +0000] conn=5 op=-1 fd=64 closed - B1" });
    const auto* s = c.find(5, 0);
    QVERIFY(s && s->haveResult);
    QCOMPARE(s->etimeMs, 0.0);
    QCOMPARE(s->wtimeMs, -1.0);
    QCOMPARE(s->endNs, kBase + 1000000000ull);
    QCOMPARE(c.events.front().client, std::string("::1"));
    QCOMPARE(c.events.back().type, 'c');
    QVERIFY(!p.stats().subSecond);
    QVERIFY(p.gaps().join(",").contains("to the second"));
}

void TstWorkloadParse::ds389AllOperations()
{
    Collect c;
    Parse389 p(&c);
    feed(p,
        { at(1) + "conn=1 op=0 MOD dn=\"uid=a,dc=x\"", at(2) + "conn=1 op=0 RESULT err=0 tag=103 nentries=0 etime=0.1",
            at(3) + "conn=1 op=1 ADD dn=\"uid=b,dc=x\"",
            at(4) + "conn=1 op=1 RESULT err=68 tag=105 nentries=0 etime=0.1",
            at(5) + "conn=1 op=2 DEL dn=\"uid=c,dc=x\"",
            at(6) + "conn=1 op=2 RESULT err=0 tag=107 nentries=0 etime=0.1",
            at(7) + "conn=1 op=3 CMP dn=\"uid=d,dc=x\" attr=\"mail\"",
            at(8) + "conn=1 op=3 RESULT err=6 tag=111 nentries=0 etime=0.1",
            at(9) + "conn=1 op=4 MODRDN dn=\"uid=e,dc=x\" newrdn=\"uid=f\" newsuperior=\"ou=g,dc=x\"",
            at(10) + "conn=1 op=4 RESULT err=0 tag=109 nentries=0 etime=0.1",
            at(11) + "conn=1 op=5 EXT oid=\"1.3.6.1.4.1.1466.20037\" name=\"start_tls_plugin\"",
            at(12) + "conn=1 op=5 RESULT err=0 tag=120 nentries=0 etime=0.1",
            at(13) + "conn=1 op=7 ABANDON targetop=6 msgid=7 nentries=0 etime=0.0", at(14) + "conn=1 op=8 SORT cn (0)",
            at(15) + "conn=1 op=9 UNBIND" });
    QCOMPARE(c.find(1, 0)->dn, std::string("uid=a,dc=x"));
    QCOMPARE(int(c.find(1, 1)->kind), int(WorkloadOpKind::Add));
    QCOMPARE(c.find(1, 1)->err, 68);
    QCOMPARE(int(c.find(1, 2)->kind), int(WorkloadOpKind::Delete));
    QCOMPARE(c.find(1, 3)->attrs, std::string("mail"));
    QCOMPARE(c.find(1, 3)->dn, std::string("uid=d,dc=x"));
    QCOMPARE(c.find(1, 4)->newRdn, std::string("uid=f"));
    QCOMPARE(c.find(1, 4)->newSuperior, std::string("ou=g,dc=x"));
    QCOMPARE(c.find(1, 5)->oid, std::string("1.3.6.1.4.1.1466.20037"));
    QCOMPARE(c.find(1, 7)->abandonTarget, qint64(6));
    QCOMPARE(int(c.find(1, 9)->kind), int(WorkloadOpKind::Unbind));
    QVERIFY(!c.find(1, 8));
    QCOMPARE(c.ops().size(), size_t(8));
}

void TstWorkloadParse::openldapSyslog()
{
    Collect c;
    ParseOpenLdap p(&c);
    const QString pre = "Dec  1 10:00:00 host slapd[123]: ";
    feed(p,
        { pre + "conn=1000 fd=12 ACCEPT from IP=127.0.0.1:40512 (IP=0.0.0.0:389)",
            pre + "conn=1000 op=0 BIND dn=\"cn=admin,dc=x\" method=128",
            pre + "conn=1000 op=0 BIND dn=\"cn=admin,dc=x\" mech=SIMPLE bind_ssf=0 ssf=0",
            pre + "conn=1000 op=0 RESULT tag=97 err=0 qtime=0.000011 etime=0.000412 text=",
            pre + "conn=1000 op=1 SRCH base=\"ou=people,dc=x\" scope=2 deref=0 filter=\"(uid=user42)\"",
            pre + "conn=1000 op=1 SRCH attr=cn mail", pre + "conn=1000 op=1 SRCH attr=sn",
            "Dec  1 10:00:01 host slapd[123]: conn=1000 op=1 SEARCH RESULT tag=101 err=0 qtime=0.000010 "
            "etime=0.000200 nentries=1 text=",
            pre + "conn=1000 op=2 MOD dn=\"uid=a,dc=x\"", pre + "conn=1000 op=2 MOD attr=description mail",
            pre + "conn=1000 op=2 RESULT tag=103 err=0 qtime=0.000010 etime=0.001000 text=",
            pre + "conn=1000 op=3 EXT oid=1.3.6.1.4.1.4203.1.11.3",
            pre + "conn=1000 op=3 RESULT oid= err=0 qtime=0.000010 etime=0.000100 text=", pre + "conn=1000 op=4 UNBIND",
            pre + "conn=1000 fd=12 closed", "Dec  1 10:00:02 host other: noise" });
    QCOMPARE(c.events.front().client, std::string("127.0.0.1"));
    const auto* b = c.find(1000, 0);
    QVERIFY(b && b->haveResult);
    QCOMPARE(b->dn, std::string("cn=admin,dc=x"));
    QCOMPARE(b->qtimeMs, 0.011);
    QCOMPARE(b->etimeMs, 0.412);
    const auto* s = c.find(1000, 1);
    QVERIFY(s && s->haveResult);
    QCOMPARE(s->filter, std::string("(uid=user42)"));
    QCOMPARE(s->attrs, std::string("cn mail sn"));
    QCOMPARE(s->scope, 2);
    QCOMPARE(s->nentries, qint64(1));
    QCOMPARE(s->endNs - s->startNs, uint64_t(1000000000));
    QCOMPARE(c.find(1000, 2)->attrs, std::string("description mail"));
    QCOMPARE(c.find(1000, 3)->oid, std::string("1.3.6.1.4.1.4203.1.11.3"));
    QVERIFY(c.find(1000, 3)->haveResult);
    QCOMPARE(int(c.find(1000, 4)->kind), int(WorkloadOpKind::Unbind));
    QCOMPARE(c.events.back().type, 'c');
    QCOMPARE(c.ops().size(), size_t(5));
    QCOMPARE(p.stats().requestsWithoutResult, uint64_t(0));
    QVERIFY(!p.stats().subSecond);
}

void TstWorkloadParse::openldapDebugStamp()
{
    Collect c;
    ParseOpenLdap p(&c);
    // 0x692d6720 = 1764583200 = 2025-12-01T10:00:00Z; 0x05f5e100 = 100000000 ns.
    feed(p,
        { "692d6720.05f5e100 0x7f0123456789 conn=1001 fd=13 ACCEPT from IP=[::1]:40512 (IP=[::]:389)",
            "692d6720.05f5e100 0x7f0123456789 conn=1001 op=0 SRCH base=\"\" scope=0 deref=0 filter=\"(objectClass=*)\"",
            "692d6720.0bebc200 0x7f0123456789 conn=1001 op=0 SEARCH RESULT tag=101 err=0 qtime=0.000001 "
            "etime=0.100000 nentries=1 text=",
            "692d6720.0bebc200 0x7f0123456789 conn=1001 fd=13 closed (connection lost)" });
    QCOMPARE(c.events.front().client, std::string("::1"));
    const auto* s = c.find(1001, 0);
    QVERIFY(s && s->haveResult);
    QCOMPARE(s->startNs, 1764583200ull * 1000000000ull + 100000000ull);
    QCOMPARE(s->endNs, 1764583200ull * 1000000000ull + 200000000ull);
    QVERIFY(p.stats().subSecond);
    QCOMPARE(c.events.back().type, 'c');
}

void TstWorkloadParse::openldapBareLines()
{
    Collect c;
    ParseOpenLdap p(&c);
    feed(p,
        { "conn=9 op=0 SRCH base=\"dc=x\" scope=1 deref=0 filter=\"(cn=a*)\"",
            "conn=9 op=0 SEARCH RESULT tag=101 err=0 qtime=0.000001 etime=0.000100 nentries=3 text=",
            "conn=9 op=1 SEARCH RESULT tag=101 err=0 qtime=0.000001 etime=0.000100 nentries=0 text=" });
    QVERIFY(c.find(9, 0) && c.find(9, 0)->haveResult);
    QCOMPARE(c.find(9, 0)->nentries, qint64(3));
    QCOMPARE(p.stats().resultsWithoutRequest, uint64_t(1));
    QVERIFY(p.gaps().join(",").contains("no timestamps"));
}

void TstWorkloadParse::accesslogLdif()
{
    Collect c;
    const auto p = LogParser::create(LogFormat::AccesslogLdif, &c);
    const QString b64 = QString::fromLatin1(QByteArray("caf\xc3\xa9").toBase64());
    feed(*p,
        { "# accesslog", "dn: cn=accesslog", "objectClass: auditContainer", "cn: accesslog", "",
            "dn: reqStart=20261201100000.000100Z,cn=accesslog", "objectClass: auditSearch",
            "reqStart: 20261201100000.000100Z", "reqEnd: 20261201100000.000400Z", "reqType: search", "reqSession: 1000",
            "reqDN: ou=people,dc=x", "reqResult: 0", "reqScope: sub", "reqFilter: (&(objectClass=person)(uid=us",
            " er42))", "reqAttr: cn", "reqAttr: mail", "reqEntries: 1", "",
            "dn: reqStart=20261201100001.000000Z,cn=accesslog", "reqStart: 20261201100001.000000Z",
            "reqEnd: 20261201100001.002000Z", "reqType: modify", "reqSession: 1000", "reqDN: uid=user42,dc=x",
            "reqResult: 0", "reqMod: description:= " + QString("d").repeated(3), "reqMod: mail:+ a@x",
            "reqMod: mail:+ b@x", "reqMod:: " + QString::fromLatin1(QByteArray("cn:= ").toBase64()), "",
            "dn: reqStart=20261201100002.000000Z,cn=accesslog", "reqStart: 20261201100002.000000Z", "reqType: add",
            "reqSession: 1001", "reqDN: uid=new,dc=x", "reqResult: 0", "reqMod:: " + b64, "",
            "dn: reqStart=20261201100003.000000Z,cn=accesslog", "reqStart: 20261201100003.000000Z", "reqType: unbind",
            "reqSession: 1000" });
    const auto ops = c.ops();
    QCOMPARE(ops.size(), size_t(4));
    const JoinedOp& s = ops[0];
    QCOMPARE(int(s.kind), int(WorkloadOpKind::Search));
    QCOMPARE(s.filter, std::string("(&(objectClass=person)(uid=user42))"));
    QCOMPARE(s.attrs, std::string("cn mail"));
    QCOMPARE(s.scope, 2);
    QCOMPARE(s.nentries, qint64(1));
    QCOMPARE(s.conn, uint64_t(1000));
    QCOMPARE(s.op, qint64(0));
    QCOMPARE(s.startNs, kBase); // the fraction is slapd's sequence number in the second
    QCOMPARE(s.etimeMs, -1.0);
    QVERIFY(p->gaps().join(",").contains("timestamps to the second"));
    QVERIFY(s.haveRequest && s.haveResult);
    const JoinedOp& m = ops[1];
    QCOMPARE(int(m.kind), int(WorkloadOpKind::Modify));
    QCOMPARE(m.op, qint64(1));
    QCOMPARE(m.writeValues.size(), size_t(3));
    QCOMPARE(m.writeValues[0].first, std::string("description"));
    QCOMPARE(m.writeValues[0].second, std::vector<std::string> { "ddd" });
    QCOMPARE(m.writeValues[1].second, (std::vector<std::string> { "a@x", "b@x" }));
    QCOMPARE(m.writeValues[2].first, std::string("cn"));
    QCOMPARE(ops[2].conn, uint64_t(1001));
    QCOMPARE(int(ops[3].kind), int(WorkloadOpKind::Unbind));
    int opens = 0, closes = 0;
    for (const auto& e : c.events) {
        opens += e.type == 'o';
        closes += e.type == 'c';
    }
    QCOMPARE(opens, 2);
    QCOMPARE(closes, 1);
}

void TstWorkloadParse::detectFormats()
{
    QCOMPARE(int(LogParser::detect({ "\t389-Directory/2.3.1", at(0).toStdString() + "conn=1 op=0 UNBIND" })),
        int(LogFormat::Ds389));
    QCOMPARE(int(LogParser::detect({ "Dec  1 10:00:00 h slapd[1]: conn=1 op=0 UNBIND" })), int(LogFormat::OpenLdap));
    QCOMPARE(int(LogParser::detect({ "# x", "dn: reqStart=20261201100000.000100Z,cn=accesslog" })),
        int(LogFormat::AccesslogLdif));
    QCOMPARE(int(LogParser::detect({ "hello", "world" })), int(LogFormat::Auto));
}

void TstWorkloadParse::readerGzipAndPlain()
{
    QTemporaryDir dir;
    QByteArray data;
    for (int i = 0; i < 200000; ++i)
        data += "line " + QByteArray::number(i) + (i % 3 ? "\n" : "\r\n");
    data += "last without newline";
    writeFile(dir.filePath("plain"), data);
    writeFile(dir.filePath("packed"), data);
    QCOMPARE(QProcess::execute("gzip", { "-9", dir.filePath("packed") }), 0);
    // Two gzip members one after the other (cat a.gz b.gz) read as one stream.
    QFile gz(dir.filePath("packed.gz"));
    QVERIFY(gz.open(QIODevice::ReadOnly));
    const QByteArray member = gz.readAll();
    writeFile(dir.filePath("twice.gz"), member + member);
    for (const QString name : { "plain", "packed.gz", "twice.gz" }) {
        LogReader r({ dir.filePath(name) });
        std::vector<std::string> lines;
        uint64_t lastDone = 0, total = 0;
        r.setProgress([&](uint64_t d, uint64_t t) {
            lastDone = d;
            total = t;
        });
        QString error;
        QVERIFY2(r.run([&](std::string_view l) { lines.emplace_back(l); }, &error), qPrintable(error));
        const size_t copies = name == "twice.gz" ? 2 : 1;
        // The second member continues the first one's unterminated last line.
        QCOMPARE(lines.size(), size_t(200001) * copies - (copies - 1));
        QCOMPARE(lines[0], std::string("line 0"));
        QCOMPARE(lines[3], std::string("line 3")); // "\r\n" taken off
        QCOMPARE(lines[199999], std::string("line 199999"));
        QCOMPARE(lines.back(), std::string("last without newline"));
        if (copies == 2)
            QCOMPARE(lines[200000], std::string("last without newlineline 0"));
        QCOMPARE(lastDone, total);
        QCOMPARE(total, uint64_t(QFileInfo(dir.filePath(name)).size()));
    }
    // A gzip file cut short is an error naming the file, after the lines before the cut.
    writeFile(dir.filePath("cut.gz"), member.left(member.size() / 2));
    LogReader cut({ dir.filePath("cut.gz") });
    QString error;
    size_t n = 0;
    QVERIFY(!cut.run([&](std::string_view) { ++n; }, &error));
    QVERIFY2(error.contains("cut.gz") && error.contains("gzip"), qPrintable(error));
    QVERIFY(n > 0);
    QVERIFY(LogReader::checkReadable({ dir.filePath("absent") }).contains("absent"));
    QVERIFY(LogReader::checkReadable({ dir.path() }).contains("directory"));
    QVERIFY(LogReader::checkReadable({ dir.filePath("plain"), "-" }).isEmpty());
}

void TstWorkloadParse::readerCutsHugeLines()
{
    QTemporaryDir dir;
    QByteArray data = "first\n" + QByteArray(int(LogReader::BufferSize) + 1000, 'x') + "\nafter\n";
    writeFile(dir.filePath("huge"), data);
    LogReader r({ dir.filePath("huge") });
    std::vector<size_t> sizes;
    std::vector<std::string> small;
    QString error;
    QVERIFY(r.run(
        [&](std::string_view l) {
            sizes.push_back(l.size());
            if (l.size() < 100)
                small.emplace_back(l);
        },
        &error));
    QCOMPARE(sizes.size(), size_t(3));
    QCOMPARE(sizes[1], LogReader::BufferSize);
    QCOMPARE(small, (std::vector<std::string> { "first", "after" }));
    QCOMPARE(r.cutLines(), uint64_t(1));
}

void TstWorkloadParse::readerOrdersRotatedFiles()
{
    QTemporaryDir dir;
    const QString cur = dir.filePath("access"), old = dir.filePath("access.20261201-095000"),
                  older = dir.filePath("access.20261201-094000.gz"), other = dir.filePath("errors");
    writeFile(cur, (at(300) + "conn=3 op=0 UNBIND\n").toUtf8());
    writeFile(old, (at(200) + "conn=2 op=0 UNBIND\n").toUtf8());
    writeFile(dir.filePath("access.20261201-094000"), (at(100) + "conn=1 op=0 UNBIND\n").toUtf8());
    QCOMPARE(QProcess::execute("gzip", { dir.filePath("access.20261201-094000") }), 0);
    writeFile(other, "[01/Dec/2026:09:00:00 +0000] conn=9 op=0 UNBIND\n");
    const QStringList ordered = LogReader::orderRotated({ cur, other, old, older }, WorkloadAnalyze::timeOfAnyFormat);
    QCOMPARE(ordered, (QStringList { older, old, cur, other }));
    // Read through the whole analysis: operations in time order across the files.
    AnalyzeOptions o;
    o.logs = { cur, old, older };
    o.buildWorkload = true;
    o.keepValues = true;
    const AnalyzeResult res = WorkloadAnalyze::run(o);
    QVERIFY2(res.error.isEmpty(), qPrintable(res.error));
    QCOMPARE(res.analysis["source"].toObject()["files"].toArray().first().toString(), older);
    QCOMPARE(res.workload->connections.size(), size_t(3));
    QCOMPARE(res.workload->connections[0].id, uint64_t(1));
    QCOMPARE(res.workload->connections[2].id, uint64_t(3));
}

// A stop asked for ends the read after the buffer it is in (the Workload page's Cancel): the run says "stopped",
// has read less than the file, and gives no analysis.
void TstWorkloadParse::analysisStopsWhenAsked()
{
    QTemporaryDir dir;
    QByteArray log;
    for (int i = 0; log.size() < 3 * int(LogReader::BufferSize); ++i)
        log += (at(i % 3600)
            + QString("conn=%1 op=0 SRCH base=\"dc=x\" scope=2 filter=\"(uid=u%2)\" attrs=ALL\n").arg(i).arg(i % 97))
                   .toUtf8();
    writeFile(dir.filePath("access"), log);
    AnalyzeOptions o;
    o.logs = { dir.filePath("access") };
    int asked = 0;
    o.stopRequested = [&asked] { return ++asked >= 2; };
    const AnalyzeResult r = WorkloadAnalyze::run(o);
    QVERIFY(r.stopped);
    QCOMPARE(r.error, QStringLiteral("stopped"));
    QCOMPARE(asked, 2);
    QVERIFY(r.analysis.isEmpty());
    QVERIFY2(r.bytes > 0 && r.bytes < uint64_t(log.size()), qPrintable(QString::number(r.bytes)));
    // Not asked to stop: the whole file.
    o.stopRequested = [] { return false; };
    const AnalyzeResult whole = WorkloadAnalyze::run(o);
    QVERIFY2(!whole.stopped && whole.error.isEmpty(), qPrintable(whole.error));
    QCOMPARE(whole.bytes, uint64_t(log.size()));
}

void TstWorkloadParse::cliReadsStdinAndGzip()
{
    QTemporaryDir dir;
    QByteArray log;
    for (int i = 0; i < 50; ++i) {
        log += (at(i * 10) + QString("conn=%1 fd=64 slot=64 connection from 10.0.0.%1 to 10.0.0.1\n").arg(i)).toUtf8();
        log += (at(i * 10 + 1)
            + QString("conn=%1 op=0 SRCH base=\"dc=x\" scope=2 filter=\"(uid=u%2)\" attrs=ALL\n").arg(i).arg(i % 5))
                   .toUtf8();
        log += (at(i * 10 + 2) + QString("conn=%1 op=0 RESULT err=0 tag=101 nentries=1 etime=0.0001\n").arg(i))
                   .toUtf8();
    }
    const QJsonObject viaStdin = runCli({ "workload", "analyze", "--log", "-", "--json", "-" }, log);
    QCOMPARE(viaStdin["operations"].toObject()["search"].toInt(), 50);
    QCOMPARE(viaStdin["connections"].toInt(), 50);
    QCOMPARE(viaStdin["source"].toObject()["format"].toString(), QString("389-access"));
    writeFile(dir.filePath("a"), log);
    QCOMPARE(QProcess::execute("gzip", { dir.filePath("a") }), 0);
    QFile gz(dir.filePath("a.gz"));
    QVERIFY(gz.open(QIODevice::ReadOnly));
    const QJsonObject gzipOnStdin = runCli({ "workload", "analyze", "--log", "-", "--json", "-" }, gz.readAll());
    QCOMPARE(gzipOnStdin["operations"].toObject()["search"].toInt(), 50);
    const QJsonObject viaGzip
        = runCli({ "workload", "analyze", "--log", dir.filePath("a.gz"), "--json", "-", "--client", "10.0.0.3" });
    QCOMPARE(viaGzip["operations"].toObject()["search"].toInt(), 1);
    const QJsonObject onlyBinds
        = runCli({ "workload", "analyze", "--log", dir.filePath("a.gz"), "--json", "-", "--operations", "bind" });
    QCOMPARE(onlyBinds["operations_total"].toInt(), 0);
    const QJsonObject window = runCli({ "workload", "analyze", "--log", dir.filePath("a.gz"), "--json", "-", "--from",
        "2026-12-01T10:00:00.000100Z", "--to", "2026-12-01T10:00:00.000200Z" });
    QCOMPARE(window["operations"].toObject()["search"].toInt(), 10); // conns 10..19 request within
}

QTEST_GUILESS_MAIN(TstWorkloadParse)
#include "tst_workloadparse.moc"
