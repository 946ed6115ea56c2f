#pragma once

#include "core/common/proberror.h"
#include "core/sandbox/slapdconfig.h"

#include <QString>
#include <QStringList>

class RunContext;

// One slapd of a sandbox and the steps that make it run: its directories, configuration, TLS certificate, data
// (slapadd) and process. SlapdSandbox::start() runs them in that order for each server of its topology.
struct SlapdNode
{
    QString dir; // holds slapd.conf, db/, the ldapi socket, slapd.pid
    int port = 0; // ldap:// on 127.0.0.1
    int tlsPort = 0; // ldaps:// on 127.0.0.1, 0 = none
    QStringList extraUrls; // further listeners (SandboxOptions::extraListenUris)
    SlapdConfig::Params params;
    qint64 pid = 0; // set by waitReady()
    QString statsLog; // non-empty: slapd runs in the foreground (-d stats), its stderr appended to this file

    QString conf() const { return dir + QStringLiteral("/slapd.conf"); }
    QString socketPath() const { return dir + QStringLiteral("/ldapi"); }
    QString uri() const { return QStringLiteral("ldap://127.0.0.1:%1/").arg(port); }
    QString ldapsUri() const { return tlsPort ? QStringLiteral("ldaps://127.0.0.1:%1/").arg(tlsPort) : QString(); }
};

namespace SlapdSteps {

// The programs a sandbox needs (slapd, slapadd; openssl with TLS) and the schema directory; Io when missing.
struct Programs
{
    QString slapd, slapadd, openssl, schemaDir;
};
ProbeError findPrograms(bool tls, Programs* out);

// Directories: DIR/db, and the socket path checked (parent names the directory for the error).
ProbeError directories(const SlapdNode& node, const QString& parent);
// Configuration: the params every server of a sandbox has (paths, schema, modules, the admin's password hash).
void baseParams(SlapdNode& node, const Programs& programs, const QByteArray& hash, int entries);
// TLS: a self-signed RSA-2048 certificate for 127.0.0.1/localhost in DIR/tls.crt (key DIR/tls.key, 0600).
ProbeError makeCertificate(SlapdNode& node, const QString& openssl, RunContext* ctx);
ProbeError writeConfig(const SlapdNode& node);
// Data: LdifGenerator's entries (plus the lockout policy) loaded by slapadd; extraArgs go to slapadd (-S, -w).
ProbeError loadData(const SlapdNode& node, const QString& slapadd, int entries, const QByteArray& hash,
    bool lockoutPolicy, const QStringList& extraArgs, RunContext* ctx);
// Process: slapd -f DIR/slapd.conf -h "ldap://… ldapi://… [ldaps://…]"; *portTaken when it failed because its
// port was in use. With statsLog: slapd -d stats, detached, stdin and stdout /dev/null, stderr appended to the
// file (never a pipe), returned once it listens or is gone.
ProbeError launch(const SlapdNode& node, const QString& slapd, RunContext* ctx, bool* portTaken);
// Waits until the daemon accepts connections on every listener and sets node.pid.
ProbeError waitReady(SlapdNode& node, RunContext* ctx);
// SIGTERM (then SIGKILL) to every slapd started with this configuration file; false if one would not die.
bool terminate(const QString& conf);

} // namespace SlapdSteps
