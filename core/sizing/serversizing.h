#pragma once

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"

#include <QJsonObject>

#include <optional>

struct LdifStats;

namespace ServerSizing {

// Validates the input and runs the calculator of its server kind.
std::optional<SizingResult> compute(const SizingInput& in, ProbeError* error);

// The "sizing" RunRecord (schema dirbench.run/1): spec = the input (with each value's origin), summary = the terms
// ("total_ram_mb", and per server its parts: 389 "base_mb", "dbcache_mb", "entry_caches_mb", "import_cache_mb"),
// "recommendations" [{name, value, unit, formula, computation, inputs, source, apply, note}], "apply" {format, text,
// applied: false}, and the LDIF's statistics and the calculator's extra blocks (389: "autotune", "current").
RunRecord buildRecord(const SizingInput& in, const SizingResult& result, const LdifStats* ldif = nullptr,
    const QJsonObject& environment = {});

// The result a "sizing" record holds (the inverse of buildRecord's summary: the terms, recommendations, apply text
// and extra blocks, the record's warnings); nullopt with *error for a record of another kind or without a result.
std::optional<SizingResult> resultOf(const RunRecord& record, QString* error = nullptr);

} // namespace ServerSizing
