#pragma once

#include "core/workload/workloadsummary.h"

#include <QAbstractTableModel>

// The templates of a dirbench.workload/1 analysis, one row each in the analysis's order (by count): template, kind,
// count, share, result codes, entries returned (mean), notes=U share, etime p50 and p99, key skew. SortRole holds
// the number a column sorts by (the text for the text columns), for a QSortFilterProxyModel.
class WorkloadTemplateModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Template,
        Kind,
        Count,
        Share,
        ResultCodes,
        Entries,
        Unindexed,
        EtimeP50,
        EtimeP99,
        Skew,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    Q_DISABLE_COPY_MOVE(WorkloadTemplateModel)

    void setTemplates(const QList<WorkloadTemplateRow>& templates);
    WorkloadTemplateRow templateAt(int row) const
    {
        return row >= 0 && row < m_rows.size() ? m_rows.at(row) : WorkloadTemplateRow();
    }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "Zipf α 0.96", "hot set 5 % → 90 %", "uniform", or "" without a fit.
    static QString skewText(const WorkloadSkew& skew);
    static QString resultCodesText(const QList<QPair<QString, double>>& codes);

private:
    QString text(const WorkloadTemplateRow& t, int column) const;
    QVariant sortKey(const WorkloadTemplateRow& t, int column) const;

    QList<WorkloadTemplateRow> m_rows;
};
