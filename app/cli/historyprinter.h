#pragma once

#include "core/common/runrecord.h"
#include "core/store/comparison.h"
#include "core/store/runstore.h"

#include <QJsonArray>

#include <cstdio>
#include <optional>

namespace Cli {

// ID or NAME: a number that is a run's id, else the newest run with that name. `why` names what was not found.
std::optional<qint64> resolveRun(const RunStore& store, const QString& idOrName, QString* why);

// metric | A | B | Δ % | better/worse, one line per metric; a value derived from an older record is marked "*" and
// explained below the table (in JSON: a_derived, b_derived).
void printDeltas(std::FILE* out, const QList<Comparison::Delta>& deltas);
QJsonArray deltasToJson(const QList<Comparison::Delta>& deltas);

void printRunList(std::FILE* out, const QList<RunStore::Summary>& runs);
QJsonArray runListToJson(const QList<RunStore::Summary>& runs);
void printRun(std::FILE* out, qint64 id, const RunStore::Summary* summary, const RunRecord& record);

} // namespace Cli
