#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadrecordfacts.h"
#include "core/sizing/curvefit.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>

// A curve record (kind "curve", CurveRecord::finish writes its summary) read into typed values in one place: the
// CLI printer, the Curve page and the report read these fields.
namespace CurveRecord {

// One of summary.points as the record has it.
struct PointFigures
{
    QString series;
    std::optional<double> target, coverage, hitRatio, okPerS, opsPerS, errors;
    std::optional<double> cached; // cache_entries (cache sweep), else working_set (working-set sweep)

    // The rate a point is drawn at: ok/s, else (a record older than ok/s) its completed ops/s.
    LoadRecordFacts::PointRate rate() const { return LoadRecordFacts::PointRate::of(okPerS, opsPerS); }
    double ratePerS() const { return rate().perS; }
    bool rateCompleted() const { return rate().completed; }
    bool ratePresent() const { return rate().present; }
    static PointFigures fromJson(const QJsonObject& o);
};

struct Summary
{
    QString mode; // "cache-sweep", "working-set"
    QList<PointFigures> points;
    double entries = 0;
    QString access;
    std::optional<double> tHitUs, tMissUs; // the summary's (null without a fit)
    bool hasFit = false;
    QString fitMethod;
    double fitTHitUs = 0; // the fit's own t_hit_us
    QList<QPointF> fitCurve; // (coverage 0..1, ops/s) of the fitted model
    QList<QStringList> modelRows; // the report's "Model" table: {label, value}
    double bytesPerEntry = 0; // extra.bytes_per_entry (measured by a cache sweep), 0 without

    static Summary of(const RunRecord& r);
    // Some point predates ok/s and holds completed ops/s.
    bool completed() const;
    // The points as the fitter takes them (ops/s = the rate drawn).
    QList<CurvePoint> curvePoints() const;
    // The curve's answer, as the CLI, the Curve page and the report say it: fitSentence of the summary's fit.
    QString fitText() const;
};

// A cache curve's answer from its fit: "23,548 ok/s with no entry cached to 24,117 ok/s with every entry cached (the
// fit's t_miss 42.5 µs, t_hit 41.5 µs)"; "" without a fit (either time not positive). `unit` is "ops/s" for a fit
// of completed operations (a record older than ok/s).
QString fitSentence(double tHitUs, double tMissUs, const QString& unit = QStringLiteral("ok/s"));

} // namespace CurveRecord
