// "What to do next" on the summary page, and the verdict sentence: advice a reader can act on, drawn from the
// failed runs and verdicts, the sizing recommendations, the cloud advisor's flags and the warnings.
#include "core/catalog/cloudverdict.h"
#include "core/catalog/sources.h"
#include "core/catalog/verdicttext.h"
#include "core/common/reportformat.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizingsummary.h"
#include "ui/report/report.h"
#include "ui/report/reportsummary.h"

#include <QHash>
#include <QJsonArray>

#include <utility>

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
QString amount(double value, const QString& unit)
{
    if (unit == u"MB")
        return ReportFormat::bytes(value * 1e6);
    return QString(ReportFormat::number(value) + (unit.isEmpty() ? QString() : u' ' + unit));
}

// "threads 16", "threads from 8 to 16", "olcDbMaxSize from 4.3 GB down to 2.9 GB (lower than now: see the note)".
QString settingStep(const Recommendation& rec)
{
    const QString proposed = amount(rec.value, rec.unit);
    if (!rec.current || rec.change() == u"keep")
        return QString(rec.name + u' ' + proposed);
    const QString now = amount(*rec.current, rec.unit);
    if (rec.change() == u"lower")
        return QString(rec.name + u" from " + now + u" down to " + proposed + u" (lower than now: see the note)");
    return QString(rec.name + u" from " + now + u" to " + proposed);
}

QString sizingStep(const RunRecord& r, const QString& name)
{
    const SizingResult result = SizingSummary::of(r).result;
    if (result.recommendations.isEmpty())
        return {};
    QString total;
    QStringList others;
    for (const Recommendation& rec : result.recommendations) {
        if (rec.name.compare(u"total RAM", Qt::CaseInsensitive) == 0)
            total = amount(rec.value, rec.unit);
        else if (!rec.apply.isEmpty() && rec.value != 0 && rec.change() != u"keep")
            others << settingStep(rec); // a setting to change, not a term of the formula
    }
    const QString server = serverKindName(result.server);
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

} // namespace

QString plain(QString s)
{
    return VerdictText::plain(std::move(s));
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
    return VerdictText::sentence(v);
}

} // namespace Report
