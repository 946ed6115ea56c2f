#include "ui/report/chartpainter.h"

#include "core/common/reportformat.h"
#include "ui/report/chartgeometry.h"

#include <QColor>
#include <QFontMetricsF>
#include <QPainter>
#include <QPainterPath>
#include <QPen>

#include <cmath>

namespace ChartPainter {

namespace {

constexpr double kPlotHeightPt = 150;
constexpr double kCompactPlotHeightPt = 95; // the summary page's charts

double plotHeight(const ReportChart& c)
{
    return c.compact ? kCompactPlotHeightPt : kPlotHeightPt;
}
constexpr double kSwatchPt = 14;

QFont small(const QFont& base)
{
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * 0.85);
    return f;
}

QFont bold(const QFont& base)
{
    QFont f = base;
    f.setBold(true);
    return f;
}

// Rows of legend entries that fit the width: each row a list of series indices.
QList<QList<int>> legendRows(const ReportChart& c, double width, double unit, const QFontMetricsF& fm)
{
    QList<QList<int>> rows { {} };
    double x = 0;
    for (int i = 0; i < c.series.size(); ++i) {
        const double w = kSwatchPt * unit + 4 * unit + fm.horizontalAdvance(c.series.at(i).name) + 12 * unit;
        if (x > 0 && x + w > width) {
            rows.append(QList<int>());
            x = 0;
        }
        rows.last() << i;
        x += w;
    }
    return rows;
}

} // namespace

double height(const ReportChart& chart, double width, double unit, const QFont& font, QPaintDevice* device)
{
    const QFontMetricsF fm(small(font), device);
    const QFontMetricsF title(bold(font), device);
    return title.height() * 1.4 + plotHeight(chart) * unit + fm.height() * 2.6
        + legendRows(chart, width, unit, fm).size() * fm.height() * 1.3;
}

void paint(QPainter& p, const QRectF& rect, const ReportChart& c, double unit, const QFont& font)
{
    p.save();
    const QFont sf = small(font);
    const QFontMetricsF fm(sf, p.device());
    const QFontMetricsF tfm(bold(font), p.device());
    p.setFont(bold(font));
    p.setPen(Qt::black);
    p.drawText(QRectF(rect.left(), rect.top(), rect.width(), tfm.height()), Qt::AlignLeft | Qt::AlignVCenter, c.title);

    // Plot rectangle: room on the left for the y ticks and label, below for the x ticks and label.
    p.setFont(sf);
    const double top = rect.top() + tfm.height() * 1.4;
    QRectF probe(0, 0, rect.width(), plotHeight(c) * unit);
    ChartGeometry g = ChartGeometry::of(c, probe);
    double tickW = 0;
    for (double t : g.y.ticks)
        tickW = std::max(tickW, fm.horizontalAdvance(ReportFormat::number(t)));
    const double left = rect.left() + fm.height() * 1.3 + tickW + 4 * unit;
    const QRectF plot(left, top, rect.right() - left - 6 * unit, plotHeight(c) * unit);
    g.plot = plot;

    // Grid and ticks.
    QPen grid(QColor(0xdd, 0xdd, 0xdd), 0.5 * unit);
    QPen axis(QColor(0x44, 0x44, 0x44), 0.8 * unit);
    for (double t : g.y.ticks) {
        const double y = g.map({ g.x.min, t }).y();
        p.setPen(grid);
        p.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        p.setPen(Qt::black);
        p.drawText(QRectF(plot.left() - tickW - 4 * unit, y - fm.height() / 2, tickW, fm.height()),
            Qt::AlignRight | Qt::AlignVCenter, ReportFormat::number(t));
    }
    for (double t : g.x.ticks) {
        const double x = g.map({ t, g.y.min }).x();
        p.setPen(grid);
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
        p.setPen(Qt::black);
        const QString label = ReportFormat::number(t);
        const double w = fm.horizontalAdvance(label);
        p.drawText(QRectF(x - w, plot.bottom() + 2 * unit, 2 * w, fm.height()), Qt::AlignHCenter | Qt::AlignTop, label);
    }
    p.setPen(axis);
    p.setBrush(Qt::NoBrush);
    p.drawRect(plot);
    p.setPen(Qt::black);
    p.drawText(QRectF(plot.left(), plot.bottom() + 2 * unit + fm.height(), plot.width(), fm.height() * 1.2),
        Qt::AlignHCenter | Qt::AlignVCenter, c.xLabel);
    p.save();
    p.translate(rect.left(), plot.center().y());
    p.rotate(-90);
    p.drawText(QRectF(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignCenter, c.yLabel);
    p.restore();

    // Series, clipped to the plot.
    p.save();
    p.setClipRect(plot.adjusted(-2 * unit, -2 * unit, 2 * unit, 2 * unit));
    p.setRenderHint(QPainter::Antialiasing);
    for (int i = 0; i < c.series.size(); ++i) {
        const ReportSeries& s = c.series.at(i);
        QPen pen(QColor(chartColor(i)), 1.4 * unit);
        if (s.dashed)
            pen.setStyle(Qt::DashLine);
        p.setPen(pen);
        p.setBrush(Qt::NoBrush);
        if (s.line && s.points.size() > 1) {
            QPainterPath path;
            bool started = false;
            for (const QPointF& pt : s.points) {
                if (!std::isfinite(pt.x()) || !std::isfinite(pt.y())) {
                    started = false;
                    continue;
                }
                started ? path.lineTo(g.map(pt)) : path.moveTo(g.map(pt));
                started = true;
            }
            p.drawPath(path);
        }
        if (s.markers || s.points.size() == 1) {
            p.setBrush(QColor(chartColor(i)));
            p.setPen(Qt::NoPen);
            for (const QPointF& pt : s.points)
                if (std::isfinite(pt.y()))
                    p.drawEllipse(g.map(pt), 2.2 * unit, 2.2 * unit);
        }
    }
    p.restore();

    // Legend.
    double y = plot.bottom() + fm.height() * 2.6;
    for (const QList<int>& row : legendRows(c, rect.width(), unit, fm)) {
        double x = plot.left();
        for (int i : row) {
            QPen pen(QColor(chartColor(i)), 2 * unit);
            if (c.series.at(i).dashed)
                pen.setStyle(Qt::DashLine);
            p.setPen(pen);
            p.drawLine(QPointF(x, y + fm.height() / 2), QPointF(x + kSwatchPt * unit, y + fm.height() / 2));
            x += kSwatchPt * unit + 4 * unit;
            p.setPen(Qt::black);
            const double w = fm.horizontalAdvance(c.series.at(i).name);
            p.drawText(QRectF(x, y, w + 2 * unit, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, c.series.at(i).name);
            x += w + 12 * unit;
        }
        y += fm.height() * 1.3;
    }
    p.restore();
}

} // namespace ChartPainter
