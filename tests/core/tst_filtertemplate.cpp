#include "core/ldap/filtertemplate.h"

#include <QTest>

class TstFilterTemplate : public QObject
{
    Q_OBJECT
private slots:
    void valid_data();
    void valid();
    void invalid_data();
    void invalid();
    void parseRendersNormalisedFilter();
    void parseReportsRangeErrorsInUserColumns();
};

void TstFilterTemplate::valid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("normalised");
    QTest::newRow("no parens") << "uid=user[1-9]"
                               << "(uid=user[1-9])";
    QTest::newRow("parens") << "(uid=user[1-9])"
                            << "(uid=user[1-9])";
    QTest::newRow("trimmed") << "  (uid=a)  "
                             << "(uid=a)";
    QTest::newRow("trimmed no parens") << " uid=a "
                                       << "(uid=a)";
    QTest::newRow("and") << "(&(objectClass=person)(uid=user[00000-99999]))"
                         << "(&(objectClass=person)(uid=user[00000-99999]))";
    QTest::newRow("and without parens") << "&(a=1)(b=2)"
                                        << "(&(a=1)(b=2))";
    QTest::newRow("or") << "(|(a=1)(b=2))"
                        << "(|(a=1)(b=2))";
    QTest::newRow("not") << "(!(a=1))"
                         << "(!(a=1))";
    QTest::newRow("nested") << "(&(|(a=1)(!(b=2)))(c=3))"
                            << "(&(|(a=1)(!(b=2)))(c=3))";
    QTest::newRow("spaces between filters") << "(& (a=1) (b=2) )"
                                            << "(& (a=1) (b=2) )";
    QTest::newRow("presence") << "(cn=*)"
                              << "(cn=*)";
    QTest::newRow("substrings") << "(cn=ab*cd*)"
                                << "(cn=ab*cd*)";
    QTest::newRow("substring initial") << "(cn=*ab)"
                                       << "(cn=*ab)";
    QTest::newRow("greater or equal") << "(attr>=5)"
                                      << "(attr>=5)";
    QTest::newRow("less or equal") << "(attr<=5)"
                                   << "(attr<=5)";
    QTest::newRow("approx") << "(cn~=fred)"
                            << "(cn~=fred)";
    QTest::newRow("empty value") << "(cn=)"
                                 << "(cn=)";
    QTest::newRow("value with spaces") << "(cn=Barbara Jensen)"
                                       << "(cn=Barbara Jensen)";
    QTest::newRow("escaped parens") << "(cn=\\28x\\29)"
                                    << "(cn=\\28x\\29)";
    QTest::newRow("escaped star") << "(cn=a\\2Ab)"
                                  << "(cn=a\\2Ab)";
    QTest::newRow("template backslash makes an escape") << "(cn=a\\\\5c)"
                                                        << "(cn=a\\\\5c)";
    QTest::newRow("template bracket") << "(cn=a\\[b)"
                                      << "(cn=a\\[b)";
    QTest::newRow("parens inside range ignored") << "(cn=[file:/tmp/a(b].txt)"
                                                 << "(cn=[file:/tmp/a(b].txt)";
    QTest::newRow("range as attribute") << "(attr[1-3]=x)"
                                        << "(attr[1-3]=x)";
    QTest::newRow("numeric oid") << "(2.5.4.3=x)"
                                 << "(2.5.4.3=x)";
    QTest::newRow("options") << "(cn;lang-en=x)"
                             << "(cn;lang-en=x)";
    QTest::newRow("extensible rule") << "(cn:caseExactMatch:=Fred)"
                                     << "(cn:caseExactMatch:=Fred)";
    QTest::newRow("extensible dn rule") << "(cn:dn:2.5.13.5:=x)"
                                        << "(cn:dn:2.5.13.5:=x)";
    QTest::newRow("extensible no attr") << "(:dn:2.4.6.8.10:=Dino)"
                                        << "(:dn:2.4.6.8.10:=Dino)";
    QTest::newRow("extensible dn") << "(o:dn:=Ace)"
                                   << "(o:dn:=Ace)";
    QTest::newRow("extensible bare") << "(cn:=x)"
                                     << "(cn:=x)";
    QTest::newRow("AD bitwise rule") << "(userAccountControl:1.2.840.113556.1.4.803:=2)"
                                     << "(userAccountControl:1.2.840.113556.1.4.803:=2)";
    QTest::newRow("utf-8 value") << QString::fromUtf8("(cn=Jürgen)") << QString::fromUtf8("(cn=Jürgen)");
}

void TstFilterTemplate::valid()
{
    QFETCH(QString, text);
    QFETCH(QString, normalised);
    ProbeError e;
    const auto n = FilterTemplate::normalise(text, &e);
    QVERIFY2(n, qPrintable(e.message()));
    QCOMPARE(*n, normalised);
}

void TstFilterTemplate::invalid_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::newRow("empty") << ""
                           << "filter: is empty; expected e.g. (uid=user[1-1000])";
    QTest::newRow("blank") << "   "
                           << "filter: is empty; expected e.g. (uid=user[1-1000])";
    QTest::newRow("(uid=") << "(uid="
                           << "filter: missing ')' at the end, to close the '(' at column 1";
    QTest::newRow("(&(uid=a)") << "(&(uid=a)"
                               << "filter: missing ')' at the end, to close the '(' at column 1";
    QTest::newRow("uid=a)") << "uid=a)"
                            << "filter: unbalanced ')' at column 6";
    QTest::newRow("(uid=a))") << "(uid=a))"
                              << "filter: unbalanced ')' at column 8";
    QTest::newRow("two filters") << "(uid=a)(cn=b)"
                                 << "filter: unexpected text after the filter at column 8; combine filters with "
                                    "(&...) or (|...)";
    QTest::newRow("(&)") << "(&)"
                         << "filter: '&' at column 2 must be followed by one or more filters in parentheses, e.g. "
                            "(&(a=1)(b=2)); found ')' at column 3";
    QTest::newRow("(|)") << "(|)"
                         << "filter: '|' at column 2 must be followed by one or more filters in parentheses, e.g. "
                            "(|(a=1)(b=2)); found ')' at column 3";
    QTest::newRow("(&a=1)") << "(&a=1)"
                            << "filter: '&' at column 2 must be followed by one or more filters in parentheses, e.g. "
                               "(&(a=1)(b=2)); found 'a' at column 3";
    QTest::newRow("(!)") << "(!)"
                         << "filter: '!' at column 2 must be followed by a filter in parentheses, e.g. (!(a=1)); "
                            "found ')' at column 3";
    QTest::newRow("not two") << "(!(a=1)(b=2))"
                             << "filter: '!' at column 2 takes exactly one filter; another begins at column 8";
    QTest::newRow("()") << "()"
                        << "filter: empty filter item ')' at column 2; expected e.g. (uid=value)";
    QTest::newRow("(=a)") << "(=a)"
                          << "filter: missing attribute description before '=' at column 2";
    QTest::newRow("(uid)") << "(uid)"
                           << "filter: missing filter type (=, ~=, >=, <=) after 'uid' at column 2";
    QTest::newRow("space in attr") << "(u id=a)"
                                   << "filter: invalid character ' ' at column 3 in the attribute description 'u'";
    QTest::newRow("bad attr") << "(1uid=a)"
                              << "filter: invalid attribute description '1uid' at column 2";
    QTest::newRow("bad option") << "(cn;=a)"
                                << "filter: invalid attribute description 'cn;' at column 2";
    QTest::newRow("((a=1))") << "((a=1))"
                             << "filter: invalid character '(' at column 2 in an attribute description";
    QTest::newRow("a**b") << "(cn=a**b)"
                          << "filter: two '*' in a row at column 7";
    QTest::newRow("star in >=") << "(cn>=a*)"
                                << "filter: '*' at column 7: wildcards are only allowed after a plain '=' (write \\2a "
                                   "for a literal '*')";
    QTest::newRow("~ without =") << "(cn~a)"
                                 << "filter: expected '=' after '~' (~=), found 'a' at column 5";
    QTest::newRow("unescaped (") << "(cn=a(b)"
                                 << "filter: unescaped '(' in a value at column 6 (write \\28)";
    QTest::newRow("bad escape") << "(cn=a\\zz)"
                                << "filter: '\\' at column 6 must be followed by two hex digits (e.g. \\2a for '*', "
                                   "\\5c for '\\')";
    QTest::newRow("short escape") << "(cn=a\\2)"
                                  << "filter: '\\' at column 6 must be followed by two hex digits (e.g. \\2a for '*', "
                                     "\\5c for '\\')";
    QTest::newRow("unclosed range") << "(uid=[1-9)"
                                    << "filter: unclosed '[' at column 6 (write \\[ for a literal '[')";
    QTest::newRow("extensible nothing") << "(:=x)"
                                        << "filter: extensible match at column 2 has neither an attribute nor a "
                                           "matching rule, e.g. (cn:caseExactMatch:=x)";
    QTest::newRow("extensible too many") << "(cn:dn:rule:more:=x)"
                                         << "filter: extensible match at column 4 has too many parts; expected "
                                            "attr[:dn][:rule]:=value";
    QTest::newRow("extensible no :=")
        << "(cn:dn)"
        << "filter: expected ':=' in the extensible match at column 4, found ')' at column 7";
    QTest::newRow("bad rule") << "(cn:1.:=x)"
                              << "filter: invalid matching rule '1.' at column 5";
    QTest::newRow("missing ) in nested") << "(&(a=1)(b=2)"
                                         << "filter: missing ')' at the end, to close the '(' at column 1";
    QTest::newRow("wrapped missing )") << "&(a=1"
                                       << "filter: missing ')' at the end, to close the '(' at column 2";
}

void TstFilterTemplate::invalid()
{
    QFETCH(QString, text);
    QFETCH(QString, message);
    ProbeError e;
    QVERIFY(!FilterTemplate::normalise(text, &e));
    QCOMPARE(e.kind, ProbeError::Kind::InvalidSpec);
    QCOMPARE(e.field, QStringLiteral("filter"));
    QCOMPARE(e.message(), message);
    ProbeError e2;
    QVERIFY(!FilterTemplate::parse(text, &e2));
    QCOMPARE(e2.field, QStringLiteral("filter"));
}

void TstFilterTemplate::parseRendersNormalisedFilter()
{
    ProbeError e;
    auto p = FilterTemplate::parse("uid=user[5-5]", &e);
    QVERIFY2(p, qPrintable(e.message()));
    const uint64_t zero[] = { 0 };
    QCOMPARE(p->renderKeys(zero), QByteArray("(uid=user5)"));
    QCOMPARE(p->text(), QStringLiteral("(uid=user[5-5])"));
    p = FilterTemplate::parse("  (uid=[1-1])  ", &e);
    QVERIFY2(p, qPrintable(e.message()));
    QCOMPARE(p->renderKeys(zero), QByteArray("(uid=1)"));
    p = FilterTemplate::parse("[1-1]=x", &e); // a range first: still wrapped
    QVERIFY2(p, qPrintable(e.message()));
    QCOMPARE(p->renderKeys(zero), QByteArray("(1=x)"));
    p = FilterTemplate::parse("(cn=a\\[b\\\\5c)", &e);
    QVERIFY2(p, qPrintable(e.message()));
    QVERIFY(p->isConstant());
    QCOMPARE(p->renderKeys({}), QByteArray("(cn=a[b\\5c)"));
    p = FilterTemplate::parse("&(objectClass=person)(uid=user[00000-99999])", &e);
    QVERIFY2(p, qPrintable(e.message()));
    const uint64_t k[] = { 42 };
    QCOMPARE(p->renderKeys(k), QByteArray("(&(objectClass=person)(uid=user00042))"));
}

void TstFilterTemplate::parseReportsRangeErrorsInUserColumns()
{
    ProbeError e;
    QVERIFY(!FilterTemplate::parse("uid=user[9-1]", &e));
    QCOMPARE(e.message(), QStringLiteral("filter: range [9-1] at column 9: start is greater than end"));
    QVERIFY(!FilterTemplate::parse("(uid=user[9-1])", &e));
    QCOMPARE(e.message(), QStringLiteral("filter: range [9-1] at column 10: start is greater than end"));
    QVERIFY(!FilterTemplate::parse("(uid=[file:/nonexistent/x])", &e));
    QVERIFY2(e.message().startsWith("filter: [file:/nonexistent/x] at column 6: cannot read"), qPrintable(e.message()));
}

QTEST_GUILESS_MAIN(TstFilterTemplate)
#include "tst_filtertemplate.moc"
