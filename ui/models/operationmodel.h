#pragma once

#include "core/ldap/loadresult.h"

#include <QAbstractTableModel>
#include <QList>
#include <QString>

// The figures of a load per kind of operation: a mix has a row per kind and a last row "all"; a single operation
// has one row. Completed operations, successes per second, errors (the top codes as the tooltip) and latency
// p50/p95/p99/max in ms. Fed with the last interval while a load runs and with the summary when it ends.
class OperationModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Operation,
        Ops,
        OkPerS,
        Errors,
        P50,
        P95,
        P99,
        Max,
        ColumnCount
    };

    explicit OperationModel(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(OperationModel)

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // Replaces every row: one per kind of `byKind` then `all` named "all", or (no kinds) `all` named `allName`.
    void setFigures(const OpFigures& all, const OpFiguresByKind& byKind, const QString& allName);
    void clear();

    QString operation(int row) const;
    int rowOfOperation(const QString& name) const; // -1 when absent
    // "12.5 ms", or "–" when not measured.
    static QString latencyText(const std::optional<double>& ms);

private:
    QVariant display(const OpFigures& f, int column) const;

    QList<std::pair<QString, OpFigures>> m_rows;
};
