#include "ui/report/svgchart.h"

#include "core/common/reportformat.h"
#include "ui/report/chartgeometry.h"

#include <cmath>

namespace SvgChart {

namespace {

QString n(double v)
{
    return QString::number(v, 'f', 1);
}

} // namespace

QString svg(const ReportChart& c, int width, int plotHeight)
{
    const double left = 70, top = 28, right = 12;
    const int legendRows = int(c.series.size() + 2) / 3;
    const double height = top + plotHeight + 44 + legendRows * 18;
    const QRectF plot(left, top, width - left - right, plotHeight);
    const ChartGeometry g = ChartGeometry::of(c, plot);
    QString s;
    s += QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
                        "font-family=\"DejaVu Sans, sans-serif\" font-size=\"11\" role=\"img\">\n")
             .arg(QString::number(width), n(height));
    s += QString(u"<title>" + c.title.toHtmlEscaped() + u"</title>\n");
    s += QString(
        u"<text x=\"0\" y=\"16\" font-weight=\"bold\" font-size=\"13\">" + c.title.toHtmlEscaped() + u"</text>\n");
    for (double t : g.y.ticks) {
        const double y = g.map({ g.x.min, t }).y();
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"#ddd\"/>"
                            "<text x=\"%4\" y=\"%5\" text-anchor=\"end\">%6</text>\n")
                 .arg(n(plot.left()), n(y), n(plot.right()), n(plot.left() - 5), n(y + 4), ReportFormat::number(t));
    }
    for (double t : g.x.ticks) {
        const double x = g.map({ t, g.y.min }).x();
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%1\" y2=\"%3\" stroke=\"#ddd\"/>"
                            "<text x=\"%1\" y=\"%4\" text-anchor=\"middle\">%5</text>\n")
                 .arg(n(x), n(plot.top()), n(plot.bottom()), n(plot.bottom() + 15), ReportFormat::number(t));
    }
    s += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"none\" stroke=\"#444\"/>\n")
             .arg(n(plot.left()), n(plot.top()), n(plot.width()), n(plot.height()));
    s += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\">%3</text>\n")
             .arg(n(plot.center().x()), n(plot.bottom() + 32), c.xLabel.toHtmlEscaped());
    s += QStringLiteral("<text transform=\"translate(12 %1) rotate(-90)\" text-anchor=\"middle\">%2</text>\n")
             .arg(n(plot.center().y()), c.yLabel.toHtmlEscaped());
    for (int i = 0; i < c.series.size(); ++i) {
        const ReportSeries& r = c.series.at(i);
        const QString color = chartColor(i);
        if (r.line && r.points.size() > 1) {
            QStringList pts;
            for (const QPointF& p : r.points)
                if (std::isfinite(p.y()))
                    pts << QString(n(g.map(p).x()) + u',' + n(g.map(p).y()));
            s += QStringLiteral("<polyline fill=\"none\" stroke=\"%1\" stroke-width=\"1.8\"%2 points=\"%3\"/>\n")
                     .arg(color, r.dashed ? QStringLiteral(" stroke-dasharray=\"6 4\"") : QString(), pts.join(u' '));
        }
        if (r.markers || r.points.size() == 1)
            for (const QPointF& p : r.points)
                if (std::isfinite(p.y()))
                    s += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"3\" fill=\"%3\"/>\n")
                             .arg(n(g.map(p).x()), n(g.map(p).y()), color);
        const double lx = left + (i % 3) * ((width - left) / 3.0);
        const int row = i / 3; // three entries per row
        const double ly = plot.bottom() + 52 + row * 18.0;
        s += QStringLiteral("<line x1=\"%1\" y1=\"%2\" x2=\"%3\" y2=\"%2\" stroke=\"%4\" stroke-width=\"3\"%5/>"
                            "<text x=\"%6\" y=\"%7\">%8</text>\n")
                 .arg(n(lx), n(ly - 4), n(lx + 16), color,
                     r.dashed ? QStringLiteral(" stroke-dasharray=\"6 4\"") : QString(), n(lx + 21), n(ly),
                     r.name.toHtmlEscaped());
    }
    s += u"</svg>\n";
    return s;
}

} // namespace SvgChart
