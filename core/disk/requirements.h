#pragma once

#include "core/common/runrecord.h"
#include "core/disk/diskresult.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <limits>

// Requirement profiles are data (resources/profiles/disk-requirements.json): each names its source, and a run is
// judged against every requirement whose test it contains.
struct DiskRequirement
{
    QString id;
    QString test; // "dd", "seq-write", "rand-read qd1", "commit", ...
    QString metric; // dotted path into the test's summary: "mb_per_s", "latency_us.p99"
    double min = std::numeric_limits<double>::quiet_NaN();
    double max = std::numeric_limits<double>::quiet_NaN();
    double minSeconds = 0;
    QString unit;
    QString label;
    QString role; // "burst" | "sustained" | ""
};

struct RequirementProfile
{
    QString id;
    QString name;
    QString source;
    QList<DiskRequirement> requirements;
};

namespace Requirements {

QList<RequirementProfile> load(QString* error = nullptr, const QString& path = {});

// summary: a single test's (named by `test`) or a suite's (its parts in `tests`). Warnings (e.g. a sustained
// requirement on a test that ran too briefly) are added to `record`; verdicts are returned.
QList<Verdict> evaluate(const QList<RequirementProfile>& profiles, const DiskSummary& summary, RunRecord& record,
    const QString& onlyProfileId = {});

} // namespace Requirements
