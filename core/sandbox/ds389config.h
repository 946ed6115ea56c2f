#pragma once

#include "core/common/proberror.h"

#include <QByteArray>
#include <QString>

#include <optional>

// The 389 Directory Server sandbox's configuration, made the way dscreate makes it before its first start: the
// package's template-dse.ldif and template-suffix-db.ldif with their %placeholders% filled in, plus what the
// sandbox needs (loopback only, access log off unless asked, no password-hash upgrade on bind, optional fixed entry
// cache). No lib389, no systemd and nothing under /etc/dirsrv: every path is inside the sandbox directory.
namespace Ds389Config {

struct Params
{
    QString dir; // the sandbox directory (absolute)
    QString configDir; // DIR/slapd-NAME: dse.ldif, schema/, certmap.conf, slapd-collations.conf, the NSS db
    QString ldapiPath; // the ldapi:// socket
    QString user; // nsslapd-localuser: the server runs as this user (the caller's)
    QByteArray rootPasswordHash; // {SSHA}... of cn=Directory Manager
    QString suffix = QStringLiteral("dc=example,dc=com");
    QString backend = QStringLiteral("userRoot");
    int port = 0;
    // nsslapd-cachememsize of the backend (> 0). ns-slapd ldif2db sizes its entry queue by it: at 389's minimum
    // (512,000 bytes, what it takes when none is set) an import of 1 KB entries crawls at about 200 entries/s.
    qint64 cacheMemBytes = 64 << 20;
    bool autosizeOff = false; // nsslapd-cache-autosize: 0 (else 389-ds sizes its caches itself at startup)
    // The access log on (DIR/log/access) and unbuffered, so each line is in the file when the operation ends:
    // the server's own view of each operation (workload analyze). Off by default: it costs the server time.
    bool accessLog = false;
};

// The entry cache an import of `entries` entries wants: 12 KB each, at least 64 MiB, at most 2 GiB.
qint64 importCacheBytes(qint64 entries);

extern const char* const kRootDn; // cn=Directory Manager

// /usr/share/dirsrv (template-dse.ldif under data/, the system schema under schema/), or empty if absent.
QString dataDir();
// /etc/dirsrv/config (certmap.conf, slapd-collations.conf), or empty.
QString sysconfConfigDir();

// dse.ldif: nullopt with *error when a template is missing or has a placeholder this code does not know.
std::optional<QByteArray> dseLdif(const Params& p, ProbeError* error);
// The text with %key% placeholders filled in from (key, value) pairs; nullopt and *unknown set for a key not in
// the list. One blank line between entries, comment lines dropped.
std::optional<QByteArray> fillTemplate(
    const QByteArray& text, const QList<QPair<QByteArray, QByteArray>>& values, QByteArray* unknown);
// Adds attribute lines at the end of the entry `dn` (exact, case-insensitive match of its dn: line).
bool addToEntry(QByteArray& ldif, const QByteArray& dn, const QByteArray& lines);

// The ACI the sandbox puts on its suffix: anyone reads everything but userPassword (389-ds returns nothing to
// anonymous searches without one, and says nothing about it).
QByteArray readAci();

// Replaces the value of a single-valued attribute that occurs once in a dse.ldif on disk (nsslapd-port,
// nsslapd-cachememsize); the server must be stopped.
bool setValue(const QString& dseFile, const QString& attr, const QByteArray& value, ProbeError* error);

} // namespace Ds389Config
