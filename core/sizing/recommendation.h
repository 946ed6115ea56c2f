#pragma once

#include "core/common/runrecord.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// One input a sizing number was computed from, and where that input came from.
struct SizingInputUsed
{
    QString name; // "threads", "entries", "entry_cache_bytes_per_entry", ...
    double value = 0;
    QString unit; // "MB", "bytes", "entries", ""
    QString origin; // "typed" | "ldif" | "monitor" | "default" | "derived" | "this machine"

    bool operator==(const SizingInputUsed&) const = default;
};

// A recommended (or computed) setting with its reasoning: every number carries the formula, the same formula with
// the numbers put in, the inputs and the source of the rule, and the change that would apply it. DirBench shows
// `apply`; it never runs it.
struct Recommendation
{
    QString name; // the setting or quantity: "nsslapd-dbcachesize", "total RAM", "olcDbMaxSize", ...
    double value = 0;
    QString unit; // "MB" (10^6 bytes), "bytes", "threads", "cores"
    QString formula; // symbolic: "1.2 × (base + dbcache + 2.3 × Σ entry caches + import cache)"
    QString computation; // with the numbers: "1.2 × (29 + 685 + 2.3 × 750 + 0) = 2926.8"
    QList<SizingInputUsed> inputs;
    QString source; // document, page or section, URL
    QString apply; // the change ready to apply (dsconf, LDIF, olc, _ndsdb.ini); empty when nothing to set
    QString note; // what to check, what was assumed
    // A setting's value on the server now (read from it), in `unit`; nullopt when not read or not a setting (a
    // total). Shown as current -> proposed; a proposal below it says so and why (compareWithCurrent).
    std::optional<double> current;
    bool isSetting = true; // false for computed quantities (total RAM, base RAM): no current value to compare

    // "raise", "lower", "keep" against the current value, or "" when it is not known.
    QString change() const;
    // Records the current value; a proposal below it is never silent: `whyLower` says why it is proposed anyway, or
    // (empty) the current value is kept and the note says what was needed.
    void compareWithCurrent(std::optional<double> now, const QString& whyLower = {});

    QJsonObject toJson() const;
    static Recommendation fromJson(const QJsonObject& o); // what toJson wrote (a saved record's)
    bool operator==(const Recommendation&) const = default;
};

// What a per-server calculator returns. `terms` holds the numbers of the summary ("total_ram_mb", "base_mb", ...);
// `apply` is every recommendation's change in one text ready to paste, in `applyFormat`.
struct SizingResult
{
    QString server; // "389ds" | "openldap" | "edirectory" | "ad"
    QJsonObject terms;
    QList<Recommendation> recommendations;
    QList<RunWarning> warnings;
    QString apply;
    QString applyFormat; // "dsconf+ldif" | "ldif (cn=config)" | "_ndsdb.ini" | "none"
    QJsonObject extra; // calculator-specific blocks (389: "autotune")

    const Recommendation* find(const QString& name) const;
    void addWarning(const QString& code, const QString& message);
};

namespace SizingText {

// Numbers as the formulas print them: full digits, at most `decimals` decimals (6 below 1), trailing zeros dropped.
QString num(double value, int decimals = 2);
// MB (10^6 bytes) as whole bytes for settings that take bytes.
qint64 mbToBytes(double mb);
SizingInputUsed input(const char* name, double value, const char* unit, const QString& origin);
// A value as the page, the CLI and the report show it: digits grouped, whole numbers without decimals, "2,926.8 MB".
QString withUnit(double value, const QString& unit);
// The recommendation against the server's value now, in one line: "2,000 MB → 2,926.8 MB (raise)",
// "2,000 MB (keep)", "2,926.8 MB (now: not read)"; a computed quantity (not a setting): its value.
QString proposal(const Recommendation& r);
// The current value alone: "2,000 MB", "not read", or "" for a computed quantity.
QString currentText(const Recommendation& r);

} // namespace SizingText
