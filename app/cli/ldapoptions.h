#pragma once

#include "core/ldap/loadspec.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

// The LDAP options of dirbench-cli, shared by `ldap`, `disk --under-load`, `curve`, `experiment` and `sizing`. Each
// *FromParser returns an exit code: ExitOk, or ExitBadArgs after printing a message that names the argument. An
// option that does not apply to what the command line asks for is refused, never ignored.
namespace Cli {

QList<QCommandLineOption> ldapConnectionOptions(); // --uri ... --op-timeout
QList<QCommandLineOption> ldapWorkloadOptions(); // --base ... --coalesce-reads (what and how hard)
QList<QCommandLineOption> ldapTimingOptions(); // --ramp --warmup --duration --interval --fail-after --max-errors

// The names (without dashes) of the workload and timing options a load of these operations takes.
QStringList ldapLoadOptionNames(const QList<LdapOpKind>& ops);

int numberOption(const QCommandLineParser& p, const char* name, double lo, double hi, double* out);

struct TargetUse
{
    bool needPassword = false; // a bind load: the entries share the password
    bool tlsElsewhere = false; // the TLS options serve another target of the run (experiment tls)
    QString uriOption = QStringLiteral("uri"); // the option that names the server (replication: "supplier")
};
int ldapTargetFromParser(const QCommandLineParser& p, const TargetUse& use, LdapTarget* target);

struct WorkloadUse
{
    QString op; // search, bind, modify, compare, adddel or mixed
    QString where; // how refusals name the command ("disk --under-load"); empty: "ldap OP"
    bool searchTargetSet = false; // the command sets --base and --filter itself (experiment dbsize)
};
// search, bind, modify, compare; anything else is adddel.
LdapOpKind ldapOpKind(const QString& op);
// The operations of the command line: --mix for "mixed" (nullopt after a message naming --mix), else the one.
std::optional<QList<LdapOpKind>> ldapOpsFromParser(const QCommandLineParser& p, const QString& op);
int ldapWorkloadFromParser(const QCommandLineParser& p, const WorkloadUse& use, LdapLoadSpec* spec);
// After ldapWorkloadFromParser (it reads the spec's mix and rate).
int ldapTimingFromParser(const QCommandLineParser& p, LdapLoadSpec* spec);

} // namespace Cli
