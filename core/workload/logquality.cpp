#include "core/workload/logquality.h"

namespace LogQuality {

namespace {

QString shown(const std::string& line)
{
    QString s = QString::fromUtf8(line.data(), qsizetype(std::min<size_t>(line.size(), 160)));
    if (line.size() > 160)
        s += QStringLiteral("...");
    return u'"' + s + u'"';
}

} // namespace

QString formatsRead()
{
    return QStringLiteral(
        "389-ds access logs (1.3 to 3.x), OpenLDAP `stats` lines (2.4 to 2.6: its log file or `slapd -d` output "
        "with a hexadecimal prefix, syslog RFC 3164 or RFC 5424, RFC 3339 stamps, or no prefix) and "
        "slapo-accesslog LDIF");
}

std::optional<QString> noOperations(
    const ParseStats& stats, const QStringList& files, const std::optional<std::string>& firstLine)
{
    if (stats.operationsRecognised)
        return std::nullopt;
    QString file = files.isEmpty() ? QStringLiteral("the log") : files.first();
    if (file == u"-")
        file = QStringLiteral("standard input");
    if (files.size() > 1)
        file += QStringLiteral(" (and %1 more)").arg(files.size() - 1);
    const QString first
        = !firstLine ? QStringLiteral("it is empty") : QStringLiteral("its first line reads %1").arg(shown(*firstLine));
    return QStringLiteral("%1: no operation recognised in %2 lines; %3. DirBench reads %4")
        .arg(file)
        .arg(stats.lines)
        .arg(first, formatsRead());
}

std::optional<QString> notUnderstood(const ParseStats& stats)
{
    if (!stats.unknownLines || stats.unknownLines * 10 <= stats.eventLines)
        return std::nullopt;
    return QStringLiteral("%1 of %2 operation lines (%3 %) were not understood and are not counted; the first: %4")
        .arg(stats.unknownLines)
        .arg(stats.eventLines)
        .arg(100.0 * double(stats.unknownLines) / double(std::max<uint64_t>(stats.eventLines, 1)), 0, 'f', 1)
        .arg(shown(stats.unknownExample));
}

} // namespace LogQuality
