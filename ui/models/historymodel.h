#pragma once

#include "core/store/runstore.h"

#include <QAbstractTableModel>

// The History page's table: one row per saved run (RunStore::Summary), newest first, a page at a time (appendRuns
// adds the next page under the rows shown).
class HistoryModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        Kind,
        Status,
        Started,
        Headline,
        Tags,
        ColumnCount
    };
    static constexpr int IdRole = Qt::UserRole + 1;

    using QAbstractTableModel::QAbstractTableModel;
    Q_DISABLE_COPY_MOVE(HistoryModel)

    void setRuns(const QList<RunStore::Summary>& runs);
    void appendRuns(const QList<RunStore::Summary>& runs);
    const QList<RunStore::Summary>& runs() const { return m_runs; }
    const RunStore::Summary* runAt(int row) const;
    int rowOf(qint64 id) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<RunStore::Summary> m_runs;
};
