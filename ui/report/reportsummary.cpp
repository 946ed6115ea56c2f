// The summary page: what was tested, the verdicts in sentences, the chart per run, what to do next.
#include "ui/report/reportsummary.h"

#include "core/store/runstore.h"
#include "ui/report/replicationfigures.h"
#include "ui/report/report.h"
#include "ui/report/reportformat.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QHash>
#include <QJsonArray>

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
    const QJsonObject s = r.server.toObject();
    const QString vendor = s.value(QStringLiteral("vendor")).toString();
    QString version = s.value(QStringLiteral("version")).toString();
    if (const qsizetype paren = version.indexOf(u" ("); paren > 0)
        version.truncate(paren);
    QString name = vendor.isEmpty() ? s.value(QStringLiteral("kind")).toString() : vendor;
    if (version.isEmpty() || version == name)
        return name;
    return version.startsWith(name) ? version : QString(name + u' ' + version);
}

// A disk test's figure a reader looks for: MB/s for sequential tests and dd, IOPS for random, commits/s for commit.
QString diskFigure(const QString& test, const QJsonObject& s)
{
    const auto num = [&](const char* key) { return ReportFormat::value(s.value(QString::fromLatin1(key))); };
    if (test.startsWith(u"rand") && s.value(QStringLiteral("iops")).isDouble())
        return QString(num("iops") + u" IOPS");
    if (test.startsWith(u"commit") && s.value(QStringLiteral("commits_per_s")).isDouble())
        return QString(num("commits_per_s") + u" commits/s");
    if (s.value(QStringLiteral("mb_per_s")).isDouble())
        return QString(num("mb_per_s") + u" MB/s");
    return {};
}

QString diskHeadline(const RunRecord& r)
{
    const QJsonObject tests = r.summary.value(QStringLiteral("tests")).toObject();
    QStringList parts;
    for (auto it = tests.begin(); it != tests.end(); ++it)
        if (const QString f = diskFigure(it.key(), it.value().toObject()); !f.isEmpty())
            parts << QString(it.key() + u' ' + f);
    if (tests.isEmpty())
        if (const QString f = diskFigure(r.summary.value(QStringLiteral("test")).toString(), r.summary); !f.isEmpty())
            parts << f;
    return parts.join(QStringLiteral(", "));
}

QString cloudHeadline(const RunRecord& r)
{
    const QJsonArray cases = r.summary.value(QStringLiteral("cases")).toArray();
    int flagged = 0;
    for (const auto& c : cases)
        flagged += c.toObject().value(QStringLiteral("flags")).toArray().isEmpty() ? 0 : 1;
    return QStringLiteral("%1 compared, %2 flagged")
        .arg(cases.size() == 1 ? QStringLiteral("1 case") : QString::number(cases.size()) + u" cases",
            QString::number(flagged));
}

QString diskTested(const RunRecord& r)
{
    const QString profile = str(r.spec, "profile");
    QString t = profile == u"directory" ? QStringLiteral("A disk test (the suite for a directory server: random reads, "
                                                         "commits, sustained writes and the eDirectory article's dd)")
                                        : QString(u"A disk test (" + profile + u')');
    if (const QString dir = str(r.spec, "dir"); !dir.isEmpty())
        t += QString(u" in " + dir);
    const QJsonObject fs = r.environment.value(QStringLiteral("filesystem")).toObject();
    if (const QString type = fs.value(QStringLiteral("type")).toString(); !type.isEmpty())
        t += QString(u" on " + type);
    if (const QJsonValue free = fs.value(QStringLiteral("free_bytes")); free.isDouble())
        t += QString(u" with " + ReportFormat::bytes(free.toDouble()) + u" free");
    if (const QJsonValue size = r.spec.value(QStringLiteral("size_bytes")); size.isDouble())
        t += QString(u", using a test file of "
            + ReportFormat::bytesOf(QStringLiteral("size_bytes"), size.toDouble()).section(QStringLiteral(" ("), 0, 0));
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
    QStringList consumers;
    const QJsonArray consumersList = r.spec.value(QStringLiteral("consumers")).toArray();
    for (const auto& c : consumersList)
        consumers << c.toObject().value(QStringLiteral("uri")).toString();
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
        && r.summary.value(QStringLiteral("verdict_sentences")).isArray();
}

// "✓ run: consumer …: p99 lag 3.1 ms at 10 writes/s, within 1,000 ms." (the nth sentence is the nth lag verdict's).
QStringList replicationSentences(const RunRecord& r, const QString& run)
{
    QList<bool> passed;
    for (const Verdict& v : r.verdicts)
        if (saysItsOwn(r, v))
            passed << v.passed;
    const QStringList sentences = ReplicationFigures::verdictSentences(r);
    QStringList out;
    for (qsizetype i = 0; i < sentences.size(); ++i) {
        const QString badge
            = i < passed.size() ? (passed.at(i) ? QStringLiteral("✓ ") : QStringLiteral("✗ ")) : QString();
        out << QString(badge + run + u": " + sentences.at(i) + u'.');
    }
    return out;
}

void verdictBlocks(const QList<RunRecord>& records, const ReportOptions& options, ReportSection& s)
{
    QList<Verdict> verdicts;
    QStringList runs, own;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const QString run = Report::runName(records, options, i);
        for (const Verdict& v : records.at(i).verdicts)
            if (!saysItsOwn(records.at(i), v)) {
                verdicts << v;
                runs << run;
            }
        if (records.at(i).kind == u"replication")
            own << replicationSentences(records.at(i), run);
    }
    if (verdicts.isEmpty() && own.isEmpty())
        s.blocks << ReportBlock::paragraph(QStringLiteral("No run of this report was judged against a requirement."));
    if (!verdicts.isEmpty())
        s.blocks << ReportBlock::ofVerdictSentences(verdicts, runs);
    for (const QString& sentence : std::as_const(own))
        s.blocks << ReportBlock::paragraph(sentence);
}

// The run's first chart, lower, titled with the run.
std::optional<ReportChart> keyChart(const ReportSection& run, const QString& name)
{
    for (const ReportBlock& b : run.blocks)
        if (b.kind == ReportBlock::Kind::Chart && !b.chart.isEmpty()) {
            ReportChart c = b.chart;
            c.compact = true;
            c.title = QString(name + u" — " + c.title);
            return c;
        }
    return std::nullopt;
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
    if (r.kind.startsWith(u"ldap-") && r.kind != u"ldap-probe" && !r.summary.isEmpty())
        return ReportSections::ldapHeadline(r); // successes per second, the figure to bet on
    if (r.kind == u"disk")
        if (QString d = diskHeadline(r); !d.isEmpty())
            return d;
    if (r.kind == u"cloud-compare")
        return cloudHeadline(r);
    if (r.kind == u"replication")
        if (QString h = ReportSections::replicationHeadline(r); !h.isEmpty())
            return h;
    QString h = RunStore::headlineOf(r);
    if (!h.isEmpty() && h != r.status)
        return h;
    const QJsonObject& s = r.summary;
    const QJsonArray recommendations = s.value(QStringLiteral("recommendations")).toArray();
    if (r.kind == u"sizing")
        for (const auto& v : recommendations)
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
    ReportSection s;
    s.heading = QStringLiteral("Summary");
    s.blocks << ReportBlock::subheading(QStringLiteral("What was tested"));
    for (qsizetype i = 0; i < records.size(); ++i)
        s.blocks << ReportBlock::paragraph(QString(QString::number(i + 1) + u". " + Report::runName(records, options, i)
            + u": " + whatWasTested(records.at(i))));

    s.blocks << ReportBlock::subheading(QStringLiteral("Verdicts"));
    verdictBlocks(records, options, s);

    s.blocks << ReportBlock::subheading(QStringLiteral("What to do next"));
    const QStringList steps = nextSteps(records, options);
    if (steps.isEmpty())
        s.blocks << ReportBlock::paragraph(
            QStringLiteral("Nothing needs doing: every run completed and every verdict passed."));
    for (const QString& step : steps)
        s.blocks << ReportBlock::paragraph(QString(u"• " + step));

    bool chartTitle = false;
    for (qsizetype i = 0; i < records.size() && i < runSections.size(); ++i)
        if (const auto c = keyChart(runSections.at(i), Report::runName(records, options, i))) {
            if (!chartTitle)
                s.blocks << ReportBlock::subheading(QStringLiteral("The chart that matters most, per run"));
            chartTitle = true;
            s.blocks << ReportBlock::ofChart(*c);
        }
    s.blocks << ReportBlock::paragraph(
        QStringLiteral("The pages after this one hold the details: the runs and verdicts with their sources, each "
                       "run's figures, tables and charts (numbers printed in full), the sources, and last the "
                       "environment the runs were made in."));
    return s;
}

} // namespace ReportSummary
