#include "ui/charts/charttheme.h"

#include <QApplication>
#include <QPalette>
#include <QtCharts/QChart>

namespace ChartTheme {

bool paletteIsDark()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

void apply(QChart* chart)
{
    chart->setTheme(paletteIsDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundRoundness(0);
}

} // namespace ChartTheme
