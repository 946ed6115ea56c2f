#include "ui/models/comparisonmodel.h"

#include "ui/widgets/notestyle.h"

#include <QBrush>
#include <QColor>
#include <QFont>

void ComparisonModel::setRuns(const QList<Run>& runs)
{
    beginResetModel();
    m_runs = runs;
    m_deltas.clear();
    m_keys.clear();
    m_info.clear();
    m_values.clear();
    for (const Run& r : runs) {
        QHash<QString, std::optional<double>> values;
        for (const Comparison::Metric& m : Comparison::metrics(r.record)) {
            values.insert(m.key, m.value);
            if (!m_info.contains(m.key)) {
                m_info.insert(m.key, m);
                m_keys << m.key;
            }
        }
        m_values << values;
    }
    for (int i = 1; i < runs.size(); ++i)
        m_deltas << Comparison::compare(runs.first().record, runs.at(i).record);
    endResetModel();
}

int ComparisonModel::rowOf(const QString& key) const
{
    return int(m_keys.indexOf(key));
}

const Comparison::Delta* ComparisonModel::delta(int run, const QString& key) const
{
    for (const Comparison::Delta& d : m_deltas.at(run - 1))
        if (d.key == key)
            return &d;
    return nullptr;
}

int ComparisonModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_keys.size());
}

int ComparisonModel::columnCount(const QModelIndex& parent) const
{
    if (parent.isValid() || m_runs.isEmpty())
        return 0;
    return 1 + int(m_runs.size()) + int(m_runs.size()) - 1;
}

QVariant ComparisonModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_keys.size())
        return {};
    const QString& key = m_keys.at(index.row());
    const Comparison::Metric& info = m_info[key];
    const int col = index.column();
    const int n = int(m_runs.size());
    if (col == 0) {
        if (role == Qt::DisplayRole)
            return QString(info.label + (info.higherIsBetter ? QStringLiteral(" ↑") : QStringLiteral(" ↓")));
        if (role == Qt::ToolTipRole)
            return info.higherIsBetter ? tr("higher is better") : tr("lower is better");
        if (role == Qt::FontRole && index.row() == 0) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return int(Qt::AlignRight | Qt::AlignVCenter);
    if (col <= n) {
        if (role != Qt::DisplayRole)
            return {};
        const std::optional<double> v = m_values.at(col - 1).value(key);
        return v ? Comparison::formatValue(*v, info.unit) : QStringLiteral("–");
    }
    const Comparison::Delta* d = delta(col - n, key);
    if (!d || !d->deltaPct)
        return role == Qt::DisplayRole ? QVariant(QStringLiteral("–")) : QVariant();
    if (role == Qt::DisplayRole)
        return QString((*d->deltaPct >= 0 ? QStringLiteral("+") : QString()) + QString::number(*d->deltaPct, 'f', 1)
            + QStringLiteral(" % ") + d->verdict());
    if (role == Qt::ForegroundRole) {
        const QString v = d->verdict();
        if (v == u"better")
            return QBrush(NoteStyle::passColourNow());
        if (v == u"worse")
            return QBrush(NoteStyle::errorColourNow());
    }
    if (role == Qt::UserRole)
        return *d->deltaPct;
    if (role == Qt::ToolTipRole)
        return d->noisePct ? tr("the runs' own spread: ±%1 %").arg(*d->noisePct, 0, 'f', 1)
                           : tr("neither run shows a spread of this figure (no repeats, no intervals of it)");
    return {};
}

QVariant ComparisonModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || (role != Qt::DisplayRole && role != Qt::ToolTipRole))
        return {};
    const int n = int(m_runs.size());
    if (role == Qt::ToolTipRole)
        return section > n ? tr("%1 against %2: (B − A) / A").arg(m_runs.at(section - n).label, m_runs.first().label)
                           : QVariant();
    if (section == 0)
        return tr("Metric");
    if (section <= n)
        return m_runs.at(section - 1).label;
    return tr("Δ %1").arg(m_runs.at(section - n).label);
}
