#include "core/ldap/okcodes.h"

#include "core/ldap/loadspec.h"

#include <algorithm>

namespace OkCodes {

std::optional<QList<int>> parse(const QString& text, ProbeError* error)
{
    const QString field = QStringLiteral("ok-codes");
    const QString hint = QStringLiteral(" (a comma-separated list of result codes 0 to %1, e.g. 0,32)")
                             .arg(LdapLoadSpec::kMaxResultCode);
    if (text.trimmed().isEmpty()) {
        *error = ProbeError::invalid(field, QStringLiteral("empty") + hint);
        return std::nullopt;
    }
    QList<int> codes;
    const QStringList parts = text.split(u',');
    for (const QString& part : parts) {
        const QString c = part.trimmed();
        const bool digits
            = !c.isEmpty() && std::all_of(c.begin(), c.end(), [](QChar ch) { return ch >= u'0' && ch <= u'9'; });
        bool ok = false;
        const int code = digits ? c.toInt(&ok) : -1;
        if (!ok || code < 0 || code > LdapLoadSpec::kMaxResultCode) {
            *error = ProbeError::invalid(field, u'\'' + c + QStringLiteral("' is not a result code") + hint);
            return std::nullopt;
        }
        if (codes.contains(code)) {
            *error = ProbeError::invalid(field, QStringLiteral("%1 is given twice").arg(code));
            return std::nullopt;
        }
        codes << code;
    }
    return codes;
}

} // namespace OkCodes
