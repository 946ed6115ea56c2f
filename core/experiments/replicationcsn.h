#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

// The servers' own replication state as text, decoded (issue 13, "what the servers say"). Pure functions, no I/O.
namespace ReplicationCsn {

// OpenLDAP contextCSN "YYYYmmddHHMMSS.uuuuuuZ#cccccc#sid#mmmmmm": microseconds since the epoch (UTC), -1 when
// it is not one. Resolution 1 us (libraries/libldap/util-int.c).
qint64 openLdapTimeUs(const QString& csn);
// The server ID field ("000"), empty when it is not a CSN.
QString openLdapSid(const QString& csn);
// 389-ds CSN: 8 hex digits of epoch seconds, 4 of sequence, 4 of replica id, 4 of sub-sequence. Microseconds
// since the epoch (a whole second), -1 when it is not one. Resolution 1 s.
qint64 ds389TimeUs(const QString& csn);

// One nsds50ruv element: "{replica <rid> <url>} <mincsn> <maxcsn>" (an element with no change yet has no CSNs).
struct RuvElement
{
    QString rid;
    QString url;
    QString minCsn;
    QString maxCsn;
};
// The elements of nsds50ruv values; the "{replicageneration} ..." value and what does not parse are left out.
QList<RuvElement> parseRuv(const QList<QByteArray>& values);

// nsds5AgmtMaxCSN "suffix;agreement;host;port;consumer-rid;maxcsn" (maxcsn may be "unavailable").
struct AgmtMaxCsn
{
    QString suffix, agreement, host, rid, maxCsn;
    int port = 0;
};
QList<AgmtMaxCsn> parseAgmtMaxCsn(const QList<QByteArray>& values);

// nsds5replicaChangesSentSinceStartup "rid:sent/skipped rid:sent/skipped ...": {rid: {sent, skipped}}; the total
// sent in *total.
QJsonObject parseChangesSent(const QString& text, qint64* total);

// nsds5replicaLastUpdateStatusJSON as an object (empty when it is not JSON).
QJsonObject parseStatusJson(const QByteArray& text);

// The URI an agreement points at: nsDS5ReplicaTransportInfo LDAP -> ldap://, SSL/LDAPS -> ldaps://, TLS/StartTLS ->
// ldap:// with *startTls set. An IPv6 host is bracketed.
QString agreementUri(const QString& host, int port, const QString& transport, bool* startTls);
// A URI in one form for comparing: lower case, no trailing slash, localhost as 127.0.0.1, the port always written.
QString normalisedUri(const QString& uri);

} // namespace ReplicationCsn
