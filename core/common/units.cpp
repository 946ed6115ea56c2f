#include "core/common/units.h"

#include <QLocale>
#include <QRegularExpression>

#include <cmath>

namespace Units {

std::optional<qint64> parseSize(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*([kKmMgGtT]?)(?:i?[bB])?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    bool ok = false;
    const double n = m.captured(1).toDouble(&ok);
    if (!ok)
        return std::nullopt;
    double mult = 1;
    switch (m.captured(2).toUpper().isEmpty() ? u'\0' : m.captured(2).toUpper().at(0).unicode()) {
    case u'K':
        mult = 1024.0;
        break;
    case u'M':
        mult = 1024.0 * 1024;
        break;
    case u'G':
        mult = 1024.0 * 1024 * 1024;
        break;
    case u'T':
        mult = 1024.0 * 1024 * 1024 * 1024;
        break;
    default:
        break;
    }
    const double bytes = n * mult;
    if (bytes > 9.0e18 || bytes != std::floor(bytes))
        return std::nullopt;
    return qint64(bytes);
}

std::optional<double> parseSeconds(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?\\s*$"));
    const auto m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    double v = m.captured(1).toDouble();
    const QString unit = m.captured(2);
    if (unit == u"ms")
        v /= 1000.0;
    else if (unit == u"m")
        v *= 60.0;
    else if (unit == u"h")
        v *= 3600.0;
    return v;
}

QString formatBytes(qint64 bytes)
{
    static const char* const names[] = { "B", "KiB", "MiB", "GiB", "TiB" };
    double v = double(bytes);
    int i = 0;
    while (v >= 1024.0 && i < 4) {
        v /= 1024.0;
        ++i;
    }
    const bool whole = std::fabs(v - std::round(v)) < 1e-9;
    return QString::number(v, 'f', whole ? 0 : 1) + u' ' + QLatin1String(names[i]);
}

QString formatNumber(double value, int decimals)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    return c.toString(value, 'f', decimals);
}

} // namespace Units
