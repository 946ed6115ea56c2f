#include "ui/reportexport.h"

#include "ui/mainwindow.h"
#include "ui/report/report.h"
#include "ui/reportexportdialog.h"

#include <QFileInfo>
#include <QMainWindow>
#include <QMessageBox>
#include <QPointer>
#include <QProgressDialog>
#include <QStatusBar>
#include <QThread>

namespace ReportExport {

bool exportTo(const Request& request, QString* error, const std::function<void(int done, int total)>& progress)
{
    if (request.records.isEmpty()) {
        if (error)
            *error = QObject::tr("There is no run to report yet: run a test first.");
        return false;
    }
    ReportOptions options;
    options.runNames = request.names;
    if (!request.title.trimmed().isEmpty())
        options.title = request.title.trimmed();
    options.author = request.author.trimmed();
    const QString suffix = QFileInfo(request.path).suffix().toLower();
    if (suffix == u"csv")
        return Report::writeCsv(request.records, options, request.path, error);
    if (suffix != u"pdf" && suffix != u"html" && suffix != u"htm") {
        if (error)
            *error = QObject::tr("%1: choose a file ending in .pdf, .html or .csv").arg(request.path);
        return false;
    }
    const ReportDocument doc = Report::build(request.records, options);
    if (suffix == u"pdf")
        return Report::writePdf(doc, request.path, error, progress);
    return Report::writeHtml(doc, request.path, error);
}

bool exportTo(const QList<RunRecord>& records, const QStringList& names, const QString& path, QString* error)
{
    return exportTo(Request { records, names, path, {}, {} }, error);
}

Job::Job(Request request, QObject* parent)
    : QObject(parent)
    , m_request(std::move(request))
{ }

Job::~Job()
{
    if (m_thread) {
        m_thread->wait(); // the worker reads m_request and emits on this object
        delete m_thread;
    }
}

void Job::start()
{
    if (m_thread)
        return;
    // The worker touches no widget: it builds the document and paints it into a QPdfWriter; signals emitted on
    // this object from there are queued to its receivers.
    m_thread = QThread::create([this] {
        QString error;
        const bool ok = exportTo(m_request, &error, [this](int done, int total) { emit progress(done, total); });
        emit finished(ok, ok ? m_request.path : error);
    });
    m_thread->setObjectName(QStringLiteral("report-export"));
    m_thread->start(QThread::LowPriority);
}

Job* startWithProgress(QWidget* parent, const Request& request)
{
    auto* job = new Job(request, parent);
    auto* dialog = new QProgressDialog(
        QObject::tr("Writing %1…").arg(QFileInfo(request.path).fileName()), QString(), 0, 0, parent);
    dialog->setWindowTitle(QObject::tr("Export report"));
    dialog->setObjectName(QStringLiteral("reportExportProgress"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setMinimumDuration(300);
    dialog->setWindowModality(Qt::NonModal); // the window stays usable while the job paints
    QObject::connect(job, &Job::progress, dialog, [dialog](int done, int total) {
        dialog->setMaximum(total);
        dialog->setValue(done);
        dialog->setLabelText(QObject::tr("Painting page %1 of %2…").arg(done).arg(total));
    });
    QPointer<QWidget> owner(parent);
    QObject::connect(job, &Job::finished, job, [job, dialog, owner](bool ok, const QString& pathOrError) {
        dialog->close();
        job->deleteLater();
        const QString written = QObject::tr("Report written to %1").arg(pathOrError);
        if (auto* main = owner ? qobject_cast<MainWindow*>(owner->window()) : nullptr; ok && main)
            main->showMessage(written); // the status bar is per page: the current page's message
        else if (auto* window = owner ? qobject_cast<QMainWindow*>(owner->window()) : nullptr; ok && window)
            window->statusBar()->showMessage(written);
        if (!ok && owner) {
            auto* box = new QMessageBox(
                QMessageBox::Warning, QObject::tr("Export report"), pathOrError, QMessageBox::Ok, owner);
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
    });
    job->start();
    return job;
}

QString exportWithDialog(QWidget* parent, const QList<RunRecord>& records, const QStringList& names)
{
    if (records.isEmpty()) {
        QMessageBox::information(
            parent, QObject::tr("Export report"), QObject::tr("There is no run to report yet: run a test first."));
        return {};
    }
    ReportExportDialog dialog(records, names, parent);
    if (dialog.exec() != QDialog::Accepted)
        return {};
    const Request request = dialog.request();
    startWithProgress(parent, request);
    return request.path;
}

} // namespace ReportExport
