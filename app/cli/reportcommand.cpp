#include "app/cli/reportcommand.h"

#include "app/cli/clicommon.h"
#include "core/store/runstore.h"
#include "ui/report/report.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QGuiApplication>

#include <cstdio>

namespace Cli {

namespace {

const char* const kDescription
    = R"(Make a report of runs: a PDF (vector charts, embedded fonts, selectable text), an HTML page
(self-contained, inline SVG charts) and a CSV of the intervals (one row per interval per run).

  report --in RUN.json [--in RUN2.json ...] [--history ID|NAME ...] --pdf OUT.pdf [--html OUT.html]
         [--csv OUT.csv] [--title TITLE] [--author NAME]

RUN.json is a record written with --json (schema dirbench.run/1); --history takes a run from the history
database ($DIRBENCH_HISTORY or the user's data directory) by its id or its name. Page 1 is a summary in plain
words: what was tested, each verdict in one sentence, the chart that matters most per run, and what to do next.
The details follow: the runs and verdicts with their sources, a section per run with its charts and tables,
sizing recommendations with their formulas, the sources of every published figure (by title and publisher), and
last the environment. Numbers in tables are printed in full; sizes in prose read "83.2 GB" (GB = 10^9).
--title and --author go on the PDF and the HTML page (a CSV has neither).
Output files are created with mode 0600 (they may name hosts). No display is needed (offscreen platform).
Exit codes: 0 written; 1 could not write an output; 2 bad arguments (nothing was written).
)";

struct Input
{
    RunRecord record;
    QString name;
};

int loadFile(const QString& path, QList<Input>& inputs)
{
    QFile f(path);
    if (!QFileInfo(path).isFile())
        return badArgument(QStringLiteral("--in"), QString(path + u": no such file"));
    if (!f.open(QIODevice::ReadOnly))
        return badArgument(QStringLiteral("--in"), QString(path + u": cannot read: " + f.errorString()));
    QString why;
    const auto rec = RunRecord::fromJsonBytes(f.readAll(), &why);
    if (!rec)
        return badArgument(QStringLiteral("--in"),
            QString(path + u": not a DirBench run record (" + QString::fromLatin1(RunRecord::Schema) + u"): " + why));
    inputs.append({ *rec, QFileInfo(path).completeBaseName() });
    return ExitOk;
}

int loadHistory(const QStringList& refs, QList<Input>& inputs)
{
    if (refs.isEmpty())
        return ExitOk;
    RunStore store;
    ProbeError err;
    if (!store.open({}, &err))
        return badArgument(QStringLiteral("--history"),
            QString(u"cannot open the history " + RunStore::defaultPath() + u": " + err.detail));
    for (const QString& ref : refs) {
        bool isId = false;
        const qint64 asId = ref.toLongLong(&isId);
        const std::optional<qint64> id = isId ? std::optional<qint64>(asId) : store.findByName(ref);
        const auto rec = id ? store.load(*id, &err) : std::nullopt;
        if (!rec)
            return badArgument(QStringLiteral("--history"), QString(ref + u": no such run in " + store.path()));
        QString name = QString(u"history #" + QString::number(*id));
        for (const auto& s : store.list())
            if (s.id == *id && !s.name.isEmpty())
                name = s.name;
        inputs.append({ *rec, name });
    }
    return ExitOk;
}

int checkOutput(const QCommandLineParser& parser, const char* option)
{
    const QString name = QString::fromLatin1(option);
    if (!parser.isSet(name))
        return ExitOk;
    const QString path = parser.value(name);
    const QFileInfo fi(path);
    if (path.isEmpty() || fi.isDir())
        return badArgument(QString(u"--" + name), QString(path + u": not a file name"));
    if (!fi.absoluteDir().exists())
        return badArgument(QString(u"--" + name), QString(path + u": the directory does not exist"));
    if (!QFileInfo(fi.absolutePath()).isWritable())
        return badArgument(QString(u"--" + name), QString(path + u": the directory is not writable"));
    return ExitOk;
}

} // namespace

int runReportCommand(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen"); // before the application: works over ssh, with or without DISPLAY
    QGuiApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("DirBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dirbench-cli"));

    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    parser.addOptions({
        { QStringLiteral("in"), QStringLiteral("A run record (JSON, dirbench.run/1); repeat for more runs."),
            QStringLiteral("RUN.json") },
        { QStringLiteral("history"), QStringLiteral("A run from the history database, by id or name; repeatable."),
            QStringLiteral("ID|NAME") },
        { QStringLiteral("pdf"), QStringLiteral("Write the PDF report here."), QStringLiteral("OUT.pdf") },
        { QStringLiteral("html"), QStringLiteral("Write the HTML report here."), QStringLiteral("OUT.html") },
        { QStringLiteral("csv"), QStringLiteral("Write the intervals as CSV here."), QStringLiteral("OUT.csv") },
        { QStringLiteral("title"), QStringLiteral("The report's title (PDF, HTML)."), QStringLiteral("TITLE"),
            ReportOptions().title },
        { QStringLiteral("author"), QStringLiteral("Who prepared the report (PDF, HTML); none by default."),
            QStringLiteral("NAME") },
    });
    QStringList args = QCoreApplication::arguments();
    args.removeAt(1); // "report"
    if (!parser.parse(args))
        return badArgument(QStringLiteral("report"), parser.errorText());
    if (helpRequested(parser))
        return printHelp(parser, QStringLiteral("report"));
    for (const char* once : { "pdf", "html", "csv", "title", "author" }) // --in and --history are repeatable
        if (parser.values(QString::fromLatin1(once)).size() > 1)
            return badArgument(u"--" + QString::fromLatin1(once), QStringLiteral("given more than once"));
    if (!parser.positionalArguments().isEmpty())
        return badArgument(QStringLiteral("report"),
            QString(
                u"unexpected argument '" + parser.positionalArguments().constFirst() + u"' (records go with --in)"));
    const QStringList files = parser.values(QStringLiteral("in"));
    const QStringList refs = parser.values(QStringLiteral("history"));
    if (files.isEmpty() && refs.isEmpty())
        return badArgument(QStringLiteral("--in"), QStringLiteral("give at least one run record (or --history)"));
    if (!parser.isSet(QStringLiteral("pdf")) && !parser.isSet(QStringLiteral("html"))
        && !parser.isSet(QStringLiteral("csv")))
        return badArgument(QStringLiteral("--pdf"), QStringLiteral("give at least one output: --pdf, --html or --csv"));
    if (parser.value(QStringLiteral("title")).trimmed().isEmpty())
        return badArgument(QStringLiteral("--title"), QStringLiteral("the title is empty"));
    if (parser.isSet(QStringLiteral("author")) && parser.value(QStringLiteral("author")).trimmed().isEmpty())
        return badArgument(QStringLiteral("--author"), QStringLiteral("the name is empty"));
    const bool titled = parser.isSet(QStringLiteral("pdf")) || parser.isSet(QStringLiteral("html"));
    for (const char* o : { "title", "author" })
        if (parser.isSet(QString::fromLatin1(o)) && !titled)
            return badArgument(u"--" + QString::fromLatin1(o),
                QStringLiteral("applies to --pdf and --html only (a CSV of intervals has no title or author)"));
    for (const char* o : { "pdf", "html", "csv" })
        if (const int rc = checkOutput(parser, o); rc != ExitOk)
            return rc;

    QList<Input> inputs;
    for (const QString& f : files)
        if (const int rc = loadFile(f, inputs); rc != ExitOk)
            return rc;
    if (const int rc = loadHistory(refs, inputs); rc != ExitOk)
        return rc;

    QList<RunRecord> records;
    ReportOptions options;
    options.title = parser.value(QStringLiteral("title")).trimmed();
    options.author = parser.value(QStringLiteral("author")).trimmed();
    for (const Input& in : std::as_const(inputs)) {
        records << in.record;
        options.runNames << in.name;
    }
    const ReportDocument doc = Report::build(records, options);
    QString error;
    if (parser.isSet(QStringLiteral("pdf")) && !Report::writePdf(doc, parser.value(QStringLiteral("pdf")), &error))
        return std::fprintf(stderr, "dirbench-cli: --pdf: %s\n", qPrintable(error)), ExitFailed;
    if (parser.isSet(QStringLiteral("html")) && !Report::writeHtml(doc, parser.value(QStringLiteral("html")), &error))
        return std::fprintf(stderr, "dirbench-cli: --html: %s\n", qPrintable(error)), ExitFailed;
    if (parser.isSet(QStringLiteral("csv"))
        && !Report::writeCsv(records, options, parser.value(QStringLiteral("csv")), &error))
        return std::fprintf(stderr, "dirbench-cli: --csv: %s\n", qPrintable(error)), ExitFailed;
    for (const char* o : { "pdf", "html", "csv" })
        if (parser.isSet(QString::fromLatin1(o)))
            std::printf("%s: %s\n", o, qPrintable(parser.value(QString::fromLatin1(o))));
    return ExitOk;
}

} // namespace Cli
