#pragma once

#include "core/disk/diskresult.h"

#include <QAbstractTableModel>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <limits>

struct RunRecord;

// One line of the disk result table: a test, a repeat or a suite part. NaN = not measured / not exposed.
struct DiskResultRow
{
    static constexpr double None = std::numeric_limits<double>::quiet_NaN();

    QString name;
    double mbPerSec = None;
    double iops = None;
    double p50Us = None;
    double p99Us = None;
    double p999Us = None;
    double maxUs = None;
    bool isChange = false; // a row of changes in % (disk under load vs idle), not of measurements
};

// The result table of the Disk page: one row per test/series of a RunRecord's summary.
class DiskResultModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Name,
        MbPerSec,
        Iops,
        P50,
        P99,
        P999,
        Max,
        ColumnCount
    };
    enum Role
    {
        ValueRole = Qt::UserRole
    }; // the raw double (NaN when absent); Name gives the name

    explicit DiskResultModel(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskResultModel)

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void setRows(const QList<DiskResultRow>& rows);
    void setRecord(const RunRecord& record) { setRows(rowsFromRecord(record)); }
    void clear() { setRows({}); }
    const QList<DiskResultRow>& rows() const { return m_rows; }

    // Single test: one row (named after the profile). Repeats: one row per repeat, then the median.
    // Suite: one row per part (in the order the parts ran), each expanded the same way.
    // Disk under LDAP load: "disk (idle)", "disk (under load)" and the change in %.
    static QList<DiskResultRow> rowsFromRecord(const RunRecord& record);
    static DiskResultRow rowFromSummary(const QString& name, const DiskSummary& summary);
    // "PREFIX  p50 … · p99 … · p99.9 … · max …" in µs, "–" for what is absent.
    static QString latencyLine(const QString& prefix, const DiskLatency& latencyUs);

private:
    static double value(const DiskResultRow& row, int column);

    QList<DiskResultRow> m_rows;
};
