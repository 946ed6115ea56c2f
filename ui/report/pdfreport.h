#pragma once

#include "ui/report/reportdocument.h"

#include <QString>

#include <functional>

class QIODevice;

// Paints a report document into a PDF with QPdfWriter: A4, text as text (DejaVu fonts, embedded by Qt as subsets),
// charts as vectors, a header (title, date) and a footer ("page N of M") on every page. Laid out twice: once to
// count the pages, once to paint. Each run starts on a new page; tables break between rows and repeat their header.
namespace PdfReport {

// `progress` (optional) gets (pages painted, pages) after each page.
bool write(const ReportDocument& doc, QIODevice* out, QString* error,
    const std::function<void(int done, int total)>& progress = {});

} // namespace PdfReport
