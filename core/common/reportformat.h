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
// Byte sizes as a reader takes them in: decimal units for disks and files ("83.2 GB", GB = 10^9, as everywhere in
// DirBench), binary units for memory ("23.5 GiB"); one decimal, "0 bytes" .. "999 bytes" below a kilo.
QString bytes(double value);
QString bytesBinary(double value);
// A size in bytes for a table: the readable size with the exact figure beside it: "83.2 GB (83,171,004,416 bytes)".
// `memory` picks binary units (RAM, blocks).
QString bytesExact(double value, bool memory = false);
// True for keys that hold a byte count ("free_bytes", "ram_bytes", "bytes"); isMemoryKey for RAM and blocks.
bool isBytesKey(const QString& key);
// bytesExact with the units the key calls for (binary for RAM, blocks and a test file of whole MiB).
QString bytesOf(const QString& key, double value);
bool isMemoryKey(const QString& key);
// The unit a key implies ("t" -> "s", "*_ms" -> "ms", "*_us" -> "µs", "mb_per_s" -> "MB/s"), or "".
QString unitOf(const QString& key);

} // namespace ReportFormat
