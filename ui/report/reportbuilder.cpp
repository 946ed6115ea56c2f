// Report::build: the document from the records. The summary is page 1; then the runs and their verdicts, a section
// per run (what was tested, the settings that differ from the other runs of its kind, kind-specific blocks from
// reportsections.h), every cited source, and an appendix: every run's full settings, and the environment last.
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "core/catalog/verdicttext.h"
#include "core/common/reportformat.h"
#include "ui/report/report.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

#include <QLocale>

#include <algorithm>

namespace Report {

namespace {

QString dateText(const QDateTime& t)
{
    return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t")) : QStringLiteral("unknown");
}

ReportSection overview(const QList<RunRecord>& records, const ReportOptions& options, const QDateTime& generated)
{
    ReportSection s;
    s.heading = QStringLiteral("Runs and verdicts");
    int passed = 0, failed = 0;
    for (const RunRecord& r : records)
        for (const Verdict& v : judgedVerdicts(r))
            (v.passed ? passed : failed)++;
    s.blocks << ReportBlock::keyValues({ { QStringLiteral("generated"), dateText(generated) },
        { QStringLiteral("runs"), QString::number(records.size()) },
        { QStringLiteral("verdicts"),
            QStringLiteral("%1 passed, %2 failed").arg(QString::number(passed), QString::number(failed)) },
        { QStringLiteral("numbers"),
            QStringLiteral("printed in full; MB/s = 10^6 bytes/s; disk latency in µs, LDAP latency in ms; n/a = "
                           "not exposed by the server or system") } });
    ReportTable t;
    t.header = { QStringLiteral("#"), QStringLiteral("run"), QStringLiteral("kind"), QStringLiteral("status"),
        QStringLiteral("started"), QStringLiteral("headline") };
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RunRecord& r = records.at(i);
        t.rows.append({ QString::number(i + 1), runName(records, options, i), r.kind, r.status, dateText(r.started),
            ReportSummary::headline(r) });
    }
    s.blocks << ReportBlock::subheading(QStringLiteral("Runs"));
    s.blocks << ReportBlock::ofTable(t);
    return s;
}

// One table of what the runs share (host, CPU, kernel...), then what differs per run (free space, paths).
ReportSection environment(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportSection s;
    s.heading = QStringLiteral("Environment");
    QList<QList<QStringList>> perRun;
    QStringList names;
    for (const RunRecord& r : records) {
        perRun << ReportJson::keyValueRows(r.environment);
        for (const QStringList& row : perRun.last())
            if (!names.contains(row.first()))
                names << row.first();
    }
    auto valueOf = [&](qsizetype run, const QString& name) {
        for (const QStringList& row : perRun.at(run))
            if (row.first() == name)
                return row.value(1);
        return QString(); // the record does not have it
    };
    QList<QStringList> common;
    ReportTable differing;
    differing.header = { QStringLiteral("field"), QStringLiteral("run"), QStringLiteral("value") };
    for (const QString& name : std::as_const(names)) {
        // Runs whose record lacks a field (a sizing run has no file system) do not make it differ.
        QStringList values;
        for (qsizetype i = 0; i < records.size(); ++i)
            if (const QString v = valueOf(i, name); !v.isEmpty() && !values.contains(v))
                values << v;
        if (values.size() <= 1) {
            common.append({ name, values.value(0) });
            continue;
        }
        for (qsizetype i = 0; i < records.size(); ++i)
            if (const QString v = valueOf(i, name); !v.isEmpty())
                differing.rows.append({ name, runName(records, options, i), v });
    }
    if (common.isEmpty() && differing.rows.isEmpty())
        s.blocks << ReportBlock::paragraph(QStringLiteral("The records hold no environment."));
    if (!common.isEmpty())
        s.blocks << ReportBlock::keyValues(common);
    if (!differing.rows.isEmpty()) {
        s.blocks << ReportBlock::subheading(QStringLiteral("Where the runs differ"));
        s.blocks << ReportBlock::ofTable(differing);
    }
    return s;
}

ReportSection verdicts(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportSection s;
    s.blocks << ReportBlock::subheading(QStringLiteral("Verdicts"));
    ReportTable t;
    t.header = { QStringLiteral("run"), QStringLiteral("result"), QStringLiteral("requirement"),
        QStringLiteral("measured"), QStringLiteral("threshold"), QStringLiteral("source") };
    for (qsizetype i = 0; i < records.size(); ++i)
        for (const Verdict& v : judgedVerdicts(records.at(i)))
            t.rows.append({ runName(records, options, i), v.passed ? QStringLiteral("PASS") : QStringLiteral("FAIL"),
                v.requirement,
                QString((v.measuredIsUpperBound ? u"< " : u"") + ReportFormat::number(v.measured) + u' ' + v.unit),
                QString(ReportFormat::number(v.threshold) + u' ' + v.unit), Sources::ofVerdict(v) });
    if (t.rows.isEmpty())
        s.blocks << ReportBlock::paragraph(QStringLiteral("No run of this report was judged against a requirement."));
    else
        s.blocks << ReportBlock::ofTable(t);
    return s;
}

// Each document once, with the pages it links; other sources as their records cite them, without repository paths.
// `cited` becomes that list.
ReportSection sourcesSection(QStringList& cited)
{
    ReportSection src;
    src.heading = QStringLiteral("Sources");
    QStringList listed;
    // A page cited with its date and without ("https://…/disks-types.md (ms.date 2023-11-15)") is listed once.
    auto seen = [&](const QString& entry) {
        const QString page = entry.section(u' ', 0, 0);
        for (const QString& l : std::as_const(listed))
            if (l == entry || (page.startsWith(u"http") && l.section(u' ', 0, 0) == page))
                return true;
        return false;
    };
    for (const QString& c : cited) {
        if (!Sources::isCitable(c))
            continue; // a flag or a resource path of the program is not a source a reader can look up
        const Sources::Source* doc = Sources::namedIn(c);
        const QString entry = doc ? Sources::fullCitation(*doc) : Sources::readable(c);
        if (!entry.isEmpty() && !seen(entry))
            listed << entry;
    }
    cited = listed;
    if (listed.isEmpty()) {
        src.blocks << ReportBlock::paragraph(QStringLiteral("No figure in this report cites a published source."));
        return src;
    }
    ReportTable t;
    t.header = { QStringLiteral("#"), QStringLiteral("source of a published figure") };
    for (qsizetype i = 0; i < listed.size(); ++i)
        t.rows.append({ QString::number(i + 1), listed.at(i) });
    src.blocks << ReportBlock::ofTable(t);
    return src;
}

ReportSection runSection(
    const RunRecord& r, const QString& name, int number, QStringList& sources, const QList<QStringList>& differing)
{
    ReportSection s;
    s.heading = QStringLiteral("Run %1: %2 (%3)").arg(QString::number(number), name, r.kind);
    s.status = r.status == u"ok" ? QStringLiteral("completed")
                                 : QString(r.status + (r.failure.isEmpty() ? QString() : u": " + r.failure));
    s.blocks << ReportBlock::paragraph(ReportSummary::whatWasTested(r));
    if (!r.warnings.isEmpty())
        s.blocks << ReportBlock::ofWarnings(r.warnings);
    if (!differing.isEmpty()) {
        s.blocks << ReportBlock::subheading(QStringLiteral("Settings that differ from the other runs of its kind"));
        s.blocks << ReportBlock::keyValues(differing);
    }
    if (r.kind == u"disk")
        ReportSections::disk(r, s, sources);
    else if (r.kind.startsWith(u"ldap-") && r.kind != u"ldap-probe")
        ReportSections::ldapLoad(r, s, sources);
    else if (r.kind == u"curve")
        ReportSections::curve(r, s, sources);
    else if (r.kind == u"sizing")
        ReportSections::sizing(r, s, sources);
    else if (r.kind == u"cloud-compare")
        ReportSections::cloudCompare(r, s, sources);
    else if (r.kind == u"replication")
        ReportSections::replication(r, s, sources);
    else if (r.kind == u"replay")
        ReportSections::replay(r, s, sources);
    else {
        if (r.server.isObject()) {
            s.blocks << ReportBlock::subheading(QStringLiteral("Server"));
            s.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(r.server.toObject()));
        }
        ReportSections::generic(r, s, sources);
    }
    if (const QList<Verdict> judged = judgedVerdicts(r); !judged.isEmpty()) {
        s.blocks << ReportBlock::subheading(QStringLiteral("Verdicts"));
        s.blocks << ReportBlock::ofVerdicts(judged);
        for (const Verdict& v : judged)
            ReportSections::cite(sources, Sources::ofVerdict(v));
    }
    for (const QString& src : ReportJson::sourcesIn(r.extra) + ReportJson::sourcesIn(r.spec))
        ReportSections::cite(sources, src);
    return s;
}

// A run's settings that another run of the same kind has with another value (or not at all): what a reader compares.
QList<QStringList> differingSettings(const QList<RunRecord>& records, qsizetype i)
{
    const QList<QStringList> mine = ReportJson::keyValueRows(records.at(i).spec);
    QList<QList<QStringList>> others;
    for (qsizetype j = 0; j < records.size(); ++j)
        if (j != i && records.at(j).kind == records.at(i).kind)
            others << ReportJson::keyValueRows(records.at(j).spec);
    QList<QStringList> out;
    if (others.isEmpty())
        return out;
    for (const QStringList& row : mine)
        for (const QList<QStringList>& other : std::as_const(others))
            if (!other.contains(row)) {
                out << row;
                break;
            }
    return out;
}

// What a run's section keeps, by the subheading a block follows: the figures that matter. The rest (per-case and
// per-recommendation detail, server identity and counters, result codes, terms of a formula, repeats, every chart
// after the first) moves to the appendix of details.
bool keptInRun(const QString& subheading)
{
    static const QStringList kExact = { QStringLiteral("Result"), QStringLiteral("Tests of the suite"),
        QStringLiteral("Recommendations"), QStringLiteral("Cases"), QStringLiteral("Consumers"),
        QStringLiteral("Lag verdicts"), QStringLiteral("Model"), QStringLiteral("Verdicts"), QStringLiteral("Summary"),
        QStringLiteral("points"), QStringLiteral("Measured points") };
    static const QStringList kStarts = { QStringLiteral("Settings that differ"), QStringLiteral("By operation"),
        QStringLiteral("The change to apply"), QStringLiteral("Agents") };
    return kExact.contains(subheading)
        || std::any_of(kStarts.begin(), kStarts.end(), [&](const QString& k) { return subheading.startsWith(k); });
}

// Splits a run's blocks: the run keeps its introduction, its first chart (the one that matters) and the blocks under
// the subheadings of keptInRun; `details` gets the rest, under the run's heading.
void splitDetails(ReportSection& run, ReportSection& details)
{
    QList<ReportBlock> kept, moved;
    bool keep = true; // before the first subheading: the introduction
    bool chartKept = false;
    for (const ReportBlock& b : std::as_const(run.blocks)) {
        if (b.kind == ReportBlock::Kind::Subheading)
            keep = keptInRun(b.text);
        if (b.kind == ReportBlock::Kind::Chart && !b.chart.isEmpty()) {
            if (chartKept) {
                moved << b;
            } else {
                kept << b;
                kept.last().chart.compact = true; // the chart that matters, lower: the run reads on one page
            }
            chartKept = true;
            continue;
        }
        (keep ? kept : moved) << b;
    }
    // A subheading whose blocks all moved stays with them.
    for (qsizetype i = kept.size() - 1; i >= 0 && kept.at(i).kind == ReportBlock::Kind::Subheading; --i)
        kept.removeAt(i);
    bool hasContent = false;
    for (const ReportBlock& b : std::as_const(moved))
        hasContent = hasContent || b.kind != ReportBlock::Kind::Subheading;
    if (hasContent) {
        details.blocks << ReportBlock::subheading(run.heading);
        details.blocks << moved;
        kept << ReportBlock::paragraph(QStringLiteral("More of this run's figures and charts are in the appendix."));
    }
    run.blocks = kept;
}

// The appendix: every run's full settings, as its record holds them.
ReportSection settingsAppendix(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportSection s;
    s.heading = QStringLiteral("Appendix: full settings");
    s.newPage = true;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const QList<QStringList> spec = ReportJson::keyValueRows(records.at(i).spec);
        s.blocks << ReportBlock::subheading(QStringLiteral("Run %1: %2").arg(i + 1).arg(runName(records, options, i)));
        if (spec.isEmpty())
            s.blocks << ReportBlock::paragraph(QStringLiteral("The record holds no settings."));
        else
            s.blocks << ReportBlock::keyValues(spec);
    }
    return s;
}

} // namespace

QString runName(const QList<RunRecord>& records, const ReportOptions& options, qsizetype i)
{
    if (i < options.runNames.size() && !options.runNames.at(i).isEmpty())
        return options.runNames.at(i);
    return QString(records.value(i).kind + u" #" + QString::number(i + 1));
}

QList<Verdict> judgedVerdicts(const RunRecord& r)
{
    QList<Verdict> out;
    if (r.kind
        == u"cloud-compare") { // one per judged case (core/catalog/cloudverdict.h), whatever an older record holds
        for (const CloudCatalog::CloudCase& c : CloudCatalog::casesOf(r))
            if (c.verdict)
                out << *c.verdict;
        return out;
    }
    for (const Verdict& v : r.verdicts)
        if (!CloudCatalog::isSanityCheck(v))
            out << v;
    return out;
}

QString verdictLine(const Verdict& v)
{
    return VerdictText::line(v);
}

ReportDocument build(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportDocument doc;
    doc.title = options.title.isEmpty() ? ReportOptions().title : options.title;
    doc.author = options.author;
    doc.generated = options.generated.isValid() ? options.generated : QDateTime::currentDateTime();
    QList<ReportSection> runs;
    ReportSection details;
    details.heading = QStringLiteral("Appendix: details of the runs");
    details.newPage = true;
    for (qsizetype i = 0; i < records.size(); ++i) {
        runs << runSection(
            records.at(i), runName(records, options, i), int(i + 1), doc.sources, differingSettings(records, i));
        splitDetails(runs.last(), details);
    }
    doc.sections << ReportSummary::section(records, options, runs);
    doc.sections << overview(records, options, doc.generated);
    doc.sections.last().blocks << verdicts(records, options).blocks;
    doc.sections << runs;
    doc.sections << settingsAppendix(records, options);
    if (!details.blocks.isEmpty())
        doc.sections << details;
    doc.sections << sourcesSection(doc.sources);
    doc.sections << environment(records, options);
    return doc;
}

} // namespace Report
