#include "core/ldap/valuepattern.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <set>
#include <vector>

using Dist = AccessDistribution;

namespace {

ValuePattern mustParse(const QString& text, const QString& field = QStringLiteral("value"))
{
    ProbeError e;
    auto p = ValuePattern::parse(text, field, &e);
    if (!p)
        qFatal("unexpected parse error: %s", qPrintable(e.message()));
    return *p;
}

QByteArray keys(const ValuePattern& p, std::initializer_list<uint64_t> k)
{
    return p.renderKeys(std::span<const uint64_t>(k.begin(), k.size()));
}

} // namespace

class TstValuePattern : public QObject
{
    Q_OBJECT
private slots:
    void zeroPadding();
    void rangeEdgesUnderUniform();
    void largestNumbers();
    void escapes();
    void constantTemplates();
    void twoRangesAreIndependent();
    void sequentialPerRange();
    void fileSource();
    void errors_data();
    void errors();
    void fileErrors();
    void bufferIsReused();
};

void TstValuePattern::zeroPadding()
{
    const auto p = mustParse("uid=user[00000-99999]");
    QCOMPARE(p.rangeCount(), 1);
    QCOMPARE(p.keyCount(0), uint64_t(100000));
    QVERIFY(!p.isConstant());
    QCOMPARE(keys(p, { 42 }), QByteArray("uid=user00042"));
    QCOMPARE(keys(p, { 99999 }), QByteArray("uid=user99999"));
    QCOMPARE(keys(p, { 0 }), QByteArray("uid=user00000"));
    const auto plain = mustParse("[0-99999]");
    QCOMPARE(keys(plain, { 42 }), QByteArray("42"));
    const auto offset = mustParse("[007-100]");
    QCOMPARE(offset.keyCount(0), uint64_t(94));
    QCOMPARE(keys(offset, { 0 }), QByteArray("007"));
    QCOMPARE(keys(offset, { 93 }), QByteArray("100"));
    const auto narrow = mustParse("[05-1000]"); // values wider than A are not cut
    QCOMPARE(keys(narrow, { 995 }), QByteArray("1000"));
    QCOMPARE(keys(narrow, { 0 }), QByteArray("05"));
    QCOMPARE(keys(mustParse("[0-9]"), { 3 }), QByteArray("3"));
}

void TstValuePattern::rangeEdgesUnderUniform()
{
    const auto p = mustParse("x[5-9]y");
    Dist::Rng rng(11);
    std::set<QByteArray> seen;
    QByteArray out;
    for (int i = 0; i < 10000; ++i) {
        p.render(out, rng);
        QVERIFY(out.size() == 3 && out.startsWith('x') && out.endsWith('y'));
        QVERIFY2(out[1] >= '5' && out[1] <= '9', out.constData());
        seen.insert(out);
    }
    QCOMPARE(seen.size(), size_t(5)); // both ends (5 and 9) and everything between
    const auto single = mustParse("[0-0]");
    QCOMPARE(single.keyCount(0), uint64_t(1));
    single.render(out, rng);
    QCOMPARE(out, QByteArray("0"));
}

void TstValuePattern::largestNumbers()
{
    const auto p = mustParse("[9007199254740990-9007199254740992]");
    QCOMPARE(p.keyCount(0), uint64_t(3));
    QCOMPARE(keys(p, { 2 }), QByteArray("9007199254740992"));
    const auto whole = mustParse("[0-9007199254740992]");
    QCOMPARE(whole.keyCount(0), (uint64_t(1) << 53) + 1);
    Dist::Rng rng(5);
    QByteArray out;
    for (int i = 0; i < 1000; ++i) {
        whole.render(out, rng);
        QVERIFY(out.toULongLong() <= (uint64_t(1) << 53));
    }
}

void TstValuePattern::escapes()
{
    QCOMPARE(keys(mustParse("a\\[b"), {}), QByteArray("a[b"));
    QCOMPARE(keys(mustParse("a\\[1-2]"), {}), QByteArray("a[1-2]"));
    QCOMPARE(keys(mustParse("a\\\\b"), {}), QByteArray("a\\b"));
    QCOMPARE(keys(mustParse("a\\\\[1-1]"), { 0 }), QByteArray("a\\1")); // \\ then a range
    QCOMPARE(keys(mustParse("(cn=\\28x\\2a\\29)"), {}), QByteArray("(cn=\\28x\\2a\\29)")); // other escapes kept
    QCOMPARE(keys(mustParse("cn=a\\,b"), {}), QByteArray("cn=a\\,b"));
    QCOMPARE(keys(mustParse("a]b"), {}), QByteArray("a]b"));
    QCOMPARE(keys(mustParse("end\\"), {}), QByteArray("end\\"));
    QCOMPARE(keys(mustParse(QString::fromUtf8("cn=Jürgen[1-1]")), { 0 }), QByteArray("cn=J\xc3\xbcrgen1"));
    QVERIFY(mustParse("a\\[b").isConstant());
}

void TstValuePattern::constantTemplates()
{
    const auto p = mustParse("dc=example,dc=com", "base");
    QVERIFY(p.isConstant());
    QCOMPARE(p.rangeCount(), 0);
    Dist::Rng rng(1);
    QByteArray out("garbage");
    p.render(out, rng);
    QCOMPARE(out, QByteArray("dc=example,dc=com"));
    const auto empty = mustParse(QString());
    QVERIFY(empty.isConstant());
    empty.render(out, rng);
    QVERIFY(out.isEmpty());
    QCOMPARE(ValuePattern().rangeCount(), 0);
}

void TstValuePattern::twoRangesAreIndependent()
{
    auto p = mustParse("[0-9]-[0-9]");
    QCOMPARE(p.rangeCount(), 2);
    Dist::Rng rng(21);
    QByteArray out;
    std::vector<double> pairs(100, 0.0);
    const int draws = 200000;
    for (int i = 0; i < draws; ++i) {
        p.render(out, rng);
        QCOMPARE(out.size(), 3);
        pairs[size_t((out[0] - '0') * 10 + (out[2] - '0'))] += 1;
    }
    double chi = 0;
    for (double c : pairs)
        chi += (c - draws / 100.0) * (c - draws / 100.0) / (draws / 100.0);
    QVERIFY2(chi < 148.2, qPrintable(QString::number(chi))); // chi-square, 99 df, 99.9 %
    // Under zipf the two keys are drawn separately: they agree about as often as sum of p(k)^2 says.
    p.setDistribution(Dist::zipf(1.0));
    const auto sampler = Dist::zipf(1.0).sampler(10);
    double agree = 0, expected = 0;
    for (uint64_t k = 0; k < 10; ++k)
        expected += sampler.probabilityOfRank(k) * sampler.probabilityOfRank(k);
    for (int i = 0; i < draws; ++i) {
        p.render(out, rng);
        agree += out[0] == out[2];
    }
    QVERIFY2(std::fabs(agree / draws - expected) < 0.01, qPrintable(QString::number(agree / draws)));
}

void TstValuePattern::sequentialPerRange()
{
    auto p = mustParse("[0-2]/[10-13]");
    p.setDistribution(Dist::sequential());
    QCOMPARE(p.distribution(), Dist::sequential());
    Dist::Rng rng(1);
    QByteArray out;
    const char* expected[] = { "0/10", "1/11", "2/12", "0/13", "1/10" };
    for (const char* e : expected) {
        p.render(out, rng);
        QCOMPARE(out, QByteArray(e));
    }
}

void TstValuePattern::fileSource()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("names.txt");
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("alice\n  bob  \n\n\r\n\tcarol\r\nJ\xc3\xbcrgen");
    f.close();
    const auto p = mustParse("cn=[file:" + path + "],ou=people,dc=example,dc=com", "dn");
    QCOMPARE(p.rangeCount(), 1);
    QCOMPARE(p.keyCount(0), uint64_t(4));
    QCOMPARE(keys(p, { 0 }), QByteArray("cn=alice,ou=people,dc=example,dc=com"));
    QCOMPARE(keys(p, { 1 }), QByteArray("cn=bob,ou=people,dc=example,dc=com"));
    QCOMPARE(keys(p, { 2 }), QByteArray("cn=carol,ou=people,dc=example,dc=com"));
    QCOMPARE(keys(p, { 3 }), QByteArray("cn=J\xc3\xbcrgen,ou=people,dc=example,dc=com"));
    // Loaded once: the file may go away after parsing.
    QVERIFY(QFile::remove(path));
    Dist::Rng rng(3);
    std::set<QByteArray> seen;
    QByteArray out;
    for (int i = 0; i < 1000; ++i) {
        p.render(out, rng);
        seen.insert(out);
    }
    QCOMPARE(seen.size(), size_t(4));
}

void TstValuePattern::errors_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("start > end") << "uid=user[9-1]"
                                 << "dn: range [9-1] at column 9: start is greater than end";
    QTest::newRow("unclosed") << "uid=[1-5"
                              << "dn: unclosed '[' at column 5 (write \\[ for a literal '[')";
    QTest::newRow("empty") << "x[]"
                           << "dn: empty range [] at column 2 (expected [A-B] or [file:PATH])";
    QTest::newRow("non-numeric start") << "[a-5]"
                                       << "dn: range [a-5] at column 1: start 'a' is not a whole number";
    QTest::newRow("non-numeric end") << "ab[1-b]"
                                     << "dn: range [1-b] at column 3: end 'b' is not a whole number";
    QTest::newRow("negative") << "[-5-5]"
                              << "dn: range [-5-5] at column 1: start is missing (ranges are of whole numbers >= 0, "
                                 "written [A-B])";
    QTest::newRow("missing end") << "[5-]"
                                 << "dn: range [5-] at column 1: end is missing (ranges are of whole numbers "
                                    ">= 0, written [A-B])";
    QTest::newRow("three parts") << "[1-2-3]"
                                 << "dn: range [1-2-3] at column 1: end '2-3' is not a whole number";
    QTest::newRow("no dash") << "[12]"
                             << "dn: range [12] at column 1: expected [A-B] with whole numbers A <= B, or [file:PATH]";
    QTest::newRow("spaces") << "[1 - 2]"
                            << "dn: range [1 - 2] at column 1: start '1 ' is not a whole number";
    QTest::newRow("too large") << "[9007199254740993-9007199254740999]"
                               << "dn: range [9007199254740993-9007199254740999] at column 1: start 9007199254740993 "
                                  "is larger than 2^53 (9007199254740992)";
    QTest::newRow("too large end") << "[1-99999999999999999999]"
                                   << "dn: range [1-99999999999999999999] at column 1: end 99999999999999999999 is "
                                      "larger than 2^53 (9007199254740992)";
    QTest::newRow("too many digits") << "[000000000000000000000000000000001-2]"
                                     << "dn: range [000000000000000000000000000000001-2] at column 1: start has more "
                                        "than 32 digits";
    QTest::newRow("unknown source") << "cn=[xyz:abc]"
                                    << "dn: unknown source 'xyz' in [xyz:abc] at column 4 (expected [A-B] or "
                                       "[file:PATH])";
    QTest::newRow("empty path") << "cn=[file:]"
                                << "dn: [file:] at column 4: the path is empty";
    QTest::newRow("second range bad") << "[1-2][3-x]"
                                      << "dn: range [3-x] at column 6: end 'x' is not a whole number";
}

void TstValuePattern::errors()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    ProbeError e;
    QVERIFY(!ValuePattern::parse(text, "dn", &e));
    QCOMPARE(e.kind, ProbeError::Kind::InvalidSpec);
    QCOMPARE(e.field, QStringLiteral("dn"));
    QCOMPARE(e.message(), message);
}

void TstValuePattern::fileErrors()
{
    QTemporaryDir dir;
    ProbeError e;
    QVERIFY(!ValuePattern::parse("cn=[file:/nonexistent/dirbench/names.txt]", "value", &e));
    QCOMPARE(e.field, QStringLiteral("value"));
    QVERIFY2(
        e.message().startsWith(
            "value: [file:/nonexistent/dirbench/names.txt] at column 4: cannot read /nonexistent/dirbench/names.txt: "),
        qPrintable(e.message()));
    QVERIFY(!ValuePattern::parse("cn=[file:" + dir.path() + "]", "value", &e)); // a directory
    QVERIFY2(e.message().contains("cannot read"), qPrintable(e.message()));
    const QString blank = dir.filePath("blank.txt");
    QFile f(blank);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("  \n\n\t\r\n");
    f.close();
    QVERIFY(!ValuePattern::parse("[file:" + blank + "]", "value", &e));
    QCOMPARE(e.message(), "value: [file:" + blank + "] at column 1: the file has no lines");
}

void TstValuePattern::bufferIsReused()
{
    const auto p = mustParse("(uid=user[10000-99999])");
    Dist::Rng rng(1);
    QByteArray out;
    out.reserve(64);
    p.render(out, rng);
    const char* data = out.constData();
    for (int i = 0; i < 1000; ++i) {
        p.render(out, rng);
        QCOMPARE(out.constData(), data);
        QCOMPARE(out.size(), 15);
        QCOMPARE(out.constData()[15], '\0');
    }
}

QTEST_GUILESS_MAIN(TstValuePattern)
#include "tst_valuepattern.moc"
