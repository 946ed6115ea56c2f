#include "ui/models/operationmodel.h"

#include "core/common/units.h"
#include "ui/widgets/notestyle.h"

#include <QBrush>
#include <QColor>

OperationModel::OperationModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

int OperationModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int OperationModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString OperationModel::latencyText(const std::optional<double>& ms)
{
    return ms ? Units::formatNumber(*ms, *ms < 10 ? 2 : 1) + QStringLiteral(" ms") : QStringLiteral("–");
}

QVariant OperationModel::display(const OpFigures& f, int column) const
{
    switch (column) {
    case Ops:
        return Units::formatNumber(f.ops, 0);
    case OkPerS:
        return QString(Units::formatNumber(f.okPerS) + (f.okDerived ? tr(" (derived)") : QString()));
    case Errors:
        return Units::formatNumber(f.errors, 0);
    case P50:
        return latencyText(f.latencyMs.p50);
    case P95:
        return latencyText(f.latencyMs.p95);
    case P99:
        return latencyText(f.latencyMs.p99);
    case Max:
        return latencyText(f.latencyMs.max);
    default:
        return {};
    }
}

QVariant OperationModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const auto& [name, f] = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return index.column() == Operation ? QVariant(name) : display(f, index.column());
    case Qt::ToolTipRole:
        if (index.column() == Errors && f.errors > 0)
            return f.topErrors();
        if (index.column() == OkPerS && f.okDerived)
            return tr("derived: ops − errors (the record is older than counted successes)");
        return {};
    case Qt::TextAlignmentRole:
        return int(index.column() == Operation ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (index.column() == Errors && f.errors > 0)
            return QBrush(NoteStyle::errorColourNow());
        return {};
    default:
        return {};
    }
}

QVariant OperationModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    static const char* const kHeaders[ColumnCount] = { QT_TR_NOOP("Operation"), QT_TR_NOOP("ops"), QT_TR_NOOP("ok/s"),
        QT_TR_NOOP("errors"), QT_TR_NOOP("p50"), QT_TR_NOOP("p95"), QT_TR_NOOP("p99"), QT_TR_NOOP("max") };
    return section >= 0 && section < ColumnCount ? tr(kHeaders[section]) : QVariant();
}

void OperationModel::setFigures(const OpFigures& all, const OpFiguresByKind& byKind, const QString& allName)
{
    beginResetModel();
    m_rows.clear();
    for (const auto& [kind, f] : byKind)
        m_rows.append({ kind, f });
    m_rows.append({ byKind.empty() ? allName : tr("all"), all });
    endResetModel();
}

void OperationModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

QString OperationModel::operation(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).first : QString();
}

int OperationModel::rowOfOperation(const QString& name) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).first == name)
            return int(i);
    return -1;
}
