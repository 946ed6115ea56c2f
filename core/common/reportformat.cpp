#include "core/common/reportformat.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>

namespace ReportFormat {

namespace {

QString fixed(double value, int decimals)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions); // with group separators
    return c.toString(value, 'f', decimals);
}

QString trimmed(QString s, int keepDecimals)
{
    const qsizetype dot = s.indexOf(u'.');
    if (dot < 0)
        return s;
    qsizetype end = s.size();
    while (end > dot + 1 + keepDecimals && s.at(end - 1) == u'0')
        --end;
    if (end == dot + 1)
        --end;
    s.truncate(end);
    return s;
}

} // namespace

QString number(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    const double a = std::fabs(value);
    if (value == std::floor(value))
        return fixed(value, 0);
    if (a >= 100)
        return fixed(value, 1);
    if (a >= 1)
        return trimmed(fixed(value, 2), 0);
    // Three significant digits, at most 9 decimals.
    const int decimals = std::min(9, 2 - int(std::floor(std::log10(a))));
    return trimmed(fixed(value, decimals), 0);
}

namespace {

QString scaled(double value, double base, const std::array<const char16_t*, 6>& units)
{
    double v = value;
    size_t i = 0;
    while (std::fabs(v) >= base && i + 1 < units.size()) {
        v /= base;
        ++i;
    }
    if (i == 0)
        return QString(fixed(value, 0) + u' ' + QStringView(units[0]));
    return QString(trimmed(fixed(v, 1), 0) + u' ' + QStringView(units[i])); // "16 MiB", "83.2 GB"
}

} // namespace

QString bytes(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    return scaled(value, 1000, { u"bytes", u"kB", u"MB", u"GB", u"TB", u"PB" });
}

QString bytesBinary(double value)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    return scaled(value, 1024, { u"bytes", u"KiB", u"MiB", u"GiB", u"TiB", u"PiB" });
}

QString bytesOf(const QString& key, double value)
{
    // A size set in binary units (a 1 GiB test file) reads best in them; free space never is.
    const bool setInBinary
        = key.section(u'.', -1) == u"size_bytes" && value >= 1048576 && std::fmod(value, 1048576.0) == 0;
    return bytesExact(value, isMemoryKey(key) || setInBinary);
}

QString bytesExact(double value, bool memory)
{
    QString readable = memory ? bytesBinary(value) : bytes(value);
    if (std::fabs(value) < 1000 || !std::isfinite(value))
        return readable;
    return QString(readable + u" (" + number(value) + u" bytes)");
}

bool isBytesKey(const QString& key)
{
    const QString k = key.section(u'.', -1);
    return k == u"bytes" || k.endsWith(u"_bytes");
}

bool isMemoryKey(const QString& key)
{
    const QString k = key.section(u'.', -1);
    return k == u"ram_bytes" || k == u"memory_bytes" || k == u"mem_bytes" || k == u"block_bytes";
}

QString value(const QJsonValue& v)
{
    switch (v.type()) {
    case QJsonValue::Null:
    case QJsonValue::Undefined:
        return QStringLiteral("n/a");
    case QJsonValue::Bool:
        return v.toBool() ? QStringLiteral("yes") : QStringLiteral("no");
    case QJsonValue::Double:
        return number(v.toDouble());
    case QJsonValue::String:
        return v.toString();
    case QJsonValue::Array: {
        QStringList parts;
        const QJsonArray items = v.toArray();
        for (const auto& e : items)
            parts << value(e);
        return parts.join(QStringLiteral(", "));
    }
    case QJsonValue::Object: {
        QStringList parts;
        const QJsonObject o = v.toObject();
        for (auto it = o.begin(); it != o.end(); ++it)
            parts << QString(label(it.key()) + u": " + value(it.value()));
        return parts.join(QStringLiteral("; "));
    }
    }
    return {};
}

QString unitOf(const QString& key)
{
    const QString k = key.section(u'.', -1);
    if (k == u"t" || ((k.endsWith(u"_s") || k.endsWith(u"seconds")) && !k.endsWith(u"per_s")))
        return QStringLiteral("s");
    if (k.endsWith(u"_ms") || key.contains(u"latency_ms"))
        return QStringLiteral("ms");
    if (k.endsWith(u"_us") || key.contains(u"latency_us"))
        return QStringLiteral("µs");
    if (k.startsWith(u"mb_per_s") || k == u"mbps")
        return QStringLiteral("MB/s");
    if (k.endsWith(u"_mb"))
        return QStringLiteral("MB");
    if (k.endsWith(u"_bytes") || k == u"bytes")
        return QStringLiteral("bytes");
    if (k == u"iops")
        return QStringLiteral("IO/s");
    if (k.endsWith(u"_per_s"))
        return QString(k.left(k.size() - 6).replace(u'_', u' ') + u"/s");
    return {};
}

QString label(const QString& key)
{
    static const QList<std::pair<const char16_t*, const char16_t*>> kKnown = {
        { u"mb_per_s", u"MB/s" },
        { u"ops_per_s", u"ops/s" },
        { u"iops", u"IOPS" },
        { u"commits_per_s", u"commits/s" },
        { u"t", u"t (s)" },
        { u"p50", u"p50" },
        { u"p95", u"p95" },
        { u"p99", u"p99" },
        { u"p999", u"p99.9" },
        { u"load_cpu_us_per_op", u"load CPU (µs/op)" },
        { u"client_cpu_us_per_op", u"client CPU (µs/op)" },
        { u"cpu_us_per_op", u"CPU (µs/op)" },
    };
    for (const auto& [k, l] : kKnown)
        if (key == QStringView(k))
            return QString::fromUtf16(l);
    QString base = key;
    if (base.endsWith(u"_per_s")) {
        base.chop(6);
        return QString(base.replace(u'_', u' ') + u"/s");
    }
    QString unit;
    for (const char16_t* suffix : { u"_ms", u"_us", u"_mb", u"_bytes", u"_s" }) {
        const QStringView sv(suffix);
        if (base.endsWith(sv) && base.size() > sv.size()) {
            unit = unitOf(key);
            base.chop(sv.size());
            break;
        }
    }
    base.replace(u'_', u' ');
    return unit.isEmpty() ? base : QString(base + u" (" + unit + u')');
}

} // namespace ReportFormat
