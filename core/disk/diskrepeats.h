#pragma once

#include "core/disk/diskresult.h"

#include <QList>
#include <QString>

struct RunRecord;

namespace Disk {

// One test's summary over its repeats: the median of every figure, each repeat's summary in `repeats`, the spread of
// MB/s and IOPS (warning `spread` when the coefficient of variation is above 20 %) and the steady state merged.
// A single run is returned as it is.
DiskSummary mergeRepeats(const QString& part, const QList<DiskSummary>& runs, RunRecord& rec);

} // namespace Disk
