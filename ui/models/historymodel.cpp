#include "ui/models/historymodel.h"

#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QBrush>
#include <QColor>
#include <QPalette>

void HistoryModel::setRuns(const QList<RunStore::Summary>& runs)
{
    beginResetModel();
    m_runs = runs;
    endResetModel();
}

void HistoryModel::appendRuns(const QList<RunStore::Summary>& runs)
{
    if (runs.isEmpty())
        return;
    beginInsertRows({}, int(m_runs.size()), int(m_runs.size() + runs.size() - 1));
    m_runs += runs;
    endInsertRows();
}

const RunStore::Summary* HistoryModel::runAt(int row) const
{
    return row >= 0 && row < m_runs.size() ? &m_runs.at(row) : nullptr;
}

int HistoryModel::rowOf(qint64 id) const
{
    for (int i = 0; i < m_runs.size(); ++i)
        if (m_runs.at(i).id == id)
            return i;
    return -1;
}

int HistoryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_runs.size());
}

int HistoryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant HistoryModel::data(const QModelIndex& index, int role) const
{
    const RunStore::Summary* r = runAt(index.row());
    if (!r)
        return {};
    if (role == IdRole)
        return r->id;
    if (role == Qt::ForegroundRole && index.column() == Status && r->status != u"ok")
        return QBrush(r->status == u"failed" || r->status == u"interrupted" ? NoteStyle::errorColourNow()
                : r->status == u"running"                                   ? NoteStyle::busyColourNow()
                                          : NoteStyle::colour(QApplication::palette()));
    if (role == Qt::TextAlignmentRole && index.column() == Headline)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole)
        return tr("Run %1 on %2").arg(r->id).arg(r->host.isEmpty() ? tr("an unknown host") : r->host);
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case Name:
        return r->name.isEmpty() ? tr("(run %1)").arg(r->id) : r->name;
    case Kind:
        return r->kind;
    case Status:
        return r->status;
    case Started:
        return r->started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    case Headline:
        return r->headline;
    case Tags:
        return r->tags.join(QStringLiteral(", "));
    default:
        return {};
    }
}

QVariant HistoryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name:
        return tr("Name");
    case Kind:
        return tr("Kind");
    case Status:
        return tr("Status");
    case Started:
        return tr("Started");
    case Headline:
        return tr("Headline");
    case Tags:
        return tr("Tags");
    default:
        return {};
    }
}
