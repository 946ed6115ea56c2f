// FilterShape: filters and DNs as templates with numbered slots, AND/OR parts in a canonical order.
#include "core/workload/filtershape.h"

#include <QTest>

using Values = std::vector<std::string>;
Q_DECLARE_METATYPE(Values)

class TstFilterShape : public QObject
{
    Q_OBJECT
private slots:
    void filters_data();
    void filters();
    void canonicalOrderIgnoresTheLoggedOrder();
    void unparsable_data();
    void unparsable();
    void dns_data();
    void dns();
    void fillPutsValuesBack();
};

void TstFilterShape::filters_data()
{
    QTest::addColumn<QString>("filter");
    QTest::addColumn<QString>("text");
    QTest::addColumn<Values>("values");
    QTest::newRow("equality") << "(uid=user42)"
                              << "(uid=?1)" << Values { "user42" };
    QTest::newRow("no parentheses") << "uid=user42"
                                    << "(uid=?1)" << Values { "user42" };
    QTest::newRow("attribute case") << "(UID=User42)"
                                    << "(uid=?1)" << Values { "User42" };
    QTest::newRow("presence") << "(objectClass=*)"
                              << "(objectclass=*)" << Values {};
    QTest::newRow("and sorted") << "(&(uid=u1)(objectClass=person))"
                                << "(&(objectclass=?1)(uid=?2))" << Values { "person", "u1" };
    QTest::newRow("or sorted") << "(|(sn=b)(cn=a))"
                               << "(|(cn=?1)(sn=?2))" << Values { "a", "b" };
    QTest::newRow("not") << "(!(uid=x))"
                         << "(!(uid=?1))" << Values { "x" };
    QTest::newRow("nested") << "(&(|(mail=m)(cn=c))(!(uid=u))(objectClass=inetOrgPerson))"
                            << "(&(!(uid=?1))(objectclass=?2)(|(cn=?3)(mail=?4)))"
                            << Values { "u", "inetOrgPerson", "c", "m" };
    QTest::newRow("substring initial") << "(cn=ab*)"
                                       << "(cn=?1*)" << Values { "ab" };
    QTest::newRow("substring any final") << "(cn=*ab*cd*ef)"
                                         << "(cn=*?1*?2*?3)" << Values { "ab", "cd", "ef" };
    QTest::newRow("substring final") << "(cn=*ab)"
                                     << "(cn=*?1)" << Values { "ab" };
    QTest::newRow("greater") << "(uidNumber>=1000)"
                             << "(uidnumber>=?1)" << Values { "1000" };
    QTest::newRow("less") << "(uidNumber<=5)"
                          << "(uidnumber<=?1)" << Values { "5" };
    QTest::newRow("approx") << "(cn~=smith)"
                            << "(cn~=?1)" << Values { "smith" };
    QTest::newRow("extensible") << "(cn:dn:2.5.13.5:=John)"
                                << "(cn:dn:2.5.13.5:=?1)" << Values { "John" };
    QTest::newRow("extensible no attr") << "(:2.5.13.5:=x)"
                                        << "(:2.5.13.5:=?1)" << Values { "x" };
    QTest::newRow("escapes kept") << "(cn=a\\2ab\\29c)"
                                  << "(cn=?1)" << Values { "a\\2ab\\29c" };
    QTest::newRow("escaped star is no substring") << "(cn=\\2a)"
                                                  << "(cn=?1)" << Values { "\\2a" };
    QTest::newRow("spaces between parts") << "(& (uid=a) (cn=b) )"
                                          << "(&(cn=?1)(uid=?2))" << Values { "b", "a" };
    QTest::newRow("value with spaces") << "(cn=John Smith)"
                                       << "(cn=?1)" << Values { "John Smith" };
    QTest::newRow("empty value") << "(cn=)"
                                 << "(cn=?1)" << Values { "" };
    QTest::newRow("attribute options") << "(cn;lang-en=x)"
                                       << "(cn;lang-en=?1)" << Values { "x" };
    QTest::newRow("empty and") << "(&)"
                               << "(&)" << Values {};
    QTest::newRow("same template twice sorted by value") << "(|(uid=b)(uid=a))"
                                                         << "(|(uid=?1)(uid=?2))" << Values { "a", "b" };
    QTest::newRow("double slot digits") << "(&(a=1)(b=2)(c=3)(d=4)(e=5)(f=6)(g=7)(h=8)(i=9)(j=10))"
                                        << "(&(a=?1)(b=?2)(c=?3)(d=?4)(e=?5)(f=?6)(g=?7)(h=?8)(i=?9)(j=?10))"
                                        << Values { "1", "2", "3", "4", "5", "6", "7", "8", "9", "10" };
}

void TstFilterShape::filters()
{
    QFETCH(QString, filter);
    QFETCH(QString, text);
    QFETCH(Values, values);
    const Shape s = FilterShape::ofFilter(filter.toStdString());
    QVERIFY(s.ok);
    QCOMPARE(QString::fromStdString(s.text), text);
    QCOMPARE(s.values, values);
}

void TstFilterShape::canonicalOrderIgnoresTheLoggedOrder()
{
    const Shape a = FilterShape::ofFilter("(&(uid=u1)(|(cn=x)(sn=y))(objectClass=person))");
    const Shape b = FilterShape::ofFilter("(&(objectClass=person)(|(sn=y)(cn=x))(uid=u1))");
    QCOMPARE(a.text, b.text);
    QCOMPARE(a.values, b.values);
    // Different values, same template.
    const Shape c = FilterShape::ofFilter("(&(objectClass=person)(|(sn=q)(cn=p))(uid=u9))");
    QCOMPARE(c.text, a.text);
    QVERIFY(c.values != a.values);
}

void TstFilterShape::unparsable_data()
{
    QTest::addColumn<QString>("filter");
    QTest::newRow("empty") << "";
    QTest::newRow("unbalanced") << "(&(uid=a)";
    QTest::newRow("cut by the log") << "(&(uid=a)(cn=abc";
    QTest::newRow("no equals") << "(uid)";
    QTest::newRow("double star") << "(cn=a**b)";
    QTest::newRow("trailing") << "(uid=a)x";
    QTest::newRow("bad attribute") << "(u id=a)";
    QTest::newRow("too deep") << QString("(!").repeated(100) + "(a=b)" + QString(")").repeated(100);
    QTest::newRow("garbage") << "\x01\x02)(";
}

void TstFilterShape::unparsable()
{
    QFETCH(QString, filter);
    const Shape s = FilterShape::ofFilter(filter.toStdString());
    QVERIFY(!s.ok);
    QCOMPARE(s.text, std::string("?1"));
    QCOMPARE(s.values, Values { filter.toStdString() });
}

void TstFilterShape::dns_data()
{
    QTest::addColumn<QString>("dn");
    QTest::addColumn<QString>("text");
    QTest::addColumn<Values>("values");
    QTest::newRow("user") << "uid=user42,ou=People,dc=example,dc=com"
                          << "uid=?1,ou=People,dc=example,dc=com" << Values { "user42" };
    QTest::newRow("types lower-cased, spaces dropped") << "UID=user42, OU=People ,DC=example"
                                                       << "uid=?1,ou=People,dc=example" << Values { "user42" };
    QTest::newRow("multi-valued rdn") << "cn=John+sn=Smith,dc=x"
                                      << "cn=?1+sn=?2,dc=x" << Values { "John", "Smith" };
    QTest::newRow("escaped comma") << "cn=Smith\\, John,ou=p,dc=x"
                                   << "cn=?1,ou=p,dc=x" << Values { "Smith\\, John" };
    QTest::newRow("one rdn") << "dc=com"
                             << "dc=?1" << Values { "com" };
    QTest::newRow("empty (anonymous)") << ""
                                       << "" << Values {};
}

void TstFilterShape::dns()
{
    QFETCH(QString, dn);
    QFETCH(QString, text);
    QFETCH(Values, values);
    const Shape s = FilterShape::ofDn(dn.toStdString());
    QVERIFY(s.ok);
    QCOMPARE(QString::fromStdString(s.text), text);
    QCOMPARE(s.values, values);
    QVERIFY(!FilterShape::ofDn("not a dn").ok);
}

void TstFilterShape::fillPutsValuesBack()
{
    const std::string f = "(&(objectClass=person)(|(cn=a*b)(mail=m\\2a))(uid=u1))";
    const Shape s = FilterShape::ofFilter(f);
    const std::string back = FilterShape::fill(s.text, s.values);
    QCOMPARE(back, std::string("(&(objectclass=person)(uid=u1)(|(cn=a*b)(mail=m\\2a)))"));
    // The filled filter has the same shape and values again.
    const Shape again = FilterShape::ofFilter(back);
    QCOMPARE(again.text, s.text);
    QCOMPARE(again.values, s.values);
    const Shape d = FilterShape::ofDn("uid=u7,ou=people,dc=x");
    QCOMPARE(FilterShape::fill(d.text, d.values), std::string("uid=u7,ou=people,dc=x"));
}

QTEST_GUILESS_MAIN(TstFilterShape)
#include "tst_filtershape.moc"
