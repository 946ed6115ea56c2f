#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/compare.h"
#include "core/common/runrecord.h"

#include <QList>
#include <QString>

#include <optional>

// What a cloud comparison is judged on, derived once and used by the advisor page, the CLI and the report.
// The verdict is the requirement a user cares about: the disk delivers at least 80 % of its reachable ceiling (the
// least of the disk's, the VM's and the queue depth's limits). The sanity checks (not above the published maximum,
// a burst knee, ...) are warnings with their codes, never verdicts. A measured figure that is a bound ("< 50 MB/s")
// is compared as a bound: it fails a minimum it is at or below, and cannot show that it reaches one above it.
namespace CloudCatalog {

inline constexpr double kNearCeilingShare = 0.8;

// The verdict of one comparison ("" prefix for a single one, "CASE: " for a case of a table); none when the
// ceiling is not known, or when the figure is above the published maximum (the test did not measure the cloud disk:
// the warning above-published-max says so, and no verdict passes on it).
std::optional<Verdict> ceilingVerdict(const Comparison& c, const QString& prefix = {});

// True for a verdict older records carry that is a sanity check, not a requirement ("within the published
// maximum of disk and VM"): readers show it as a warning, not as a pass.
bool isSanityCheck(const Verdict& v);

// One case of a cloud-compare record (a single comparison or a case of the seed's table), read back typed.
struct CloudCase
{
    QString label;
    double measuredMbps = 0;
    bool upperBound = false;
    std::optional<double> listedMbps;
    std::optional<double> vmCapMbps;
    std::optional<double> ceilingMbps;
    QString binding; // disk | vm | queue-depth | none
    QString bindingText;
    QList<Flag> flags; // warnings, with their codes
    std::optional<Verdict> verdict; // the ceiling verdict, when the record has one for this case
    // What the case evaluated, as the record holds it (casesOf only; caseOf(Comparison) leaves these empty).
    QString test; // the measured figure's test
    QString diskLabel, tier, vm; // the disk type ("Azure Premium SSD P30"), its tier, the VM id; empty when none
    std::optional<double> sizeGib;
    QStringList notes; // the catalog's notes on the disk at this size
    QList<Source> sources; // the published pages of the disk and the VM

    bool failed() const { return verdict && !verdict->passed; }
    bool flagged() const { return !flags.isEmpty(); }
};

QList<CloudCase> casesOf(const RunRecord& rec);
// Where a cloud-compare record's measured figures came from ("disk record run.json", the seed's article); "" if
// not said.
QString measuredSourceOf(const RunRecord& rec);
// A comparison as the window holds it, before any record.
CloudCase caseOf(const Comparison& c);

// "6 cases compared: 3 below 80 % of their reachable ceiling, 4 flagged" (counts of the record's cases).
QString headline(const RunRecord& rec);
// "< 50 MB/s", "304 MB/s".
QString measuredText(const CloudCase& c);
// One case in words, failure first: "Azure P30 disk (1TB) delivers < 50 MB/s, below 80 % of its reachable ceiling
// of 200 MB/s (the disk's limit binds): at least 160 MB/s was needed." Flags follow as their own sentences.
QString caseSentence(const CloudCase& c);

} // namespace CloudCatalog
