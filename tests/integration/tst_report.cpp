// dirbench-cli report, end to end: real records made by running dirbench-cli (a short disk test on a temp file,
// the "directory" suite with its verdicts, a sizing run, a search load and a search+modify mix against the sandbox
// slapd), a real PDF read back with pdftotext/pdffonts/pdfinfo, the HTML and the CSV. LDAP figures: ok/s first, a
// row per kind of a mix, the mark of ok/s derived from an older record, and of coalesced reads.
#include "core/catalog/sources.h"
#include "core/common/runrecord.h"
#include "core/ldap/ldaptarget.h"
#include "core/ldap/loadresult.h"
#include "core/sizing/recommendation.h"
#include "core/store/runstore.h"
#include "ldapfixture.h"
#include "ui/report/report.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <sys/stat.h>

namespace {

struct Result
{
    int code = -1;
    QString out;
    QString err;
};

Result run(const QStringList& args, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment(),
    int timeoutMs = 120000)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(DIRBENCH_CLI_PATH), args);
    Result r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.code = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

Result tool(const QString& program, const QStringList& args)
{
    QProcess p;
    p.start(program, args);
    p.waitForFinished(60000);
    return { p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()), QString::fromUtf8(p.readAllStandardError()) };
}

// The report's number rule, written out again here (DESIGN.md: printed in full): whole numbers without decimals,
// >= 100 with one decimal, 1..100 with up to two, thousands separated by commas.
QString full(double v)
{
    QLocale c = QLocale::c();
    c.setNumberOptions(QLocale::DefaultNumberOptions);
    if (v == std::floor(v))
        return c.toString(v, 'f', 0);
    if (std::fabs(v) >= 100)
        return c.toString(v, 'f', 1);
    // Below 1: three significant digits.
    const int decimals = std::fabs(v) >= 1 ? 2 : std::min(9, 2 - int(std::floor(std::log10(std::fabs(v)))));
    QString s = c.toString(v, 'f', decimals);
    while (s.endsWith(u'0'))
        s.chop(1);
    if (s.endsWith(u'.'))
        s.chop(1);
    return s;
}

QString flat(QString s)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return s.replace(space, QStringLiteral(" "));
}

// Without any whitespace: a URL the PDF wraps at a '-' or '/' comes back from pdftotext with a line break in it.
QString bare(QString s)
{
    static const QRegularExpression space(QStringLiteral("\\s+"));
    return s.remove(space);
}

bool save(const RunRecord& r, const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(r.toJsonBytes()) > 0;
}

// What an engine older than counted successes wrote: no ok, ok_per_s, entries_per_s.
QJsonObject older(QJsonObject o)
{
    for (const char* k : { "ok", "ok_per_s", "entries_per_s" })
        o.remove(QLatin1String(k));
    return o;
}

// `n` in `text` as a whole figure: not a piece of a longer one ("2,932.5" inside "32,932.5").
bool containsWhole(const QString& text, const QString& n)
{
    auto digit = [&](qsizetype i) { return i >= 0 && i < text.size() && text.at(i).isDigit(); };
    for (qsizetype at = text.indexOf(n); at >= 0; at = text.indexOf(n, at + 1)) {
        const qsizetype end = at + n.size();
        const bool before = digit(at - 1) || (at > 0 && QStringLiteral(",.").contains(text.at(at - 1)));
        const bool after
            = digit(end) || (end < text.size() && QStringLiteral(",.").contains(text.at(end)) && digit(end + 1));
        if (!before && !after)
            return true;
    }
    return false;
}

RunRecord load(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return RunRecord::fromJsonBytes(f.readAll()).value_or(RunRecord());
}

} // namespace

class TstReport : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void pdfHasHeadingsNumbersAndVerdicts();
    void pdfFontsAreEmbedded();
    void worksWithoutDisplay();
    void htmlAndCsv();
    void mixedLoadHasARowPerKind();
    void olderRecordIsMarkedDerived();
    void coalescedReadsAreMarked();
    void genericKind();
    void cloudComparison();
    void seedFailuresOnPageOne();
    void tableNumbersInFull();
    void eightRunsInTenPages();
    void sourcesAreCitations();
    void fromHistory();
    void badInput_data();
    void badInput();

private:
    QString path(const QString& name) const { return m_dir.filePath(name); }
    QString pdfTextOf(const RunRecord& r, const QString& name);
    // Every record kind this test made, each once (the seed's cloud table and a thread sweep among them).
    QList<RunRecord> everyKind() const;
    Result report(const QStringList& extra, const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment());

    QTemporaryDir m_dir;
    QStringList m_records; // the record files, in report order
    QList<RunRecord> m_loaded;
    QString m_pdfText;
    bool m_haveLdap = false;
};

Result TstReport::report(const QStringList& extra, const QProcessEnvironment& env)
{
    QStringList args = { QStringLiteral("report") };
    for (const QString& r : std::as_const(m_records))
        args << QStringLiteral("--in") << r;
    return run(args + extra, env);
}

void TstReport::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (QStandardPaths::findExecutable(QStringLiteral("pdftotext")).isEmpty())
        QSKIP("poppler-utils (pdftotext) is not installed");
    const QString d = m_dir.path();
    Result r = run({ "disk", "--dir", d, "--profile", "rand-read", "--size", "16M", "--duration", "2", "--json",
        path("rand-read.json"), "--no-history" });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = run({ "disk", "--dir", d, "--profile", "directory", "--size", "16M", "--duration", "2", "--json",
        path("suite.json"), "--no-history" });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    r = run({ "sizing", "--server", "389ds", "--entries", "200000", "--entry-cache-bytes-per-entry", "3000",
        "--db-size-mb", "900", "--threads", "8", "--json", path("sizing.json"), "--no-history" });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    m_records << path("rand-read.json") << path("suite.json") << path("sizing.json");

    // Without slapd the report is tested without an LDAP load (those tests skip); with it, the sandbox must start.
    const QString missing = LdapFixture::slapdMissing();
    QString why;
    SandboxGuard sbx = missing.isEmpty() ? LdapFixture::start(2000, false, &why) : SandboxGuard();
    QVERIFY2(sbx || !missing.isEmpty(), qPrintable(LdapFixture::notStarted(why)));
    if (sbx) {
        r = run({ "ldap", "search", "--uri", sbx->uri, "--bind-dn", sbx->bindDn, "--password-file", sbx->passwordFile,
            "--base", sbx->peopleBase, "--filter", "uid=user[0-1999]", "--duration", "3", "--threads", "1", "--json",
            path("search.json"), "--no-history" });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        const QString uids = QStringLiteral("uid=user[0-1999]");
        r = run({ "ldap", "mixed", "--uri", sbx->uri, "--bind-dn", sbx->bindDn, "--password-file", sbx->passwordFile,
            "--mix", "search=80,modify=20", "--base", sbx->peopleBase, "--filter", uids, "--dn",
            uids + u',' + sbx->peopleBase, "--attr", "description", "--value", "dirbench report [0-99]", "--duration",
            "2", "--threads", "1", "--json", path("mixed.json"), "--no-history" });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        r = run({ "experiment", "threads", "--uri", sbx->uri, "--bind-dn", sbx->bindDn, "--password-file",
            sbx->passwordFile, "--base", sbx->peopleBase, "--filter", "uid=user[0-1999]", "--points", "1,2",
            "--seconds-per-point", "1", "--json", path("sweep.json"), "--no-history" });
        QVERIFY2(r.code == 0, qPrintable(r.err));
        m_records << path("search.json") << path("mixed.json");
        m_haveLdap = true;
    } else {
        qWarning("%s: the report is tested without an LDAP load", qPrintable(missing));
    }
    r = run({ "cloud", "compare", "--seed-example", "--no-history", "--json", path("seed.json") });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    for (const QString& f : std::as_const(m_records)) {
        m_loaded << load(f);
        QVERIFY2(!m_loaded.last().kind.isEmpty(), qPrintable(f));
    }

    r = report({ "--pdf", path("report.pdf"), "--html", path("report.html"), "--csv", path("report.csv"), "--title",
        "Acceptance of ldap1", "--author", "Ana Lima" });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Result text = tool(QStringLiteral("pdftotext"), { path("report.pdf"), QStringLiteral("-") });
    QCOMPARE(text.code, 0);
    m_pdfText = flat(text.out);
    QVERIFY(!m_pdfText.isEmpty());
}

void TstReport::pdfHasHeadingsNumbersAndVerdicts()
{
    const QString& t = m_pdfText;
    for (const char* h : { "Acceptance of ldap1", "Prepared by Ana Lima", "Summary", "What was tested",
             "What to do next", "Runs and verdicts", "Environment", "Verdicts", "Sources", "Run 1: rand-read (disk)",
             "Run 2: suite (disk)", "Run 3: sizing (sizing)", "Tests of the suite", "Recommendations" })
        QVERIFY2(t.contains(QLatin1String(h)), h);

    // Key numbers, exactly as the records hold them.
    const RunRecord& disk = m_loaded.at(0);
    const double iops = disk.summary.value("iops").toDouble();
    QVERIFY(iops > 0);
    QVERIFY2(t.contains(full(iops)), qPrintable(full(iops)));
    const double p99 = disk.summary.value("latency_us").toObject().value("p99").toDouble();
    QVERIFY2(t.contains(full(p99)), qPrintable(full(p99)));

    // Every verdict of the suite with its source; the suite has some (the seed's 100 MB/s at least).
    const RunRecord& suite = m_loaded.at(1);
    QVERIFY(!suite.verdicts.isEmpty());
    for (const Verdict& v : suite.verdicts) {
        // The badge (PASS, FAIL) is painted beside the text: pdftotext may put it after the first of its lines.
        const QString line = flat(QString(v.requirement + ": measured " + full(v.measured) + ' ' + v.unit
            + ", threshold " + full(v.threshold) + ' ' + v.unit + " (source: " + Sources::ofVerdict(v) + ")"));
        QVERIFY2(bare(t).contains(bare(line)), qPrintable(line)); // wrapped lines may break at a '-'
    }

    // The summary page (all before the details) says every verdict in one sentence; no page names a path of this
    // repository, and the seed's article is cited by its title and publisher.
    const qsizetype details = t.indexOf("Runs and verdicts");
    QVERIFY(details > 0);
    const QString summary = bare(t.left(details));
    for (const Verdict& v : suite.verdicts)
        QVERIFY2(summary.contains(bare(flat(Report::verdictSentence(v)))), qPrintable(Report::verdictSentence(v)));
    for (const char* p : { "shared/", "seeds/", "resources/", "seed 000" })
        QVERIFY2(!t.contains(QLatin1String(p)), p);
    QVERIFY(t.contains("knowledge-base article, NetIQ / Micro Focus"));
    QVERIFY(
        t.contains("“HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines”, technical white paper, HP"));

    // Sizing: each recommendation's value and source, and the formula of the first.
    const QJsonArray recs = m_loaded.at(2).summary.value("recommendations").toArray();
    QVERIFY(!recs.isEmpty());
    for (const auto& v : recs) {
        const QJsonObject o = v.toObject();
        const Recommendation rec = Recommendation::fromJson(o);
        const QString heading = flat(rec.name + ": " + SizingText::proposal(rec)); // "threads: 8 (now: not read)"
        QVERIFY2(t.contains(heading), qPrintable(heading));
        const QString cited = Sources::readable(o.value("source").toString());
        QVERIFY2(bare(t).contains(bare(cited)), qPrintable(cited));
    }
    QVERIFY(bare(t).contains(bare(recs.first().toObject().value("formula").toString())));

    if (m_haveLdap) {
        QVERIFY(t.contains("Run 4: search (ldap-search)"));
        QVERIFY(t.contains("Result codes"));
        // Successes per second are the headline (the overview's, the result's first row), completed ops/s beside.
        const LoadSummary s = LoadSummary::fromJson(m_loaded.at(3).summary);
        QVERIFY(s.all.okPerS > 0);
        QVERIFY(!s.all.okDerived);
        QVERIFY2(t.contains(full(s.all.okPerS) + " ok/s"), qPrintable(full(s.all.okPerS)));
        QVERIFY2(t.contains("ok/s (successes per second) " + full(s.all.okPerS)), qPrintable(t));
        QVERIFY(t.contains("ops/s (completed per second) " + full(s.all.opsPerS)));
        QVERIFY(t.contains("Throughput: ok/s"));
        QVERIFY(!t.contains("derived: ops")); // records of today
        QVERIFY(!t.contains("coalesced reads")); // nothing was coalesced
    }
    // Warnings of a record appear in its section (the 16 MiB test file is smaller than RAM).
    for (const RunWarning& w : disk.warnings)
        QVERIFY2(t.contains(flat(w.message)), qPrintable(w.message));

    // Page count: a page or more per run, and not absurd.
    const Result info = tool(QStringLiteral("pdfinfo"), { path("report.pdf") });
    static const QRegularExpression pagesLine(QStringLiteral("Pages:\\s+(\\d+)"));
    const QRegularExpressionMatch m = pagesLine.match(info.out);
    QVERIFY(m.hasMatch());
    const int pages = m.captured(1).toInt();
    QVERIFY2(pages >= m_records.size() + 1 && pages <= 10 * m_records.size(), qPrintable(info.out));
    QVERIFY(t.contains(QStringLiteral("Page %1 of %1").arg(pages)));
    QVERIFY(info.out.contains("Acceptance of ldap1")); // the PDF's title

    struct stat st
    {
    };
    QCOMPARE(::stat(QFile::encodeName(path("report.pdf")).constData(), &st), 0);
    QCOMPARE(int(st.st_mode & 0777), 0600);
}

void TstReport::pdfFontsAreEmbedded()
{
    const Result r = tool(QStringLiteral("pdffonts"), { path("report.pdf") });
    QCOMPARE(r.code, 0);
    const QStringList lines = r.out.split(u'\n', Qt::SkipEmptyParts).mid(2); // after the two header lines
    QVERIFY2(!lines.isEmpty(), qPrintable(r.out));
    for (const QString& l : lines) {
        // name type encoding emb sub uni object ID: "emb" is the 4th column from the end of "yes yes yes N 0"
        const QStringList cols = l.simplified().split(u' ');
        QVERIFY2(cols.size() >= 7, qPrintable(l));
        QCOMPARE(cols.at(cols.size() - 5), QStringLiteral("yes"));
    }
}

void TstReport::worksWithoutDisplay()
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(QStringLiteral("DISPLAY"));
    env.remove(QStringLiteral("WAYLAND_DISPLAY"));
    env.remove(QStringLiteral("QT_QPA_PLATFORM"));
    const Result r = run({ "report", "--in", m_records.first(), "--pdf", path("nodisplay.pdf") }, env);
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const Result text = tool(QStringLiteral("pdftotext"), { path("nodisplay.pdf"), QStringLiteral("-") });
    QVERIFY(flat(text.out).contains("Run 1: rand-read (disk)"));
}

void TstReport::htmlAndCsv()
{
    QFile html(path("report.html"));
    QVERIFY(html.open(QIODevice::ReadOnly));
    const QString h = QString::fromUtf8(html.readAll());
    for (const char* s : { "<h1>Acceptance of ldap1</h1>", "Prepared by Ana Lima", "<h2>Summary</h2>",
             "<h2>Runs and verdicts</h2>", "<h3>Verdicts</h3>", "<h2>Sources</h2>", "<h2>Environment</h2>",
             "<h2>Run 2: suite (disk)</h2>", "<svg", "<polyline" })
        QVERIFY2(h.contains(QLatin1String(s)), s);
    QVERIFY(!h.contains("src=\"http")); // self-contained
    QVERIFY(h.contains(full(m_loaded.at(0).summary.value("iops").toDouble())));

    QFile csv(path("report.csv"));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    qsizetype intervals = 0;
    for (const RunRecord& r : std::as_const(m_loaded))
        intervals += r.intervals.size();
    QVERIFY(intervals > 0);
    QCOMPARE(lines.size() - 1, intervals);
    QVERIFY(lines.first().startsWith("run,kind,interval,t [s]"));
    if (m_haveLdap)
        QVERIFY(lines.first().contains("ops_per_s [ops/s]"));
    QVERIFY(lines.at(1).startsWith("rand-read,disk,1,"));
}

QString TstReport::pdfTextOf(const RunRecord& r, const QString& name)
{
    if (!save(r, path(name + ".json")))
        return {};
    const Result res = run({ "report", "--in", path(name + ".json"), "--pdf", path(name + ".pdf") });
    if (res.code != 0)
        return res.err;
    return flat(tool(QStringLiteral("pdftotext"), { path(name + ".pdf"), QStringLiteral("-") }).out);
}

void TstReport::mixedLoadHasARowPerKind()
{
    if (!m_haveLdap)
        QSKIP("slapd is not installed (apt-get install slapd): there is no mixed load to report");
    const RunRecord& rec = m_loaded.at(4);
    QCOMPARE(rec.kind, QStringLiteral("ldap-mixed"));
    const LoadSummary s = LoadSummary::fromJson(rec.summary);
    QCOMPARE(int(s.byOperation.size()), 2);
    const QString& t = m_pdfText;
    QVERIFY(t.contains("Run 5: mixed (ldap-mixed)"));
    QVERIFY(t.contains("By operation"));
    QVERIFY(t.contains("Throughput by operation: ok/s"));
    // One row per kind, then all: operation, ops, ok/s, errors, then the latency percentiles. Read with -layout:
    // without it pdftotext may take a table's cells out of their row.
    const Result layout = tool(QStringLiteral("pdftotext"), { "-layout", path("report.pdf"), QStringLiteral("-") });
    QStringList lines;
    for (const QString& l : layout.out.split(u'\n'))
        lines << l.simplified();
    auto row = [](const QString& name, const OpFigures& f) {
        return QString(name + ' ' + full(f.ops) + ' ' + full(f.okPerS) + ' ' + full(f.errors) + ' '
            + full(*f.latencyMs.p50) + ' ' + full(*f.latencyMs.p95) + ' ' + full(*f.latencyMs.p99));
    };
    auto hasRow = [&lines](const QString& r) {
        return std::any_of(lines.begin(), lines.end(), [&r](const QString& l) { return l.startsWith(r); });
    };
    for (const auto& [kind, f] : s.byOperation) {
        QVERIFY2(f.ops > 0, qPrintable(kind));
        QVERIFY2(hasRow(row(kind, f)), qPrintable(row(kind, f)));
    }
    QVERIFY2(hasRow(row("all", s.all)), qPrintable(row("all", s.all)));
}

void TstReport::olderRecordIsMarkedDerived()
{
    if (!m_haveLdap)
        QSKIP("slapd is not installed (apt-get install slapd): there is no LDAP load to report");
    RunRecord r = m_loaded.at(3);
    r.summary = older(r.summary);
    for (qsizetype i = 0; i < r.intervals.size(); ++i)
        r.intervals[i] = older(r.intervals.at(i).toObject());
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    QVERIFY(s.all.okDerived);
    const QString t = pdfTextOf(r, "older");
    QVERIFY2(
        t.contains("ok/s (successes per second) " + full(s.all.okPerS) + " (derived: ops − errors)"), qPrintable(t));
    QVERIFY(t.contains("operations succeeded " + full(s.all.ok) + " (derived: ops − errors)"));
    QVERIFY(t.contains("ok/s (derived: ops − errors)")); // the chart's series
    QVERIFY(t.contains("made before successful operations were counted apart"));
}

void TstReport::coalescedReadsAreMarked()
{
    if (!m_haveLdap)
        QSKIP("slapd is not installed (apt-get install slapd): there is no LDAP load to report");
    RunRecord r = m_loaded.at(4);
    r.spec.insert("coalesce_reads", true); // what --coalesce-reads writes
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    const QString t = pdfTextOf(r, "coalesced");
    QVERIFY2(t.contains("latency p99 (ms, coalesced reads) " + full(*s.all.latencyMs.p99)), qPrintable(t));
    QVERIFY(t.contains("latency p50 (ms, coalesced reads) " + full(*s.all.latencyMs.p50)));
    QVERIFY(t.contains("By operation (latency with coalesced reads)"));
    QVERIFY(t.contains("Latency (ms), coalesced reads"));
    QVERIFY(t.contains("Reads were coalesced"));
}

void TstReport::genericKind()
{
    // A kind the report has no page for: summary, verdicts, sources, intervals.
    RunRecord r;
    r.kind = QStringLiteral("vendor-check");
    r.started = QDateTime::currentDateTime();
    r.environment = QJsonObject { { "host", "ldap1.example.com" } };
    r.summary = QJsonObject { { "disk", "pd-balanced 500 GB" },
        { "limits",
            QJsonArray { QJsonObject { { "metric", "iops" }, { "listed", 3000 }, { "measured", 2875.4 },
                { "flag", "below" }, { "source", "https://cloud.example/disks#limits" } } } } };
    r.intervals
        = QJsonArray { QJsonObject { { "t", 1 }, { "iops", 2800.5 } }, QJsonObject { { "t", 2 }, { "iops", 2950 } } };
    r.verdicts << Verdict { "IOPS >= 95 % of the listed limit", "Cloud vendor disk table 2026", false, 2875.4, 2850,
        "IO/s", {}, {} };
    r.addWarning("burst", "the disk may be bursting");
    QFile f(path("cloud.json"));
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write(r.toJsonBytes());
    f.close();
    const Result res
        = run({ "report", "--in", path("cloud.json"), "--pdf", path("cloud.pdf"), "--html", path("cloud.html") });
    QVERIFY2(res.code == 0, qPrintable(res.err));
    const QString t = flat(tool(QStringLiteral("pdftotext"), { path("cloud.pdf"), QStringLiteral("-") }).out);
    for (const char* s :
        { "Run 1: cloud (vendor-check)", "pd-balanced 500 GB", "2,875.4", "3,000", "https://cloud.example/disks#limits",
            "Cloud vendor disk table 2026", "the disk may be bursting", "Intervals: IO/s", "ldap1.example.com" })
        QVERIFY2(t.contains(QLatin1String(s)), s);
    QVERIFY(t.contains(
        "FAIL IOPS >= 95 % of the listed limit: measured 2,875.4 IO/s, threshold 2,850 IO/s (source: Cloud vendor "
        "disk table 2026)"));
}

void TstReport::cloudComparison()
{
    // The advisor's record (the seed's own table): a case table and one block per case, each with the limit that
    // binds and the flags explained, and the catalog's sources at the end.
    const Result res = run({ "report", "--in", path("seed.json"), "--pdf", path("seed.pdf") });
    QVERIFY2(res.code == 0, qPrintable(res.err));
    const QString t = flat(tool(QStringLiteral("pdftotext"), { path("seed.pdf"), QStringLiteral("-") }).out);
    QFile f(path("seed.json"));
    QVERIFY(f.open(QIODevice::ReadOnly));
    const auto rec = RunRecord::fromJsonBytes(f.readAll());
    QVERIFY(rec);
    const QJsonArray cases = rec->summary.value("cases").toArray();
    QVERIFY(cases.size() >= 6);
    QVERIFY(t.contains("Cases"));
    for (const auto& v : cases) {
        const QJsonObject c = v.toObject();
        QVERIFY2(t.contains(flat(c.value("label").toString())), qPrintable(c.value("label").toString()));
        const QString binding = c.value("evaluation").toObject().value("binding_text").toString();
        QVERIFY2(t.contains(flat(binding)), qPrintable(binding));
        const QJsonArray flags = c.value("flags").toArray();
        for (const auto& fl : flags)
            QVERIFY2(
                t.contains(fl.toObject().value("code").toString()), qPrintable(fl.toObject().value("code").toString()));
    }
    QVERIFY(t.contains("above-published-max"));
    QVERIFY(t.contains("524.3 MB/s"));
    QVERIFY(t.contains("MicrosoftDocs"));
}

QList<RunRecord> TstReport::everyKind() const
{
    QList<RunRecord> out = m_loaded;
    out << load(path("seed.json"));
    if (m_haveLdap)
        out << load(path("sweep.json"));
    // A record with a wide table of large figures, as a vendor's export may hold: it must split, never cut.
    RunRecord wide;
    wide.kind = "vendor-check";
    QJsonArray rows;
    for (int i = 0; i < 3; ++i)
        rows.append(QJsonObject { { "threads", 8 << i }, { "ok_per_s", 32932.5 + i }, { "ops_per_s", 32940.25 + i },
            { "p50_ms", 1.25 }, { "p99_ms", 12.75 + i }, { "errors", 123456 + i }, { "entries", 1000000 * (i + 1) },
            { "consumer", "ldap://replica-number-one.example.com:10389" }, { "bytes_read", 83171004416.0 + i },
            { "connections", 4096 }, { "operations", 987654321 + i } });
    wide.summary = QJsonObject { { "points", rows } };
    out << wide;
    return out;
}

void TstReport::seedFailuresOnPageOne()
{
    // The eDirectory article's own table: its P30 (listed 200 MB/s, returned "less than 50"), P60 and t2.micro cases
    // fail on page 1, in words, with the bound printed as a bound; none of them passes anything.
    const Result res = run({ "report", "--in", path("seed.json"), "--pdf", path("seed1.pdf") });
    QVERIFY2(res.code == 0, qPrintable(res.err));
    const Result page1 = tool(QStringLiteral("pdftotext"), { "-f", "1", "-l", "1", path("seed1.pdf"), "-" });
    QCOMPARE(page1.code, 0);
    const QString t = flat(page1.out);
    for (const char* c : { "Azure P30 disk (1TB) delivers < 50 MB/s", "Azure P60 disk delivers 35 MB/s",
             "t2.micro (not EBS-optimized) + io1 1000 GB delivers 72.2 MB/s" }) {
        // Wherever the case is named, the badge of its line is ✗ (failed) or ⚠ (flagged), never ✓; its verdict's
        // own line is ✗.
        bool failed = false;
        for (qsizetype at = t.indexOf(QLatin1String(c)); at >= 0; at = t.indexOf(QLatin1String(c), at + 1)) {
            qsizetype badge = -1;
            QChar mark;
            for (const QChar b : { QChar(u'✗'), QChar(u'✓'), QChar(u'⚠'), QChar(u'•') })
                if (const qsizetype i = t.lastIndexOf(b, at); i > badge) {
                    badge = i;
                    mark = b;
                }
            QVERIFY2(mark != u'✓', qPrintable(t.mid(std::max<qsizetype>(0, badge), 200)));
            failed = failed || (mark == u'✗' && t.mid(badge, at - badge).count(u':') <= 1);
        }
        QVERIFY2(failed, qPrintable(QLatin1String(c) + u'\n' + t));
    }
    QVERIFY2(t.contains("6 cases compared: "), qPrintable(t));
    QVERIFY(!t.contains("0 cases compared"));
    QVERIFY(!t.contains("within the published maximum"));
    QVERIFY(!t.contains("measured 50 MB/s"));
    // The failures come first: before any pass and before the flags.
    QVERIFY(t.contains("✗ "));
    const qsizetype firstFail = t.indexOf("✗ ");
    QVERIFY(!t.contains("✓ ") || firstFail < t.indexOf("✓ "));
}

void TstReport::tableNumbersInFull()
{
    // For each kind of record, every number of every table the report shows is in the PDF's text whole: a column
    // that cannot hold it wraps the table or splits it, never cuts "32,932.5" to "2,932.5".
    // A figure is a whole word of a cell ("32,932.5", "(4,096"), not a piece of a version ("6.18.44-fc").
    static const QRegularExpression number(QStringLiteral("^[0-9][0-9,]*(?:\\.[0-9]+)?$"));
    static const QRegularExpression date(QStringLiteral("\\d{4}-\\d\\d-\\d\\d"));
    for (const RunRecord& r : everyKind()) {
        const ReportDocument doc = Report::build({ r });
        const QString json = path(r.kind + QStringLiteral("-numbers.json"));
        const QString pdf = path(r.kind + QStringLiteral("-numbers.pdf"));
        QVERIFY(save(r, json));
        const Result made = run({ "report", "--in", json, "--pdf", pdf }); // painted as the CLI paints it
        QVERIFY2(made.code == 0, qPrintable(made.err));
        const QString text = flat(tool(QStringLiteral("pdftotext"), { pdf, QStringLiteral("-") }).out);
        int checked = 0;
        for (const ReportSection& s : doc.sections)
            for (const ReportBlock& b : s.blocks) {
                if (b.kind != ReportBlock::Kind::Table)
                    continue;
                QStringList cells = b.table.header;
                for (const QStringList& row : b.table.rows)
                    cells += row;
                for (const QString& cell : std::as_const(cells)) {
                    if (cell.contains(u"://") || date.match(cell).hasMatch())
                        continue; // an address may wrap anywhere, and the report's date is the CLI's own
                    for (QString n : cell.split(u' ', Qt::SkipEmptyParts)) {
                        while (!n.isEmpty() && QStringLiteral("([<").contains(n.front()))
                            n.remove(0, 1);
                        while (!n.isEmpty() && QStringLiteral(")],;:.%").contains(n.back()))
                            n.chop(1);
                        if (!number.match(n).hasMatch())
                            continue;
                        QVERIFY2(containsWhole(text, n),
                            qPrintable(r.kind + u": " + n + u" of \"" + cell + u"\" is not whole in the PDF"));
                        ++checked;
                    }
                }
                for (const QString& h : b.table.header)
                    for (const QString& word : h.split(u' ', Qt::SkipEmptyParts))
                        QVERIFY2(bare(text).contains(word), qPrintable(r.kind + u": header word " + word));
            }
        QVERIFY2(checked > 0, qPrintable(r.kind));
    }
}

void TstReport::eightRunsInTenPages()
{
    if (!m_haveLdap)
        QSKIP("slapd is not installed: the LDAP runs of the eight are missing");
    QStringList args = { "report", "--pdf", path("eight.pdf") };
    const QStringList files = m_records + QStringList { path("seed.json"), path("sweep.json"), path("rand-read.json") };
    for (const QString& f : files)
        args << "--in" << f;
    QCOMPARE(files.size(), 8);
    const Result res = run(args);
    QVERIFY2(res.code == 0, qPrintable(res.err));
    const QString info = tool(QStringLiteral("pdfinfo"), { path("eight.pdf") }).out;
    static const QRegularExpression pagesLine(QStringLiteral("Pages:\\s+(\\d+)"));
    const QRegularExpressionMatch pages = pagesLine.match(info);
    QVERIFY(pages.hasMatch());
    int appendix = 0;
    for (int p = 1; p <= pages.captured(1).toInt() && appendix == 0; ++p) {
        const QString page = tool(
            QStringLiteral("pdftotext"), { "-f", QString::number(p), "-l", QString::number(p), path("eight.pdf"), "-" })
                                 .out;
        if (page.contains("Appendix: full settings"))
            appendix = p;
    }
    QVERIFY2(appendix > 0, "the appendix of full settings is missing");
    QVERIFY2(appendix - 1 <= 10,
        qPrintable(QStringLiteral("%1 pages before the appendix (of %2)").arg(appendix - 1).arg(pages.captured(1))));
}

void TstReport::sourcesAreCitations()
{
    // Every source is a document a reader can look up: never a raw IP address, a command-line flag or a path of the
    // program's resources; the providers' figures by their publisher's own pages.
    const ReportDocument doc = Report::build(everyKind());
    QVERIFY(!doc.sources.isEmpty());
    static const QRegularExpression rawIp(QStringLiteral("https?://\\d+\\.\\d+\\.\\d+\\.\\d+"));
    static const QRegularExpression flag(QStringLiteral("(^|[\\s(])--[a-z]"));
    for (const QString& s : doc.sources) {
        QVERIFY2(!rawIp.match(s).hasMatch(), qPrintable(s));
        QVERIFY2(!flag.match(s).hasMatch(), qPrintable(s));
        QVERIFY2(!s.contains(":/dirbench") && !s.startsWith("qrc:") && !s.startsWith(":/"), qPrintable(s));
        QVERIFY2(!Sources::hasRepositoryPath(s), qPrintable(s));
    }
    const QString all = doc.sources.join(u'\n');
    QVERIFY2(all.contains("“Azure managed disk types (Premium SSD sizes)”, Microsoft: "
                          "https://learn.microsoft.com/en-us/azure/virtual-machines/disks-types"),
        qPrintable(all));
    QVERIFY2(all.contains("“HP-UX Directory Server 8.1 Performance Tuning and Sizing Guidelines”"), qPrintable(all));
    const QString pdfText = flat(tool(QStringLiteral("pdftotext"), { path("report.pdf"), "-" }).out);
    QVERIFY(!pdfText.contains("38.142.81.21"));
}

void TstReport::fromHistory()
{
    // The test's own history database ($DIRBENCH_HISTORY, set by ctest): a run saved by name is found by name and id.
    RunStore store;
    QVERIFY(store.open());
    const qint64 id = store.save(m_loaded.at(2), "nightly-sizing");
    QVERIFY(id > 0);
    const Result r = run({ "report", "--history", "nightly-sizing", "--history", QString::number(id), "--pdf",
        path("history.pdf"), "--csv", path("history.csv") });
    QVERIFY2(r.code == 0, qPrintable(r.err));
    const QString t = flat(tool(QStringLiteral("pdftotext"), { path("history.pdf"), QStringLiteral("-") }).out);
    QVERIFY(t.contains("Run 1: nightly-sizing (sizing)"));
    QVERIFY(t.contains("Run 2: nightly-sizing (sizing)"));
    QVERIFY(QFile::exists(path("history.csv")));
}

void TstReport::badInput_data()
{
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("names");
    QTest::addColumn<QString>("output");
    const QString d = m_dir.path();
    {
        QFile nj(path("notjson.json"));
        QVERIFY(nj.open(QIODevice::WriteOnly));
        nj.write("this is not json\n");
        QFile ns(path("noschema.json"));
        QVERIFY(ns.open(QIODevice::WriteOnly));
        ns.write(R"({"kind": "disk", "summary": {}})");
    }
    QTest::newRow("no --in") << QStringList { "report", "--pdf", d + "/o1.pdf" } << "--in" << d + "/o1.pdf";
    QTest::newRow("missing file") << QStringList { "report", "--in", d + "/nope.json", "--pdf", d + "/o2.pdf" }
                                  << "--in|nope.json" << d + "/o2.pdf";
    QTest::newRow("a directory") << QStringList { "report", "--in", d, "--pdf", d + "/o3.pdf" } << "--in"
                                 << d + "/o3.pdf";
    QTest::newRow("not json") << QStringList { "report", "--in", path("notjson.json"), "--pdf", d + "/o4.pdf" }
                              << "--in|notjson.json" << d + "/o4.pdf";
    QTest::newRow("no schema") << QStringList { "report", "--in", path("noschema.json"), "--pdf", d + "/o5.pdf" }
                               << "--in|noschema.json|dirbench.run/1" << d + "/o5.pdf";
    QTest::newRow("no output") << QStringList { "report", "--in", path("sizing.json") } << "--pdf" << QString();
    QTest::newRow("output dir missing") << QStringList { "report", "--in", path("sizing.json"), "--pdf",
        d + "/no/such/dir/o.pdf" } << "--pdf"
                                        << d + "/no/such/dir/o.pdf";
    QTest::newRow("empty title") << QStringList { "report", "--in", path("sizing.json"), "--pdf", d + "/o6.pdf",
        "--title", " " } << "--title"
                                 << d + "/o6.pdf";
    QTest::newRow("bad history") << QStringList { "report", "--history", "no-such-run-name", "--pdf", d + "/o7.pdf" }
                                 << "--history|no-such-run-name" << d + "/o7.pdf";
    QTest::newRow("unknown option") << QStringList { "report", "--in", path("sizing.json"), "--pdf", d + "/o8.pdf",
        "--colour" } << "colour" << d + "/o8.pdf";
}

void TstReport::badInput()
{
    QFETCH(QStringList, args);
    QFETCH(QString, names);
    QFETCH(QString, output);
    const Result r = run(args);
    QCOMPARE(r.code, 2);
    for (const QString& n : names.split(u'|'))
        QVERIFY2(r.err.contains(n), qPrintable(r.err));
    if (!output.isEmpty())
        QVERIFY(!QFile::exists(output));
}

QTEST_GUILESS_MAIN(TstReport)
#include "tst_report.moc"
