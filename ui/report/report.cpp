// Report's file writers: each output is created 0600 (it may hold host names) and replaces the old file only
// when it is complete (QSaveFile).
#include "ui/report/report.h"

#include "ui/report/pdfreport.h"

#include <QSaveFile>

#include <functional>

namespace Report {

namespace {

bool save(const QString& path, const std::function<bool(QIODevice*, QString*)>& fill, QString* error)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        if (error)
            *error = QString(u"cannot create " + path + u": " + f.errorString());
        return false;
    }
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    QString why;
    if (!fill(&f, &why)) {
        f.cancelWriting();
        if (error)
            *error = QString(u"cannot write " + path + u": " + why);
        return false;
    }
    if (!f.commit()) {
        if (error)
            *error = QString(u"cannot write " + path + u": " + f.errorString());
        return false;
    }
    return true;
}

bool writeText(const QString& path, const QString& text, QString* error)
{
    const QByteArray bytes = text.toUtf8();
    return save(
        path,
        [&](QIODevice* d, QString* why) {
            if (d->write(bytes) == bytes.size())
                return true;
            *why = d->errorString();
            return false;
        },
        error);
}

} // namespace

bool writePdf(const ReportDocument& doc, const QString& path, QString* error,
    const std::function<void(int done, int total)>& progress)
{
    return save(
        path, [&](QIODevice* d, QString* why) { return PdfReport::write(doc, d, why, progress); }, error);
}

bool writeHtml(const ReportDocument& doc, const QString& path, QString* error)
{
    return writeText(path, htmlOf(doc), error);
}

bool writeCsv(const QList<RunRecord>& records, const ReportOptions& options, const QString& path, QString* error)
{
    return writeText(path, csvOf(records, options), error);
}

} // namespace Report
