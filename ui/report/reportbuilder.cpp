// Report::build: the document from the records. The overview, environment and verdicts come first, then a
// section per run (kind-specific blocks from reportsections.h), then every cited source.
#include "core/store/runstore.h"
#include "ui/report/report.h"
#include "ui/report/reportformat.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QLocale>

namespace Report {

namespace {

QString dateText(const QDateTime& t)
{
    return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t")) : QStringLiteral("unknown");
}

// The history's headline, or for kinds it has none for, the number a reader looks for first.
QString headline(const RunRecord& r)
{
    if (r.kind.startsWith(u"ldap-") && r.kind != u"ldap-probe" && !r.summary.isEmpty())
        return ReportSections::ldapHeadline(r); // successes per second, the figure to bet on
    const QString h = RunStore::headlineOf(r);
    if (!h.isEmpty() && h != r.status)
        return h;
    const QJsonObject& s = r.summary;
    if (r.kind == u"sizing")
        for (const QJsonValue& v : s.value(QStringLiteral("recommendations")).toArray())
            if (v.toObject().value(QStringLiteral("name")).toString().compare(u"total RAM", Qt::CaseInsensitive) == 0)
                return QString(u"total RAM " + ReportFormat::value(v.toObject().value(QStringLiteral("value"))) + u' '
                    + v.toObject().value(QStringLiteral("unit")).toString());
    if (s.value(QStringLiteral("t_hit_us")).isDouble())
        return QString(u"t_hit " + ReportFormat::value(s.value(QStringLiteral("t_hit_us"))) + u" µs, t_miss "
            + ReportFormat::value(s.value(QStringLiteral("t_miss_us"))) + u" µs");
    if (s.value(QStringLiteral("best_ok_per_s")).isDouble())
        return QString(u"best " + ReportFormat::value(s.value(QStringLiteral("best_ok_per_s"))) + u" ok/s");
    if (s.value(QStringLiteral("best_ops_per_s")).isDouble()) // a record older than ok/s
        return QString(u"best " + ReportFormat::value(s.value(QStringLiteral("best_ops_per_s"))) + u" ops/s");
    return h;
}

ReportSection overview(const QList<RunRecord>& records, const ReportOptions& options, const QDateTime& generated)
{
    ReportSection s;
    s.heading = QStringLiteral("Overview");
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
            headline(r) });
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
    s.heading = QStringLiteral("Verdicts");
    ReportTable t;
    t.header = { QStringLiteral("run"), QStringLiteral("result"), QStringLiteral("requirement"),
        QStringLiteral("measured"), QStringLiteral("threshold"), QStringLiteral("source") };
    for (qsizetype i = 0; i < records.size(); ++i)
        for (const Verdict& v : records.at(i).verdicts)
            t.rows.append({ runName(records, options, i), v.passed ? QStringLiteral("PASS") : QStringLiteral("FAIL"),
                v.requirement, QString(ReportFormat::number(v.measured) + u' ' + v.unit),
                QString(ReportFormat::number(v.threshold) + u' ' + v.unit), v.source });
    if (t.rows.isEmpty())
        s.blocks << ReportBlock::paragraph(QStringLiteral("No run of this report was judged against a requirement."));
    else
        s.blocks << ReportBlock::ofTable(t);
    return s;
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
            ReportSections::cite(sources, v.source);
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
        + v.unit + u" (source: " + v.source + u')');
    if (!v.note.isEmpty())
        line += QString(u" - " + v.note);
    return line;
}

ReportDocument build(const QList<RunRecord>& records, const ReportOptions& options)
{
    ReportDocument doc;
    doc.title = options.title.isEmpty() ? ReportOptions().title : options.title;
    doc.generated = options.generated.isValid() ? options.generated : QDateTime::currentDateTime();
    doc.sections << overview(records, options, doc.generated);
    doc.sections << environment(records, options);
    doc.sections << verdicts(records, options);
    for (qsizetype i = 0; i < records.size(); ++i)
        doc.sections << runSection(records.at(i), runName(records, options, i), int(i + 1), doc.sources);

    ReportSection src;
    src.heading = QStringLiteral("Sources");
    if (doc.sources.isEmpty()) {
        src.blocks << ReportBlock::paragraph(QStringLiteral("No figure in this report cites a published source."));
    } else {
        ReportTable t;
        t.header = { QStringLiteral("#"), QStringLiteral("source of a published figure") };
        for (qsizetype i = 0; i < doc.sources.size(); ++i)
            t.rows.append({ QString::number(i + 1), doc.sources.at(i) });
        src.blocks << ReportBlock::ofTable(t);
    }
    doc.sections << src;
    return doc;
}

} // namespace Report
