#pragma once

#include <QString>

#include <optional>

namespace Units {

// "64K", "1M", "2G", "4096", "1.5G": powers of 1024 (K, M, G, T; an optional trailing "iB" or "B").
// Returns nullopt for anything else, negative or zero-length input.
std::optional<qint64> parseSize(const QString& text);
// Seconds as "30", "2.5", "250ms", "1m".
std::optional<double> parseSeconds(const QString& text);

// 1 MiB, 64 KiB, 1.5 GiB.
QString formatBytes(qint64 bytes);
// Numbers in full with one decimal where it matters (DESIGN.md: no "23.5k").
QString formatNumber(double value, int decimals = 1);

} // namespace Units
