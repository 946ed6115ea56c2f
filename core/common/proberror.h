#pragma once

#include <QString>

#include <functional>

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
    QString cause; // what a front end can offer a remedy for: "tls" (a handshake libldap refused), or ""

    bool isError() const { return kind != Kind::None; }
    // One sentence a user understands. The inputs a detail refers to (ref()) are named as the command line names
    // them (--db-size-mb): this is what the CLI prints.
    QString message() const;
    // The detail with each input it refers to named by `name` (a window: the field's label).
    QString detailNaming(const std::function<QString(const QString& field)>& name) const;
    // The detail with each input named as the command line names it.
    QString cliDetail() const;

    // A reference to an input inside a detail: "give " + ref("db-size-mb") + " or " + ref("ldif"). Core says which
    // input it means (the field id, the CLI's option name without dashes); each front end names it its own way.
    static QString ref(const QString& field);

    static ProbeError invalid(const QString& field, const QString& detail);
    static ProbeError fromErrno(int err, const QString& what);
};
