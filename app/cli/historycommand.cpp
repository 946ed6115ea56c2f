#include "app/cli/historycommand.h"

#include "app/cli/clicommon.h"
#include "app/cli/historyprinter.h"
#include "core/store/comparison.h"
#include "core/store/recordfile.h"
#include "core/store/runstore.h"

#include <QCommandLineParser>
#include <QFile>
#include <QJsonDocument>
#include <QSaveFile>

namespace Cli {

namespace {

const char* const kDescription = R"(The run history: every run of dirbench-cli and of the GUI, in a SQLite database
($DIRBENCH_HISTORY, else ~/.local/share/dirbench/history.sqlite).

  history list [--kind K] [--tag T] [--text S] [--limit N] [--offset N] [--json FILE]
  history show ID|NAME [--json FILE]        the run's metrics; --json writes its RunRecord
  history export ID|NAME --json FILE        the RunRecord, the file private to you (0600)
  history import FILE.json...               RunRecords made by dirbench-cli --json (checked first: all or none)
  history compare A B [--json FILE]         metric by metric: A, B, delta %, whether B is better or worse
  history rename ID NAME
  history tag ID TAG... [--clear]           adds tags (--clear removes the others first)
  history delete ID

NAME is the newest run with that name (runs are named with --name on any run command, or history rename).
The headline metric of each kind, and its direction: ok/s, MB/s, IOPS higher is better; latency lower is better;
a disk suite by the geometric mean of its tests; a curve by its mean ok/s over the points. ok/s counts successful
LDAP operations (ops/s counts every completed one, errors among them); a record made before successes were counted
has its ok/s derived as ops − errors when it is read, and list, show and compare say so beside the value.
)";

// Which options each operation takes (anything else is refused by name), and its arguments.
const QMap<QString, QStringList>& allowed()
{
    static const QMap<QString, QStringList> h {
        { QStringLiteral("list"),
            { QStringLiteral("kind"), QStringLiteral("tag"), QStringLiteral("text"), QStringLiteral("limit"),
                QStringLiteral("offset"), QStringLiteral("json") } },
        { QStringLiteral("show"), { QStringLiteral("json") } },
        { QStringLiteral("export"), { QStringLiteral("json") } },
        { QStringLiteral("import"), {} },
        { QStringLiteral("compare"), { QStringLiteral("json") } },
        { QStringLiteral("rename"), {} },
        { QStringLiteral("tag"), { QStringLiteral("clear") } },
        { QStringLiteral("delete"), {} },
    };
    return h;
}

QString argumentsOf(const QString& op)
{
    static const QHash<QString, QString> a { { QStringLiteral("show"), QStringLiteral(" ID|NAME") },
        { QStringLiteral("export"), QStringLiteral(" ID|NAME --json FILE") },
        { QStringLiteral("import"), QStringLiteral(" FILE.json...") },
        { QStringLiteral("compare"), QStringLiteral(" A B") }, { QStringLiteral("rename"), QStringLiteral(" ID NAME") },
        { QStringLiteral("tag"), QStringLiteral(" ID TAG...") }, { QStringLiteral("delete"), QStringLiteral(" ID") } };
    return a.value(op);
}

bool writeJson(const QJsonDocument& doc, const QString& path)
{
    const QByteArray bytes = doc.toJson(QJsonDocument::Indented);
    if (path == u"-") {
        std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
        return true;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner)
        || f.write(bytes) != bytes.size() || !f.commit()) {
        std::fprintf(
            stderr, "dirbench-cli: --json: cannot write %s: %s\n", qPrintable(path), qPrintable(f.errorString()));
        return false;
    }
    return true;
}

int needArgs(const QStringList& pos, int min, int max, const QString& usage)
{
    if (pos.size() < min || (max >= 0 && pos.size() > max))
        return badArgument(QStringLiteral("history"), QStringLiteral("usage: history ") + usage);
    return ExitOk;
}

struct Ctx
{
    QCommandLineParser& parser;
    QStringList pos; // after the operation
    RunStore& store;
    std::FILE* out;
};

int resolve(const Ctx& c, const QString& what, qint64* id)
{
    QString why;
    const auto r = resolveRun(c.store, what, &why);
    if (!r)
        return badArgument(what, why);
    *id = *r;
    return ExitOk;
}

int list(const Ctx& c)
{
    if (int rc = needArgs(
            c.pos, 0, 0, QStringLiteral("list [--kind K] [--tag T] [--text S] [--limit N] [--offset N] [--json FILE]")))
        return rc;
    RunStore::Filter f;
    f.kind = c.parser.value(QStringLiteral("kind"));
    f.tag = c.parser.value(QStringLiteral("tag"));
    f.text = c.parser.value(QStringLiteral("text"));
    if (c.parser.isSet(QStringLiteral("limit"))) {
        bool ok = false;
        f.limit = c.parser.value(QStringLiteral("limit")).toInt(&ok);
        if (!ok || f.limit <= 0)
            return badArgument(QStringLiteral("--limit"),
                QStringLiteral("'") + c.parser.value(QStringLiteral("limit"))
                    + QStringLiteral("' is not a positive whole number"));
    }
    if (c.parser.isSet(QStringLiteral("offset"))) {
        bool ok = false;
        f.offset = c.parser.value(QStringLiteral("offset")).toInt(&ok);
        if (!ok || f.offset < 0)
            return badArgument(QStringLiteral("--offset"),
                QStringLiteral("'") + c.parser.value(QStringLiteral("offset"))
                    + QStringLiteral("' is not a whole number >= 0"));
    }
    const QList<RunStore::Summary> runs = c.store.list(f);
    if (c.parser.isSet(QStringLiteral("json")))
        return writeJson(QJsonDocument(runListToJson(runs)), c.parser.value(QStringLiteral("json"))) ? ExitOk
                                                                                                     : ExitFailed;
    printRunList(c.out, runs);
    // The list is a page of --limit runs from --offset: say which, and how to see the next.
    if (const int total = c.store.count(f); runs.size() < total) {
        const int first = runs.isEmpty() ? 0 : f.offset + 1;
        const int last = f.offset + int(runs.size());
        std::fprintf(c.out, "showing %d of %d runs (%d-%d, newest first)%s\n", int(runs.size()), total, first, last,
            last < total ? qPrintable(QStringLiteral("; --offset %1 shows the next").arg(last)) : "");
    }
    return ExitOk;
}

int show(const Ctx& c, bool exporting)
{
    if (int rc = needArgs(c.pos, 1, 1,
            exporting ? QStringLiteral("export ID|NAME --json FILE") : QStringLiteral("show ID|NAME [--json FILE]")))
        return rc;
    if (exporting && !c.parser.isSet(QStringLiteral("json")))
        return badArgument(QStringLiteral("--json"), QStringLiteral("required: the file to export to"));
    qint64 id = 0;
    if (int rc = resolve(c, c.pos.first(), &id))
        return rc;
    ProbeError e;
    const auto rec = c.store.load(id, &e);
    if (!rec) {
        std::fprintf(stderr, "dirbench-cli: run %lld: %s\n", id, qPrintable(e.message()));
        return ExitFailed;
    }
    const QString path = c.parser.value(QStringLiteral("json"));
    if (!path.isEmpty()) {
        QString why;
        if (path == u"-")
            return writeRecord(*rec, path) ? ExitOk : ExitFailed;
        if (!RecordFile::write(*rec, path, &why)) {
            std::fprintf(stderr, "dirbench-cli: --json: %s\n", qPrintable(why));
            return ExitFailed;
        }
        if (exporting) {
            std::fprintf(c.out, "exported run %lld to %s\n", id, qPrintable(path));
            return ExitOk;
        }
    }
    const auto s = c.store.summary(id);
    printRun(c.out, id, s ? &*s : nullptr, *rec);
    return ExitOk;
}

int import(const Ctx& c)
{
    if (int rc = needArgs(c.pos, 1, -1, QStringLiteral("import FILE.json...")))
        return rc;
    QList<RunRecord> records;
    for (const QString& path : c.pos) {
        QString why;
        auto rec = RecordFile::read(path, &why);
        if (!rec) {
            std::fprintf(stderr, "dirbench-cli: import: %s (nothing was imported)\n", qPrintable(why));
            return ExitBadArgs;
        }
        records << *rec;
    }
    for (qsizetype i = 0; i < records.size(); ++i) {
        ProbeError e;
        const qint64 id = c.store.save(records.at(i), {}, &e);
        if (!id) {
            std::fprintf(stderr, "dirbench-cli: import: %s: %s\n", qPrintable(c.pos.at(i)), qPrintable(e.message()));
            return ExitFailed;
        }
        std::fprintf(c.out, "imported %s as run %lld\n", qPrintable(c.pos.at(i)), id);
    }
    return ExitOk;
}

int compare(const Ctx& c)
{
    if (int rc = needArgs(c.pos, 2, 2, QStringLiteral("compare A B [--json FILE]")))
        return rc;
    qint64 ids[2] = {};
    std::optional<RunRecord> recs[2];
    for (int i = 0; i < 2; ++i) {
        if (int rc = resolve(c, c.pos.at(i), &ids[i]))
            return rc;
        recs[i] = c.store.load(ids[i]);
        if (!recs[i])
            return badArgument(c.pos.at(i), QStringLiteral("the run's record cannot be read"));
    }
    const QList<Comparison::Delta> deltas = Comparison::compare(*recs[0], *recs[1]);
    if (c.parser.isSet(QStringLiteral("json"))) {
        const QJsonObject o { { QStringLiteral("a"), double(ids[0]) }, { QStringLiteral("b"), double(ids[1]) },
            { QStringLiteral("a_kind"), recs[0]->kind }, { QStringLiteral("b_kind"), recs[1]->kind },
            { QStringLiteral("metrics"), deltasToJson(deltas) } };
        if (!writeJson(QJsonDocument(o), c.parser.value(QStringLiteral("json"))))
            return ExitFailed;
        if (c.parser.value(QStringLiteral("json")) == u"-")
            return ExitOk;
    }
    std::fprintf(c.out, "A: run %lld (%s, %s)\nB: run %lld (%s, %s)\n", ids[0], qPrintable(recs[0]->kind),
        qPrintable(recs[0]->started.toString(Qt::ISODate)), ids[1], qPrintable(recs[1]->kind),
        qPrintable(recs[1]->started.toString(Qt::ISODate)));
    if (recs[0]->kind != recs[1]->kind)
        std::fprintf(c.out, "note: runs of different kinds; only metrics both hold are compared\n");
    printDeltas(c.out, deltas);
    return ExitOk;
}

int modify(const Ctx& c, const QString& op)
{
    if (op == u"delete") {
        if (int rc = needArgs(c.pos, 1, 1, QStringLiteral("delete ID")))
            return rc;
        bool ok = false;
        const qint64 id = c.pos.first().toLongLong(&ok);
        if (!ok || !c.store.remove(id))
            return badArgument(c.pos.first(), QStringLiteral("no run with this id (delete takes an id, not a name)"));
        std::fprintf(c.out, "deleted run %lld\n", id);
        return ExitOk;
    }
    if (int rc = needArgs(c.pos, op == u"rename" ? 2 : 1, op == u"rename" ? 2 : -1,
            op == u"rename" ? QStringLiteral("rename ID NAME") : QStringLiteral("tag ID TAG... [--clear]")))
        return rc;
    qint64 id = 0;
    if (int rc = resolve(c, c.pos.first(), &id))
        return rc;
    if (op == u"rename") {
        const QString name = c.pos.at(1).trimmed();
        if (name.isEmpty())
            return badArgument(QStringLiteral("NAME"), QStringLiteral("must not be empty"));
        if (!c.store.rename(id, name))
            return ExitFailed;
        std::fprintf(c.out, "run %lld is now '%s'\n", id, qPrintable(name));
        return ExitOk;
    }
    QStringList tags = c.parser.isSet(QStringLiteral("clear")) ? QStringList() : c.store.summary(id)->tags;
    for (const QString& t : c.pos.mid(1)) {
        if (t.trimmed().isEmpty() || t.contains(u','))
            return badArgument(QStringLiteral("TAG"),
                QStringLiteral("'") + t + QStringLiteral("': a tag is a non-empty word without commas"));
        if (!tags.contains(t.trimmed()))
            tags << t.trimmed();
    }
    if (!c.store.setTags(id, tags))
        return ExitFailed;
    std::fprintf(c.out, "run %lld tags: %s\n", id, qPrintable(tags.join(QStringLiteral(", "))));
    return ExitOk;
}

} // namespace

int runHistoryCommand(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString op = args.size() > 1 ? args.at(1) : QString();
    QCommandLineParser parser;
    parser.setApplicationDescription(QString::fromUtf8(kDescription));
    parser.addHelpOption();
    const QList<QCommandLineOption> options {
        { QStringLiteral("kind"), QStringLiteral("list: runs of this kind (disk, ldap-search, curve, ...)."),
            QStringLiteral("K") },
        { QStringLiteral("tag"), QStringLiteral("list: runs with this tag."), QStringLiteral("T") },
        { QStringLiteral("text"), QStringLiteral("list: runs whose name, kind or host contains S."),
            QStringLiteral("S") },
        { QStringLiteral("limit"), QStringLiteral("list: at most N runs, newest first (default 500)."),
            QStringLiteral("N") },
        { QStringLiteral("offset"),
            QStringLiteral("list: skip the N newest matching runs first (the next page: --offset 500)."),
            QStringLiteral("N") },
        { QStringLiteral("json"), QStringLiteral("Write JSON to FILE ('-' = stdout)."), QStringLiteral("FILE") },
        { QStringLiteral("clear"), QStringLiteral("tag: remove the run's other tags first.") }
    };
    parser.addOptions(options);
    if (op.isEmpty() || op == u"--help" || op == u"-h" || op == u"--help-all")
        return printHelp(parser, QStringLiteral("history OPERATION"), op.isEmpty());
    if (!allowed().contains(op))
        return badArgument(QStringLiteral("history"),
            QStringLiteral("unknown operation '") + op
                + QStringLiteral("' (list, show, export, import, compare, rename, tag, delete)"));
    args.removeAt(1);
    if (!parser.parse(args)) {
        std::fprintf(stderr, "dirbench-cli history %s: %s\n", qPrintable(op), qPrintable(parser.errorText()));
        return ExitBadArgs;
    }
    if (helpRequested(parser))
        return printUsage(QStringLiteral("history ") + op, QString::fromUtf8(kDescription),
            onlyOptions(options, allowed().value(op)), argumentsOf(op));
    if (int rc = refuseRepeated(parser))
        return rc;
    if (int rc = refuseForeign(parser, QStringLiteral("history"), op, allowed()))
        return rc;
    RunStore store;
    ProbeError e;
    if (!store.open({}, &e)) {
        std::fprintf(stderr, "dirbench-cli: history: %s\n", qPrintable(e.message()));
        return ExitFailed;
    }
    const Ctx c { parser, parser.positionalArguments(), store,
        humanStream(parser.value(QStringLiteral("json")) == u"-") };
    if (op == u"list")
        return list(c);
    if (op == u"show" || op == u"export")
        return show(c, op == u"export");
    if (op == u"import")
        return import(c);
    if (op == u"compare")
        return compare(c);
    return modify(c, op);
}

} // namespace Cli
