#pragma once

#include "core/common/runrecord.h"
#include "core/store/comparison.h"

#include <QAbstractTableModel>

// The table of differences of the History page: one row per metric (the headline first), a value column per run,
// and for every run after the first a "Δ %" column against the first (green when better, red when worse, by the
// metric's direction — Comparison).
class ComparisonModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    struct Run
    {
        QString label;
        RunRecord record;
    };

    using QAbstractTableModel::QAbstractTableModel;
    Q_DISABLE_COPY_MOVE(ComparisonModel)

    void setRuns(const QList<Run>& runs);
    int runCount() const { return int(m_runs.size()); }
    // Row of a metric key ("ops_per_s", "latency_ms/p99", ...), or -1.
    int rowOf(const QString& key) const;
    // The deltas of run `run` (1..n-1) against run 0.
    const QList<Comparison::Delta>& deltas(int run) const { return m_deltas.at(run - 1); }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const Comparison::Delta* delta(int run, const QString& key) const;

    QList<Run> m_runs;
    QList<QList<Comparison::Delta>> m_deltas; // per run 1..n-1
    QStringList m_keys; // rows
    QHash<QString, Comparison::Metric> m_info; // label, unit, direction per key
    QList<QHash<QString, std::optional<double>>> m_values; // per run
};
