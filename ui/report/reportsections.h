#pragma once

#include "ui/report/reportdocument.h"

// The kind-specific part of a run's section. Each adds blocks to `section` and cites the sources of what it prints
// in `sources` (once each). Anything not listed here goes through generic(): summary tables, tables of arrays,
// and the intervals as charts.
namespace ReportSections {

void disk(const RunRecord& r, ReportSection& section, QStringList& sources);
void ldapLoad(const RunRecord& r, ReportSection& section, QStringList& sources);
// "9,812.3 ok/s, p99 1.52 ms, 88 errors": an LDAP load's line in the overview.
QString ldapHeadline(const RunRecord& r);
// A load from many hosts: a row per agent of agents[] (share, ok, ok/s, offset, RTT, start, status, CPU).
void agentsTable(const RunRecord& r, ReportSection& section);
// The charts of LDAP load intervals (ok/s and completed ops/s, latency, per kind of operation for a mix, faults,
// cn=monitor rates); experiments' loads use them too. `coalescedReads` marks the latency charts.
void loadCharts(const QJsonArray& intervals, ReportSection& section, bool coalescedReads = false);
void curve(const RunRecord& r, ReportSection& section, QStringList& sources);
void sizing(const RunRecord& r, ReportSection& section, QStringList& sources);
// The marker probe's lag per consumer beside the write rate, a table per consumer, the verdict sentences.
void replication(const RunRecord& r, ReportSection& section, QStringList& sources);
QString replicationHeadline(const RunRecord& r);
// A replay: the load's charts, the rate against the log's schedule, the fidelity table and ReplaySummary's sentences.
void replay(const RunRecord& r, ReportSection& section, QStringList& sources);
void cloudCompare(const RunRecord& r, ReportSection& section, QStringList& sources);
void generic(const RunRecord& r, ReportSection& section, QStringList& sources);

// Charts of the numeric interval columns named in `keys`, one chart per unit; `groupBy` (a string column such as
// "test") splits the series; `oneAxis` puts every key on one chart with that axis label. Empty intervals: nothing.
void intervalCharts(const QJsonArray& intervals, const QStringList& keys, ReportSection& section, const QString& title,
    const QString& groupBy = {}, const QString& oneAxis = {});
void cite(QStringList& sources, const QString& source);

} // namespace ReportSections
