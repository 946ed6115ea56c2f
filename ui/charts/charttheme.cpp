#include "ui/charts/charttheme.h"

#include <QApplication>
#include <QFontMetricsF>
#include <QPalette>
#include <QStringList>
#include <QtCharts/QChart>

namespace ChartTheme {

bool paletteIsDark()
{
    const QPalette p = QApplication::palette();
    return p.color(QPalette::Window).lightness() < p.color(QPalette::WindowText).lightness();
}

QString wrapped(const QString& text, const QFontMetricsF& fm, double width, int* lines)
{
    QStringList out;
    QString line;
    const QStringList words = text.split(u' ', Qt::SkipEmptyParts);
    for (const QString& word : words) {
        const QString candidate = line.isEmpty() ? word : line + u' ' + word;
        if (line.isEmpty() || fm.horizontalAdvance(candidate) <= width) {
            line = candidate;
            continue;
        }
        out << line;
        line = word;
    }
    if (!line.isEmpty() || out.isEmpty())
        out << line;
    for (QString& l : out)
        l = fm.elidedText(l, Qt::ElideRight, width).toHtmlEscaped();
    if (lines)
        *lines = int(out.size());
    return out.join(QStringLiteral("<br>"));
}

void apply(QChart* chart)
{
    chart->setTheme(paletteIsDark() ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundRoundness(0);
}

} // namespace ChartTheme
