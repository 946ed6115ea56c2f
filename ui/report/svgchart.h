#pragma once

#include "ui/report/reportdocument.h"

#include <QString>

// A report chart as an inline <svg> element (vectors and text), the same layout as the PDF's ChartPainter.
namespace SvgChart {

QString svg(const ReportChart& chart, int width = 720, int plotHeight = 260);

} // namespace SvgChart
