#include "ui/report/chartgeometry.h"

#include <cmath>
#include <limits>

namespace {

ChartAxis niceAxis(double lo, double hi, bool fromZero)
{
    ChartAxis a;
    if (!std::isfinite(lo) || !std::isfinite(hi)) {
        lo = 0;
        hi = 1;
    }
    if (fromZero && lo > 0)
        lo = 0;
    if (hi <= lo) {
        const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
        lo -= fromZero && lo == 0 ? 0 : pad;
        hi += pad;
    }
    const double rough = (hi - lo) / 5;
    const double mag = std::pow(10, std::floor(std::log10(rough)));
    double step = mag;
    for (double m : { 1.0, 2.0, 5.0, 10.0 }) {
        step = m * mag;
        if (step >= rough)
            break;
    }
    a.min = std::floor(lo / step) * step;
    a.max = std::ceil(hi / step) * step;
    // A run of 30.05 s ends its axis at 30.05, not at 40: a time axis does not round a hair's overshoot up a whole
    // step (a quarter of the plot left empty). Values (fromZero) keep their round top.
    if (const double below = std::floor(hi / step) * step; !fromZero && below > a.min && hi - below <= 0.1 * step)
        a.max = hi;
    for (double t = a.min; t <= a.max + step * 1e-6; t += step)
        a.ticks << (std::fabs(t) < step * 1e-9 ? 0.0 : t);
    return a;
}

} // namespace

bool ReportChart::isEmpty() const
{
    for (const auto& s : series)
        if (!s.points.isEmpty())
            return false;
    return true;
}

ChartGeometry ChartGeometry::of(const ReportChart& chart, const QRectF& plot)
{
    double x0 = std::numeric_limits<double>::infinity(), x1 = -x0, y0 = x0, y1 = -x0;
    for (const auto& s : chart.series)
        for (const QPointF& p : s.points) {
            if (!std::isfinite(p.x()) || !std::isfinite(p.y()))
                continue;
            x0 = std::min(x0, p.x());
            x1 = std::max(x1, p.x());
            y0 = std::min(y0, p.y());
            y1 = std::max(y1, p.y());
        }
    ChartGeometry g;
    g.plot = plot;
    g.x = niceAxis(x0, x1, false);
    g.y = niceAxis(y0, y1, true);
    return g;
}

QPointF ChartGeometry::map(const QPointF& p) const
{
    return { plot.left() + x.fraction(p.x()) * plot.width(), plot.bottom() - y.fraction(p.y()) * plot.height() };
}

QString chartColor(int i)
{
    static const char16_t* const kColors[]
        = { u"#1f5fa8", u"#d0652a", u"#2e8b57", u"#8e44ad", u"#b8860b", u"#c0392b", u"#16a085", u"#555555" };
    return QString::fromUtf16(kColors[i % 8]);
}
