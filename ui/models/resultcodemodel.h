#pragma once

#include <QAbstractTableModel>
#include <QList>

#include <map>

// LDAP result codes of a load run: code, name and count, by code. Fed live (one interval's counts added at a time)
// and replaced by the run's totals at the end.
class ResultCodeModel final : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        Code,
        Name,
        Count,
        Share,
        ColumnCount
    };

    explicit ResultCodeModel(QObject* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ResultCodeModel)

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // {0: 1234, 32: 5} (OpFigures::resultCodes): adds to the counts shown.
    void addCounts(const std::map<int, double>& resultCodes);
    // Replaces every count.
    void setCounts(const std::map<int, double>& resultCodes);
    void clear();

    // The count for a code, 0 when it never occurred; -1 as the row of an absent code.
    qint64 count(int code) const;
    int rowOfCode(int code) const;
    qint64 total() const;
    // "success", "noSuchObject", ... (libldap's text for the code).
    static QString codeName(int code);

private:
    struct Row
    {
        int code = 0;
        qint64 count = 0;
    };
    void merge(const std::map<int, double>& resultCodes);

    QList<Row> m_rows; // sorted by code
};
