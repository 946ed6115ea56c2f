#pragma once

#include "ui/report/reportdocument.h"

#include <QFont>
#include <QRectF>

class QPaintDevice;
class QPainter;

// Paints a report chart with QPainter as vectors (lines, paths and text; no images): title, grid, ticks, axis
// labels, series (dashed references, markers for measured points) and a legend below. `unit` is device units per
// typographic point, so lines keep their width at any resolution.
namespace ChartPainter {

// The height the chart takes for a given width (the legend may wrap).
double height(const ReportChart& chart, double width, double unit, const QFont& font, QPaintDevice* device);
void paint(QPainter& p, const QRectF& rect, const ReportChart& chart, double unit, const QFont& font);

} // namespace ChartPainter
