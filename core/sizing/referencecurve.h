#pragma once

#include "core/sizing/curvefit.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// The HP-UX Directory Server 8.1 tuning guide's published throughput, as a reference overlay.
//
// Table 5 (page 15): searches/s with "cachememsize 100% or max, cachesize -1, dbcachesize 100% or max" (every entry
// cached) and with "cachememsize default, cachesize 1, dbcachesize 100% or max" (the entry cache held to about one
// entry while the DB cache is warm). So the columns are the h ≈ 1 and h ≈ 0 end points of the service-time model
// (reference §0.2 and §4.1): t_hit = 1 / cached, t_miss = 1 / uncached.
//
// Figure 3 (page 11, "Performance based on percentage of database entries in the entry cache", 500k entries) is
// printed only as a chart; its points are not in the text. Its shape is drawn here as the model through the 500k
// end points under uniform access (the guide's rsearch runs drew entries uniformly): X(c) = 1/(t_miss − (t_miss −
// t_hit)·c). Normalised = X / X(c = 1), so a user's fitted curve (divided by its own 1/t_hit) overlays it.
struct PublishedRow
{
    qint64 entries = 0;
    double cachedOpsPerSec = 0; // h ≈ 1
    double uncachedOpsPerSec = 0; // h ≈ 0, DB cache warm
    double tHit() const { return 1.0 / cachedOpsPerSec; }
    double tMiss() const { return 1.0 / uncachedOpsPerSec; }
};

struct ReferencePoint
{
    double coverage = 0;
    double opsPerSec = 0;
    double normalised = 0; // opsPerSec / the fully cached rate
};

namespace ReferenceCurve {

QString source(); // the guide, page and mirror URL
const QList<PublishedRow>& table5();
const PublishedRow* row(qint64 entries); // nullptr when not in Table 5
// The service times of a row as a CurveFit (uniform access, two points, zero-width band).
CurveFit calibration(const PublishedRow& row);
// Figure 3's shape: the model through the 500k end points, `steps` + 1 points over coverage 0..1.
QList<ReferencePoint> figure3Shape(int steps = 20);
// A user's curve normalised the same way: ops / (1 / t_hit).
QList<ReferencePoint> normalise(const CurveFit& fit, int steps = 20);
QJsonObject toJson(int steps = 20);

} // namespace ReferenceCurve
