// "What to do next" on the summary page, and the verdict sentence: advice a reader can act on, drawn from the
// failed runs and verdicts, the sizing recommendations, the cloud advisor's flags and the warnings.
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "ui/report/report.h"
#include "ui/report/reportformat.h"
#include "ui/report/reportsummary.h"

#include <QHash>
#include <QJsonArray>

#include <cmath>

namespace ReportSummary {

namespace {

QString adviceFor(const QString& requirementId)
{
    static const QHash<QString, QString> kAdvice = {
        { QStringLiteral("seed-dd"),
            QStringLiteral("put the directory's database on a disk that writes at least 100 MB/s; on a cloud disk a "
                           "larger size or a faster type raises the limit (the Cloud advisor shows which)") },
        { QStringLiteral("sustained-seq-write"),
            QStringLiteral("put the directory's database on a disk that sustains at least 100 MB/s of direct "
                           "writes; a disk that passes only the quick dd test is passing on cache or burst") },
        { QStringLiteral("commit-p99"),
            QStringLiteral("put the transaction log on a disk whose synchronous writes complete faster (a "
                           "write cache protected against power loss, or a faster disk)") },
        { QStringLiteral("rand-read-qd1-p99"),
            QStringLiteral("give the server enough RAM to cache its database, so fewer reads reach the disk, or use a "
                           "disk with lower read latency") },
        { QStringLiteral("cloud-published-max"),
            QStringLiteral("repeat the measurement with direct I/O and a file larger than RAM: a figure above the "
                           "published limit measured a cache, not the cloud disk") },
        { QStringLiteral("cloud-near-ceiling"),
            QStringLiteral("check the queue depth and the VM's own limit: the disk delivers less than 80 % of what "
                           "it could") },
    };
    return kAdvice.value(requirementId,
        QStringLiteral("look at the run's section for what the requirement measures, and repeat the run after a "
                       "change"));
}

// "512 MB" for a size given in MB (10^6 bytes), else the number and its unit.
QString amount(const QJsonObject& rec)
{
    const QJsonValue v = rec.value(QStringLiteral("value"));
    const QString unit = rec.value(QStringLiteral("unit")).toString();
    if (unit == u"MB" && v.isDouble())
        return ReportFormat::bytes(v.toDouble() * 1e6);
    return QString(ReportFormat::value(v) + (unit.isEmpty() ? QString() : u' ' + unit));
}

QString sizingStep(const RunRecord& r, const QString& name)
{
    const QJsonArray recs = r.summary.value(QStringLiteral("recommendations")).toArray();
    if (recs.isEmpty())
        return {};
    QString total;
    QStringList others;
    for (const auto& v : recs) {
        const QJsonObject o = v.toObject();
        const QString what = o.value(QStringLiteral("name")).toString();
        if (what.compare(u"total RAM", Qt::CaseInsensitive) == 0)
            total = amount(o);
        else if (o.value(QStringLiteral("apply")).isString() && o.value(QStringLiteral("value")).toDouble() != 0)
            others << QString(what + u' ' + amount(o)); // a setting to change, not a term of the formula
    }
    const QString server = serverKindName(r.summary.value(QStringLiteral("server")).toString());
    QString step = total.isEmpty()
        ? QString(u"Configure the " + server + u" server as " + name + u" recommends")
        : QString(u"Give the " + server + u" server at least " + total + u" of RAM (" + name + u')');
    if (!others.isEmpty())
        step += QString(u"; set " + others.join(QStringLiteral(", ")));
    return QString(step + u". The change to apply is in the run's section.");
}

// A failed case with what its flags say about why; a flagged case that passed with its flags.
QStringList cloudSteps(const RunRecord& r, const QString& name)
{
    QStringList out;
    const QList<CloudCatalog::CloudCase> cases = CloudCatalog::casesOf(r);
    for (const CloudCatalog::CloudCase& c : cases) {
        if (!c.failed() && !c.flagged())
            continue;
        QStringList why;
        for (const CloudCatalog::Flag& f : c.flags)
            why << (f.message.isEmpty() ? f.code : f.message);
        QString step = QString(name + u", " + c.label + u": ");
        if (c.failed())
            step += QString(u"it delivers " + CloudCatalog::measuredText(c) + u", less than 80 % of its ceiling; "
                + adviceFor(QStringLiteral("cloud-near-ceiling")));
        if (!why.isEmpty())
            step += QString((c.failed() ? u". Why: " : u"") + why.join(QStringLiteral("; ")));
        out << (step.endsWith(u'.') ? step : QString(step + u'.'));
    }
    return out;
}

QString warningStep(const RunRecord& r, const QString& name)
{
    if (r.warnings.isEmpty())
        return {};
    QStringList codes;
    for (const RunWarning& w : r.warnings)
        codes << w.code;
    return QStringLiteral("Read the %1 of %2 (%3) in its section before relying on its figures.")
        .arg(r.warnings.size() == 1 ? QStringLiteral("warning") : QString::number(r.warnings.size()) + u" warnings",
            name, codes.join(QStringLiteral(", ")));
}

// The first letter upper-case, unless the first word is a name such as "t2.micro" or "iSCSI".
QString capitalised(QString s)
{
    const QString first = s.section(u' ', 0, 0);
    for (const QChar c : first)
        if (!c.isLetter() || c.isUpper())
            return s;
    if (!s.isEmpty())
        s[0] = s.at(0).toUpper();
    return s;
}

// "1,204 µs (1.2 ms)": latencies of a millisecond or more also in ms.
QString quantity(double value, const QString& unit)
{
    QString q = QString(ReportFormat::number(value) + (unit.isEmpty() ? QString() : u' ' + unit));
    if (unit == u"µs" && std::fabs(value) >= 1000)
        q += QString(u" (" + ReportFormat::number(std::round(value / 100) / 10) + u" ms)");
    return q;
}

// Whether the requirement is a floor ("at least"): from the label's sign, else from how the verdict came out.
bool isMinimum(const Verdict& v)
{
    if (v.requirement.contains(u'≥') || v.requirement.contains(u">="))
        return true;
    if (v.requirement.contains(u'≤') || v.requirement.contains(u"<=") || v.requirement.contains(u"maximum"))
        return false;
    return v.passed == (v.measured >= v.threshold);
}

} // namespace

QString plain(QString s)
{
    return s.replace(QStringLiteral("the seed"), QStringLiteral("the eDirectory article"));
}

QStringList nextSteps(const QList<RunRecord>& records, const ReportOptions& options)
{
    QStringList steps;
    for (qsizetype i = 0; i < records.size(); ++i) {
        const RunRecord& r = records.at(i);
        const QString name = Report::runName(records, options, i);
        if (r.status != u"ok")
            steps << QString(name + u" did not complete (" + r.status
                + (r.failure.isEmpty() ? QString() : u": " + r.failure) + u"): fix that and run it again.");
        // A cloud comparison's flags say more than its failed verdicts and its warnings (the same flags) do.
        const bool cloud = r.kind == u"cloud-compare";
        for (const Verdict& v : r.verdicts)
            if (!v.passed && !cloud)
                steps << QString(
                    name + u" fails “" + plain(v.requirement) + u"”: " + adviceFor(Sources::requirementIdOf(v)) + u'.');
        if (r.kind == u"sizing")
            if (const QString s = sizingStep(r, name); !s.isEmpty())
                steps << s;
        if (r.kind == u"cloud-compare")
            steps << cloudSteps(r, name);
        if (const QString w = cloud ? QString() : warningStep(r, name); !w.isEmpty())
            steps << w;
    }
    return steps;
}

} // namespace ReportSummary

namespace Report {

QString verdictSentence(const Verdict& v)
{
    QString s = QString(ReportSummary::capitalised(ReportSummary::plain(v.requirement))
        + (v.passed ? u" passed: measured " : u" failed: measured ") + (v.measuredIsUpperBound ? u"< " : u"")
        + ReportSummary::quantity(v.measured, v.unit)
        + (ReportSummary::isMinimum(v) ? u", required at least " : u", required at most ")
        + ReportSummary::quantity(v.threshold, v.unit) + u'.');
    if (!v.note.isEmpty())
        s += QString(u' ' + ReportSummary::capitalised(ReportSummary::plain(v.note)) + u'.');
    return s;
}

} // namespace Report
