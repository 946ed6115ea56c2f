#pragma once

#include <QString>
#include <QtGlobal>

class QFontMetricsF;

QT_BEGIN_NAMESPACE
class QChart;
QT_END_NAMESPACE

namespace ChartTheme {

// The QtCharts theme that matches the application's palette: dark on a dark window, light otherwise, with the
// window's font. Call it before adding series: a theme resets the colours of the series already there.
void apply(QChart* chart);
bool paletteIsDark();
// `text` as HTML lines no wider than `width` (broken between words, joined by <br>, as QtCharts draws titles and
// labels); a word wider than that alone is shortened with "…". *lines: how many.
QString wrapped(const QString& text, const QFontMetricsF& fm, double width, int* lines = nullptr);

} // namespace ChartTheme
