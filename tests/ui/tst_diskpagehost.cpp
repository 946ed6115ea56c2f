// The Disk page's "Run on: a host" (issue 26) against a host namespace of the multi-host topology
// (tests/integration/netnstopology.h; its own sshd, reached as a1): Check names the host and offers its file
// systems as the directory; the test runs there, live on the page's chart, and its record names the host and
// carries the environment measured there; what a host test does not take is refused or off, with the reason.
#include "core/run/proberunner.h"
#include "tests/integration/netnstopology.h"
#include "ui/models/diskresultmodel.h"
#include "ui/pages/diskhostrow.h"
#include "ui/pages/diskpage.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TestDiskPageHost : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void cleanupTestCase();
    void hostFieldsAreRefusedByName();
    void checkOffersTheHostsFileSystems();
    void testRunsOnTheHost();

private:
    void pointAtA1(DiskPage* page) const;
    QTemporaryDir m_tmp;
    std::unique_ptr<Topology> m_topo;
};

void TestDiskPageHost::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-test"));
    QVERIFY(m_tmp.isValid());
    QString why;
    bool skip = false;
    m_topo = Topology::upIn(m_tmp.filePath(QStringLiteral("netns")), &why, &skip);
    if (skip)
        QSKIP(qPrintable(why));
    QVERIFY2(m_topo, qPrintable(why));
}

void TestDiskPageHost::cleanupTestCase()
{
    m_topo.reset();
}

void TestDiskPageHost::pointAtA1(DiskPage* page) const
{
    page->hostRow()->setOnHost(true);
    page->hostRow()->setHost(QStringLiteral("a1"));
    page->hostRow()->setSshOptions(QStringLiteral("-F ") + m_topo->sshConfig());
    page->hostRow()->setAgentCommand(QStringLiteral(DIRBENCH_CLI_PATH));
}

void TestDiskPageHost::hostFieldsAreRefusedByName()
{
    ProbeRunner runner;
    DiskPage page(&runner);
    page.setLdapLoadProvider([](QString*) { return std::optional<LdapLoadSpec>(); });
    auto* underLoad = page.findChild<QCheckBox*>(QStringLiteral("underLdapLoadCheck"));
    QVERIFY(underLoad->isEnabled());
    auto* hostEdit = page.findChild<QLineEdit*>(QStringLiteral("diskHostEdit"));
    QVERIFY(!hostEdit->isEnabled()); // this machine: the host's fields are off, saying why
    QVERIFY(hostEdit->toolTip().contains(QLatin1String("Run on")));
    page.hostRow()->setOnHost(true);
    QVERIFY(hostEdit->isEnabled());
    QVERIFY(!underLoad->isEnabled()); // not offered for a host: the reason is its tooltip
    QVERIFY(underLoad->toolTip().contains(QLatin1String("Not for a test on a host")));
    QVERIFY(!page.findChild<QPushButton*>(QStringLiteral("browseButton"))->isEnabled());
    page.setDirectory(QStringLiteral("/srv"));
    page.setProfile(DiskProfile::SeqWrite);
    page.start();
    QCOMPARE(page.errorField(), QStringLiteral("host"));
    QVERIFY2(page.errorText().startsWith(QLatin1String("Host: required")), qPrintable(page.errorText()));
    QVERIFY(!page.isRunning());
}

void TestDiskPageHost::checkOffersTheHostsFileSystems()
{
    ProbeRunner runner;
    DiskPage page(&runner);
    pointAtA1(&page);
    QSignalSpy checked(page.hostRow(), &DiskHostRow::checkFinished);
    page.findChild<QPushButton*>(QStringLiteral("diskCheckHostButton"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 60000);
    const QStringList mounts = checked.at(0).at(0).toStringList();
    const QString text = page.hostRow()->checkText();
    QVERIFY2(text.startsWith(QLatin1String("Reached ")), qPrintable(text));
    QVERIFY2(text.contains(QLatin1String("DirBench " DIRBENCH_VERSION)), qPrintable(text));
    // The host's file systems: the one holding this test's directory among them, and offered as the directory.
    QVERIFY2(!mounts.isEmpty(), qPrintable(text));
    auto* dirEdit = page.findChild<QLineEdit*>(QStringLiteral("dirEdit"));
    QVERIFY(dirEdit->completer());
    QCOMPARE(dirEdit->completer()->model()->rowCount(), mounts.size());

    // A host ssh cannot reach: the sentence, and nothing offered.
    page.hostRow()->setHost(QStringLiteral("root@10.231.7.1"));
    page.findChild<QPushButton*>(QStringLiteral("diskCheckHostButton"))->click();
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 2, 60000);
    QVERIFY(checked.at(1).at(0).toStringList().isEmpty());
    QVERIFY2(page.hostRow()->checkText().startsWith(QLatin1String("cannot reach root@10.231.7.1 over ssh")),
        qPrintable(page.hostRow()->checkText()));
}

void TestDiskPageHost::testRunsOnTheHost()
{
    const QString dir = m_tmp.filePath(QStringLiteral("disk"));
    QVERIFY(QDir().mkpath(dir));
    ProbeRunner runner;
    DiskPage page(&runner);
    pointAtA1(&page);
    page.setDirectory(dir);
    page.setProfile(DiskProfile::SeqWrite);
    page.setSizeText(QStringLiteral("16M"));
    page.setDurationText(QStringLiteral("2"));
    QSignalSpy finished(&page, &DiskPage::runFinished);
    page.start();
    QTRY_VERIFY2(page.currentRunId() > 0, qPrintable(page.errorText()));
    QTRY_VERIFY_WITH_TIMEOUT(page.chartPointCount() > 0 || finished.count() > 0, 60000);
    QVERIFY(finished.isEmpty()); // the chart drew a point of the host's test while it ran
    QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, 60000);
    const RunRecord rec = page.lastRecord();
    QCOMPARE(rec.status, QStringLiteral("ok"));
    QCOMPARE(rec.spec.value(QStringLiteral("host")).toString(), QStringLiteral("a1"));
    QCOMPARE(rec.environment.value(QStringLiteral("reached_over_ssh"))
                 .toObject()
                 .value(QStringLiteral("server_address"))
                 .toString(),
        QStringLiteral("10.231.7.11"));
    QVERIFY(page.resultModel()->rowCount() >= 1);
    QVERIFY(QDir(dir).isEmpty());
}

QTEST_MAIN(TestDiskPageHost)
#include "tst_diskpagehost.moc"
