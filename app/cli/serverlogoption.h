#pragma once

#include "core/common/runrecord.h"

#include <QCommandLineOption>
#include <QCommandLineParser>

#include <cstdio>

namespace Cli {

// --server-log FILE on the LDAP loads: the target server's access log (389-ds with buffering off, OpenLDAP
// `stats` written to a file), read for the part written during the load and put beside the client's latency
// (the record's `server_log`, core/workload/serverlogview.h).
struct ServerLogOption
{
    QString path;
    qint64 offset = -1; // the log's size before the load: what comes after it is the load's

    bool isSet() const { return !path.isEmpty(); }
};

QCommandLineOption serverLogCommandLineOption();
// Exit 2 naming --server-log when FILE cannot be read; the offset is taken now, before the load.
int serverLogFromParser(const QCommandLineParser& p, ServerLogOption* out);
// Reads the load's part of the log into the record's server_log and prints one line; a log that cannot be read
// is a warning of the run, never its failure.
void attachServerLog(const ServerLogOption& o, RunRecord& rec, std::FILE* out);

} // namespace Cli
