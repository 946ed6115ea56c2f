// The GUI's report export (ui/reportexport): a record made by running dirbench-cli is written as PDF, HTML and CSV
// through the same API the History page uses, and read back; MainWindow offers the action.
#include "core/run/proberunner.h"
#include "ui/mainwindow.h"
#include "ui/reportexport.h"

#include <QAction>
#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

class TstReportExport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void exportsEveryFormat();
    void refusesBadSuffixAndNoRuns();
    void mainWindowHasTheAction();

private:
    QTemporaryDir m_dir;
    RunRecord m_sizing;
};

void TstReportExport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    QProcess p;
    p.start(QStringLiteral(DIRBENCH_CLI_PATH),
        { "sizing", "--server", "openldap", "--db-size-mb", "1200", "--threads", "4", "--json", "-", "--no-history" });
    QVERIFY(p.waitForFinished(60000));
    QCOMPARE(p.exitCode(), 0);
    QString why;
    const auto rec = RunRecord::fromJsonBytes(p.readAllStandardOutput(), &why);
    QVERIFY2(rec, qPrintable(why));
    m_sizing = *rec;
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

    if (QStandardPaths::findExecutable("pdftotext").isEmpty())
        QSKIP("pdftotext is not installed");
    QProcess t;
    t.start("pdftotext", { pdf, "-" });
    QVERIFY(t.waitForFinished(30000));
    const QString text = QString::fromUtf8(t.readAllStandardOutput()).simplified();
    QVERIFY(text.contains("Run 1: Sizing (sizing)"));
    const QJsonObject first = m_sizing.summary.value("recommendations").toArray().first().toObject();
    QVERIFY2(text.contains(first.value("name").toString()), qPrintable(first.value("name").toString()));
    QVERIFY(text.contains(first.value("source").toString().simplified()));

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

void TstReportExport::mainWindowHasTheAction()
{
    ProbeRunner runner;
    MainWindow w(&runner);
    auto* action = w.findChild<QAction*>("exportReportAction");
    QVERIFY(action);
    QVERIFY(action->text().contains("Export report"));
    // Nothing ran yet: only what a page computes on its own (the Sizing page's defaults) may be there.
    QStringList names;
    const QList<RunRecord> records = w.pageRecords(&names);
    QCOMPARE(names.size(), records.size());
    for (const RunRecord& r : records)
        QCOMPARE(r.kind, QStringLiteral("sizing"));
}

QTEST_MAIN(TstReportExport)
#include "tst_reportexport.moc"
