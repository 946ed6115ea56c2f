#include "ui/charts/charttheme.h"

#include <QApplication>
#include <QEvent>
#include <QFontMetricsF>
#include <QPalette>
#include <QStringList>
#include <QWidget>
#include <QtCharts/QAbstractAxis>
#include <QtCharts/QChart>
#include <QtCharts/QLegend>

namespace {

// Re-applies the owner's font to the chart when it changes (QApplication::setFont sends every widget a FontChange).
class FontFollower final : public QObject
{
public:
    FontFollower(QChart* chart, QWidget* owner)
        : QObject(owner)
        , m_chart(chart)
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::FontChange)
            ChartTheme::applyFont(m_chart, static_cast<QWidget*>(watched)->font());
        return QObject::eventFilter(watched, event);
    }

private:
    QChart* m_chart;
};

} // namespace

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

void applyFont(QChart* chart, const QFont& font)
{
    QFont title = font;
    title.setBold(true);
    if (font.pointSizeF() > 0)
        title.setPointSizeF(font.pointSizeF() * 1.1);
    else
        title.setPixelSize(qRound(font.pixelSize() * 1.1));
    chart->setTitleFont(title);
    chart->legend()->setFont(font);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsFont(font);
        axis->setTitleFont(font);
    }
}

void followFont(QChart* chart, QWidget* owner)
{
    applyFont(chart, owner->font());
    owner->installEventFilter(new FontFollower(chart, owner));
}

} // namespace ChartTheme
