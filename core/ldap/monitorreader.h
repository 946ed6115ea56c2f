#pragma once

#include "core/common/proberror.h"

#include <QJsonObject>
#include <QMap>
#include <QString>

class LdapSession;

// Reads a server's own counters (cn=monitor) as flat name -> number. What the server does not expose is absent
// from the map, never 0. Counters (monotonic) are turned into per-interval deltas by the caller; gauges are
// reported as read. Keys are the same across vendors where the meaning is the same ("search_completed",
// "connections_current", "threads_active", "read_waiters", ...).
class MonitorReader
{
public:
    explicit MonitorReader(QString kind); // "openldap" | "389ds" | anything else (reads nothing)

    bool supported() const;
    QMap<QString, double> read(LdapSession& session, ProbeError* error);
    static bool isCounter(const QString& key);
    // OpenLDAP's version is only in cn=Monitor (monitoredInfo of the base entry).
    static QString openLdapVersion(LdapSession& session);
    // The delta between two readings over `seconds`: counters become rates ("search_completed_per_s") and
    // cumulative ratios become interval ratios (entry cache hits/tries); gauges are kept as read.
    static QJsonObject intervalJson(
        const QMap<QString, double>& before, const QMap<QString, double>& after, double seconds);

private:
    QMap<QString, double> readOpenLdap(LdapSession& s, ProbeError* error);
    QMap<QString, double> read389(LdapSession& s, ProbeError* error);

    QString m_kind;
    QString m_backendMonitorDn; // 389-ds
};
