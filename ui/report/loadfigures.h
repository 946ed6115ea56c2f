#pragma once

#include "core/ldap/loadrecordfacts.h"

#include <QJsonObject>
#include <QString>

// What the GUI and the reports read beside an LDAP load's typed figures (core/ldap/loadresult.h): whether its
// reads were coalesced (a wait that is in every latency figure), and a sweep point's throughput.
namespace LoadFigures {

// spec.coalesce_reads, or that of a load an experiment's spec holds (spec.load, spec.plain and spec.tls, ...).
bool coalescedReads(const QJsonObject& spec);

// A sweep or curve point's throughput (core's one rule: ok/s, else a point's completed ops/s).
using LoadRecordFacts::PointRate;
using LoadRecordFacts::pointRate;

inline constexpr char16_t kDerived[] = u"derived: ops − errors";
inline constexpr char16_t kCoalesced[] = u"coalesced reads";

} // namespace LoadFigures
