#include "core/sizing/curvefit.h"
#include "core/sizing/referencecurve.h"

#include <QJsonArray>
#include <QTest>

#include <cmath>

Q_DECLARE_METATYPE(CurvePoint)

using Dist = AccessDistribution;

namespace {

double rel(double got, double want)
{
    return std::abs(got - want) / std::abs(want);
}

// Points on X(c) = 1/(t_miss − (t_miss − t_hit)·h(c; dist)) with a deterministic ±noise pattern.
QList<CurvePoint> synthetic(const Dist& dist, quint64 n, double tHit, double tMiss, double noise, bool withHit)
{
    // c = 0 is the guide's "cachesize 1" column: it pins t_miss, which skewed points alone leave to extrapolation
    const double cs[] = { 0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.7, 0.85, 1.0 };
    const double pattern[] = { -0.4, 1, -1, 0.5, -0.5, 0.8, -0.3, -0.9, 0.2, 0.6, -0.7, 0.1 };
    QList<CurvePoint> pts;
    int i = 0;
    for (double c : cs) {
        const double h = CacheModel::hitRatio(dist, n, c);
        CurvePoint p;
        p.coverage = c;
        p.opsPerSec = CacheModel::throughput(h, tHit, tMiss) * (1 + noise * pattern[i++]);
        if (withHit)
            p.hitRatio = h;
        pts << p;
    }
    return pts;
}

} // namespace

class TstCacheModelFit : public QObject
{
    Q_OBJECT
private slots:
    // Two points per Table 5 row (c = 0 and c = 1, uniform): the fit is exact and gives 1/X at each end.
    void table5EndPoints_data()
    {
        QTest::addColumn<qint64>("entries");
        for (const auto& r : ReferenceCurve::table5())
            QTest::newRow(qPrintable(QString::number(r.entries))) << r.entries;
    }

    void table5EndPoints()
    {
        QFETCH(qint64, entries);
        const auto* row = ReferenceCurve::row(entries);
        CurveFitOptions o;
        o.entries = quint64(entries);
        o.access = Dist::uniform();
        ProbeError err;
        const auto f
            = CurveFitter::fit({ { 0.0, row->uncachedOpsPerSec, {} }, { 1.0, row->cachedOpsPerSec, {} } }, o, &err);
        QVERIFY2(f, qPrintable(err.message()));
        QVERIFY(rel(f->tHit, row->tHit()) < 1e-12);
        QVERIFY(rel(f->tMiss, row->tMiss()) < 1e-12);
        QCOMPARE(f->residualStdErr, 0.0); // two points: nothing left to estimate the noise from
        if (entries == 500000) {
            QVERIFY(std::abs(f->tHit * 1e6 - 54.09) < 0.005);
            QVERIFY(std::abs(f->tMiss * 1e6 - 90.51) < 0.005);
            QVERIFY(std::abs(f->opsAt(0.5) - 13831) <= 1);
        }
    }

    // The fit recovers known parameters within 2 %.
    void recoversKnownParameters_data()
    {
        QTest::addColumn<double>("alpha");
        QTest::addColumn<double>("tHitUs");
        QTest::addColumn<double>("tMissUs");
        QTest::addColumn<double>("noise");
        QTest::addColumn<int>("mode"); // 0 joint (no hit ratios), 1 measured hit ratios, 2 given distribution
        QTest::newRow("joint, zipf 0.9, exact") << 0.9 << 50.0 << 100.0 << 0.0 << 0;
        QTest::newRow("joint, zipf 0.9, noise 0.5 %") << 0.9 << 50.0 << 100.0 << 0.005 << 0;
        QTest::newRow("joint, zipf 1.1, guide times, noise 0.5 %") << 1.1 << 54.09 << 90.51 << 0.005 << 0;
        QTest::newRow("joint, zipf 0.6, noise 0.3 %") << 0.6 << 30.0 << 120.0 << 0.003 << 0;
        QTest::newRow("measured h, zipf 0.8, noise 1 %") << 0.8 << 50.0 << 100.0 << 0.01 << 1;
        QTest::newRow("given zipf 1.0, noise 1 %") << 1.0 << 40.0 << 95.0 << 0.01 << 2;
    }

    void recoversKnownParameters()
    {
        QFETCH(double, alpha);
        QFETCH(double, tHitUs);
        QFETCH(double, tMissUs);
        QFETCH(double, noise);
        QFETCH(int, mode);
        const quint64 n = 100000;
        const Dist truth = Dist::zipf(alpha);
        const auto pts = synthetic(truth, n, tHitUs * 1e-6, tMissUs * 1e-6, noise, mode == 1);
        CurveFitOptions o;
        o.entries = n;
        if (mode == 2)
            o.access = truth;
        ProbeError err;
        const auto f = CurveFitter::fit(pts, o, &err);
        QVERIFY2(f, qPrintable(err.message()));
        qInfo("%s: t_hit %.3f us, t_miss %.3f us, S %s, rms residual %.4f %%", qPrintable(f->method), f->tHit * 1e6,
            f->tMiss * 1e6, f->fittedExponent ? qPrintable(QString::number(*f->fittedExponent, 'f', 4)) : "-",
            f->rmsRelativeResidual() * 100);
        QVERIFY2(rel(f->tHit * 1e6, tHitUs) < 0.02, qPrintable(QString::number(f->tHit * 1e6)));
        QVERIFY2(rel(f->tMiss * 1e6, tMissUs) < 0.02, qPrintable(QString::number(f->tMiss * 1e6)));
        if (mode != 2) {
            QVERIFY(f->fittedExponent);
            QVERIFY2(rel(*f->fittedExponent, alpha) < 0.02, qPrintable(QString::number(*f->fittedExponent)));
        }
        QCOMPARE(f->residuals.size(), pts.size());
        if (noise == 0) {
            QVERIFY(f->rmsRelativeResidual() < 1e-4);
        } else {
            QVERIFY(f->rmsRelativeResidual() > noise / 10);
            QVERIFY(f->residualStdErr > 0);
            // the band is not empty and holds the fitted curve
            const auto b = f->bandAt(0.3);
            QVERIFY(b.low < f->opsAt(0.3) && f->opsAt(0.3) < b.high);
        }
    }

    void wrongSkewFitsWorse()
    {
        // Forcing uniform on Zipf data leaves larger residuals than the joint fit.
        const quint64 n = 100000;
        const auto pts = synthetic(Dist::zipf(1.0), n, 50e-6, 100e-6, 0.0, false);
        CurveFitOptions joint;
        joint.entries = n;
        CurveFitOptions uniform = joint;
        uniform.access = Dist::uniform();
        const auto a = CurveFitter::fit(pts, joint, nullptr);
        const auto b = CurveFitter::fit(pts, uniform, nullptr);
        QVERIFY(a && b);
        QVERIFY(b->rmsRelativeResidual() > 10 * a->rmsRelativeResidual());
    }

    void predictions()
    {
        const quint64 n = 500000;
        const auto* row = ReferenceCurve::row(500000);
        const CurveFit f = ReferenceCurve::calibration(*row);
        const double bpe = 3000; // bytes per cached entry
        // ops/s for a given entry cache: half the entries cached -> 13,831
        QVERIFY(std::abs(f.opsForCacheBytes(0.5 * n * bpe, bpe) - 13831) <= 1);
        QVERIFY(std::abs(f.opsForCacheBytes(10.0 * n * bpe, bpe) - row->cachedOpsPerSec) < 1e-6);
        // RAM for a target: the inverse
        QString why;
        const auto bytes = f.cacheBytesFor(13831.0, bpe, &why);
        QVERIFY2(bytes, qPrintable(why));
        QVERIFY2(std::abs(*bytes / (n * bpe) - 0.5) < 0.001, qPrintable(why));
        QVERIFY(std::abs(f.opsForCacheBytes(*bytes, bpe) - 13831.0) < 0.5);
        // out of reach, and reached with no cache
        QVERIFY(!f.cacheBytesFor(row->cachedOpsPerSec * 1.01, bpe, &why));
        QVERIFY(why.contains(QStringLiteral("out of reach")));
        const auto none = f.cacheBytesFor(row->uncachedOpsPerSec * 0.9, bpe, &why);
        QVERIFY(none && *none == 0.0);
        // with skew the same target needs far less
        CurveFit skewed = f;
        skewed.access = Dist::zipf(1.0);
        const auto less = skewed.cacheBytesFor(13831.0, bpe);
        QVERIFY(less && *less < 0.05 * *bytes);
    }

    void referenceOverlay()
    {
        const auto shape = ReferenceCurve::figure3Shape(20);
        QCOMPARE(shape.size(), 21);
        QVERIFY(std::abs(shape.first().normalised - 11048.27 / 18487.29) < 1e-12);
        QVERIFY(std::abs(shape.last().normalised - 1.0) < 1e-12);
        QVERIFY(std::abs(shape.at(10).opsPerSec - 13831) <= 1);
        for (int i = 1; i < shape.size(); ++i)
            QVERIFY(shape.at(i).normalised > shape.at(i - 1).normalised);
        // a user's curve normalised the same way ends at 1
        const auto pts = synthetic(Dist::zipf(0.9), 100000, 50e-6, 100e-6, 0.0, false);
        CurveFitOptions o;
        o.entries = 100000;
        const auto f = CurveFitter::fit(pts, o, nullptr);
        QVERIFY(f);
        const auto mine = ReferenceCurve::normalise(*f);
        QVERIFY(std::abs(mine.last().normalised - 1.0) < 1e-9);
        QVERIFY(mine.at(1).normalised > shape.at(1).normalised); // skew: a small cache already does most
        const QJsonObject j = ReferenceCurve::toJson();
        QCOMPARE(j.value(QStringLiteral("table5")).toArray().size(), 6);
        QVERIFY(j.value(QStringLiteral("source")).toString().contains(QStringLiteral("page")));
        const QJsonObject fj = f->toJson(10);
        QCOMPARE(fj.value(QStringLiteral("curve")).toArray().size(), 11);
        QCOMPARE(fj.value(QStringLiteral("residuals")).toArray().size(), pts.size());
    }

    void badInput_data()
    {
        QTest::addColumn<QList<CurvePoint>>("points");
        QTest::addColumn<quint64>("entries");
        QTest::addColumn<QString>("field");
        QTest::newRow("one point") << QList<CurvePoint> { { 0.5, 1000, {} } } << quint64(100) << "points";
        QTest::newRow("no entries") << QList<CurvePoint> { { 0, 1000, {} }, { 1, 2000, {} } } << quint64(0)
                                    << "entries";
        QTest::newRow("coverage 1.5") << QList<CurvePoint> { { 0, 1000, {} }, { 1.5, 2000, {} } } << quint64(10)
                                      << "points";
        QTest::newRow("zero ops") << QList<CurvePoint> { { 0, 0, {} }, { 1, 2000, {} } } << quint64(10) << "points";
        QTest::newRow("same hit ratio") << QList<CurvePoint> { { 0.5, 1000, 0.5 }, { 0.6, 2000, 0.5 } } << quint64(10)
                                        << "points";
        QTest::newRow("line gives t_hit < 0") // 1/X falls too fast: extrapolated to h = 1 it is negative
            << QList<CurvePoint> { { 0, 1000, 0.0 }, { 0.5, 1e6, 0.5 } } << quint64(10) << "points";
    }

    void badInput()
    {
        QFETCH(QList<CurvePoint>, points);
        QFETCH(quint64, entries);
        QFETCH(QString, field);
        CurveFitOptions o;
        o.entries = entries;
        o.access = Dist::uniform();
        ProbeError err;
        const auto f = CurveFitter::fit(points, o, &err);
        QVERIFY(!f);
        QCOMPARE(err.field, field);
        QVERIFY(!err.detail.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstCacheModelFit)
#include "tst_cachemodelfit.moc"
