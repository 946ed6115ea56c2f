#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/compare.h"
#include "core/common/runrecord.h"

#include <QList>
#include <QString>

// The comparison as a RunRecord of kind "cloud-compare" (DESIGN.md's record contract): summary holds measured,
// listed, VM cap, ceiling and flags (one comparison) or summary.cases (the seed's table); flags are also the
// record's warnings (stable codes), sanity checks such as above-published-max among them; the verdicts are one per case
// with a known ceiling, whether it delivers 80 % of it (core/catalog/cloudverdict.h); extra.sources lists every
// figure's source.
namespace CloudCatalog {

RunRecord compareRecord(const Catalog& catalog, const QList<Comparison>& comparisons, const QJsonObject& spec,
    const QString& measuredSource);

} // namespace CloudCatalog
