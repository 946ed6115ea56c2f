#pragma once

#include "core/ldap/loadspec.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

// The LDAP options of dirbench-cli, shared by `ldap` and `disk --under-load`. Each *FromParser returns an exit
// code: ExitOk, or ExitBadArgs after printing a message that names the argument.
namespace Cli {

QList<QCommandLineOption> ldapConnectionOptions(); // --uri ... --op-timeout
QList<QCommandLineOption> ldapWorkloadOptions(); // --base ... --no-server-counters (what and how hard)
QList<QCommandLineOption> ldapTimingOptions(); // --ramp --warmup --duration --interval --fail-after --max-errors

int numberOption(const QCommandLineParser& p, const char* name, double lo, double hi, double* out);
int ldapTargetFromParser(const QCommandLineParser& p, bool needPassword, LdapTarget* target);
// op: search, bind, modify, compare, adddel or mixed.
int ldapWorkloadFromParser(const QCommandLineParser& p, const QString& op, LdapLoadSpec* spec);
int ldapTimingFromParser(const QCommandLineParser& p, LdapLoadSpec* spec);

} // namespace Cli
