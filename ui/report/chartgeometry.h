#pragma once

#include "ui/report/reportdocument.h"

#include <QList>
#include <QRectF>

// Axes of a report chart: ranges over every series, "nice" ticks (1, 2, 5 × 10^n), and the mapping from data to a
// plot rectangle. Shared by the PDF painter and the SVG writer so both draw the same chart.
struct ChartAxis
{
    double min = 0;
    double max = 1;
    QList<double> ticks;

    double fraction(double v) const { return max > min ? (v - min) / (max - min) : 0.5; }
};

struct ChartGeometry
{
    ChartAxis x;
    ChartAxis y;
    QRectF plot; // where the data goes, in the caller's units

    static ChartGeometry of(const ReportChart& chart, const QRectF& plot);
    QPointF map(const QPointF& p) const;
};

// The palette both writers use, as "#rrggbb".
QString chartColor(int seriesIndex);
