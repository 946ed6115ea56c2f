#pragma once

#include <QJsonObject>
#include <QString>

// What the GUI and the reports read beside an LDAP load's typed figures (core/ldap/loadresult.h): whether its
// reads were coalesced (a wait that is in every latency figure), and a sweep point's throughput.
namespace LoadFigures {

// spec.coalesce_reads, or that of a load an experiment's spec holds (spec.load, spec.plain and spec.tls, ...).
bool coalescedReads(const QJsonObject& spec);

// A sweep or curve point's throughput: ok_per_s (successes/s), or for a point made before points had it, its
// ops_per_s (completed operations/s), with `completed` set. `present` is false when the point has neither.
struct PointRate
{
    double perS = 0;
    bool completed = false;
    bool present = false;
};
PointRate pointRate(const QJsonObject& point);

inline constexpr char16_t kDerived[] = u"derived: ops − errors";
inline constexpr char16_t kCoalesced[] = u"coalesced reads";

} // namespace LoadFigures
