// 1,000 generated bad command lines across every dirbench-cli command: each must be refused before any work, by a
// process that exits normally with code 2, names (one of) the argument(s) it broke on stderr, prints nothing on
// stdout (--json - owns it) and leaves nothing behind. The generator is deterministic (the seed is printed): it takes
// the known-good line of a command (badinputcatalog.h) and breaks one to three of its arguments — a value invalid for
// the argument's kind, an unknown option, a missing value, an option given twice, a stray word. Then the options that
// do not apply to a command, operation, profile or mode: each is refused by name (issue 10: "every option does what
// it says, or is refused"). And every command and subcommand answers --help with its own usage, running nothing.
#include "badinputcatalog.h"
#include "core/workload/workloadfile.h"

#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace BadInput;

namespace {

constexpr quint32 kSeed = 20261130;
constexpr int kCases = 1000;
constexpr int kParallel = 8;
constexpr int kCaseTimeoutMs = 30000;

struct Case
{
    int index = 0;
    QString command;
    QStringList argv;
    QStringList named; // the arguments broken: stderr must name one of them
    QStringList faults; // what was done, for the report of a failure
};

struct Outcome
{
    bool finished = false;
    QProcess::ExitStatus status = QProcess::NormalExit;
    int code = -1;
    QByteArray out, err;
};

// One argument of a command line being built: the option and its value (no value: a flag, or a value taken away).
struct Slot
{
    QString option;
    QString value;
    bool hasValue = true;
    Kind kind = Kind::Count;
    bool breakable = true;
    bool broken = false;
};

// `help` is the command's --help text: an option it lists is not unknown to it.
Case generate(const Command& cmd, const QString& help, int index, QRandomGenerator& rng, const QString& scratch)
{
    Case c;
    c.index = index;
    c.command = cmd.name;
    QList<Slot> parts;
    for (const Arg& a : cmd.args)
        parts << Slot { a.option, a.good, !a.good.isEmpty(), a.kind, a.breakable && !a.good.isEmpty(), false };
    const int roll = int(rng.bounded(100));
    const int faults = roll < 70 ? 1 : roll < 92 ? 2 : 3;
    QString stray;
    bool missingDone = false;
    for (int f = 0; f < faults; ++f) {
        const int kind = int(rng.bounded(100));
        QList<int> values; // parts with a value that is still intact
        QList<int> breakable;
        for (int i = 0; i < parts.size(); ++i) {
            if (parts[i].hasValue && !parts[i].broken)
                values << i;
            if (parts[i].breakable && !parts[i].broken)
                breakable << i;
        }
        if (kind < 70 && !breakable.isEmpty()) { // a value invalid for the argument's kind
            Slot& s = parts[breakable[int(rng.bounded(qsizetype(breakable.size())))]];
            const QStringList bad = badValues(s.kind, scratch);
            s.value = bad[int(rng.bounded(qsizetype(bad.size())))];
            s.broken = true;
            c.named << s.option;
            c.faults << s.option + QStringLiteral(" '") + s.value + u'\'';
        } else if (kind < 78) { // an unknown option: made up, or one that belongs to another command
            static const QStringList foreign { "--bogus", "--qd", "--profile", "--mix", "--tls-uri", "--ldif",
                "--points", "--entries", "--cache-entries", "--lead", "--server-threads" };
            QString o = foreign[int(rng.bounded(qsizetype(foreign.size())))];
            if (help.contains(o + u' ') || help.contains(o + u'\n'))
                o = QStringLiteral("--no-such-option");
            parts.insert(
                int(rng.bounded(qsizetype(parts.size() + 1))), Slot { o, "1", true, Kind::Count, false, true });
            c.named << o;
            c.faults << QStringLiteral("unknown ") + o;
        } else if (kind < 86 && !values.isEmpty() && !missingDone) { // a value left out (the option moved last)
            Slot s = parts.takeAt(values[int(rng.bounded(qsizetype(values.size())))]);
            s.hasValue = false;
            s.broken = true;
            s.breakable = false;
            parts.append(s);
            missingDone = true;
            c.named << s.option;
            c.faults << QStringLiteral("no value after ") + s.option;
        } else if (kind < 94 && !values.isEmpty()) { // the same option twice
            Slot twice = parts[values[int(rng.bounded(qsizetype(values.size())))]];
            twice.broken = true;
            twice.breakable = false;
            parts.insert(int(rng.bounded(qsizetype(parts.size() + 1))), twice);
            c.named << twice.option;
            c.faults << twice.option + QStringLiteral(" twice");
        } else { // a stray word where no positional argument is taken
            stray = QStringLiteral("stray%1").arg(index);
            c.named << stray;
            c.faults << QStringLiteral("stray word");
        }
    }
    // A missing value must stay last, or the next option would become the value.
    std::stable_partition(parts.begin(), parts.end(), [](const Slot& s) { return s.hasValue || s.value.isEmpty(); });
    c.argv = cmd.words;
    if (!stray.isEmpty())
        c.argv << stray;
    for (const Slot& s : std::as_const(parts)) {
        c.argv << s.option;
        if (s.hasValue)
            c.argv << s.value;
    }
    return c;
}

bool namesOne(const QByteArray& err, const QStringList& named)
{
    for (const QString& n : named) {
        const QString bare = n.startsWith(QLatin1String("--")) ? n.mid(2) : n;
        if (err.contains(n.toUtf8()) || err.contains(('\'' + bare + '\'').toUtf8())
            || err.contains(('"' + bare + '"').toUtf8()))
            return true;
        // QCommandLineParser: "Unknown options: mix, server-threads."
        const int at = err.indexOf("Unknown options: ");
        if (at >= 0 && err.mid(at).split('\n').first().contains(bare.toUtf8()))
            return true;
    }
    return false;
}

// Every path under `dir` (relative), to see that a refused command left nothing.
QStringList tree(const QString& dir)
{
    QStringList out;
    QDirIterator it(
        dir, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext())
        out << QDir(dir).relativeFilePath(it.next());
    out.sort();
    return out;
}

} // namespace

class TstCliBadInput : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void goodLinesAreAccepted();
    void unrecognisedLogFails();
    void thousandBadLinesAreRefused();
    void inapplicableOptionsAreRefused();
    void everySubcommandAnswersHelp();
    void cleanupTestCase();

private:
    QList<Outcome> runAll(const QList<QStringList>& argvs, const std::function<void(int)>& afterBatch = {});
    QStringList lineOf(
        const QString& command, const QList<QPair<QString, QString>>& set, const QStringList& drop = {}) const;
    void stopStraySandboxes();
    QTemporaryDir m_dir;
    QString m_scratch;
    QProcessEnvironment m_env;
    QStringList m_initialTree;
};

void TstCliBadInput::initTestCase()
{
    QVERIFY(m_dir.isValid());
    m_scratch = m_dir.path();
    for (const char* d : { "adir", "home", "tmp", "run", "sandboxes" })
        QVERIFY(QDir(m_scratch).mkpath(QLatin1String(d)));
    QFile(m_scratch + "/run").setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    auto write = [&](const QString& name, const QByteArray& bytes) {
        QFile f(m_scratch + u'/' + name);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QCOMPARE(f.write(bytes), bytes.size());
    };
    write("afile", "a file where a directory is wanted\n");
    write("password", "secret\n");
    QFile(m_scratch + "/password").setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    write("small.ldif",
        "dn: dc=example,dc=com\nobjectClass: domain\ndc: example\n\n"
        "dn: uid=user0,dc=example,dc=com\nobjectClass: inetOrgPerson\nuid: user0\ncn: User 0\nsn: 0\n\n");
    // A workload for replay: one connection that binds, searches and modifies.
    Workload w;
    const QString dn = "uid=?1,ou=people,dc=example,dc=com";
    w.templates = { { WorkloadOpKind::Bind, dn, 1 }, { WorkloadOpKind::Search, "(uid=?1)", 1 },
        { WorkloadOpKind::Modify, dn, 1 } };
    WorkloadConnection c;
    for (int i = 0; i < 3; ++i) {
        WorkloadOp op;
        op.kind = w.templates[size_t(i)].kind;
        op.templateId = i;
        op.offsetNs = uint64_t(i) * 1000000ULL;
        op.values = { "v1" };
        op.base = i == 1 ? QString("ou=people,dc=example,dc=com") : dn;
        c.ops.push_back(op);
    }
    w.connections = { c };
    QString error;
    QVERIFY2(WorkloadFile::write(w, m_scratch + "/small.dbwl", &error), qPrintable(error));
    // The commands see only the scratch directory: home, runtime and temp directories, the history database.
    m_env = QProcessEnvironment::systemEnvironment();
    m_env.insert("HOME", m_scratch + "/home");
    m_env.insert("XDG_RUNTIME_DIR", m_scratch + "/run");
    m_env.insert("XDG_DATA_HOME", m_scratch + "/home/data");
    m_env.insert("XDG_CONFIG_HOME", m_scratch + "/home/config");
    m_env.insert("XDG_CACHE_HOME", m_scratch + "/home/cache");
    m_env.insert("TMPDIR", m_scratch + "/tmp");
    m_env.insert("DIRBENCH_HISTORY", m_scratch + "/history.sqlite");
    m_env.remove("DIRBENCH_PASSWORD");
    m_initialTree = tree(m_scratch);
    qInfo("seed %u, %d cases, %d processes at a time, scratch %s", kSeed, kCases, kParallel, qPrintable(m_scratch));
}

void TstCliBadInput::cleanupTestCase()
{
    stopStraySandboxes();
}

void TstCliBadInput::stopStraySandboxes()
{
    // A command that wrongly started a sandbox left it under sandboxes/ or tmp/: stop it.
    for (const char* parent : { "sandboxes", "tmp" }) {
        const QString p = m_scratch + u'/' + QLatin1String(parent);
        for (const QString& d : QDir(p).entryList({ "dirbench-*" }, QDir::Dirs))
            QProcess::execute(DIRBENCH_CLI_PATH, { "sandbox", "stop", "--dir", p + u'/' + d });
    }
}

QList<Outcome> TstCliBadInput::runAll(const QList<QStringList>& argvs, const std::function<void(int)>& afterBatch)
{
    QList<Outcome> out(argvs.size());
    for (int first = 0; first < argvs.size(); first += kParallel) {
        const int n = std::min<int>(kParallel, int(argvs.size()) - first);
        std::vector<std::unique_ptr<QProcess>> procs;
        for (int i = 0; i < n; ++i) {
            auto p = std::make_unique<QProcess>();
            p->setProcessEnvironment(m_env);
            p->setWorkingDirectory(m_scratch + "/home");
            p->start(QStringLiteral(DIRBENCH_CLI_PATH), argvs[first + i]);
            procs.push_back(std::move(p));
        }
        for (int i = 0; i < n; ++i) {
            QProcess& p = *procs[size_t(i)];
            Outcome& o = out[first + i];
            o.finished = p.waitForFinished(kCaseTimeoutMs);
            if (!o.finished) {
                p.kill();
                p.waitForFinished();
            }
            o.status = p.exitStatus();
            o.code = p.exitCode();
            o.out = p.readAllStandardOutput();
            o.err = p.readAllStandardError();
        }
        if (afterBatch)
            afterBatch(first);
    }
    return out;
}

// The control: each command's good line is accepted (exit 0 or 1, never 2), so a refusal below is the fault's doing.
void TstCliBadInput::goodLinesAreAccepted()
{
    const QList<Command> cmds = commands(m_scratch);
    QList<QStringList> argvs;
    for (const Command& c : cmds) {
        QStringList a = c.words;
        for (const Arg& arg : c.args) {
            a << arg.option;
            if (!arg.good.isEmpty())
                a << arg.good;
        }
        argvs << a;
    }
    const QList<Outcome> res = runAll(argvs);
    stopStraySandboxes();
    for (int i = 0; i < cmds.size(); ++i) {
        const Outcome& o = res[i];
        qInfo("  good line of %-20s exit %d", qPrintable(cmds[i].name), o.code);
        QVERIFY2(o.finished && o.status == QProcess::NormalExit && (o.code == 0 || o.code == 1),
            qPrintable(cmds[i].name + QStringLiteral(": exit ") + QString::number(o.code) + u' '
                + QString::fromUtf8(o.err.left(400)) + QStringLiteral("\n  ") + argvs[i].join(u' ')));
    }
    // Whatever the good lines made (a sandbox, the history) goes, so that the bad lines start from a clean tree.
    QFile::remove(m_scratch + "/history.sqlite");
    for (const QString& p : tree(m_scratch))
        if (!m_initialTree.contains(p))
            QFileInfo(m_scratch + u'/' + p).isDir() ? (void)QDir(m_scratch + u'/' + p).removeRecursively()
                                                    : (void)QFile::remove(m_scratch + u'/' + p);
    QCOMPARE(tree(m_scratch), m_initialTree);
}

// A log in which no operation is recognised (a stamp no server writes) fails the run, exit 1, naming the file, its
// first line and the formats read; nothing on stdout.
void TstCliBadInput::unrecognisedLogFails()
{
    const QString log = m_scratch + QStringLiteral("/tmp/unknown.log");
    QFile f(log);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("2026/12/06-07:31:01 conn=1 op=0 BIND dn=\"\" method=128\n2026/12/06-07:31:01 conn=1 op=0 RESULT err=0\n");
    f.close();
    const QList<Outcome> res = runAll({ { "workload", "analyze", "--log", log },
        { "replay", "--log", log, "--uri", "ldap://127.0.0.1:9", "--dry-run", "--no-history" } });
    for (const Outcome& o : res) {
        QVERIFY2(o.finished && o.code == 1, o.err.constData());
        const QByteArray said = log.toUtf8()
            + QByteArray(": no operation recognised in 2 lines; its first line reads "
                         "\"2026/12/06-07:31:01 conn=1 op=0 BIND");
        QVERIFY2(o.err.contains(said), o.err.constData());
        QVERIFY2(o.err.contains("DirBench reads 389-ds access logs (1.3 to 3.x), OpenLDAP"), o.err.constData());
        QVERIFY(o.out.isEmpty());
    }
    QFile::remove(log);
}

void TstCliBadInput::thousandBadLinesAreRefused()
{
    const QList<Command> cmds = commands(m_scratch);
    QList<QStringList> helpArgv;
    for (const Command& c : cmds)
        helpArgv << c.words + QStringList { "--help" };
    const QList<Outcome> helps = runAll(helpArgv);
    QRandomGenerator rng(kSeed);
    QList<Case> cases;
    for (int i = 0; i < kCases; ++i) {
        const int k = i % int(cmds.size());
        QVERIFY2(helps[k].code == 0 && helps[k].out.contains("--"), qPrintable(cmds[k].name));
        cases << generate(cmds[k], QString::fromUtf8(helps[k].out), i, rng, m_scratch);
    }

    QStringList failures;
    QElapsedTimer timer;
    timer.start();
    QList<QStringList> argvs;
    for (const Case& c : std::as_const(cases))
        argvs << c.argv;
    const QList<Outcome> res = runAll(argvs, [&](int first) {
        const QStringList now = tree(m_scratch);
        if (now == m_initialTree)
            return;
        QStringList extra;
        for (const QString& p : now)
            if (!m_initialTree.contains(p))
                extra << p;
        failures << QStringLiteral("cases %1-%2 left %3").arg(first).arg(first + kParallel - 1).arg(extra.join(", "));
        stopStraySandboxes();
        for (const QString& p : extra)
            QFileInfo(m_scratch + u'/' + p).isDir() ? (void)QDir(m_scratch + u'/' + p).removeRecursively()
                                                    : (void)QFile::remove(m_scratch + u'/' + p);
    });
    const qint64 ms = timer.elapsed();

    QMap<QString, int> perCommand;
    for (int i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        const Outcome& o = res[i];
        ++perCommand[c.command];
        QString why;
        if (!o.finished)
            why = QStringLiteral("still running after %1 s (work started?)").arg(kCaseTimeoutMs / 1000);
        else if (o.status != QProcess::NormalExit)
            why = QStringLiteral("crashed");
        else if (o.code != 2)
            why = QStringLiteral("exit %1").arg(o.code);
        else if (!namesOne(o.err, c.named))
            why = QStringLiteral("stderr does not name %1").arg(c.named.join(" or "));
        else if (!o.out.isEmpty())
            why = QStringLiteral("%1 bytes on stdout").arg(o.out.size());
        else if (o.err.contains("{{"))
            why = QStringLiteral("stderr holds an input reference core meant for a front end to name ({{...}})");
        if (!why.isEmpty())
            failures << QStringLiteral("#%1 %2 [%3]: %4\n    stderr: %5\n    argv: %6")
                            .arg(c.index)
                            .arg(c.command, c.faults.join("; "), why, QString::fromUtf8(o.err.trimmed().left(300)),
                                c.argv.join(u' '));
    }
    qInfo("%lld cases in %.1f s (seed %u):", qlonglong(cases.size()), double(ms) / 1000, kSeed);
    for (auto it = perCommand.begin(); it != perCommand.end(); ++it)
        qInfo("  %-20s %d", qPrintable(it.key()), it.value());
    for (const QString& f : std::as_const(failures).mid(0, 80))
        qWarning("%s", qPrintable(f));
    QVERIFY2(failures.isEmpty(), qPrintable(QStringLiteral("%1 of %2 cases failed").arg(failures.size()).arg(kCases)));
    QCOMPARE(tree(m_scratch), m_initialTree);
}

// The good line of a catalog command with `drop` left out and `set` replaced or added ("" = a flag).
QStringList TstCliBadInput::lineOf(
    const QString& command, const QList<QPair<QString, QString>>& set, const QStringList& drop) const
{
    for (const Command& c : commands(m_scratch)) {
        if (c.name != command)
            continue;
        QStringList a = c.words;
        QList<QPair<QString, QString>> rest = set;
        for (const Arg& arg : c.args) {
            if (drop.contains(arg.option))
                continue;
            QString value = arg.good;
            for (qsizetype i = 0; i < rest.size(); ++i)
                if (rest[i].first == arg.option)
                    value = rest.takeAt(i).second;
            a << arg.option;
            if (!value.isEmpty())
                a << value;
        }
        for (const auto& [option, value] : rest) {
            a << option;
            if (!value.isEmpty())
                a << value;
        }
        return a;
    }
    qFatal("no command %s in the catalog", qPrintable(command));
}

// Options that are valid in themselves but do not apply to what the line asks for: each refused, by name, before
// any work — never ignored.
void TstCliBadInput::inapplicableOptionsAreRefused()
{
    struct Refusal
    {
        QStringList argv;
        QString option; // stderr must name it
    };
    const QString dir = m_scratch + "/adir";
    const QString pw = m_scratch + "/password";
    const QString ldif = m_scratch + "/small.ldif";
    const QString uid = "uid=user[0-9],ou=people,dc=example,dc=com";
    const QList<Refusal> cases {
        // --filter: required for every search load, with no default
        { lineOf("ldap search", {}, { "--filter" }), "--filter" },
        { lineOf("ldap search", { { "--filter", " " } }), "--filter" },
        { lineOf("ldap mixed", {}, { "--filter" }), "--filter" },
        { lineOf("disk --under-load", {}, { "--filter" }), "--filter" },
        { lineOf("curve", {}, { "--filter" }), "--filter" },
        { lineOf("experiment threads", {}, { "--filter" }), "--filter" },
        // each operation's options, and only those
        { lineOf("ldap modify", { { "--filter", "uid=x" } }), "--filter" },
        { lineOf("ldap bind", { { "--base", "dc=example,dc=com" } }), "--base" },
        { lineOf("ldap compare", { { "--scope", "one" } }), "--scope" },
        { lineOf("ldap adddel", { { "--attrs", "cn" } }), "--attrs" },
        { lineOf("ldap bind", { { "--size-limit", "5" } }), "--size-limit" },
        { lineOf("ldap search", { { "--mode", "rebind" } }), "--mode" },
        { lineOf("ldap modify", { { "--mode", "rebind" } }), "--mode" },
        { lineOf("ldap compare", { { "--mode", "new-connection" } }), "--mode" },
        { lineOf("ldap search", { { "--dn", uid } }), "--dn" },
        { lineOf("ldap adddel", { { "--dn", uid } }), "--dn" },
        { lineOf("ldap search", { { "--attr", "cn" } }), "--attr" },
        { lineOf("ldap bind", { { "--value", "v" } }), "--value" },
        { lineOf("ldap adddel", { { "--attr", "cn" } }), "--attr" },
        { lineOf("ldap search", { { "--parent", "dc=example,dc=com" } }), "--parent" },
        { lineOf("ldap compare", { { "--parent", "dc=example,dc=com" } }), "--parent" },
        { lineOf("ldap search", { { "--mix", "search=1" } }), "--mix" },
        { lineOf("ldap adddel", { { "--access", "zipf:1" } }), "--access" },
        { lineOf("ldap bind", { { "--outstanding", "2" } }), "--outstanding" },
        { lineOf("ldap bind", { { "--mode", "new-connection" } }), "--connections" },
        { lineOf("ldap bind", { { "--coalesce-reads", "" } }), "--coalesce-reads" },
        // a mix takes the options of its operations
        { lineOf("ldap mixed", { { "--mix", "search=90,compare=10" }, { "--mode", "rebind" } }), "--mode" },
        { lineOf("ldap mixed", { { "--mix", "modify=9,compare=1" } }, { "--base", "--scope", "--size-limit" }),
            "--filter" },
        { lineOf("ldap mixed", { { "--mix", "search=90,modify=5,bind=5" }, { "--parent", "dc=example,dc=com" } }),
            "--parent" },
        { lineOf("ldap mixed", { { "--mix", "search=1,search=2" } }), "--mix" },
        { lineOf("ldap mixed", { { "--mix", "search=1000001" } }), "--mix" },
        { lineOf("ldap mixed", {}, { "--mix" }), "--mix" },
        // what a ramp sets, and what reads batching needs
        { lineOf("ldap search", { { "--ramp", "rate:10,20@1" } }, { "--rate", "--coalesce-reads" }), "--duration" },
        { lineOf("ldap search --ramp", { { "--rate", "5" } }), "--rate" },
        { lineOf("ldap search --ramp", { { "--ramp", "outstanding:1,2@1" } }), "--outstanding" },
        { lineOf("ldap bind", { { "--ramp", "outstanding:1,2@1" } }, { "--duration" }), "--ramp" },
        { lineOf("ldap search", { { "--rate", "5" } }), "--coalesce-reads" },
        { lineOf("ldap search --ramp", { { "--coalesce-reads", "" } }), "--coalesce-reads" },
        { lineOf("ldap search", { { "--ok-codes", "0,0" } }), "--ok-codes" },
        { lineOf("ldap search", { { "--ok-codes", "16384" } }), "--ok-codes" },
        // probe: one connect, bind and search
        { lineOf("ldap probe", { { "--threads", "2" } }), "--threads" },
        { lineOf("ldap probe", { { "--duration", "1" } }), "--duration" },
        { lineOf("ldap probe", { { "--quiet", "" } }), "--quiet" },
        { lineOf("ldap probe", { { "--ok-codes", "0" } }), "--ok-codes" },
        // connection options that nothing uses
        { lineOf("ldap search", { { "--insecure", "" } }), "--insecure" },
        { lineOf("ldap search", { { "--ca-file", pw } }), "--ca-file" },
        { lineOf("ldap search", {}, { "--bind-dn" }), "--password-file" },
        { lineOf("ldap probe", { { "--sasl", "external" } }), "--bind-dn" },
        // disk: per profile, and the LDAP options only under load
        { lineOf("disk", { { "--lead", "1" } }), "--lead" },
        { lineOf("disk", { { "--uri", "ldap://127.0.0.1:1" } }), "--uri" },
        { lineOf("disk", { { "--filter", "uid=x" } }), "--filter" },
        { lineOf("disk", { { "--profile", "commit" } }), "--qd" },
        { lineOf("disk", { { "--profile", "commit" }, { "--buffered", "" } }, { "--qd" }), "--buffered" },
        { lineOf("disk", { { "--profile", "directory" } }, { "--qd" }), "--block" },
        { lineOf("disk", { { "--profile", "directory" } }, { "--block" }), "--qd" },
        { lineOf("disk", { { "--profile", "dd" } }), "--size" },
        { lineOf("disk", { { "--fail-on-verdict", "" } }), "--fail-on-verdict" },
        { lineOf("disk", { { "--profile", "commit" }, { "--requirements", "no-such-profile" } }, { "--qd" }),
            "--requirements" },
        { lineOf("disk", { { "--profile", "commit" }, { "--requirements", "edirectory-seed-000" } }, { "--qd" }),
            "--requirements" },
        { lineOf("disk --under-load", { { "--dn", uid } }), "--dn" },
        { lineOf("disk --under-load", { { "--mix", "search=1" } }), "--mix" },
        { lineOf("disk --under-load", { { "--mode", "rebind" } }), "--mode" },
        // curve: per mode
        { lineOf("curve", { { "--restart", "" } }), "--restart" },
        { lineOf("curve", { { "--mode", "cache-sweep" } }), "--cache-entries" },
        { lineOf("curve", { { "--sandbox-dir", dir } }), "--sandbox-dir" },
        // experiments: per experiment
        { lineOf("experiment threads", { { "--threads", "2" } }), "--threads" },
        { lineOf("experiment threads", { { "--tls-uri", "ldaps://127.0.0.1:1" } }), "--tls-uri" },
        { lineOf("experiment threads", { { "--dn", uid } }), "--dn" },
        { lineOf("experiment threads", { { "--restart", "" } }), "--restart" },
        { lineOf("experiment tls", { { "--mode", "rebind" } }), "--mode" },
        { lineOf("experiment tls", { { "--connections", "2" } }), "--connections" },
        { lineOf("experiment tls", { { "--outstanding", "2" } }), "--outstanding" },
        { lineOf("experiment tls", { { "--points", "1,2" } }), "--points" },
        { lineOf("experiment tls", { { "--filter", "uid=x" } }), "--filter" },
        { lineOf("experiment tls", { { "--server-threads", "4" } }), "--server-threads" },
        { lineOf("experiment tls", { { "--tls-starttls", "" } }), "--tls-starttls" },
        { lineOf("experiment dbsize", { { "--uri", "ldap://127.0.0.1:1" } }), "--uri" },
        { lineOf("experiment dbsize", { { "--base", "dc=example,dc=com" } }), "--base" },
        { lineOf("experiment dbsize", { { "--filter", "uid=x" } }), "--filter" },
        { lineOf("experiment dbsize", { { "--bind-dn", "cn=admin,dc=example,dc=com" } }), "--bind-dn" },
        { lineOf("experiment dbsize", { { "--tls-uri", "ldaps://127.0.0.1:1" } }), "--tls-uri" },
        { lineOf("experiment dbsize", { { "--dn", uid } }), "--dn" },
        // sizing: per server kind; the connection options only with --uri
        { lineOf("sizing", { { "--growth", "0.5" } }), "--growth" },
        { lineOf("sizing", { { "--users", "100" } }), "--users" },
        { lineOf("sizing", { { "--ldif-cache-factor", "3" } }), "--ldif-cache-factor" },
        { lineOf("sizing", { { "--bind-dn", "cn=admin,dc=example,dc=com" } }), "--bind-dn" },
        { lineOf("sizing", { { "--network-timeout", "1" } }), "--network-timeout" },
        { lineOf("sizing --ldif", { { "--entries", "5" } }), "--entries" },
        { lineOf("sizing --ldif", { { "--backend", "userRoot" } }), "--backend" },
        { lineOf("sizing --ldif", { { "--ldif-cache-factor", "2" } }), "--ldif-cache-factor" },
        { { "sizing", "--server", "ad", "--users", "100", "--ldif", ldif, "--no-history" }, "--ldif" },
        { { "sizing", "--server", "edirectory", "--db-size-mb", "100", "--threads", "4", "--no-history" },
            "--threads" },
        // sandbox, history, cloud, report: per subcommand
        { lineOf("sandbox stop", { { "--json", "" } }), "--json" },
        { lineOf("sandbox status", { { "--port", "1389" } }), "--port" },
        { lineOf("sandbox status", { { "--entries", "10" } }), "--entries" },
        { { "history", "list", "--clear" }, "--clear" },
        { { "history", "show", "1", "--limit", "3" }, "--limit" },
        { { "history", "delete", "1", "--json", "-" }, "--json" },
        { { "history", "list", "--limit", "1", "--limit", "2" }, "--limit" },
        { { "cloud", "list", "--mbps", "100" }, "--mbps" },
        { { "cloud", "need", "--mbps", "100", "--disk", "gp3" }, "--disk" },
        { { "cloud", "eval", "--disk", "gp3", "--size-gb", "100", "--latency-ms", "1" }, "--latency-ms" },
        { { "cloud", "eval", "--disk", "gp3", "--size-gb", "100", "--run", ldif }, "--run" },
        { { "cloud", "compare", "--seed-example", "--disk", "gp3", "--no-history" }, "--disk" },
        { { "cloud", "list", "--provider", "aws", "--provider", "gcp" }, "--provider" },
        { { "report", "--in", ldif, "--pdf", m_scratch + "/a.pdf", "--pdf", m_scratch + "/b.pdf" }, "--pdf" },
        // a CSV of intervals has no title or author: refused, not ignored
        { { "report", "--in", ldif, "--csv", m_scratch + "/a.csv", "--title", "Q4" }, "--title" },
        { { "report", "--in", ldif, "--csv", m_scratch + "/a.csv", "--author", "Ana" }, "--author" },
        { { "report", "--in", ldif, "--pdf", m_scratch + "/a.pdf", "--author", " " }, "--author" },
    };
    QList<QStringList> argvs;
    for (const Refusal& r : cases)
        argvs << r.argv;
    const QList<Outcome> res = runAll(argvs);
    QStringList failures;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const Outcome& o = res[i];
        const QByteArray named = cases[i].option.toUtf8() + ':';
        if (!o.finished || o.status != QProcess::NormalExit || o.code != 2 || !o.err.contains(named) || !o.out.isEmpty()
            || o.err.contains("{{"))
            failures << QStringLiteral("%1: exit %2, stderr %3, %4 bytes on stdout\n    argv: %5")
                            .arg(cases[i].option)
                            .arg(o.code)
                            .arg(QString::fromUtf8(o.err.trimmed().left(300)))
                            .arg(o.out.size())
                            .arg(cases[i].argv.join(u' '));
    }
    qInfo("%lld lines with an option that does not apply", qlonglong(cases.size()));
    for (const QString& f : std::as_const(failures))
        qWarning("%s", qPrintable(f));
    QVERIFY2(
        failures.isEmpty(), qPrintable(QStringLiteral("%1 of %2 not refused").arg(failures.size()).arg(cases.size())));
    stopStraySandboxes();
    QCOMPARE(tree(m_scratch), m_initialTree);
}

// Every command and subcommand answers --help: exit 0, its own usage on stdout, nothing on stderr, nothing run —
// even when the rest of the line would run (the good lines of the catalog, history list, cloud list).
void TstCliBadInput::everySubcommandAnswersHelp()
{
    struct Help
    {
        QStringList argv;
        QString usage; // "Usage: dirbench-cli " + this
        QStringList lists, omits; // options its text must (not) show
    };
    QList<Help> cases { { { "--help" }, "COMMAND", { "ldap", "history" }, {} } };
    for (const char* c :
        { "ldap", "disk", "sandbox", "sizing", "curve", "experiment", "cloud", "history", "report", "replay" })
        cases << Help { { QString::fromLatin1(c), "--help" }, QString::fromLatin1(c), { "--help" }, {} };
    // The subcommands, each with only its options.
    cases << Help { { "ldap", "probe", "--help" }, "ldap probe", { "--uri", "--filter" }, { "--threads", "--dn" } };
    cases << Help { { "ldap", "search", "--help" }, "ldap search", { "--filter", "--ok-codes", "--coalesce-reads" },
        { "--dn", "--parent", "--mix", "--mode" } };
    cases << Help { { "ldap", "bind", "--help" }, "ldap bind", { "--dn", "--mode" },
        { "--filter", "--outstanding", "--coalesce-reads", "--attr" } };
    cases << Help { { "ldap", "modify", "--help" }, "ldap modify", { "--dn", "--attr", "--value" }, { "--mode" } };
    cases << Help { { "ldap", "compare", "--help" }, "ldap compare", { "--attr", "--ok-codes" }, { "--parent" } };
    cases << Help { { "ldap", "adddel", "--help" }, "ldap adddel", { "--parent" }, { "--access", "--dn" } };
    cases << Help { { "ldap", "mixed", "--help" }, "ldap mixed", { "--mix", "--filter", "--dn", "--parent" }, {} };
    for (const char* e : { "threads", "tls", "dbsize" })
        cases << Help { { "experiment", QString::fromLatin1(e), "--help" }, QStringLiteral("experiment ") + e,
            { "--seconds-per-point" }, {} };
    cases.last().omits = QStringList { "--uri", "--filter", "--tls-uri" }; // dbsize
    for (const char* a : { "list", "eval", "need", "compare" })
        cases << Help { { "cloud", QString::fromLatin1(a), "--help" }, QStringLiteral("cloud ") + a, { "--json" }, {} };
    cases[cases.size() - 4].omits = QStringList { "--mbps", "--disk" }; // cloud list
    for (const char* h : { "list", "show", "export", "import", "compare", "rename", "tag", "delete" })
        cases << Help { { "history", QString::fromLatin1(h), "--help" }, QStringLiteral("history ") + h, {}, {} };
    cases << Help { { "history", "list", "--kind", "disk", "--help" }, "history list", { "--kind" }, { "--clear" } };
    cases << Help { { "history", "tag", "1", "x", "-h" }, "history tag", { "--clear" }, { "--kind" } };
    for (const char* sb : { "start", "status", "stop" })
        cases << Help { { "sandbox", QString::fromLatin1(sb), "--help" }, QStringLiteral("sandbox ") + sb, {}, {} };
    cases.last().omits = QStringList { "--entries", "--json" }; // stop
    // Complete lines that would run, with --help: they print the help instead.
    for (const Command& c : commands(m_scratch)) {
        QStringList a = lineOf(c.name, {});
        a << "--help";
        cases << Help { a, c.words.join(u' '), {}, {} };
    }
    cases << Help { { "cloud", "list", "--provider", "aws", "--help" }, "cloud list", {}, {} };
    cases << Help { { "report", "--in", m_scratch + "/small.ldif", "--pdf", m_scratch + "/r.pdf", "--help" }, "report",
        { "--pdf" }, {} };

    QList<QStringList> argvs;
    for (const Help& h : cases)
        argvs << h.argv;
    const QList<Outcome> res = runAll(argvs);
    QStringList failures;
    for (qsizetype i = 0; i < cases.size(); ++i) {
        const Help& h = cases[i];
        const Outcome& o = res[i];
        const QString out = QString::fromUtf8(o.out);
        QString why;
        if (!o.finished || o.status != QProcess::NormalExit || o.code != 0)
            why = QStringLiteral("exit %1").arg(o.code);
        else if (!out.startsWith(QStringLiteral("Usage: dirbench-cli ") + h.usage))
            why = QStringLiteral("stdout does not begin with its usage: ") + out.left(120);
        else if (!o.err.isEmpty())
            why = QStringLiteral("stderr: ") + QString::fromUtf8(o.err.left(200));
        // The option list of QCommandLineParser ("  --dn <PATTERN>  ..."); the top-level usage has none.
        const qsizetype at = out.indexOf(QStringLiteral("\nOptions:\n"));
        const QString listed = at < 0 ? out : out.mid(at);
        for (const QString& opt : h.lists)
            if (why.isEmpty() && !listed.contains(u"\n  " + opt))
                why = QStringLiteral("does not list ") + opt;
        for (const QString& opt : h.omits)
            if (why.isEmpty() && listed.contains(u"\n  " + opt + u' '))
                why = QStringLiteral("lists ") + opt + QStringLiteral(", which it does not take");
        if (!why.isEmpty())
            failures << why + QStringLiteral("\n    argv: ") + h.argv.join(u' ');
    }
    qInfo("%lld help lines", qlonglong(cases.size()));
    for (const QString& f : std::as_const(failures))
        qWarning("%s", qPrintable(f));
    QVERIFY2(failures.isEmpty(), qPrintable(QStringLiteral("%1 of %2 failed").arg(failures.size()).arg(cases.size())));
    stopStraySandboxes();
    QCOMPARE(tree(m_scratch), m_initialTree); // no sandbox, no history database, no report, no disk test file
}

QTEST_GUILESS_MAIN(TstCliBadInput)
#include "tst_cli_badinput.moc"
