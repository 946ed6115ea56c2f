#include "app/cli/mergecommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/ldapprinter.h"
#include "core/agents/agentmerge.h"
#include "core/store/recordfile.h"

#include <QCommandLineParser>
#include <QFileInfo>

namespace Cli {

namespace {

const char* const kDescription = R"(Merge the records of LDAP loads run together from several hosts by any launcher
(cron, Ansible, a scheduler) into one record, exactly as 'ldap ... --agents' merges live: by interval index,
counts summed, latency histograms merged bucket-wise, percentiles read from the merged histogram (never
averaged). Each record must come from a run started with --start-at (the same instant) and
--interval-histograms; records of another kind, interval or start are refused, naming the file.
The merged record is printed as a load summary and written with --json (it is not saved in the history).
)";

} // namespace

int runMergeCommand(const QStringList& args)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addOption(QCommandLineOption(
        QStringLiteral("in"), QStringLiteral("A record to merge (repeatable, two or more)."), QStringLiteral("FILE")));
    parser.addOption(QCommandLineOption(QStringLiteral("json"),
        QStringLiteral("Write the merged record to FILE ('-' = stdout, and nothing else goes to stdout)."),
        QStringLiteral("FILE")));
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli merge: %s\n", qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("merge"));
    if (!parser.positionalArguments().isEmpty())
        return badArgument(parser.positionalArguments().constFirst(), QStringLiteral("unexpected argument (use --in)"));
    const QStringList files = parser.values(QStringLiteral("in"));
    if (files.size() < 2)
        return badArgument(QStringLiteral("--in"), QStringLiteral("two or more records are needed"));
    QList<RunRecord> records;
    QStringList names;
    for (const QString& f : files) {
        QString why;
        const auto r = RecordFile::read(f, &why);
        if (!r)
            return badArgument(QStringLiteral("--in"), why);
        if (!r->kind.startsWith(QLatin1String("ldap-")) || r->kind == u"ldap-probe")
            return badArgument(QStringLiteral("--in"),
                f + QStringLiteral(": a ") + r->kind + QStringLiteral(" record, not an LDAP load"));
        records << *r;
        names << QFileInfo(f).fileName();
    }
    QString why;
    const auto merged = Agents::mergeRecords(records, names, &why);
    if (!merged)
        return badArgument(QStringLiteral("--in"), why);
    const QString json = parser.value(QStringLiteral("json"));
    printLoadSummary(humanStream(json == u"-"), *merged);
    if (!json.isEmpty() && !writeRecord(*merged, json))
        return ExitFailed;
    return ExitOk;
}

} // namespace Cli
