#pragma once

#include <QString>

// What went wrong, for people and for scripts: a kind, the native code (errno, LDAP result code) and detail.
struct ProbeError
{
    enum class Kind
    {
        None,
        InvalidSpec,
        Io,
        NoSpace,
        Permission,
        ReadOnly,
        Ldap,
        Timeout,
        Cancelled,
        Internal
    };

    Kind kind = Kind::None;
    int nativeCode = 0;
    QString field; // for InvalidSpec: the argument or form field at fault
    QString detail; // technical detail

    bool isError() const { return kind != Kind::None; }
    // One sentence a user understands.
    QString message() const;

    static ProbeError invalid(const QString& field, const QString& detail);
    static ProbeError fromErrno(int err, const QString& what);
};
