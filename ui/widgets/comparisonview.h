#pragma once

#include "core/catalog/cloudverdict.h"
#include "core/catalog/compare.h"

#include <QWidget>

class BarChartView;
class QLabel;
class WarningsLabel;

// Measured vs listed: bars for the measured MB/s, the disk's listed limit and maximum, the VM's cap and maximum,
// and the reachable ceiling; the verdict in words above (it delivers 80 % of its reachable ceiling, judged as the
// report and the CLI judge it), the flags below in words, each with its stable code (warnings, never passes).
class ComparisonView final : public QWidget
{
    Q_OBJECT
public:
    explicit ComparisonView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ComparisonView)

    void setComparison(const CloudCatalog::Comparison& c, const QString& source);
    // A case of a saved "cloud-compare" record, as the record holds it (its figures, flags and verdict).
    void setCase(const CloudCatalog::CloudCase& c, const QString& source);
    void clear(const QString& message);

    BarChartView* chart() const { return m_chart; }
    QStringList flagCodes() const { return m_codes; }
    QString headline() const;
    // The case's verdict (it delivers 80 % of its reachable ceiling): None when no ceiling is known.
    enum class Verdict
    {
        None,
        Passed,
        Failed
    };
    Verdict verdict() const { return m_verdict; }

private:
    void showJudged(const CloudCatalog::CloudCase& judged, const QString& label, const QString& source);

    BarChartView* m_chart = nullptr;
    QLabel* m_headline = nullptr;
    WarningsLabel* m_flags = nullptr;
    QStringList m_codes;
    Verdict m_verdict = Verdict::None;
};
