// The summary page, the decision: a conclusion per run, the verdicts in sentences (failures first), what to do next,
// what was tested.
#include "ui/report/reportsummary.h"

#include "core/catalog/cloudverdict.h"
#include "core/common/reportformat.h"
#include "core/disk/diskrecordfacts.h"
#include "core/disk/diskresult.h"
#include "core/experiments/curvesummary.h"
#include "core/experiments/experimentsummary.h"
#include "core/experiments/pointaxis.h"
#include "core/experiments/replicationfigures.h"
#include "core/ldap/probesummary.h"
#include "core/sizing/sizingsummary.h"
#include "core/store/runstore.h"
#include "ui/report/report.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QHash>
#include <QJsonArray>

#include <algorithm>
#include <optional>

namespace ReportSummary {

namespace {

QString str(const QJsonObject& o, const char* dottedKey)
{
    const QJsonValue v = ReportJson::at(o, QString::fromLatin1(dottedKey));
    return v.isString() ? v.toString() : v.isDouble() ? ReportFormat::number(v.toDouble()) : QString();
}

// "OpenLDAP: slapd 2.5.13" from the record's server identity (without the build date), or "".
QString serverName(const RunRecord& r)
{
    return RecordServer::of(r).shortName();
}

// A cache curve's answer: the fit's two ends (CurveRecord::fitSentence); "" for a record without a fit.
QString curveHeadline(const RunRecord& r)
{
    return CurveRecord::Summary::of(r).fitText();
}

QString diskHeadline(const RunRecord& r)
{
    return DiskSummary::fromJson(r.summary).headlineText();
}

QString diskTested(const RunRecord& r)
{
    const QString profile = str(r.spec, "profile");
    QString t = profile == u"directory" ? QStringLiteral("A disk test (the suite for a directory server: random reads, "
                                                         "commits, sustained writes and the eDirectory article's dd)")
                                        : QString(u"A disk test (" + profile + u')');
    if (const QString dir = str(r.spec, "dir"); !dir.isEmpty())
        t += QString(u" in " + dir);
    const DiskRecordFacts facts = DiskRecordFacts::of(r);
    if (!facts.fsType.isEmpty())
        t += QString(u" on " + facts.fsType);
    if (facts.fsFreeBytes)
        t += QString(u" with " + ReportFormat::bytes(*facts.fsFreeBytes) + u" free");
    if (facts.sizeBytes)
        t += QString(u", using a test file of "
            + ReportFormat::bytesOf(QStringLiteral("size_bytes"), *facts.sizeBytes)
                  .section(QStringLiteral(" ("), 0, 0));
    return t;
}

QString ldapTested(const RunRecord& r)
{
    const QString uri = str(r.spec, "target.uri");
    const QString server = serverName(r);
    const QString against = uri.isEmpty() ? QString() : QString(u" against " + uri);
    const QString who = server.isEmpty() ? QString() : QString(u" (" + server + u')');
    if (r.kind == u"ldap-probe")
        return QString(u"An LDAP probe (connect, TLS, bind, one search)" + against + who);
    QString op = r.kind.mid(5);
    if (op == u"adddel")
        op = QStringLiteral("add-and-delete");
    QString t = QString(u"An LDAP " + op + u" load" + against + who);
    const QString threads = str(r.spec, "threads");
    const QString conns = str(r.spec, "connections");
    const QString secs = str(r.spec, "duration_s");
    if (!threads.isEmpty() && !conns.isEmpty())
        t += QString(u", " + threads + (threads == u"1" ? u" thread with " : u" threads with ") + conns
            + (conns == u"1" ? u" connection" : u" connections") + (threads == u"1" ? u"" : u" each"));
    if (!secs.isEmpty())
        t += QString(u" for " + secs + u" s");
    return t;
}

QString kindTested(const RunRecord& r)
{
    static const QHash<QString, QString> kKinds = {
        { QStringLiteral("sizing"), QStringLiteral("RAM and cache sizing") },
        { QStringLiteral("curve"), QStringLiteral("A cache curve: throughput against the share of entries cached") },
        { QStringLiteral("cloud-compare"),
            QStringLiteral("Measured disk throughput beside the cloud providers' published limits") },
        { QStringLiteral("thread-sweep"), QStringLiteral("An experiment: throughput as the server's threads grow") },
        { QStringLiteral("tls-cost"), QStringLiteral("An experiment: the cost of TLS on the same load") },
        { QStringLiteral("database-size"), QStringLiteral("An experiment: throughput as the database grows") },
        { QStringLiteral("disk-under-load"),
            QStringLiteral("A disk test alone and again beside a live LDAP search load") },
    };
    QString t = kKinds.value(r.kind, QString(u"A " + r.kind + u" run"));
    if (r.kind == u"thread-sweep" && PointAxis::of(r).key == u"threads")
        t = QStringLiteral("An experiment: throughput as the client threads grow");
    if (r.kind == u"sizing")
        if (const QString server = str(r.summary, "server"); !server.isEmpty())
            t += QString(u" for " + serverKindName(server));
    if (const QString server = serverName(r); !server.isEmpty() && r.kind != u"sizing")
        t += QString(u" (" + server + u')');
    return t;
}

QString replicationTested(const RunRecord& r)
{
    const QString supplier = str(r.spec, "supplier.uri");
    const QStringList consumers = ReplicationFigures::specConsumerUris(r);
    QString t = QString(u"Replication lag: a marker written " + str(r.spec, "marker_rate") + u" times a second on "
        + (supplier.isEmpty() ? QStringLiteral("the supplier") : supplier) + u" for " + str(r.spec, "duration_s")
        + u" s and watched on " + (consumers.isEmpty() ? QStringLiteral("its consumers") : consumers.join(u", ")));
    if (const QString server = serverName(r); !server.isEmpty())
        t += QString(u" (" + server + u')');
    return t;
}

// A replication run's lag verdicts are its own sentences ("consumer …: p99 lag 4,100 ms at 1,200 writes/s, above
// 1,000 ms"); its other verdicts, and every other run's, are the generic ones.
bool saysItsOwn(const RunRecord& r, const Verdict& v)
{
    return r.kind == u"replication" && v.requirementId == u"replication-p99-lag"
        && ReplicationFigures::hasVerdictSentences(r);
}

// A line of the summary page: what it says and how it came out (failures first, then flags, then the rest).
struct Line
{
    enum Tone
    {
        Failed,
        Flagged,
        Passed,
        Said
    };
    Tone tone = Said;
    QString text;
    std::optional<Verdict> verdict; // a requirement's verdict: painted with its badge, as the run's detail is
    QString run;
};

QString badgeOf(Line::Tone tone)
{
    switch (tone) {
    case Line::Failed:
        return QStringLiteral("✗ ");
    case Line::Flagged:
        return QStringLiteral("⚠ ");
    case Line::Passed:
        return QStringLiteral("✓ ");
    case Line::Said:
        break;
    }
    return QStringLiteral("• ");
}

// Failures first, then what is flagged, then what passed; a run of verdicts in one block of sentences.
void addLines(QList<Line> lines, ReportSection& s)
{
    std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) { return a.tone < b.tone; });
    QList<Verdict> verdicts;
    QStringList runs;
    auto flush = [&] {
        if (!verdicts.isEmpty())
            s.blocks << ReportBlock::ofVerdictSentences(verdicts, runs);
        verdicts.clear();
        runs.clear();
    };
    for (const Line& l : std::as_const(lines)) {
        if (l.verdict) {
            verdicts << *l.verdict;
            runs << l.run;
            continue;
        }
        flush();
        s.blocks << ReportBlock::paragraph(QString(badgeOf(l.tone) + l.text));
    }
    flush();
}

// A cloud comparison in words: each case's verdict, with the codes of its flags (their words are under "What to do
// next").
QList<Line> cloudLines(const RunRecord& r, const QString& run)
{
    QList<Line> out;
    const QList<CloudCatalog::CloudCase> cases = CloudCatalog::casesOf(r);
    for (const CloudCatalog::CloudCase& c : cases) {
        const Line::Tone tone = c.failed() ? Line::Failed
            : c.verdict                    ? (c.flagged() ? Line::Flagged : Line::Passed)
                                           : (c.flagged() ? Line::Flagged : Line::Said);
        QStringList codes;
        for (const CloudCatalog::Flag& f : c.flags)
            codes << f.code;
        const QString flagged = codes.isEmpty()
            ? QString()
            : QString(u" Flagged: " + codes.join(QStringLiteral(", ")) + u" (what to do: below).");
        out << Line { tone, QString(run + u": " + CloudCatalog::caseSentence(c) + flagged), std::nullopt, run };
    }
    return out;
}

QList<Line> verdictLines(const RunRecord& r, const QString& run)
{
    QList<Line> out;
    if (r.kind == u"cloud-compare")
        return cloudLines(r, run);
    for (const Verdict& v : Report::judgedVerdicts(r))
        if (!saysItsOwn(r, v))
            out << Line { v.passed ? Line::Passed : Line::Failed, Report::verdictSentence(v), v, run };
    if (r.kind == u"replication") {
        QList<bool> passed;
        for (const Verdict& v : r.verdicts)
            if (saysItsOwn(r, v))
                passed << v.passed;
        const QStringList sentences = ReplicationFigures::verdictSentences(r);
        for (qsizetype i = 0; i < sentences.size(); ++i)
            out << Line { i < passed.size() ? (passed.at(i) ? Line::Passed : Line::Failed) : Line::Said,
                QString(run + u": " + sentences.at(i) + u'.'), std::nullopt, run };
    }
    return out;
}

// The question a run answers, as a reader would ask it.
QString questionOf(const RunRecord& r)
{
    if (r.kind == u"disk")
        return QStringLiteral("Does the disk meet the directory's need?");
    if (r.kind == u"cloud-compare")
        return QStringLiteral("Do the cloud disks deliver what they can (80 % of their reachable ceiling)?");
    if (r.kind == u"replication")
        return QStringLiteral("Do the replicas keep up within the lag bound?");
    if (r.kind == u"sizing")
        return QStringLiteral("How much RAM and cache does the server need?");
    if (r.kind == u"curve")
        return QStringLiteral("How does throughput follow the share of entries cached?");
    if (r.kind == u"ldap-probe")
        return QStringLiteral("Does the server answer, and how fast?");
    if (r.kind.startsWith(u"ldap-"))
        return QStringLiteral("How much does the server serve under this load?");
    if (r.kind == u"disk-under-load")
        return QStringLiteral("Does the disk hold up beside a live LDAP load?");
    if (r.kind == u"replay")
        return QStringLiteral("Does the server serve the logged traffic at the log's pace?");
    return QStringLiteral("What did the experiment show?");
}

Line conclusionOf(const RunRecord& r, const QString& run)
{
    const QString q = QString(run + u" — " + questionOf(r) + u' ');
    if (r.status != u"ok")
        return Line { Line::Failed,
            QString(q + u"Not answered: the run " + r.status + (r.failure.isEmpty() ? QString() : u": " + r.failure)
                + u'.'),
            std::nullopt, {} };
    const QString figure = headline(r);
    if (r.kind == u"cloud-compare") {
        const QList<CloudCatalog::CloudCase> cases = CloudCatalog::casesOf(r);
        QStringList failed;
        bool flagged = false;
        for (const CloudCatalog::CloudCase& c : cases) {
            if (c.failed())
                failed << c.label;
            flagged = flagged || c.flagged();
        }
        if (!failed.isEmpty())
            return Line { Line::Failed,
                QString(q + u"No for " + failed.join(QStringLiteral(", ")) + u" (" + figure + u")."), std::nullopt,
                {} };
        return Line { flagged ? Line::Flagged : Line::Passed, QString(q + u"Yes (" + figure + u")."), std::nullopt,
            {} };
    }
    const QList<Verdict> judged = Report::judgedVerdicts(r);
    QStringList failed;
    for (const Verdict& v : judged)
        if (!v.passed)
            failed << plain(v.requirement);
    const QString result = figure.isEmpty() ? QString() : QString(u" Result: " + figure + u'.');
    if (!failed.isEmpty())
        return Line { Line::Failed,
            QString(q + u"No: " + QString::number(failed.size()) + u" of " + QString::number(judged.size())
                + (judged.size() == 1 ? u" requirement fails (" : u" requirements fail (")
                + failed.join(QStringLiteral("; ")) + u")." + result),
            std::nullopt, {} };
    const Line::Tone calm = r.warnings.isEmpty() ? Line::Passed : Line::Flagged;
    const QString warned = r.warnings.isEmpty()
        ? QString()
        : QString(u" " + QString::number(r.warnings.size()) + (r.warnings.size() == 1 ? u" warning." : u" warnings."));
    if (!judged.isEmpty())
        return Line { calm,
            QString(q + u"Yes: "
                + (judged.size() == 1 ? QStringLiteral("its requirement passes")
                                      : QString(u"all " + QString::number(judged.size()) + u" requirements pass"))
                + u'.' + result + warned),
            std::nullopt, {} };
    return Line { r.warnings.isEmpty() ? Line::Said : Line::Flagged,
        QString(q + (figure.isEmpty() ? QStringLiteral("See its section.") : QString(figure + u'.')) + warned),
        std::nullopt, {} };
}

QString dayOf(const QDateTime& t)
{
    return t.isValid() ? t.toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QStringLiteral("an unknown time");
}

} // namespace

QString serverKindName(const QString& kind)
{
    static const QHash<QString, QString> kNames = { { QStringLiteral("389ds"), QStringLiteral("389 Directory Server") },
        { QStringLiteral("openldap"), QStringLiteral("OpenLDAP") },
        { QStringLiteral("edirectory"), QStringLiteral("eDirectory") },
        { QStringLiteral("ad"), QStringLiteral("Active Directory") } };
    return kNames.value(kind, kind);
}

QString headline(const RunRecord& r)
{
    if ((r.kind.startsWith(u"ldap-") && r.kind != u"ldap-probe") || r.kind == u"replay")
        if (!r.summary.isEmpty())
            return ReportSections::ldapHeadline(r); // successes per second, the figure to bet on
    if (r.kind == u"disk")
        if (QString d = diskHeadline(r); !d.isEmpty())
            return d;
    if (r.kind == u"cloud-compare")
        return CloudCatalog::headline(r);
    if (r.kind == u"replication")
        if (QString h = ReportSections::replicationHeadline(r); !h.isEmpty())
            return h;
    if (r.kind == u"thread-sweep" || r.kind == u"tls-cost" || r.kind == u"database-size")
        if (QString answer = ExperimentSummary::of(r, PointAxis::of(r).key).answer; !answer.isEmpty())
            return answer; // "best 29,270.5 ok/s at 4 client threads", as the page and the CLI say it
    if (QString curve = curveHeadline(r); !curve.isEmpty())
        return curve;
    QString h = RunStore::headlineOf(r);
    if (!h.isEmpty() && h != r.status)
        return h;
    if (r.kind == u"sizing")
        for (const Recommendation& rec : SizingSummary::of(r).result.recommendations)
            if (rec.name.compare(u"total RAM", Qt::CaseInsensitive) == 0)
                return QString(u"total RAM " + ReportFormat::number(rec.value) + u' ' + rec.unit);
    return h;
}

QString whatWasTested(const RunRecord& r)
{
    QString t = r.kind == u"disk"     ? diskTested(r)
        : r.kind.startsWith(u"ldap-") ? ldapTested(r)
        : r.kind == u"replication"    ? replicationTested(r)
                                      : kindTested(r);
    t += r.started.isValid() ? QString(u", on " + dayOf(r.started) + u'.') : QStringLiteral(".");
    if (r.status != u"ok")
        t += QString(u" The run " + r.status + (r.failure.isEmpty() ? QString() : u": " + r.failure) + u'.');
    if (const QString h = headline(r); !h.isEmpty() && h != r.status)
        t += QString(u" Result: " + h + u'.');
    return t;
}

ReportSection section(
    const QList<RunRecord>& records, const ReportOptions& options, const QList<ReportSection>& runSections)
{
    Q_UNUSED(runSections) // each run's chart that matters is in its own section
    ReportSection s;
    s.heading = QStringLiteral("Summary");
    s.blocks << ReportBlock::subheading(QStringLiteral("Conclusions"));
    QList<Line> conclusions;
    for (qsizetype i = 0; i < records.size(); ++i)
        conclusions << conclusionOf(records.at(i), Report::runName(records, options, i));
    addLines(conclusions, s);

    s.blocks << ReportBlock::subheading(QStringLiteral("Verdicts"));
    QList<Line> lines;
    for (qsizetype i = 0; i < records.size(); ++i)
        lines << verdictLines(records.at(i), Report::runName(records, options, i));
    if (lines.isEmpty())
        s.blocks << ReportBlock::paragraph(QStringLiteral("No run of this report was judged against a requirement."));
    addLines(lines, s);

    s.blocks << ReportBlock::subheading(QStringLiteral("What to do next"));
    const QStringList steps = nextSteps(records, options);
    if (steps.isEmpty())
        s.blocks << ReportBlock::paragraph(
            QStringLiteral("Nothing needs doing: every run completed and every verdict passed."));
    for (const QString& step : steps)
        s.blocks << ReportBlock::paragraph(QString(u"• " + step));

    s.blocks << ReportBlock::subheading(QStringLiteral("What was tested"));
    for (qsizetype i = 0; i < records.size(); ++i)
        s.blocks << ReportBlock::paragraph(QString(QString::number(i + 1) + u". " + Report::runName(records, options, i)
            + u": " + whatWasTested(records.at(i))));
    s.blocks << ReportBlock::paragraph(
        QStringLiteral("Each run's section follows with the chart and the figures that matter (numbers printed in "
                       "full, with their units); then the appendices: every run's full settings, the other figures "
                       "and charts of the runs, the sources of every published figure, and the environment the runs "
                       "were made in."));
    return s;
}

} // namespace ReportSummary
