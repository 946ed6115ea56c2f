// The window does what the command line does: for each command walked here, every option its real --help lists
// has a field on the page that runs it (a widget whose property "cliOption" names the option; "a|b" for a field
// that chooses between options), or is on the short list of options for scripts only, each with its reason. A new
// option of a walked command without a field fails this test.
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/replicationpage.h"

#include <QProcess>
#include <QRegularExpression>
#include <QTest>

namespace {

// Options that belong to scripts, not to a window, and why.
const QHash<QString, QString>& scriptsOnly()
{
    static const QHash<QString, QString> reasons {
        { QStringLiteral("help"), QStringLiteral("prints the options: the window's fields are the options") },
        { QStringLiteral("help-all"), QStringLiteral("prints Qt's options too") },
        { QStringLiteral("json"), QStringLiteral("the window shows the record; History exports it as JSON") },
        { QStringLiteral("quiet"), QStringLiteral("the window prints no interval lines") },
        { QStringLiteral("no-history"), QStringLiteral("the window saves every run in the history") },
        { QStringLiteral("name"), QStringLiteral("History names a run (Rename…) once it is saved") },
        { QStringLiteral("baseline"), QStringLiteral("History compares runs (Compare)") },
        { QStringLiteral("fail-if-slower"), QStringLiteral("an exit code for scripts; History's Compare judges") },
    };
    return reasons;
}

struct Walked
{
    QStringList command;
    QString page; // its object name in the window
    QHash<QString, QString> aliases; // the command's option -> the field's (the same input named otherwise)
};

QStringList helpOptions(const QStringList& command)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), command + QStringList { QStringLiteral("--help") });
    if (!p.waitForFinished(30000))
        return {};
    static const QRegularExpression option(QStringLiteral("^\\s+(?:-\\w, )?--([a-z0-9-]+)"));
    QStringList out;
    const QStringList lines = QString::fromUtf8(p.readAllStandardOutput()).split(u'\n');
    bool inOptions = false;
    for (const QString& line : lines) {
        inOptions = inOptions || line.startsWith(QLatin1String("Options:"));
        if (const auto m = option.match(line); inOptions && m.hasMatch())
            out << m.captured(1);
    }
    return out;
}

QSet<QString> fieldOptions(const QWidget* page)
{
    QSet<QString> out;
    const QList<QWidget*> widgets = page->findChildren<QWidget*>();
    for (const QWidget* w : widgets)
        for (const QString& o : w->property("cliOption").toString().split(u'|', Qt::SkipEmptyParts))
            out << o;
    return out;
}

} // namespace

class TestOptionsWalk : public QObject
{
    Q_OBJECT
private slots:
    void everyOptionHasAFieldOrAReason_data();
    void everyOptionHasAFieldOrAReason();
};

void TestOptionsWalk::everyOptionHasAFieldOrAReason_data()
{
    QTest::addColumn<QStringList>("command");
    QTest::addColumn<QString>("page");
    QTest::addColumn<QStringList>("aliases"); // option=field pairs
    QTest::newRow("replay") << QStringList { QStringLiteral("replay") } << QStringLiteral("replayPage")
                            << QStringList();
    QTest::newRow("replication") << QStringList { QStringLiteral("replication") } << QStringLiteral("replicationPage")
                                 << QStringList { QStringLiteral("supplier=uri") };
}

void TestOptionsWalk::everyOptionHasAFieldOrAReason()
{
    QFETCH(QStringList, command);
    QFETCH(QString, page);
    QFETCH(QStringList, aliases);
    ProbeRunner runner;
    MainWindow window(&runner);
    const QWidget* pageWidget = window.findChild<QWidget*>(page);
    QVERIFY2(pageWidget, qPrintable(page));
    const QSet<QString> fields = fieldOptions(pageWidget);
    QHash<QString, QString> alias;
    for (const QString& a : std::as_const(aliases))
        alias.insert(a.section(u'=', 0, 0), a.section(u'=', 1));
    const QStringList options = helpOptions(command);
    QVERIFY2(options.size() > 10, qPrintable(options.join(u' ')));
    QStringList missing;
    for (const QString& o : options)
        if (!fields.contains(alias.value(o, o)) && !scriptsOnly().contains(o))
            missing << QStringLiteral("--") + o;
    QVERIFY2(missing.isEmpty(),
        qPrintable(QStringLiteral("%1: no field and not for scripts only: %2")
                       .arg(command.join(u' '), missing.join(QStringLiteral(", ")))));
    // Every field names an option the command has (no field claims an option the command line does not know).
    QStringList unknown;
    for (const QString& f : fields)
        if (!options.contains(f) && !alias.values().contains(f))
            unknown << f;
    QVERIFY2(unknown.isEmpty(), qPrintable(unknown.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestOptionsWalk)
#include "tst_optionswalk.moc"
