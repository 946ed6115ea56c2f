#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

class QThread;
class QWidget;

// The GUI's "Export report…": a dialog (title, author, file, which runs go in), then the report written as a job on
// a worker thread with progress (PDF, HTML or CSV by the file's suffix, with ui/report's Report API). The History page
// calls exportWithDialog with its selection; the main window with the last run of each page.
namespace ReportExport {

struct Request
{
    QList<RunRecord> records;
    QStringList names; // one per record ("" = the kind and a number)
    QString path;
    QString title; // "" = the default title
    QString author; // "" = not said
};

// Writes the report, synchronously, on whatever thread calls it (no widget is touched). `progress` gets
// (pages painted, pages) for a PDF. False with `error` set on no runs, a bad suffix or a failed write.
bool exportTo(const Request& request, QString* error, const std::function<void(int done, int total)>& progress = {});
bool exportTo(const QList<RunRecord>& records, const QStringList& names, const QString& path, QString* error);

// One export on a thread of its own. Signals arrive on the thread the job lives in (queued); the job waits for its
// thread when destroyed. finished(ok, path or error) comes once.
class Job final : public QObject
{
    Q_OBJECT
public:
    explicit Job(Request request, QObject* parent = nullptr);
    ~Job() override;
    Q_DISABLE_COPY_MOVE(Job)

    void start();
    const Request& request() const { return m_request; }

signals:
    void progress(int done, int total);
    void finished(bool ok, const QString& pathOrError);

private:
    Request m_request;
    QThread* m_thread = nullptr;
};

// The dialog (title, author, file, a check box per run, all checked), then the export as a job with a progress
// dialog; the end is shown in the window's status bar, a failure in a message box. Returns the path the job writes,
// or "" when there is nothing to export or the dialog was cancelled.
QString exportWithDialog(QWidget* parent, const QList<RunRecord>& records, const QStringList& names);
// The job behind exportWithDialog, for a request made elsewhere: progress dialog, status bar and message as above.
Job* startWithProgress(QWidget* parent, const Request& request);

} // namespace ReportExport
