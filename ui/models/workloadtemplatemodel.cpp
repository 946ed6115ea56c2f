#include "ui/models/workloadtemplatemodel.h"

#include <QLocale>

namespace {

double number(const QJsonObject& t, const char* key, const char* inner = nullptr)
{
    const QJsonValue v = t.value(QLatin1String(key));
    return inner ? v.toObject().value(QLatin1String(inner)).toDouble(-1) : v.toDouble(-1);
}

QString fixed(double v, int decimals)
{
    return v < 0 ? QStringLiteral("–") : QLocale().toString(v, 'f', decimals);
}

} // namespace

void WorkloadTemplateModel::setTemplates(const QJsonArray& templates)
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

QString WorkloadTemplateModel::skewText(const QJsonObject& skew)
{
    QString model = skew.value(QStringLiteral("model")).toString();
    if (model == u"zipf")
        return tr("Zipf α %1").arg(skew.value(QStringLiteral("alpha")).toDouble(), 0, 'f', 2);
    if (model == u"hot")
        return tr("hot set %1 % → %2 %")
            .arg(QLocale().toString(skew.value(QStringLiteral("keys_pct")).toDouble(), 'g', 3),
                QLocale().toString(skew.value(QStringLiteral("ops_pct")).toDouble(), 'g', 3));
    return model;
}

QString WorkloadTemplateModel::resultCodesText(const QJsonObject& codes)
{
    QStringList parts;
    for (auto it = codes.begin(); it != codes.end(); ++it)
        parts << QStringLiteral("%1: %2").arg(it.key(), QLocale().toString(qint64(it.value().toDouble())));
    return parts.join(QStringLiteral(", "));
}

QString WorkloadTemplateModel::text(const QJsonObject& t, int column) const
{
    switch (column) {
    case Template:
        return t.value(QStringLiteral("template")).toString();
    case Kind:
        return t.value(QStringLiteral("kind")).toString();
    case Count:
        return QLocale().toString(qint64(number(t, "count")));
    case Share:
        return fixed(number(t, "share") * 100, 1) + QStringLiteral(" %");
    case ResultCodes:
        return resultCodesText(t.value(QStringLiteral("result_codes")).toObject());
    case Entries:
        return fixed(number(t, "entries", "mean"), 1);
    case Unindexed: {
        const double u = number(t, "unindexed_share");
        return u < 0 ? QStringLiteral("–") : fixed(u * 100, 1) + QStringLiteral(" %");
    }
    case EtimeP50:
        return fixed(number(t, "etime_ms", "p50"), 3);
    case EtimeP99:
        return fixed(number(t, "etime_ms", "p99"), 3);
    case Skew:
        return skewText(t.value(QStringLiteral("skew")).toObject());
    default:
        return {};
    }
}

QVariant WorkloadTemplateModel::sortKey(const QJsonObject& t, int column) const
{
    switch (column) {
    case Count:
        return number(t, "count");
    case Share:
        return number(t, "share");
    case Entries:
        return number(t, "entries", "mean");
    case Unindexed:
        return number(t, "unindexed_share");
    case EtimeP50:
        return number(t, "etime_ms", "p50");
    case EtimeP99:
        return number(t, "etime_ms", "p99");
    default:
        return text(t, column);
    }
}

QVariant WorkloadTemplateModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const QJsonObject t = m_rows.at(index.row()).toObject();
    switch (role) {
    case Qt::DisplayRole:
        return text(t, index.column());
    case Qt::ToolTipRole:
        return index.column() == Template ? t.value(QStringLiteral("template")).toString() : QVariant();
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
