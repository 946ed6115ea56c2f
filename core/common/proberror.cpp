#include "core/common/proberror.h"

#include <QRegularExpression>

#include <cerrno>
#include <cstring>

QString ProbeError::message() const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::InvalidSpec:
        return field + QStringLiteral(": ") + cliDetail();
    case Kind::NoSpace:
        return QStringLiteral("disk full: ") + detail;
    case Kind::Permission:
        return QStringLiteral("permission denied: ") + detail;
    case Kind::ReadOnly:
        return QStringLiteral("read-only file system: ") + detail;
    case Kind::Cancelled:
        return QStringLiteral("cancelled");
    case Kind::Timeout:
        return QStringLiteral("timed out: ") + detail;
    case Kind::Io:
    case Kind::Ldap:
    case Kind::Internal:
        break;
    }
    return cliDetail();
}

QString ProbeError::ref(const QString& field)
{
    return QStringLiteral("{{") + field + QStringLiteral("}}");
}

QString ProbeError::detailNaming(const std::function<QString(const QString& field)>& name) const
{
    static const QRegularExpression refs(QStringLiteral("\\{\\{([a-z0-9-]+)\\}\\}"));
    QString out;
    qsizetype from = 0;
    for (auto it = refs.globalMatch(detail); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        out += QStringView(detail).mid(from, m.capturedStart() - from);
        out += name(m.captured(1));
        from = m.capturedEnd();
    }
    out += QStringView(detail).mid(from);
    return out;
}

QString ProbeError::cliDetail() const
{
    return detailNaming([](const QString& field) -> QString { return QStringLiteral("--") + field; });
}

ProbeError ProbeError::invalid(const QString& field, const QString& detail)
{
    ProbeError e;
    e.kind = Kind::InvalidSpec;
    e.field = field;
    e.detail = detail;
    return e;
}

ProbeError ProbeError::fromErrno(int err, const QString& what)
{
    ProbeError e;
    e.nativeCode = err;
    const QString sys = QString::fromLocal8Bit(std::strerror(err));
    switch (err) {
    case ENOSPC:
    case EDQUOT:
        e.kind = Kind::NoSpace;
        break;
    case EACCES:
    case EPERM:
        e.kind = Kind::Permission;
        break;
    case EROFS:
        e.kind = Kind::ReadOnly;
        break;
    default:
        e.kind = Kind::Io;
        break;
    }
    e.detail = what + QStringLiteral(" (") + sys + u')';
    return e;
}
