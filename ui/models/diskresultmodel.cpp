#include "ui/models/diskresultmodel.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/disk/diskrecordfacts.h"
#include "core/experiments/diskunderloadsummary.h"

#include <QFont>
#include <QJsonArray>
#include <QStringList>

#include <cmath>

namespace {

double orNone(const std::optional<double>& v)
{
    return v ? *v : DiskResultRow::None;
}

// Suite parts in the order they ran (first appearance in the intervals), then any others by name.
QList<const DiskSummary*> partOrder(const std::vector<DiskSummary>& tests, const QJsonArray& intervals)
{
    QList<const DiskSummary*> order;
    const auto add = [&order](const DiskSummary* t) {
        if (!order.contains(t))
            order << t;
    };
    for (const auto& v : intervals) {
        const QString series = DiskInterval::fromJson(v.toObject()).series;
        for (const DiskSummary& t : tests)
            if (t.test == series)
                add(&t);
    }
    for (const DiskSummary& t : tests)
        add(&t);
    return order;
}

void appendSummary(
    QList<DiskResultRow>& rows, const QString& name, const DiskSummary& s, const QJsonArray& intervals, bool topLevel)
{
    for (const DiskSummary* part : partOrder(s.tests, intervals))
        appendSummary(rows, part->test, *part, intervals, false);
    if (s.repeats.size() > 1) {
        for (size_t i = 0; i < s.repeats.size(); ++i) {
            const QString label = QStringLiteral("repeat %1").arg(i + 1);
            rows << DiskResultModel::rowFromSummary(topLevel ? label : name + u' ' + label, s.repeats.at(i));
        }
        if (s.hasRates())
            rows << DiskResultModel::rowFromSummary(name + QStringLiteral(" (median)"), s);
        return;
    }
    if (s.hasRates())
        rows << DiskResultModel::rowFromSummary(name, s);
}

} // namespace

DiskResultModel::DiskResultModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

int DiskResultModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int DiskResultModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

double DiskResultModel::value(const DiskResultRow& row, int column)
{
    switch (column) {
    case MbPerSec:
        return row.mbPerSec;
    case Iops:
        return row.iops;
    case P50:
        return row.p50Us;
    case P99:
        return row.p99Us;
    case P999:
        return row.p999Us;
    case Max:
        return row.maxUs;
    default:
        return DiskResultRow::None;
    }
}

QVariant DiskResultModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const DiskResultRow& row = m_rows.at(index.row());
    const int col = index.column();
    switch (role) {
    case Qt::DisplayRole: {
        if (col == Name)
            return row.name;
        const double v = value(row, col);
        if (std::isnan(v))
            return QStringLiteral("–");
        if (row.isChange)
            return QString(
                (v > 0 ? QStringLiteral("+") : QString()) + Units::formatNumber(v, 1) + QStringLiteral(" %"));
        return Units::formatNumber(v, col == Iops ? 0 : 1);
    }
    case Qt::FontRole:
        if (row.isChange) {
            QFont f;
            f.setBold(true);
            return f;
        }
        return {};
    case Qt::TextAlignmentRole:
        return int(col == Name ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    case ValueRole:
        return col == Name ? QVariant(row.name) : QVariant(value(row, col));
    default:
        return {};
    }
}

QVariant DiskResultModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Name:
        return tr("Test");
    case MbPerSec:
        return tr("MB/s");
    case Iops:
        return tr("IOPS");
    case P50:
        return tr("p50 µs");
    case P99:
        return tr("p99 µs");
    case P999:
        return tr("p99.9 µs");
    case Max:
        return tr("max µs");
    default:
        return {};
    }
}

void DiskResultModel::setRows(const QList<DiskResultRow>& rows)
{
    beginResetModel();
    m_rows = rows;
    endResetModel();
}

DiskResultRow DiskResultModel::rowFromSummary(const QString& name, const DiskSummary& summary)
{
    DiskResultRow row;
    row.name = name;
    row.mbPerSec = orNone(summary.mbPerS);
    row.iops = orNone(summary.iops);
    row.p50Us = orNone(summary.latencyUs.p50);
    row.p99Us = orNone(summary.latencyUs.p99);
    row.p999Us = orNone(summary.latencyUs.p999);
    row.maxUs = orNone(summary.latencyUs.max);
    return row;
}

QString DiskResultModel::latencyLine(const QString& prefix, const DiskLatency& lat)
{
    const auto micro = [](const std::optional<double>& v) {
        return v ? Units::formatNumber(*v) + QStringLiteral(" µs") : QStringLiteral("–");
    };
    return tr("%1  p50 %2 · p99 %3 · p99.9 %4 · max %5")
        .arg(prefix, micro(lat.p50), micro(lat.p99), micro(lat.p999), micro(lat.max));
}

QList<DiskResultRow> DiskResultModel::rowsFromRecord(const RunRecord& record)
{
    if (record.kind == u"disk-under-load") {
        QList<DiskResultRow> rows;
        const DiskUnderLoadSummary s = DiskUnderLoadSummary::of(record);
        if (s.idle)
            rows << rowFromSummary(tr("disk (idle)"), *s.idle);
        if (s.hasLoaded)
            rows << rowFromSummary(tr("disk (under load)"), s.loaded);
        if (s.hasChange) {
            DiskResultRow row;
            row.name = tr("change under load");
            row.isChange = true;
            row.mbPerSec = orNone(s.mbPerSPct);
            row.iops = orNone(s.iopsPct);
            row.p99Us = orNone(s.p99Pct);
            rows << row;
        }
        return rows;
    }
    QString name = DiskRecordFacts::of(record).profile;
    if (name.isEmpty())
        name = record.kind;
    QList<DiskResultRow> rows;
    appendSummary(rows, name, DiskSummary::fromJson(record.summary), record.intervals, true);
    return rows;
}
