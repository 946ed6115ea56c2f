#pragma once

#include "core/common/runrecord.h"

#include <QString>

// A verdict in words, written once for every front end: the CLI's printers, the window and the report say the same
// thing about the same verdict. Numbers as core/common/reportformat.h writes them (in full, grouped).
namespace VerdictText {

// "FAIL  sequential write ≥ 100 MB/s: measured 93 MB/s, threshold 100 MB/s (source: “…”, …) - note": one line.
QString line(const Verdict& v);
// "Sequential write ≥ 100 MB/s failed: measured 93 MB/s, required at least 100 MB/s. Note." A bound is "< 50".
QString sentence(const Verdict& v);
// "1,204 µs (1.2 ms)": a figure with its unit; latencies of a millisecond or more also in ms.
QString quantity(double value, const QString& unit);
// Whether the requirement is a floor ("at least"): from the label's sign, else from how the verdict came out.
bool isMinimum(const Verdict& v);
// The first letter upper-case, unless the first word is a name such as "t2.micro" or "iSCSI".
QString capitalised(QString s);
// Labels written for DirBench's own readers name "the seed" (the article DirBench started from); a reader knows it
// as the eDirectory article.
QString plain(QString s);

} // namespace VerdictText
