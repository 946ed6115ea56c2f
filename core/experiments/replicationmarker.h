#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"

#include <QByteArray>
#include <QList>
#include <QString>

// The replication probe's marker entry on the supplier: made an organizationalRole when it does not exist (its
// RDN must then be cn=...), else its description values kept; restore() removes what it made or puts the values
// back, over a connection of its own, and the destructor does it when restore() was not called (a failure, a
// cancel).
class ReplicationMarker
{
public:
    ReplicationMarker(const LdapTarget& supplier, const QString& dn);
    ~ReplicationMarker();
    ReplicationMarker(const ReplicationMarker&) = delete;
    ReplicationMarker& operator=(const ReplicationMarker&) = delete;

    // Error field "marker-dn" for an entry that cannot be made (no cn= RDN), else the LDAP error.
    ProbeError prepare();
    bool created() const { return m_created; }
    // Empty when done, else what could not be undone (for the record's warnings).
    QString restore();

    // The highest sequence number among description values ("12" -> 12); 0 when there is none.
    static qint64 highest(const QList<QByteArray>& values);

private:
    LdapTarget m_target;
    QString m_dn;
    bool m_prepared = false;
    bool m_created = false;
    QList<QByteArray> m_saved;
};
