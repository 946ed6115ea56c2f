// The GUI's report export (ui/reportexport): records made by running dirbench-cli are written as PDF, HTML and CSV
// through the same API the History page uses, and read back: the summary page holds every verdict's sentence and no
// path of this repository; the export runs as a job off the GUI thread; the dialog picks the runs, title and author;
// MainWindow offers only runs that were made.
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/pages/sizingpage.h"
#include "ui/report/report.h"
#include "ui/reportexport.h"
#include "ui/reportexportdialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>

class TstReportExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void exportsEveryFormat();
    void refusesBadSuffixAndNoRuns();
    void summaryPageReadsBack();
    void exportRunsOffTheGuiThread();
    void dialogPicksRunsTitleAndAuthor();
    void mainWindowHasTheAction();

private:
    static RunRecord cli(const QStringList& args);
    static QString pdfText(const QString& pdf);
    QTemporaryDir m_dir;
    RunRecord m_sizing;
    RunRecord m_cloud;
    RunRecord m_oldDisk;
};

RunRecord TstReportExport::cli(const QStringList& args)
{
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    if (!p.waitForFinished(60000) || p.exitCode() != 0) {
        qWarning("dirbench-cli %s: exit %d: %s", qPrintable(args.join(' ')), p.exitCode(),
            p.readAllStandardError().constData());
        return {};
    }
    QString why;
    const auto rec = RunRecord::fromJsonBytes(p.readAllStandardOutput(), &why);
    if (!rec)
        qWarning("dirbench-cli %s: %s", qPrintable(args.join(' ')), qPrintable(why));
    return rec.value_or(RunRecord());
}

namespace {
QString bare(QString s)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return s.remove(space);
}
} // namespace

QString TstReportExport::pdfText(const QString& pdf)
{
    QProcess t;
    t.start("pdftotext", { pdf, "-" });
    if (!t.waitForFinished(30000) || t.exitCode() != 0)
        return {};
    // Without the running header and footer of each page, so that text flowing over a page break reads on.
    static const QRegularExpression decoration(
        QStringLiteral("^(DirBench · \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d|Numbers printed "
                       "in full|Page \\d+ of \\d+|.* · Ana Lima)$"));
    QStringList lines;
    for (const QString& line : QString::fromUtf8(t.readAllStandardOutput()).split(u'\n'))
        if (!decoration.match(line.trimmed()).hasMatch())
            lines << line;
    return lines.join(u'\n').simplified();
}

void TstReportExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable("pdftotext").isEmpty())
        QFAIL("pdftotext is not installed: scripts/deps.sh --test installs poppler-utils");
    m_sizing = cli({ "sizing", "--server", "389ds", "--db-size-mb", "1200", "--threads", "4", "--entries", "200000",
        "--entry-cache-bytes-per-entry", "3000", "--json", "-", "--no-history" });
    QCOMPARE(m_sizing.kind, QStringLiteral("sizing"));
    m_cloud = cli({ "cloud", "compare", "--seed-example", "--json", "-", "--no-history" });
    QCOMPARE(m_cloud.kind, QStringLiteral("cloud-compare"));
    QVERIFY(!m_cloud.verdicts.isEmpty());
    // A disk record as DirBench stored it before sources were citations: verdicts that name repository paths and
    // no requirement id, byte sizes in the environment. It must print as well as a new one.
    const QByteArray old = R"json({"schema": "dirbench.run/1", "kind": "disk", "status": "ok", "failure": null,
        "started": "2026-11-20T10:00:00", "spec": {"profile": "directory", "dir": "/var/lib/ldap",
        "size_bytes": 1073741824}, "environment": {"host": "ldap1", "ram_bytes": 25276502016,
        "filesystem": {"path": "/var/lib/ldap", "type": "ext4", "free_bytes": 83171004416}},
        "intervals": [{"t": 1, "mb_per_s": 410.5, "series": "seq-write"}, {"t": 2, "mb_per_s": 398.1,
        "series": "seq-write"}], "summary": {"tests": {"seq-write": {"mb_per_s": 404.3, "seconds": 30}}},
        "verdicts": [{"requirement": "sequential write ≥ 100 MB/s, sustained (direct I/O, at least 30 s)",
        "source": "eDirectory (seed 000): sequential write ≥ 100 MB/s — NetIQ/Micro Focus KB, eDirectory 9.2 on AWS/Azure cloud disks (shared/seeds/000): \"eDirectory requires a minimum of 100 MB/s\", measured with dd bs=64k count=8k conv=fdatasync",
        "passed": true, "measured": 404.3, "threshold": 100, "unit": "MB/s"},
        {"requirement": "commit (4 KiB write + fdatasync) p99 ≤ 10 ms",
        "source": "DirBench proposal (to be validated): commit p99 ≤ 10 ms — DirBench proposal (shared/reference/disk-anchors.md §5.6), not a vendor figure",
        "passed": false, "measured": 14210, "threshold": 10000, "unit": "µs"}]})json";
    QString why;
    const auto rec = RunRecord::fromJsonBytes(old, &why);
    QVERIFY2(rec, qPrintable(why));
    m_oldDisk = *rec;
}

void TstReportExport::exportsEveryFormat()
{
    QString error;
    const QString pdf = m_dir.filePath("gui.pdf");
    QVERIFY2(ReportExport::exportTo({ m_sizing }, { "Sizing" }, pdf, &error), qPrintable(error));
    QVERIFY2(ReportExport::exportTo({ m_sizing }, { "Sizing" }, m_dir.filePath("gui.html"), &error), qPrintable(error));
    QVERIFY2(ReportExport::exportTo({ m_sizing }, { "Sizing" }, m_dir.filePath("gui.csv"), &error), qPrintable(error));
    QCOMPARE(QFile::permissions(pdf), // 0600
        QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser | QFileDevice::WriteUser);

    const QString text = pdfText(pdf);
    QVERIFY(text.contains("Run 1: Sizing (sizing)"));
    const QJsonObject first = m_sizing.summary.value("recommendations").toArray().first().toObject();
    QVERIFY2(text.contains(first.value("name").toString()), qPrintable(first.value("name").toString()));
    const QString cited = Sources::readable(first.value("source").toString()).simplified();
    QVERIFY2(text.contains(cited), qPrintable(cited));
    QVERIFY2(text.contains("“HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines”, technical white "
                           "paper, HP"),
        qPrintable(text));

    QFile html(m_dir.filePath("gui.html"));
    QVERIFY(html.open(QIODevice::ReadOnly));
    QVERIFY(html.readAll().contains("<h2>Run 1: Sizing (sizing)</h2>"));
    QFile csv(m_dir.filePath("gui.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    QVERIFY(csv.readAll().startsWith("run,kind,interval")); // a sizing run has no intervals: the header only
}

void TstReportExport::refusesBadSuffixAndNoRuns()
{
    QString error;
    QVERIFY(!ReportExport::exportTo({ m_sizing }, {}, m_dir.filePath("gui.docx"), &error));
    QVERIFY2(error.contains(".pdf") && error.contains("gui.docx"), qPrintable(error));
    QVERIFY(!QFile::exists(m_dir.filePath("gui.docx")));
    error.clear();
    QVERIFY(!ReportExport::exportTo({}, {}, m_dir.filePath("empty.pdf"), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(m_dir.filePath("empty.pdf")));
}

void TstReportExport::summaryPageReadsBack()
{
    const QList<RunRecord> records = { m_oldDisk, m_cloud, m_sizing };
    const QString pdf = m_dir.filePath("summary.pdf");
    QString error;
    QVERIFY2(ReportExport::exportTo({ records, { "Disk", "Cloud", "Sizing" }, pdf, "Disk review", "Ana Lima" }, &error),
        qPrintable(error));
    const QString text = pdfText(pdf);
    const qsizetype details = text.indexOf("Runs and verdicts");
    QVERIFY2(details > 0, qPrintable(text.left(2000)));
    const QString summary = text.left(details);
    QVERIFY2(summary.startsWith("Disk review Prepared by Ana Lima ·"), qPrintable(summary.left(200)));
    for (const char* heading : { "Summary", "What was tested", "Verdicts", "What to do next" })
        QVERIFY2(summary.contains(heading), heading);
    int verdicts = 0;
    // A cloud comparison speaks per case, as the advisor and the CLI do (core/catalog/cloudverdict.h).
    for (const CloudCatalog::CloudCase& c : CloudCatalog::casesOf(m_cloud)) {
        const QString sentence = CloudCatalog::caseSentence(c);
        QVERIFY2(bare(summary).contains(bare(sentence)), qPrintable(sentence + "\n---\n" + summary));
        ++verdicts;
    }
    QVERIFY2(bare(summary).contains(bare("✗ Cloud: Azure P30 disk (1TB) delivers < 50 MB/s")), qPrintable(summary));
    QVERIFY(!summary.contains("within the published maximum"));
    for (const RunRecord& r : { m_oldDisk, m_sizing })
        for (const Verdict& v : r.verdicts) {
            // Compared without white space: a line may wrap after the '/' of a unit ("MB/ s").
            const QString sentence = Report::verdictSentence(v);
            QVERIFY2(bare(summary).contains(bare(sentence)), qPrintable(sentence + "\n---\n" + summary));
            ++verdicts;
        }
    QVERIFY(verdicts >= 3);
    QVERIFY(bare(summary).contains(bare("Disk: Commit (4 KiB write + fdatasync) p99 ≤ 10 ms failed: measured 14,210 µs "
                                        "(14.2 ms), required at most 10,000 µs (10 ms).")));
    QVERIFY2(summary.contains("on ext4 with 83.2 GB free"), qPrintable(summary));
    QVERIFY(!summary.contains("83,171,004,416")); // the exact figure is for the environment table
    for (const char* path : { "shared/", "seeds/", "resources/" })
        QVERIFY2(!text.contains(path), qPrintable(QString(path) + " in: " + text));
    QVERIFY(!text.contains("seed 000"));
    // Old records' sources are looked up: the article by its title and publisher, with the pages it links.
    QVERIFY(text.contains("“eDirectory 9.2 on the Amazon AWS or Microsoft Azure cloud platform”, knowledge-base "
                          "article, NetIQ / Micro Focus"));
    QVERIFY(text.contains("“Amazon EBS volume types”, Amazon Web Services"));
    // The environment comes last, with the readable size beside the exact one.
    const qsizetype env = text.lastIndexOf("Environment");
    QVERIFY(env > text.lastIndexOf("Sources"));
    QVERIFY2(text.indexOf("83.2 GB (83,171,004,416 bytes)", env) > env, qPrintable(text.mid(env)));
    QVERIFY(text.indexOf("23.5 GiB (25,276,502,016 bytes)", env) > env);
}

void TstReportExport::exportRunsOffTheGuiThread()
{
    const QString pdf = m_dir.filePath("job.pdf");
    ReportExport::Job job({ { m_oldDisk, m_cloud, m_sizing }, {}, pdf, {}, {} });
    QSignalSpy progress(&job, &ReportExport::Job::progress);
    QSignalSpy finished(&job, &ReportExport::Job::finished);
    QThread* painter = nullptr;
    connect(
        &job, &ReportExport::Job::progress, this, [&](int, int) { painter = QThread::currentThread(); },
        Qt::DirectConnection);
    int beats = 0; // the GUI thread's event loop keeps turning while the job paints
    QTimer heartbeat;
    connect(&heartbeat, &QTimer::timeout, this, [&] { ++beats; });
    heartbeat.start(0);
    job.start();
    QVERIFY(finished.wait(120000));
    heartbeat.stop();
    QCOMPARE(finished.first().at(0).toBool(), true);
    QCOMPARE(finished.first().at(1).toString(), pdf);
    QVERIFY(progress.size() >= 2); // a page at a time: this report has several
    const int total = progress.last().at(1).toInt();
    QCOMPARE(progress.last().at(0).toInt(), total);
    QVERIFY(painter && painter != QThread::currentThread());
    QVERIFY(beats > 0);
    QVERIFY(pdfText(pdf).contains("What to do next"));
}

void TstReportExport::dialogPicksRunsTitleAndAuthor()
{
    ReportExportDialog dialog({ m_oldDisk, m_sizing }, { "Disk", "Sizing" });
    QCOMPARE(dialog.runList()->count(), 2);
    // Every label with a mnemonic has its field: without one, Qt shows the "&" itself ("&File:").
    for (const QLabel* label : dialog.findChildren<QLabel*>())
        if (label->text().contains(u'&'))
            QVERIFY2(label->buddy(), qPrintable(label->text()));
    dialog.titleEdit()->setText("Quarterly disk review");
    dialog.authorEdit()->setText("Ana Lima");
    dialog.pathEdit()->setText(m_dir.filePath("picked.pdf"));
    dialog.runList()->item(0)->setCheckState(Qt::Unchecked);
    const ReportExport::Request req = dialog.request();
    QCOMPARE(req.records.size(), 1);
    QCOMPARE(req.records.first().kind, QStringLiteral("sizing"));
    QCOMPARE(req.names, QStringList({ "Sizing" }));
    QCOMPARE(req.title, QStringLiteral("Quarterly disk review"));
    QCOMPARE(req.author, QStringLiteral("Ana Lima"));
    auto* exportButton = dialog.findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok);
    QVERIFY(exportButton->isEnabled());
    dialog.runList()->item(1)->setCheckState(Qt::Unchecked); // no run: nothing to export
    QVERIFY(!exportButton->isEnabled());
}

void TstReportExport::mainWindowHasTheAction()
{
    ProbeRunner runner;
    MainWindow w(&runner);
    auto* action = w.findChild<QAction*>("exportReportAction");
    QVERIFY(action);
    QVERIFY(action->text().contains("Export report"));
    // Nothing ran yet: the Sizing page's example on screen is not a run, so there is nothing to export.
    QStringList names;
    QVERIFY(w.pageRecords(&names).isEmpty());
    QVERIFY(names.isEmpty());
    // Once the user makes the sizing (Start), it is the Sizing page's run.
    w.sizingPage()->start();
    const QList<RunRecord> records = w.pageRecords(&names);
    QCOMPARE(records.size(), 1);
    QCOMPARE(records.first().kind, QStringLiteral("sizing"));
    QCOMPARE(names, QStringList({ w.sizingPage()->title() }));
}

QTEST_MAIN(TstReportExport)
#include "tst_reportexport.moc"
