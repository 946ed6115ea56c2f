#pragma once

#include "core/ldap/ldapsession.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>
#include <vector>

// The undo of a replay's writes. Before the first write, every existing entry the replay will modify or delete is
// read (its user attributes, values in order); at the end — also after a cancel or a failure — each is put back as
// it was (changed attributes replaced by their old values, removed ones removed, a deleted entry added again, an
// entry that did not exist removed), and every entry the replay added is removed (the plan's, and any
// uid=dirbench-replay-TAG-* left under the write base).
class ReplayWrites
{
public:
    struct Outcome
    {
        int restored = 0; // entries put back (or found unchanged)
        int removed = 0; // added entries removed
        QStringList failures; // what could not be undone, each a sentence
    };

    // Reads the entries; an entry that does not exist is remembered as absent.
    ProbeError snapshot(LdapSession& session, const std::vector<QByteArray>& dns);
    Outcome restore(LdapSession& session, const std::vector<QByteArray>& added, const QString& writeBase,
        const QString& runTag) const;
    int snapshotCount() const { return int(m_before.size()); }

private:
    using Attributes = QMap<QString, QList<QByteArray>>;
    static std::optional<Attributes> read(LdapSession& session, const QString& dn, ProbeError* error);
    static QString restoreOne(LdapSession& session, const QString& dn, const std::optional<Attributes>& before);

    std::vector<std::pair<QString, std::optional<Attributes>>> m_before;
};
