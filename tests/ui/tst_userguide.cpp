// Help → User guide (F1): the HTML the build makes from README.md and docs/*.md is complete (a page per Markdown
// file, every relative link and section anchor leading somewhere, no link left to a .md file) and F1 shows it in
// the guide's window, whose links move between the pages. When no program opens a page in a web browser, a dialog
// says so and names the file.
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/userguide.h"

#include <QAction>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QTest>
#include <QTextBrowser>

class TestUserGuide : public QObject
{
    Q_OBJECT
private slots:
    void everyDocHasItsPage();
    void everyLinkLeadsSomewhere();
    void f1ShowsTheGuide();
    void saysWhereTheFileIsWhenNoBrowserOpensIt();

private:
    static QString guideDir() { return QFileInfo(QStringLiteral(DIRBENCH_BUILD_GUIDE)).absolutePath(); }
    static QString read(const QString& path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }
};

void TestUserGuide::everyDocHasItsPage()
{
    QStringList docs = { QStringLiteral("README.md") };
    for (const QString& md : QDir(QStringLiteral(DIRBENCH_SOURCE_DIR "/docs")).entryList({ "*.md" }))
        docs << QStringLiteral("docs/") + md;
    QVERIFY(docs.size() >= 10);
    for (const QString& md : docs) {
        const QString html = read(guideDir() + u'/' + md.chopped(3) + QStringLiteral(".html"));
        QVERIFY2(!html.isEmpty(), qPrintable(md));
        // its first heading is the page's title, and the text is there (a table's cells, a code block's lines)
        QVERIFY2(html.contains(QStringLiteral("<title>DirBench")), qPrintable(md));
        const QString source = read(QStringLiteral(DIRBENCH_SOURCE_DIR "/") + md);
        static const QRegularExpression hashes(QStringLiteral("^#+ "));
        const QString firstHeading = source.section(u'\n', 0, 0).remove(hashes);
        QVERIFY2(html.contains(firstHeading.toHtmlEscaped()), qPrintable(md + u": " + firstHeading));
    }
    QVERIFY(read(guideDir() + QStringLiteral("/README.html")).contains(QStringLiteral("dirbench-cli")));
}

void TestUserGuide::everyLinkLeadsSomewhere()
{
    static const QRegularExpression href(QStringLiteral(R"re(href="([^"]+)")re"));
    int relative = 0;
    int anchors = 0;
    QStringList broken;
    QDirIterator it(guideDir(), { "*.html" }, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString page = it.next();
        const QString html = read(page);
        for (auto m = href.globalMatch(html); m.hasNext();) {
            const QString link = m.next().captured(1);
            if (link.contains(u':'))
                continue; // https, mailto: the desktop's browser
            if (link.section(u'#', 0, 0).endsWith(QStringLiteral(".md")))
                broken << page + QStringLiteral(": a link to Markdown: ") + link;
            const QString file = link.section(u'#', 0, 0);
            const QString target = file.isEmpty() ? page : QFileInfo(page).dir().filePath(file);
            ++relative;
            if (!QFileInfo::exists(target)) {
                broken << page + QStringLiteral(" → ") + link;
                continue;
            }
            const QString anchor = link.section(u'#', 1);
            if (anchor.isEmpty() || !target.endsWith(QStringLiteral(".html")))
                continue;
            ++anchors;
            if (!read(target).contains(QStringLiteral("name=\"%1\"").arg(anchor)))
                broken << page + QStringLiteral(" → ") + link + QStringLiteral(" (no such section)");
        }
    }
    qInfo("%d relative links, %d into a section", relative, anchors);
    QVERIFY(relative > 20);
    QVERIFY(anchors > 3);
    QVERIFY2(broken.isEmpty(), qPrintable(broken.join(u'\n')));
}

void TestUserGuide::f1ShowsTheGuide()
{
    QVERIFY2(!UserGuide::startPage().isEmpty(), qPrintable(UserGuide::candidates().join(u", ")));
    ProbeRunner runner;
    MainWindow window(&runner);
    window.show();
    auto* f1 = window.findChild<QAction*>(QStringLiteral("userGuideAction"));
    QVERIFY(f1);
    QCOMPARE(f1->shortcut(), QKeySequence(QKeySequence::HelpContents));
    f1->trigger();
    auto* guide = window.findChild<UserGuide*>();
    QVERIFY(guide);
    QVERIFY(guide->isVisible());
    QTextBrowser* browser = guide->browser();
    QVERIFY(browser->toPlainText().contains(QStringLiteral("dirbench-cli")));
    QCOMPARE(browser->documentTitle().left(8), QStringLiteral("DirBench"));
    // a link of the README's: the page it names, and Back to the start
    browser->setSource(browser->source().resolved(QUrl(QStringLiteral("docs/window.html")))); // as a click does
    QVERIFY(browser->source().toLocalFile().endsWith(QStringLiteral("docs/window.html")));
    QVERIFY(browser->toPlainText().contains(QStringLiteral("Text size")));
    auto* back = guide->findChild<QPushButton*>(QStringLiteral("guideBackButton"));
    QVERIFY(back->isEnabled());
    back->click();
    QVERIFY(browser->source().toLocalFile().endsWith(QStringLiteral("README.html")));
    // F1 again raises the same window
    f1->trigger();
    QCOMPARE(window.findChildren<UserGuide*>().size(), 1);
}

void TestUserGuide::saysWhereTheFileIsWhenNoBrowserOpensIt()
{
    UserGuide guide(UserGuide::startPage());
    QUrl asked;
    guide.setUrlOpener([&asked](const QUrl& url) {
        asked = url;
        return false;
    });
    QVERIFY(!guide.openInBrowser());
    QVERIFY(asked.isLocalFile());
    auto* box = guide.findChild<QMessageBox*>(QStringLiteral("userGuideMessage"));
    QVERIFY(box);
    QVERIFY2(box->text().contains(asked.toLocalFile()), qPrintable(box->text()));
    guide.setUrlOpener([](const QUrl&) { return true; });
    QVERIFY(guide.openInBrowser());
}

QTEST_MAIN(TestUserGuide)
#include "tst_userguide.moc"
