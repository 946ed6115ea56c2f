#pragma once

#include "core/common/sample.h"

#include <QWidget>

class LiveChartView;
class QLabel;
struct RunRecord;

// Under the Disk page's chart during a disk-under-load experiment: the LDAP load's successes/s (series "ldap") on the
// same time axis as the disk chart, and what the load did during the loaded disk test.
class DiskLdapView final : public QWidget
{
    Q_OBJECT
public:
    explicit DiskLdapView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskLdapView)

    static bool isLdapSeries(const QString& series) { return series == u"ldap"; }
    // "Done: 290 MB/s under LDAP load, 300 MB/s idle (-3.3 %)."
    static QString doneText(const RunRecord& record);

    void clear();
    // Takes the "ldap" samples of a batch (others are the disk chart's).
    void addSamples(const SampleBatch& samples);
    void finish(const RunRecord& record);
    LiveChartView* chart() const { return m_chart; }
    int pointCount() const;
    QString summaryText() const;

private:
    LiveChartView* m_chart = nullptr;
    QLabel* m_summary = nullptr;
};
