#include "ui/reportexport.h"

#include "ui/report/report.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QObject>

namespace ReportExport {

bool exportTo(const QList<RunRecord>& records, const QStringList& names, const QString& path, QString* error)
{
    if (records.isEmpty()) {
        if (error)
            *error = QObject::tr("There is no run to report yet: run a test first.");
        return false;
    }
    ReportOptions options;
    options.runNames = names;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == u"csv")
        return Report::writeCsv(records, options, path, error);
    const ReportDocument doc = Report::build(records, options);
    if (suffix == u"pdf")
        return Report::writePdf(doc, path, error);
    if (suffix == u"html" || suffix == u"htm")
        return Report::writeHtml(doc, path, error);
    if (error)
        *error = QObject::tr("%1: choose a file ending in .pdf, .html or .csv").arg(path);
    return false;
}

QString exportWithDialog(QWidget* parent, const QList<RunRecord>& records, const QStringList& names)
{
    if (records.isEmpty()) {
        QMessageBox::information(
            parent, QObject::tr("Export report"), QObject::tr("There is no run to report yet: run a test first."));
        return {};
    }
    QString filter = QObject::tr("PDF report (*.pdf)");
    const QString path = QFileDialog::getSaveFileName(parent, QObject::tr("Export report"),
        QDir::home().filePath(QStringLiteral("dirbench-report.pdf")),
        QObject::tr("PDF report (*.pdf);;HTML report (*.html);;Intervals as CSV (*.csv)"), &filter);
    if (path.isEmpty())
        return {};
    QString error;
    if (!exportTo(records, names, path, &error)) {
        QMessageBox::warning(parent, QObject::tr("Export report"), error);
        return {};
    }
    return path;
}

} // namespace ReportExport
