#pragma once

#include <QByteArray>
#include <QString>

namespace Cli {

// Where a password may come from: never the command line. In order: --password-file FILE (first line), the
// environment variable DIRBENCH_PASSWORD, or a prompt on the terminal (echo off) when stdin is one.
// Returns false with *error naming the source when it cannot be read.
bool readPassword(const QString& passwordFile, bool needed, QByteArray* password, QString* error, QString* source);

} // namespace Cli
