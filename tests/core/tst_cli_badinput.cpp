// 1,000 generated bad command lines across every dirbench-cli command: each must be refused before any work, by a
// process that exits normally with code 2, names (one of) the argument(s) it broke on stderr, prints nothing on
// stdout (--json - owns it) and leaves nothing behind. The generator is deterministic (the seed is printed): it takes
// the known-good line of a command (badinputcatalog.h) and breaks one to three of its arguments — a value invalid for
// the argument's kind, an unknown option, a missing value, an option given twice, a stray word.
#include "badinputcatalog.h"

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
    void thousandBadLinesAreRefused();
    void cleanupTestCase();

private:
    QList<Outcome> runAll(const QList<QStringList>& argvs, const std::function<void(int)>& afterBatch = {});
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

QTEST_GUILESS_MAIN(TstCliBadInput)
#include "tst_cli_badinput.moc"
