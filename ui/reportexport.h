#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QString>

class QWidget;

// The GUI's "Export report…": asks where, then writes the records as a PDF, HTML or CSV report (by the file's
// suffix) with ui/report's Report API. The History page can call the same functions with its selection.
namespace ReportExport {

// Writes `records` to `path`: .pdf, .html/.htm or .csv. False with `error` set on a bad suffix or a failed write.
bool exportTo(const QList<RunRecord>& records, const QStringList& names, const QString& path, QString* error);
// The file dialog, the write and a message box on failure. Returns the path written, or "" (cancelled/failed).
QString exportWithDialog(QWidget* parent, const QList<RunRecord>& records, const QStringList& names);

} // namespace ReportExport
