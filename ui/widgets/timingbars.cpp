#include "ui/widgets/timingbars.h"

#include "core/common/units.h"

#include <QFontMetrics>
#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace {

constexpr int kRowHeight = 22;
constexpr int kGap = 8;

} // namespace

TimingBars::TimingBars(QWidget* parent)
    : QWidget(parent)
{
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TimingBars::setBars(const QList<Bar>& bars)
{
    m_bars = bars;
    updateGeometry();
    update();
}

QSize TimingBars::sizeHint() const
{
    return { 360, std::max(1, int(m_bars.size())) * kRowHeight + 4 };
}

QSize TimingBars::minimumSizeHint() const
{
    return { 220, sizeHint().height() };
}

void TimingBars::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QFontMetrics fm = fontMetrics();
    int labelWidth = 0;
    double maxMs = 0;
    for (const Bar& b : std::as_const(m_bars)) {
        labelWidth = std::max(labelWidth, fm.horizontalAdvance(b.label));
        if (std::isfinite(b.ms))
            maxMs = std::max(maxMs, b.ms);
    }
    const QString widest = Units::formatNumber(maxMs, 2) + QStringLiteral(" ms");
    const int valueWidth = std::max(fm.horizontalAdvance(widest), fm.horizontalAdvance(tr("not measured")));
    const int barLeft = labelWidth + kGap;
    const int barSpan = std::max(20, width() - barLeft - valueWidth - 2 * kGap);
    int y = 2;
    for (const Bar& b : std::as_const(m_bars)) {
        const QRect row(0, y, width(), kRowHeight - 4);
        p.setPen(palette().color(QPalette::WindowText));
        p.drawText(QRect(0, row.y(), labelWidth, row.height()), Qt::AlignRight | Qt::AlignVCenter, b.label);
        QString value;
        int barWidth = 0;
        if (std::isfinite(b.ms)) {
            barWidth = maxMs > 0 ? std::max(2, int(std::lround(b.ms / maxMs * barSpan))) : 2;
            p.setPen(Qt::NoPen);
            p.setBrush(QColor(0x1f, 0x77, 0xb4));
            p.drawRoundedRect(QRectF(barLeft, row.y() + 2, barWidth, row.height() - 4), 2, 2);
            value = Units::formatNumber(b.ms, b.ms < 10 ? 2 : 1) + QStringLiteral(" ms");
            p.setPen(palette().color(QPalette::WindowText));
        } else {
            value = tr("not measured");
            p.setPen(QColor(0x77, 0x77, 0x77));
        }
        p.drawText(QRect(barLeft + barWidth + kGap, row.y(), valueWidth + kGap, row.height()),
            Qt::AlignLeft | Qt::AlignVCenter, value);
        y += kRowHeight;
    }
}
