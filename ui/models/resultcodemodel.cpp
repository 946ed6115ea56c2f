#include "ui/models/resultcodemodel.h"

#include "core/common/units.h"
#include "core/ldap/ldapsession.h"
#include "ui/widgets/notestyle.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

ResultCodeModel::ResultCodeModel(QObject* parent)
    : QAbstractTableModel(parent)
{ }

int ResultCodeModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ResultCodeModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString ResultCodeModel::codeName(int code)
{
    return LdapSession::resultText(code);
}

QVariant ResultCodeModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case Code:
            return row.code;
        case Name:
            return codeName(row.code);
        case Count:
            return Units::formatNumber(double(row.count), 0);
        case Share: {
            const qint64 all = total();
            return all > 0 ? Units::formatNumber(100.0 * double(row.count) / double(all)) + QStringLiteral(" %")
                           : QStringLiteral("–");
        }
        default:
            return {};
        }
    case Qt::UserRole:
        return index.column() == Code ? QVariant(row.code) : QVariant(row.count);
    case Qt::TextAlignmentRole:
        return int(index.column() == Name ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // Success (and compareFalse/compareTrue, the normal answers of a compare) in the normal colour.
        if (row.code != 0 && row.code != 5 && row.code != 6)
            return QBrush(NoteStyle::errorColourNow());
        return {};
    default:
        return {};
    }
}

QVariant ResultCodeModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Code:
        return tr("Code");
    case Name:
        return tr("Result");
    case Count:
        return tr("Count");
    case Share:
        return tr("Share");
    default:
        return {};
    }
}

void ResultCodeModel::merge(const std::map<int, double>& resultCodes)
{
    for (const auto& [code, count] : resultCodes) {
        const qint64 n = qint64(count);
        auto pos
            = std::lower_bound(m_rows.cbegin(), m_rows.cend(), code, [](const Row& r, int c) { return r.code < c; });
        if (pos != m_rows.cend() && pos->code == code)
            m_rows[pos - m_rows.cbegin()].count += n;
        else
            m_rows.insert(pos, Row { code, n });
    }
}

void ResultCodeModel::addCounts(const std::map<int, double>& resultCodes)
{
    if (resultCodes.empty())
        return;
    beginResetModel();
    merge(resultCodes);
    endResetModel();
}

void ResultCodeModel::setCounts(const std::map<int, double>& resultCodes)
{
    beginResetModel();
    m_rows.clear();
    merge(resultCodes);
    endResetModel();
}

void ResultCodeModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

qint64 ResultCodeModel::count(int code) const
{
    const int r = rowOfCode(code);
    return r < 0 ? 0 : m_rows.at(r).count;
}

int ResultCodeModel::rowOfCode(int code) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i).code == code)
            return int(i);
    return -1;
}

qint64 ResultCodeModel::total() const
{
    qint64 n = 0;
    for (const Row& r : m_rows)
        n += r.count;
    return n;
}
