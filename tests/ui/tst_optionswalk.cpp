// The window does what the command line does: for each command walked here, every option its real --help lists
// has a field on the page that runs it (a widget whose property "cliOption" names the option; "a|b" for a field
// that chooses between options), or is on the short list of options for scripts only, each with its reason. A new
// option of a walked command without a field fails this test.
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/advisorevalform.h"
#include "ui/pages/curveform.h"
#include "ui/pages/diskform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/replaypage.h"
#include "ui/pages/replicationpage.h"
#include "ui/pages/sizingform.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QProcess>
#include <QRegularExpression>
#include <QSpinBox>
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
        { QStringLiteral("fail-on-verdict"),
            QStringLiteral("an exit code for scripts; the window shows each verdict") },
        { QStringLiteral("start-at"),
            QStringLiteral("for runs started together by another launcher; the window starts its agents itself") },
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
    void ldapAdvancedReachesTheSpec();
    void diskFieldsReachTheSpec();
    void sizingAdvancedReachesTheInput();
    void curveAndCloudFieldsReachTheirSpecs();
};

namespace {

template <typename W> W* optionField(const QWidget* form, const char* option)
{
    const QList<W*> all = form->findChildren<W*>();
    for (W* w : all)
        if (w->property("cliOption").toString() == QLatin1String(option))
            return w;
    return nullptr;
}

} // namespace

void TestOptionsWalk::ldapAdvancedReachesTheSpec()
{
    LdapLoadForm form;
    form.setOperation(QStringLiteral("search"));
    auto* codes = optionField<QLineEdit>(&form, "ok-codes");
    auto* sizeLimit = optionField<QSpinBox>(&form, "size-limit");
    auto* maxErrors = optionField<QSpinBox>(&form, "max-errors");
    auto* coalesce = optionField<QCheckBox>(&form, "coalesce-reads");
    auto* counters = optionField<QCheckBox>(&form, "no-server-counters");
    auto* histograms = optionField<QCheckBox>(&form, "interval-histograms");
    QVERIFY(codes && sizeLimit && maxErrors && coalesce && counters && histograms);
    codes->setText(QStringLiteral("0,32"));
    sizeLimit->setValue(5);
    maxErrors->setValue(100);
    coalesce->setChecked(true);
    counters->setChecked(false);
    histograms->setChecked(true);
    LdapLoadSpec spec;
    QVERIFY(!form.readSpec(&spec).isError());
    QCOMPARE(spec.okCodes, (QList<int> { 0, 32 }));
    QCOMPARE(spec.sizeLimit, 5);
    QCOMPARE(spec.maxErrors, 100);
    QVERIFY(spec.coalesceReads);
    QVERIFY(!spec.readServerCounters);
    QVERIFY(spec.intervalHistograms);
    // A rate makes the loop open: coalesced reads no longer apply, and say why.
    form.setNumber(QStringLiteral("rate"), 500);
    QVERIFY(!coalesce->isEnabled());
    QVERIFY2(coalesce->toolTip().contains(QStringLiteral("Closed loop")), qPrintable(coalesce->toolTip()));
    QVERIFY(!form.readSpec(&spec).isError());
    QVERIFY(!spec.coalesceReads);
    // A bind load has no search: no size limit.
    form.setOperation(QStringLiteral("bind"));
    QVERIFY(!sizeLimit->isEnabled());
    codes->setText(QStringLiteral("0,x"));
    const ProbeError e = form.readSpec(&spec);
    QCOMPARE(e.field, QStringLiteral("ok-codes"));
    form.showError(e);
    QCOMPARE(form.errorField(), QStringLiteral("ok-codes"));
    QVERIFY2(form.errorText().startsWith(QStringLiteral("Success codes")), qPrintable(form.errorText()));
}

void TestOptionsWalk::diskFieldsReachTheSpec()
{
    DiskForm form;
    form.setDirectory(QStringLiteral("/tmp"));
    auto* steady = optionField<QLineEdit>(&form, "until-steady");
    auto* duration = optionField<QLineEdit>(&form, "duration");
    auto* interval = optionField<QLineEdit>(&form, "interval");
    auto* append = optionField<QCheckBox>(&form, "commit-append");
    QVERIFY(steady && duration && interval && append);
    form.setProfile(DiskProfile::SeqWrite);
    QVERIFY(!append->isEnabled()); // the commit regime is the commit profile's
    QVERIFY(duration->isEnabled());
    steady->setText(QStringLiteral("300"));
    QVERIFY(!duration->isEnabled()); // until steady replaces the duration
    interval->setText(QStringLiteral("0.5"));
    DiskSpec spec;
    QVERIFY(!form.readSpec(&spec).isError());
    QCOMPARE(spec.untilSteadySec, 300.0);
    QCOMPARE(spec.intervalMs, 500);
    form.setProfile(DiskProfile::Commit);
    QVERIFY(append->isEnabled());
    append->setChecked(true);
    QVERIFY(!form.readSpec(&spec).isError());
    QVERIFY(spec.commitAppend);
    steady->setText(QStringLiteral("soon"));
    QCOMPARE(form.readSpec(&spec).field, QStringLiteral("until-steady"));
}

void TestOptionsWalk::sizingAdvancedReachesTheInput()
{
    SizingForm form;
    form.setServer(SizingServer::Ds389);
    auto* factor = optionField<QLineEdit>(&form, "entry-factor");
    auto* backend = optionField<QLineEdit>(&form, "backend");
    auto* growth = optionField<QLineEdit>(&form, "growth");
    QVERIFY(factor && backend && growth);
    QVERIFY(!growth->isEnabled()); // OpenLDAP's input: 389's calculator does not read it
    factor->setText(QStringLiteral("2"));
    backend->setText(QStringLiteral("example"));
    SizingInput in;
    QVERIFY(!form.readInput(&in).isError());
    QCOMPARE(in.entryFactor, 2.0);
    QCOMPARE(in.backendName, QStringLiteral("example"));
    QCOMPARE(in.originOf(QStringLiteral("entry_factor")), QStringLiteral("typed"));
    factor->setText(QStringLiteral("two"));
    QCOMPARE(form.readInput(&in).field, QStringLiteral("entry-factor"));
    form.setServer(SizingServer::OpenLdap);
    QVERIFY(growth->isEnabled());
    QVERIFY(!factor->isEnabled());
}

void TestOptionsWalk::curveAndCloudFieldsReachTheirSpecs()
{
    CurveForm curve;
    auto* entries = optionField<QLineEdit>(&curve, "entries");
    QVERIFY(entries);
    entries->setText(QStringLiteral("5,000"));
    CurveSpec spec;
    QVERIFY(!curve.readSpec(&spec).isError());
    QCOMPARE(spec.entries, qint64(5000));
    entries->setText(QStringLiteral("-1"));
    QCOMPARE(curve.readSpec(&spec).field, QStringLiteral("entries"));

    const CloudCatalog::Catalog catalog = CloudCatalog::Catalog::load();
    AdvisorEvalForm eval;
    eval.setCatalog(&catalog);
    auto* access = optionField<QComboBox>(&eval, "access");
    auto* latency = optionField<QDoubleSpinBox>(&eval, "latency-ms");
    QVERIFY(access && latency);
    access->setCurrentIndex(access->findText(QStringLiteral("read")));
    latency->setValue(2.5);
    QCOMPARE(eval.workload().access, CloudCatalog::Access::Read);
    QCOMPARE(eval.workload().latencyMs.value_or(0), 2.5);
}

void TestOptionsWalk::everyOptionHasAFieldOrAReason_data()
{
    QTest::addColumn<QStringList>("commands"); // each a command line before --help, ';' between commands
    QTest::addColumn<QStringList>("pages"); // the page that runs the command, then pages whose inputs it takes
    QTest::addColumn<QStringList>("aliases"); // option=field pairs
    const auto row = [](const char* name, const QString& commands, const char* pages, const QStringList& aliases) {
        QTest::newRow(name) << commands.split(u';') << QString::fromLatin1(pages).split(u',') << aliases;
    };
    row("replay", QStringLiteral("replay"), "replayPage", {});
    row("replication", QStringLiteral("replication"), "replicationPage", { QStringLiteral("supplier=uri") });
    // Disk under load, the curve, the experiments and the sizing of a live server take the LDAP page's connection
    // and load.
    row("disk", QStringLiteral("disk"), "diskPage,ldapPage", {});
    row("ldap", QStringLiteral("ldap search;ldap bind;ldap modify;ldap compare;ldap adddel;ldap mixed"), "ldapPage",
        {});
    row("curve", QStringLiteral("curve"), "curvePage,ldapPage", {});
    row("experiment", QStringLiteral("experiment"), "experimentsPage,ldapPage", {});
    row("sizing", QStringLiteral("sizing"), "sizingPage,ldapPage", {});
    row("cloud", QStringLiteral("cloud"), "advisorPage", {});
}

void TestOptionsWalk::everyOptionHasAFieldOrAReason()
{
    QFETCH(QStringList, commands);
    QFETCH(QStringList, pages);
    QFETCH(QStringList, aliases);
    ProbeRunner runner;
    MainWindow window(&runner);
    QSet<QString> fields; // of every page the command takes inputs from
    QSet<QString> ownFields; // of its own page
    for (const QString& page : std::as_const(pages)) {
        const QWidget* pageWidget = window.findChild<QWidget*>(page);
        QVERIFY2(pageWidget, qPrintable(page));
        fields.unite(fieldOptions(pageWidget));
        if (page == pages.constFirst())
            ownFields = fieldOptions(pageWidget);
    }
    QHash<QString, QString> alias;
    for (const QString& a : std::as_const(aliases))
        alias.insert(a.section(u'=', 0, 0), a.section(u'=', 1));
    QSet<QString> known; // the options of all the page's commands
    QStringList missing;
    for (const QString& command : std::as_const(commands)) {
        const QStringList options = helpOptions(command.split(u' '));
        QVERIFY2(options.size() > 5, qPrintable(command + u' ' + options.join(u' ')));
        for (const QString& o : options) {
            known << alias.value(o, o);
            if (!fields.contains(alias.value(o, o)) && !scriptsOnly().contains(o))
                missing << command + QStringLiteral(" --") + o;
        }
    }
    QVERIFY2(missing.isEmpty(),
        qPrintable(QStringLiteral("no field and not for scripts only: %1").arg(missing.join(QStringLiteral(", ")))));
    // Every field names an option one of the commands has (no field claims an option the command line does not
    // know).
    QStringList unknown;
    for (const QString& f : std::as_const(ownFields))
        if (!known.contains(f))
            unknown << f;
    QVERIFY2(unknown.isEmpty(), qPrintable(unknown.join(QStringLiteral(", "))));
}

QTEST_MAIN(TestOptionsWalk)
#include "tst_optionswalk.moc"
