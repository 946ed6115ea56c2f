#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadresult.h"

#include <QList>
#include <QString>

#include <optional>

// The exact merge of several agents' loads, by interval index: counts summed, histograms merged bucket-wise,
// percentiles read from the merged histogram (never averaged). The live coordinator and `dirbench-cli merge`
// use these same functions, so the two agree.
namespace Agents {

// Agent i of `parts` gets floor(total / parts), plus one of the remainder for the first ones.
QList<int> splitEvenly(int total, int parts);
// The same for a rate: whole shares when the total is whole, else equal fractions. 0 stays 0 (closed loop).
QList<double> splitRate(double total, int parts);

// One interval index of several agents (each with its latency_histogram_ns). `keepHistograms` keeps the merged
// histograms in the result (in `all` and in each by_operation entry).
LoadInterval mergeInterval(const QList<LoadInterval>& parts, bool keepHistograms);

// Every agent's intervals, aligned by index; an agent that delivered fewer intervals is simply not in the later
// ones (agents_reporting says how many are).
QList<LoadInterval> mergeByIndex(const QList<QList<LoadInterval>>& perAgent, bool keepHistograms);

// The whole run: the counts of every agent's every interval (so Σ intervals = summary, exactly), seconds the
// longest agent's, CPU and cleanup summed, latency from the merged histogram.
LoadSummary mergeSummary(const QList<QList<LoadInterval>>& perAgent, const QList<LoadSummary>& summaries);

// Records of agents started together by any launcher (`--start-at` and `--interval-histograms`): the same kind,
// interval and start; nullopt with *error naming the record and what differs.
std::optional<RunRecord> mergeRecords(const QList<RunRecord>& records, const QStringList& names, QString* error);

} // namespace Agents
