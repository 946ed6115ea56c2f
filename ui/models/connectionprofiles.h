#pragma once

#include "core/ldap/ldaptarget.h"

#include <QString>
#include <QStringList>

#include <optional>

// A named LDAP connection the user saved. Everything but the password: that is never written to QSettings. With
// rememberPassword the password is in the OS keyring (Keyring) under keyringKey().
struct ConnectionProfile
{
    QString name;
    LdapTarget target; // target.password is ignored by save() and empty after load()
    bool rememberPassword = false;

    QString keyringKey() const { return keyringKey(name); }
    static QString keyringKey(const QString& name);
};

// The saved profiles, in QSettings ("ldap/profiles", an array), in the order they were first saved.
namespace ConnectionProfiles {

QStringList names();
std::optional<ConnectionProfile> load(const QString& name);
// Replaces a profile of the same name or adds one. The name must not be empty (false then).
bool save(const ConnectionProfile& profile);
bool remove(const QString& name);

} // namespace ConnectionProfiles
