#include "ui/models/workloadtemplatemodel.h"

#include <QLocale>

namespace {

// -1 (the sort key of a missing figure) for a figure the analysis does not have.
double workloadModelNumber(const std::optional<double>& v)
{
    return v.value_or(-1);
}

QString fixed(double v, int decimals)
{
    return v < 0 ? QStringLiteral("–") : QLocale().toString(v, 'f', decimals);
}

} // namespace

void WorkloadTemplateModel::setTemplates(const QList<WorkloadTemplateRow>& templates)
{
    beginResetModel();
    m_rows = templates;
    endResetModel();
}

int WorkloadTemplateModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int WorkloadTemplateModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString WorkloadTemplateModel::skewText(const WorkloadSkew& skew)
{
    if (skew.model == u"zipf")
        return tr("Zipf α %1").arg(skew.alpha, 0, 'f', 2);
    if (skew.model == u"hot")
        return tr("hot set %1 % → %2 %")
            .arg(QLocale().toString(skew.keysPct, 'g', 3), QLocale().toString(skew.opsPct, 'g', 3));
    return skew.model;
}

QString WorkloadTemplateModel::resultCodesText(const QList<QPair<QString, double>>& codes)
{
    QStringList parts;
    for (const auto& [code, count] : codes)
        parts << QStringLiteral("%1: %2").arg(code, QLocale().toString(qint64(count)));
    return parts.join(QStringLiteral(", "));
}

QString WorkloadTemplateModel::text(const WorkloadTemplateRow& t, int column) const
{
    switch (column) {
    case Template:
        return t.text;
    case Kind:
        return t.kind;
    case Count:
        return QLocale().toString(qint64(t.count));
    case Share:
        return fixed(t.share * 100, 1) + QStringLiteral(" %");
    case ResultCodes:
        return resultCodesText(t.resultCodes);
    case Entries:
        return fixed(workloadModelNumber(t.entriesMean), 1);
    case Unindexed: {
        const double u = workloadModelNumber(t.unindexedShare);
        return u < 0 ? QStringLiteral("–") : fixed(u * 100, 1) + QStringLiteral(" %");
    }
    case EtimeP50:
        return fixed(workloadModelNumber(t.etimeP50Ms), 3);
    case EtimeP99:
        return fixed(workloadModelNumber(t.etimeP99Ms), 3);
    case Skew:
        return skewText(t.skew);
    default:
        return {};
    }
}

QVariant WorkloadTemplateModel::sortKey(const WorkloadTemplateRow& t, int column) const
{
    switch (column) {
    case Count:
        return t.count;
    case Share:
        return t.share;
    case Entries:
        return workloadModelNumber(t.entriesMean);
    case Unindexed:
        return workloadModelNumber(t.unindexedShare);
    case EtimeP50:
        return workloadModelNumber(t.etimeP50Ms);
    case EtimeP99:
        return workloadModelNumber(t.etimeP99Ms);
    default:
        return text(t, column);
    }
}

QVariant WorkloadTemplateModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const WorkloadTemplateRow& t = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        return text(t, index.column());
    case Qt::ToolTipRole:
        return index.column() == Template ? QVariant(t.text) : QVariant();
    case Qt::TextAlignmentRole:
        return index.column() >= Count && index.column() != ResultCodes && index.column() != Skew
            ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
            : QVariant();
    case SortRole:
        return sortKey(t, index.column());
    default:
        return {};
    }
}

QVariant WorkloadTemplateModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole || section < 0 || section >= ColumnCount)
        return {};
    static const char* const names[] = { QT_TR_NOOP("Template"), QT_TR_NOOP("Kind"), QT_TR_NOOP("Count"),
        QT_TR_NOOP("Share"), QT_TR_NOOP("Result codes"), QT_TR_NOOP("Entries"), QT_TR_NOOP("notes=U"),
        QT_TR_NOOP("etime p50 ms"), QT_TR_NOOP("etime p99 ms"), QT_TR_NOOP("Key skew") };
    return tr(names[section]);
}
