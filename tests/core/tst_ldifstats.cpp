#include "core/sandbox/ldifgenerator.h"
#include "core/sizing/ldifstats.h"

#include <QFile>
#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

namespace {

QString fixture(const char* name)
{
    return QStringLiteral(DIRBENCH_SOURCE_DIR "/tests/data/sizing/") + QLatin1String(name);
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return f.readAll();
}

LdifStats scan(const QByteArray& data, qsizetype chunk)
{
    LdifScanner s;
    for (qsizetype i = 0; i < data.size(); i += chunk)
        s.feed(data.constData() + i, std::min(chunk, data.size() - i));
    return s.finish();
}

qint64 entriesWith(const LdifStats& s, const char* name)
{
    const auto* a = s.attribute(QLatin1String(name));
    return a ? a->entries : 0;
}

} // namespace

class TstLdifStats : public QObject
{
    Q_OBJECT
private slots:
    // The fixture's numbers, worked by hand (entry size = plain LDIF text, unfolded, base64 decoded):
    //   dc=example,dc=com  22 + 17 + 20 + 12                          =  71
    //   uid=alice          42 + 27 + 11 + 18 + 18 + 12 + 62 + 21       = 211  (folded description: 31 + 17 chars,
    //                                                                         userPassword:: c2VjcmV0 -> "secret")
    //   uid=dave (add)     41 + 27 + 10 + 9 + 10 + 23 + 32            = 152  (jpegPhoto:< URL: its 20 characters)
    //   bob (modify) and carol (delete) are change records: counted, not sized; bob's mail is not an attribute.
    void mixedFixture_data()
    {
        QTest::addColumn<qsizetype>("chunk");
        QTest::addColumn<bool>("crlf");
        QTest::newRow("whole file") << qsizetype(1 << 20) << false;
        QTest::newRow("one byte at a time") << qsizetype(1) << false;
        QTest::newRow("7-byte chunks") << qsizetype(7) << false;
        QTest::newRow("CRLF, whole") << qsizetype(1 << 20) << true;
        QTest::newRow("CRLF, 3-byte chunks (CR and LF split)") << qsizetype(3) << true;
    }

    void mixedFixture()
    {
        QFETCH(qsizetype, chunk);
        QFETCH(bool, crlf);
        QByteArray data = readAll(fixture("mixed.ldif"));
        QVERIFY(!data.isEmpty());
        if (crlf)
            data.replace("\n", "\r\n");
        const LdifStats s = scan(data, chunk);
        QCOMPARE(s.entries, qint64(3));
        QCOMPARE(s.changeRecords, qint64(2));
        QCOMPARE(s.malformedLines, qint64(0));
        QCOMPARE(s.totalEntryBytes, qint64(71 + 211 + 152));
        QCOMPARE(s.maxEntryBytes, qint64(211));
        QCOMPARE(s.p95EntryBytes, qint64(211));
        QVERIFY(qAbs(s.meanEntryBytes - 434.0 / 3.0) < 1e-9);
        QCOMPARE(s.comments, qint64(1));
        QCOMPARE(s.foldedLines, qint64(2));
        QCOMPARE(s.base64Values, qint64(1));
        QCOMPARE(s.urlValues, qint64(1));
        QCOMPARE(s.bytes, qint64(data.size()));
        QCOMPARE(entriesWith(s, "objectclass"), qint64(3));
        QCOMPARE(s.attribute(QStringLiteral("objectclass"))->values, qint64(4));
        QCOMPARE(entriesWith(s, "uid"), qint64(2));
        QCOMPARE(entriesWith(s, "cn"), qint64(2)); // cn;lang-fr counts as cn
        QCOMPARE(s.attribute(QStringLiteral("cn"))->values, qint64(3));
        QCOMPARE(entriesWith(s, "mail"), qint64(1)); // dave only: bob's is inside a change record
        QCOMPARE(entriesWith(s, "jpegphoto"), qint64(1));
        QCOMPARE(entriesWith(s, "replace"), qint64(0));
        QCOMPARE(entriesWith(s, "changetype"), qint64(0));
        QCOMPARE(entriesWith(s, "version"), qint64(0));
        QCOMPARE(s.attributes.first().name, QStringLiteral("objectclass"));
        QStringList cands;
        for (const auto& c : s.indexCandidates)
            cands << c.attribute;
        QCOMPARE(cands, (QStringList { "objectclass", "uid", "cn", "sn" })); // mail: 1 of 3 entries only
        QCOMPARE(s.indexCandidates.at(2).indexTypes, QStringLiteral("eq,sub"));
    }

    void readFileMatchesScanner()
    {
        ProbeError err;
        const auto s = LdifScanner::readFile(fixture("mixed.ldif"), &err);
        QVERIFY2(s, qPrintable(err.message()));
        QCOMPARE(s->entries, qint64(3));
        QCOMPARE(s->totalEntryBytes, qint64(434));
        QVERIFY(s->seconds >= 0);
        const QJsonObject j = s->toJson();
        QCOMPARE(j.value(QStringLiteral("entries")).toDouble(), 3.0);
        QCOMPARE(j.value(QStringLiteral("p95_entry_bytes")).toDouble(), 211.0);
        QVERIFY(j.value(QStringLiteral("index_candidates")).toArray().size() == 4);
    }

    void base64DnAndPadding()
    {
        // "dWlkPXg=" is "uid=x" (5 bytes); "YWI=" is "ab" (2); a folded base64 value continues on the next line.
        const QByteArray data = "dn:: dWlkPXg=\nuid: x\nnote:: YW\n I=\n";
        const LdifStats s = scan(data, 1 << 20);
        QCOMPARE(s.entries, qint64(1));
        QCOMPARE(s.totalEntryBytes, qint64((2 + 2 + 5 + 1) + (3 + 2 + 1 + 1) + (4 + 2 + 2 + 1)));
        QCOMPARE(s.base64Values, qint64(1)); // the dn is not an attribute value
    }

    void malformedRecordsAreSkipped()
    {
        const QByteArray data = "garbage line\nuid: lost\n\ndn: uid=ok\nuid: ok\nnot an attribute line\n";
        const LdifStats s = scan(data, 5);
        QCOMPARE(s.entries, qint64(1));
        QCOMPARE(s.malformedLines, qint64(2));
        QCOMPARE(entriesWith(s, "uid"), qint64(1));
    }

    void percentile_data()
    {
        QTest::addColumn<QList<int>>("sizes"); // value lengths; the entry is "dn: x\n" (6) + "v: <value>\n"
        QTest::addColumn<qint64>("p95");
        QList<int> hundred;
        for (int i = 1; i <= 100; ++i)
            hundred << i;
        // nearest rank: the 95th of 100 sorted sizes, value length 95 -> 6 + (1 + 2 + 95 + 1)
        QTest::newRow("1..100") << hundred << qint64(6 + 1 + 2 + 95 + 1);
        QTest::newRow("twenty alike") << QList<int>(20, 10) << qint64(6 + 14);
        QList<int> big(19, 10);
        big << 200000; // one entry above the exact range: p95 of 20 is the 19th -> small
        QTest::newRow("one huge of 20") << big << qint64(6 + 14);
        QList<int> bigs(10, 100000);
        bigs << QList<int>(10, 10); // half huge: the 19th sorted is huge
        QTest::newRow("half huge") << bigs << qint64(6 + 1 + 2 + 100000 + 1);
    }

    void percentile()
    {
        QFETCH(QList<int>, sizes);
        QFETCH(qint64, p95);
        QByteArray data;
        for (int n : sizes)
            data += "dn: x\nv: " + QByteArray(n, 'a') + "\n\n";
        const LdifStats s = scan(data, 4096);
        QCOMPARE(s.entries, qint64(sizes.size()));
        QCOMPARE(s.p95EntryBytes, p95);
    }

    void generatorOutputSizes()
    {
        // The sandbox generator writes unfolded plain values, so every entry's size is its record's bytes and the
        // sum over entries is the file minus the blank separator lines.
        const int n = 500;
        QByteArray data = LdifGenerator::header();
        for (int i = 0; i < n; ++i) {
            LdifGenerator::appendPerson(data, i, "{SSHA}abcdefghijklmnopqrstuvwxyz012345");
            data.append('\n');
        }
        const LdifStats s = scan(data, 65536);
        QCOMPARE(s.entries, qint64(n + 2));
        QCOMPARE(s.changeRecords, qint64(0));
        QCOMPARE(s.malformedLines, qint64(0));
        const qint64 blankLines = data.count("\n\n");
        QCOMPARE(s.totalEntryBytes, qint64(data.size()) - blankLines);
        QCOMPARE(entriesWith(s, "uid"), qint64(n));
        QCOMPARE(entriesWith(s, "objectclass"), qint64(n + 2));
        QVERIFY(s.meanEntryBytes > 500 && s.meanEntryBytes < 2000);
        QVERIFY(s.p95EntryBytes >= qint64(s.meanEntryBytes));
        QStringList cands;
        for (const auto& c : s.indexCandidates)
            cands << c.attribute;
        for (const char* a : { "objectclass", "uid", "cn", "sn", "givenname", "mail" })
            QVERIFY2(cands.contains(QLatin1String(a)), a);
    }

    void indexHeuristic_data()
    {
        QTest::addColumn<QString>("attribute");
        QTest::addColumn<qint64>("holders");
        QTest::addColumn<bool>("candidate");
        QTest::newRow("uid in 60 %") << "uid" << qint64(60) << true;
        QTest::newRow("uid in 40 %") << "uid" << qint64(40) << false;
        QTest::newRow("description in 100 %: not a filter attribute") << "description" << qint64(100) << false;
        QTest::newRow("member in 2 % (groups)") << "member" << qint64(2) << true;
        QTest::newRow("memberuid in 1 %") << "memberuid" << qint64(1) << true;
        QTest::newRow("mail in 50 % exactly") << "mail" << qint64(50) << true;
    }

    void indexHeuristic()
    {
        QFETCH(QString, attribute);
        QFETCH(qint64, holders);
        QFETCH(bool, candidate);
        LdifAttributeStat a;
        a.name = attribute;
        a.entries = holders;
        a.presence = double(holders) / 100.0;
        const auto c = LdifScanner::indexCandidates({ a }, 100);
        QCOMPARE(!c.isEmpty(), candidate);
        if (candidate)
            QVERIFY(!c.first().reason.isEmpty());
    }

    void readFileErrors()
    {
        ProbeError err;
        QVERIFY(!LdifScanner::readFile(QStringLiteral("/nonexistent/file.ldif"), &err));
        QCOMPARE(err.field, QStringLiteral("ldif"));
        QTemporaryDir dir;
        const QString empty = dir.filePath(QStringLiteral("empty.ldif"));
        QFile f(empty);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("# only a comment\n");
        f.close();
        err = ProbeError();
        QVERIFY(!LdifScanner::readFile(empty, &err));
        QCOMPARE(err.field, QStringLiteral("ldif"));
        QVERIFY(err.detail.contains(QStringLiteral("no LDIF entry")));
    }
};

QTEST_GUILESS_MAIN(TstLdifStats)
#include "tst_ldifstats.moc"
