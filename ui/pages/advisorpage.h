#pragma once

#include "core/catalog/catalog.h"
#include "core/catalog/cloudverdict.h"
#include "core/catalog/compare.h"
#include "core/common/runrecord.h"
#include "ui/pages/page.h"

#include <QString>

#include <optional>

class AdvisorEvalForm;
class AdvisorNeedForm;
class BarChartView;
class ComparisonView;
class QComboBox;
class QLabel;
class QSplitter;
class QTimer;

// The Cloud advisor: a disk type at a size on a VM (its limits, burst, VM caps and what binds), "what do I need"
// for a requirement (the smallest size of each disk type and the VMs that do not cap it, side by side as charts),
// and measured vs listed (a disk record or a case of the seed's table beside a catalog entry, with flags).
// Everything here is pure and fast (the catalog's formulas), so it runs on the UI thread; reading a record or a
// catalog file is one small file read.
class AdvisorPage final : public Page
{
    Q_OBJECT
public:
    explicit AdvisorPage(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(AdvisorPage)

    QString title() const override { return tr("Cloud advisor"); }
    bool isRunning() const override { return false; }

    const CloudCatalog::Catalog& catalog() const { return m_catalog; }
    AdvisorEvalForm* evalForm() const { return m_eval; }
    AdvisorNeedForm* needForm() const { return m_needForm; }
    BarChartView* sizesChart() const { return m_sizes; }
    BarChartView* vmChart() const { return m_vms; }
    ComparisonView* comparisonView() const { return m_compare; }
    QString catalogText() const;
    QString needError() const { return m_needError; }

    // What the buttons do after their file dialogs; false with `error` set when the file is refused.
    bool loadCatalogFile(const QString& path, QString* error);
    bool openRecord(const QString& path, QString* error);
    void showSeedCase(const QString& id);
    // A saved "cloud-compare" record: its cases as the record holds them, one at a time (a failed one first).
    bool showsKind(const QString& kind) const override { return kind == u"cloud-compare"; }
    bool showRecord(const RunRecord& record, QString* error) override;
    // The comparison on screen as a "cloud-compare" record (empty kind when none).
    RunRecord comparisonRecord() const;

public slots:
    void start() override;
    void cancel() override { }
    void recomputeNeed();

signals:
    void needRecomputed();
    // "Save in history": the window hands the record to the history (the page has no runner of its own).
    void saveRequested(const RunRecord& record);

protected:
    void resizeEvent(QResizeEvent* event) override; // the two boxes side by side, or stacked when narrow

private:
    void chooseCatalog();
    void chooseRecord();
    void recompare();
    void fillTests(const RunRecord& record, const QString& current);
    void showSavedCase(int index);

    CloudCatalog::Catalog m_catalog;
    AdvisorEvalForm* m_eval = nullptr;
    AdvisorNeedForm* m_needForm = nullptr;
    BarChartView* m_sizes = nullptr;
    BarChartView* m_vms = nullptr;
    ComparisonView* m_compare = nullptr;
    QLabel* m_catalogLabel = nullptr;
    QComboBox* m_seedCombo = nullptr;
    QComboBox* m_testCombo = nullptr; // the sub-test of the record compared
    QString m_recordPath; // the disk record compared, if any
    QList<CloudCatalog::CloudCase> m_savedCases; // of the saved comparison shown, if any
    QString m_savedSource;
    QTimer* m_debounce = nullptr;
    QSplitter* m_split = nullptr; // what do I need | measured vs listed
    QString m_needError;
    std::optional<CloudCatalog::Measured> m_measured;
    QString m_measuredSource;
    std::optional<CloudCatalog::Comparison> m_comparison;
};
