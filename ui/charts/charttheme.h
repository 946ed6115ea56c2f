#pragma once

#include <QtGlobal>

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ChartTheme {

// The QtCharts theme that matches the application's palette: dark on a dark window, light otherwise, with the
// window's font. Call it before adding series: a theme resets the colours of the series already there.
void apply(QChart* chart);
bool paletteIsDark();

} // namespace ChartTheme
