// Report::build: the document from the records. The summary is page 1; then the runs and their verdicts, a section
// per run (kind-specific blocks from reportsections.h), every cited source, and the environment last.
#include "core/catalog/sources.h"
#include "ui/report/report.h"
#include "ui/report/reportformat.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"
#include "ui/report/reportsummary.h"

#include <QLocale>

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
    s.newPage = true;
    int passed = 0, failed = 0;
    for (const RunRecord& r : records)
        for (const Verdict& v : r.verdicts)
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
        for (const Verdict& v : records.at(i).verdicts)
            t.rows.append({ runName(records, options, i), v.passed ? QStringLiteral("PASS") : QStringLiteral("FAIL"),
                v.requirement, QString(ReportFormat::number(v.measured) + u' ' + v.unit),
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

ReportSection runSection(const RunRecord& r, const QString& name, int number, QStringList& sources)
{
    ReportSection s;
    s.heading = QStringLiteral("Run %1: %2 (%3)").arg(QString::number(number), name, r.kind);
    s.status = r.status == u"ok" ? QStringLiteral("completed")
                                 : QString(r.status + (r.failure.isEmpty() ? QString() : u": " + r.failure));
    s.blocks << ReportBlock::paragraph(QString(u"Started " + dateText(r.started) + u"; status " + s.status + u'.'));
    if (!r.warnings.isEmpty())
        s.blocks << ReportBlock::ofWarnings(r.warnings);
    const QList<QStringList> spec = ReportJson::keyValueRows(r.spec);
    if (!spec.isEmpty()) {
        s.blocks << ReportBlock::subheading(QStringLiteral("Specification"));
        s.blocks << ReportBlock::keyValues(spec);
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
    else {
        if (r.server.isObject()) {
            s.blocks << ReportBlock::subheading(QStringLiteral("Server"));
            s.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(r.server.toObject()));
        }
        ReportSections::generic(r, s, sources);
    }
    if (!r.verdicts.isEmpty()) {
        s.blocks << ReportBlock::subheading(QStringLiteral("Verdicts"));
        s.blocks << ReportBlock::ofVerdicts(r.verdicts);
        for (const Verdict& v : r.verdicts)
            ReportSections::cite(sources, Sources::ofVerdict(v));
    }
    for (const QString& src : ReportJson::sourcesIn(r.extra) + ReportJson::sourcesIn(r.spec))
        ReportSections::cite(sources, src);
    return s;
}

} // namespace

QString runName(const QList<RunRecord>& records, const ReportOptions& options, qsizetype i)
{
    if (i < options.runNames.size() && !options.runNames.at(i).isEmpty())
        return options.runNames.at(i);
    return QString(records.value(i).kind + u" #" + QString::number(i + 1));
}

QString verdictLine(const Verdict& v)
{
    QString line = QString((v.passed ? u"PASS  " : u"FAIL  ") + v.requirement + u": measured "
        + ReportFormat::number(v.measured) + u' ' + v.unit + u", threshold " + ReportFormat::number(v.threshold) + u' '
        + v.unit + u" (source: " + Sources::ofVerdict(v) + u')');
    if (!v.note.isEmpty())
        line += QString(u" - " + v.note);
    return line;
}

ReportDocument build(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportDocument doc;
    doc.title = options.title.isEmpty() ? ReportOptions().title : options.title;
    doc.author = options.author;
    doc.generated = options.generated.isValid() ? options.generated : QDateTime::currentDateTime();
    QList<ReportSection> runs;
    for (qsizetype i = 0; i < records.size(); ++i)
        runs << runSection(records.at(i), runName(records, options, i), int(i + 1), doc.sources);
    doc.sections << ReportSummary::section(records, options, runs);
    doc.sections << overview(records, options, doc.generated);
    doc.sections.last().blocks << verdicts(records, options).blocks;
    doc.sections << runs;
    doc.sections << sourcesSection(doc.sources);
    doc.sections << environment(records, options);
    return doc;
}

} // namespace Report
