#pragma once

#include "core/common/runrecord.h"
#include "core/common/sample.h"
#include "core/experiments/curve.h"
#include "core/ldap/loadspec.h"
#include "core/run/proberunner.h"
#include "core/sizing/curvefit.h"
#include "ui/pages/page.h"
#include "ui/pages/pagerun.h"

#include <QHash>
#include <QStringList>

#include <functional>
#include <optional>

namespace CurveRecord {
struct Summary;
}
class CurveChartView;
class CurveForm;
class CurvePredictor;
class LiveChartView;
class QLabel;
class QProgressBar;
class QPushButton;
class RunStatusLabel;
class SavedRunInputs;
class StaleNote;
class WarningsLabel;

// The Curve page: entry-cache coverage vs ops/s. A form (mode, points, seconds per point, restart, cache entries)
// over the LDAP page's connection and search (given by a provider, so the pages stay apart); Start runs the curve
// job on the shared ProbeRunner, the live chart shows each point's ops/s as it runs, and the curve chart the
// measured points with the fitted service-time model and its band, the guide's Figure 3 shape scaled to this fit,
// and a target line; the predictor turns a target ops/s into entry-cache RAM and back. "Open curve record…"
// shows a record `dirbench-cli curve --json` wrote, without a server.
class CurvePage final : public Page
{
    Q_OBJECT
public:
    explicit CurvePage(ProbeRunner* runner, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(CurvePage)

    QString title() const override { return tr("Curve"); }
    bool isRunning() const override { return m_run->isBusy(); }

    using LdapLoadProvider = std::function<std::optional<LdapLoadSpec>(QString* error)>;
    void setLdapLoadProvider(LdapLoadProvider provider) { m_ldapProvider = std::move(provider); }

    CurveForm* form() const { return m_form; }
    CurvePredictor* predictor() const { return m_predictor; }
    CurveChartView* curveChart() const { return m_curveChart; }
    LiveChartView* liveChart() const { return m_liveChart; }
    QString fitText() const;
    QString errorField() const;
    QString errorText() const;
    RunRecord lastRecord() const { return m_lastRecord; }
    const std::optional<CurveFit>& fit() const { return m_fit; }
    // The guide's Figure 3 is on the chart (until a sweep runs or a record is shown).
    bool isGuideCurveShown() const { return m_guideShown; }
    // Your traffic's key skew (the Workload page's fit): the predictor then maps coverage to hit ratio with it
    // instead of the swept load's distribution (t_hit and t_miss stay the sweep's). `origin` says where it is from.
    void setTrafficAccess(const AccessDistribution& access, const QString& origin);
    const std::optional<AccessDistribution>& trafficAccess() const { return m_traffic; }
    QString trafficText() const;
    // The fit the predictor uses: fit() with the traffic's distribution when one is set.
    std::optional<CurveFit> predictionFit() const;

    // Shows a curve record (kind "curve"); false with *error set when it is not one or has no points.
    bool showsKind(const QString& kind) const override { return kind == u"curve"; }
    QString movedText() const; // the points drawn where measured, not where asked ("" for none)
    // Shown over the results once the form no longer holds the inputs they were made with.
    StaleNote* staleNote() const { return m_stale; }
    // A saved run (File → Open record…, History, Open curve record…): its curve, and its inputs read-only where the
    // form was until closeSaved().
    bool showRecord(const RunRecord& record, QString* error = nullptr) override;
    bool openRecordFile(const QString& path, QString* error = nullptr);
    void closeSaved();
    SavedRunInputs* savedInputs() const { return m_savedInputs; }

public slots:
    void start() override;
    void cancel() override;

signals:
    void runFinished(const RunRecord& record);

private:
    void chooseRecord();
    void onSamples(int runId, const SampleBatch& samples);
    void onFinished(int runId, const RunRecord& record);
    void setRunning(bool running);
    void showLivePoints();
    void showMovedPoints(const CurveRecord::Summary& summary);
    void showGuideCurve();
    bool showCurve(const RunRecord& record, QString* error);
    void updatePrediction();

    ProbeRunner* m_runner;
    CurveForm* m_form = nullptr;
    CurvePredictor* m_predictor = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_cancelButton = nullptr;
    QPushButton* m_openButton = nullptr;
    QProgressBar* m_progress = nullptr;
    RunStatusLabel* m_statusLabel = nullptr;
    WarningsLabel* m_warnings = nullptr;
    CurveChartView* m_curveChart = nullptr;
    LiveChartView* m_liveChart = nullptr;
    QLabel* m_fitLabel = nullptr;
    QString m_movedText; // the points drawn where measured, not where asked: under the fit
    StaleNote* m_stale = nullptr;
    SavedRunInputs* m_savedInputs = nullptr;
    QLabel* m_trafficLabel = nullptr;
    std::optional<AccessDistribution> m_traffic;

    LdapLoadProvider m_ldapProvider;
    PageRun* m_run = nullptr;
    CurveSpec m_spec;
    QStringList m_liveOrder; // point series in the order they arrived
    QHash<QString, QPair<double, int>> m_liveSums; // series -> (Σ ops/s, intervals)
    RunRecord m_lastRecord;
    std::optional<CurveFit> m_fit;
    bool m_guideShown = false;
};
