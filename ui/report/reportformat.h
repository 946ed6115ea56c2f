#pragma once

#include <QJsonValue>
#include <QString>

// How a report prints numbers and names. Numbers are printed in full with thousands separators (DESIGN.md:
// no "23.5k"): whole numbers without decimals, |x| >= 100 with one decimal, 1 <= |x| < 100 with up to two,
// smaller ones with three significant digits; trailing zeros after the point are dropped except the first
// decimal of |x| >= 100 ("12,345.0").
namespace ReportFormat {

QString number(double value);
// A JSON value as a cell: null -> "n/a" (the server or system does not expose it), bools yes/no, arrays joined.
QString value(const QJsonValue& value);
// "ops_per_s" -> "ops/s", "latency_ms" -> "latency (ms)", "mb_per_s" -> "MB/s": a readable name for a key.
QString label(const QString& key);
// The unit a key implies ("t" -> "s", "*_ms" -> "ms", "*_us" -> "µs", "mb_per_s" -> "MB/s"), or "".
QString unitOf(const QString& key);

} // namespace ReportFormat
