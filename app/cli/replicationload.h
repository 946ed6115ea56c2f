#pragma once

#include "core/common/runrecord.h"
#include "core/experiments/replication.h"

#include <QCommandLineOption>
#include <QCommandLineParser>
#include <QList>

#include <cstdio>

// `dirbench-cli replication` beside a write load (issue 13): the LDAP load options (ldapoptions.h, as `ldap mixed`
// takes them) on the supplier, their help, their parsing and the summary lines they add.
namespace Cli {

// The workload and timing options of `ldap mixed`, but --duration (the probe's own, shared with the load).
QList<QCommandLineOption> replicationLoadOptions();
QString replicationLoadHelp(); // a paragraph of the command's --help
bool replicationLoadNeedsPassword(const QCommandLineParser& p); // a bind in --mix: the entries' password
// After the supplier and --duration are parsed: --interval and --fail-after (the probe's, also without a load);
// with --mix the load, attached to the spec; without it, any other load option is refused.
int replicationLoadFromParser(const QCommandLineParser& p, ReplicationSpec* spec);
// The load's summary, the lag per ramp step and the knee (nothing without a load).
void printReplicationLoadSummary(std::FILE* out, const RunRecord& rec);

} // namespace Cli
