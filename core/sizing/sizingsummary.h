#pragma once

#include "core/common/runrecord.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <QJsonObject>
#include <QString>

#include <optional>

// A sizing record typed beyond the calculator's result (ServerSizing::resultOf): the 389 autotune comparison, the
// note on the change to apply, the LDIF statistics. Read here only; the CLI printer, the Sizing page and the report
// take these fields and the sentences below.

// What 389's own autotune would give on a host with the RAM typed (the 389 calculator's "autotune" block).
struct SizingAutotune
{
    double ramMb = 0;
    QString ramOrigin; // where the RAM figure came from: typed, this machine, ...
    double dbcacheMb = 0, entryCacheTotalMb = 0;
    int threadsRhds12 = 0, threadsRhds11 = 0, threadsGuide = 0; // 0 without a CPU count
    double neededMb = 0; // the entry cache the sizing needs
    double coverage = 0, guideRelativeThroughput = 0; // shares, 0..1

    // None when the calculator did not compare (not 389, or no RAM figure).
    static std::optional<SizingAutotune> of(const SizingResult& result);
    // The CLI's two lines: "389 autotune on 8,000 MB RAM (typed): dbcache … MB, …\n  need … MB of entry cache: …\n".
    QString text() const;
};

struct SizingSummary
{
    SizingResult result; // empty for a record without recommendations
    QString applyNote; // that DirBench never applies the change
    QJsonObject ldif; // the LDIF statistics (LdifStats::toJson), shown as a table; empty without an LDIF

    static SizingSummary of(const RunRecord& record);
    // The terms of the formula and the calculator's blocks other than the autotune's, as the report lists them.
    QJsonObject termsShown() const;
    // The autotune block as written, shown as a table; empty when there is none.
    QJsonObject autotuneBlock() const;
    // The total RAM the formula computed, in MB; none for a server kind without one.
    static std::optional<double> totalRamMb(const SizingResult& result);
    // The server kind a sizing spec (SizingInput::toJson) names; none for an unknown name.
    static std::optional<SizingServer> serverOfSpec(const QJsonObject& spec);
};
