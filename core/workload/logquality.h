#pragma once

#include "core/workload/logparser.h"

#include <QString>
#include <QStringList>

#include <optional>

// What a log's reading says about the log itself, the same for `workload analyze`, `replay --log` and the
// server-log join: a log in which no operation was recognised is an error, one in which more than a tenth of the
// lines that look like operations were not understood is a warning. Never a silent zero.
namespace LogQuality {

// The formats DirBench reads, in one sentence.
QString formatsRead();

// "FILE: no operation recognised; its first line reads: ...; DirBench reads ...", or nothing when some were.
// `files` are the logs read (the first is named, with how many more), `firstLine` the first line of the first.
std::optional<QString> noOperations(
    const ParseStats& stats, const QStringList& files, const std::optional<std::string>& firstLine);

// The warning (code "log-not-understood") when more than 10 % of the operation lines were not understood.
std::optional<QString> notUnderstood(const ParseStats& stats);

} // namespace LogQuality
