#include "core/experiments/replicationcsn.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QStringList>
#include <QTimeZone>
#include <QUrl>

qint64 ReplicationCsn::openLdapTimeUs(const QString& csn)
{
    static const QRegularExpression re(QStringLiteral("^(\\d{14})\\.(\\d{6})Z#[0-9a-fA-F]+#[0-9a-fA-F]+#"));
    const QRegularExpressionMatch m = re.match(csn);
    if (!m.hasMatch())
        return -1;
    QDateTime t = QDateTime::fromString(m.captured(1), QStringLiteral("yyyyMMddHHmmss"));
    if (!t.isValid())
        return -1;
    t.setTimeZone(QTimeZone::utc());
    return t.toMSecsSinceEpoch() * 1000 + m.captured(2).toLongLong();
}

QString ReplicationCsn::openLdapSid(const QString& csn)
{
    const QStringList parts = csn.split(u'#');
    return parts.size() == 4 && openLdapTimeUs(csn) >= 0 ? parts[2] : QString();
}

qint64 ReplicationCsn::ds389TimeUs(const QString& csn)
{
    static const QRegularExpression re(QStringLiteral("^[0-9a-fA-F]{20}$"));
    if (!re.match(csn).hasMatch())
        return -1;
    bool ok = false;
    const qint64 seconds = csn.left(8).toLongLong(&ok, 16);
    return ok ? seconds * 1000000 : -1;
}

QList<ReplicationCsn::RuvElement> ReplicationCsn::parseRuv(const QList<QByteArray>& values)
{
    static const QRegularExpression re(
        QStringLiteral("^\\{replica\\s+(\\d+)(?:\\s+([^}]*))?\\}(?:\\s+([0-9a-fA-F]{20}))?(?:\\s+([0-9a-fA-F]{20}))?"));
    QList<RuvElement> out;
    for (const QByteArray& v : values) {
        const QRegularExpressionMatch m = re.match(QString::fromUtf8(v).trimmed());
        if (m.hasMatch())
            out.append({ m.captured(1), m.captured(2).trimmed(), m.captured(3), m.captured(4) });
    }
    return out;
}

QList<ReplicationCsn::AgmtMaxCsn> ReplicationCsn::parseAgmtMaxCsn(const QList<QByteArray>& values)
{
    QList<AgmtMaxCsn> out;
    for (const QByteArray& v : values) {
        const QStringList f = QString::fromUtf8(v).split(u';');
        if (f.size() < 6)
            continue;
        // The suffix may itself hold no ';' (a DN's ';' is escaped), so the last five fields are counted from the end.
        const qsizetype n = f.size();
        AgmtMaxCsn a;
        a.suffix = f.mid(0, n - 5).join(u';');
        a.agreement = f[n - 5];
        a.host = f[n - 4];
        a.port = f[n - 3].toInt();
        a.rid = f[n - 2];
        a.maxCsn = f[n - 1].trimmed();
        out.append(a);
    }
    return out;
}

QJsonObject ReplicationCsn::parseChangesSent(const QString& text, qint64* total)
{
    static const QRegularExpression re(QStringLiteral("(\\d+):(\\d+)/(\\d+)"));
    QJsonObject out;
    *total = 0;
    for (auto it = re.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        const qint64 sent = m.captured(2).toLongLong();
        *total += sent;
        out.insert(m.captured(1),
            QJsonObject {
                { QStringLiteral("sent"), sent }, { QStringLiteral("skipped"), m.captured(3).toLongLong() } });
    }
    return out;
}

QJsonObject ReplicationCsn::parseStatusJson(const QByteArray& text)
{
    return QJsonDocument::fromJson(text).object();
}

QString ReplicationCsn::agreementUri(const QString& host, int port, const QString& transport, bool* startTls)
{
    const QString t = transport.trimmed().toLower();
    *startTls = t == u"tls" || t == u"starttls";
    const bool ldaps = t == u"ssl" || t == u"ldaps";
    const QString h = host.contains(u':') && !host.startsWith(u'[') ? u'[' + host + u']' : host;
    return (ldaps ? QStringLiteral("ldaps://") : QStringLiteral("ldap://")) + h + u':' + QString::number(port);
}

QString ReplicationCsn::normalisedUri(const QString& uri)
{
    const QUrl u(uri.trimmed().toLower());
    if (!u.isValid() || u.host().isEmpty())
        return uri.trimmed().toLower();
    const QString scheme = u.scheme();
    QString host = u.host();
    if (host == u"localhost")
        host = QStringLiteral("127.0.0.1");
    const int port = u.port(scheme == u"ldaps" ? 636 : 389);
    return scheme + QStringLiteral("://") + host + u':' + QString::number(port);
}
