#pragma once

#include <QString>
#include <QtGlobal>

class QFont;
class QFontMetricsF;

QT_BEGIN_NAMESPACE
class QChart;
class QWidget;
QT_END_NAMESPACE

namespace ChartTheme {

// The QtCharts theme that matches the application's palette: dark on a dark window, light otherwise, with the
// window's font. Call it before adding series: a theme resets the colours of the series already there.
void apply(QChart* chart);
bool paletteIsDark();
// The chart's title, axis titles, tick labels and legend in `font` (the title a little larger and bold), as
// View → Text size sets it for the whole window: QtCharts' themes use fixed fonts of their own.
void applyFont(QChart* chart, const QFont& font);
// applyFont() with `owner`'s font now and whenever it changes (a text size, a style): call it once the axes are
// added. The chart lives in `owner` (its view's parent), so it follows it as the window's labels do.
void followFont(QChart* chart, QWidget* owner);
// `text` as HTML lines no wider than `width` (broken between words, joined by <br>, as QtCharts draws titles and
// labels); a word wider than that alone is shortened with "…". *lines: how many.
QString wrapped(const QString& text, const QFontMetricsF& fm, double width, int* lines = nullptr);

} // namespace ChartTheme
