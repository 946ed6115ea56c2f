#include "core/catalog/cloudverdict.h"

#include "core/common/jsonread.h"

#include <QJsonArray>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace CloudCatalog {

namespace {

const QString kRequirement = QStringLiteral("reaches 80 % of the reachable ceiling");

QString num(double v)
{
    return QLocale(QLocale::English).toString(v, 'f', std::abs(v - std::round(v)) < 1e-9 ? 0 : 1);
}

// The evaluation's facts a reader shows beside the figures (Evaluation::toJson).
void cloudCaseReadEvaluation(const QJsonObject& e, CloudCase& c)
{
    c.diskLabel = e.value(QStringLiteral("disk_label")).toString();
    c.tier = e.value(QStringLiteral("tier")).toString();
    c.vm = e.value(QStringLiteral("vm")).toString();
    c.sizeGib = JsonRead::number(e, QStringLiteral("size_gib"));
    const QJsonArray notes = e.value(QStringLiteral("notes")).toArray();
    for (const auto& n : notes)
        c.notes << n.toString();
    const QJsonArray sources = e.value(QStringLiteral("sources")).toArray();
    for (const auto& v : sources) {
        const QJsonObject s = v.toObject();
        c.sources << Source { s.value(QStringLiteral("url")).toString(), s.value(QStringLiteral("as_of")).toString(),
            s.value(QStringLiteral("note")).toString() };
    }
}

CloudCase caseOf(const QJsonObject& o)
{
    CloudCase c;
    c.label = o.value(QStringLiteral("label")).toString();
    c.measuredMbps = o.value(QStringLiteral("measured_mb_per_s")).toDouble();
    c.upperBound = o.value(QStringLiteral("measured_is_upper_bound")).toBool();
    c.listedMbps = JsonRead::number(o, QStringLiteral("listed_mb_per_s"));
    c.vmCapMbps = JsonRead::number(o, QStringLiteral("vm_cap_mb_per_s"));
    c.ceilingMbps = JsonRead::number(o, QStringLiteral("ceiling_mb_per_s"));
    c.binding = o.value(QStringLiteral("binding")).toString();
    c.bindingText = o.value(QStringLiteral("evaluation")).toObject().value(QStringLiteral("binding_text")).toString();
    const QJsonArray flags = o.value(QStringLiteral("flags")).toArray();
    for (const auto& f : flags)
        c.flags << Flag { f.toObject().value(QStringLiteral("code")).toString(),
            f.toObject().value(QStringLiteral("message")).toString() };
    c.test = o.value(QStringLiteral("test")).toString();
    cloudCaseReadEvaluation(o.value(QStringLiteral("evaluation")).toObject(), c);
    return c;
}

// The ceiling verdict of a case: a record's verdict for it, else (a record older than the bound rule, which had
// none for a bound) derived from the case's own figures.
std::optional<Verdict> verdictFor(const RunRecord& rec, const CloudCase& c, bool single)
{
    if (std::any_of(c.flags.begin(), c.flags.end(), [](const Flag& f) { return f.code == u"above-published-max"; }))
        return std::nullopt; // not the cloud disk: an older record's pass on it is not a verdict
    const QString wanted = single ? kRequirement : QString(c.label + u": " + kRequirement);
    for (const Verdict& v : rec.verdicts)
        if (v.requirement == wanted && !isSanityCheck(v))
            return v;
    if (!c.ceilingMbps)
        return std::nullopt;
    Comparison cmp;
    cmp.measured.label = c.label;
    cmp.measured.mbps = c.measuredMbps;
    cmp.measured.upperBound = c.upperBound;
    cmp.ceilingMbps = c.ceilingMbps;
    cmp.evaluation.bindingText = c.bindingText;
    cmp.flags = c.flags;
    return ceilingVerdict(cmp, single ? QString() : QString(c.label + u": "));
}

} // namespace

std::optional<Verdict> ceilingVerdict(const Comparison& c, const QString& prefix)
{
    // Above the published maximum the test did not measure the cloud disk (a cache, local storage): nothing to judge.
    if (!c.ceilingMbps || *c.ceilingMbps <= 0 || c.hasFlag(QStringLiteral("above-published-max")))
        return std::nullopt;
    const double threshold = std::round(kNearCeilingShare * *c.ceilingMbps * 10) / 10;
    const double m = c.measured.mbps;
    Verdict v { prefix + kRequirement, QStringLiteral("cloud catalog, Little's law"), false, m, threshold,
        QStringLiteral("MB/s"), c.evaluation.bindingText, QStringLiteral("cloud-near-ceiling"), c.measured.upperBound };
    // A bound "< m" is below the threshold when m <= threshold; above it, it shows nothing either way.
    v.passed = !c.measured.upperBound && m >= threshold;
    if (c.measured.upperBound && m > threshold)
        v.note = QStringLiteral("the measured figure is only a bound (< %1 MB/s): it does not show that the disk "
                                "reaches %2 MB/s")
                     .arg(num(m), num(threshold));
    return v;
}

bool isSanityCheck(const Verdict& v)
{
    return v.requirementId == u"cloud-published-max"
        || v.requirement.endsWith(QStringLiteral("within the published maximum of disk and VM"));
}

QList<CloudCase> casesOf(const RunRecord& rec)
{
    QList<CloudCase> out;
    if (rec.kind != u"cloud-compare")
        return out;
    const QJsonArray cases = rec.summary.value(QStringLiteral("cases")).toArray();
    const bool single = cases.isEmpty() && rec.summary.contains(QStringLiteral("measured_mb_per_s"));
    if (single)
        out << caseOf(rec.summary);
    for (const auto& v : cases)
        out << caseOf(v.toObject());
    for (CloudCase& c : out)
        c.verdict = verdictFor(rec, c, single);
    return out;
}

QString measuredSourceOf(const RunRecord& rec)
{
    return rec.summary.value(QStringLiteral("measured_source")).toString();
}

CloudCase caseOf(const Comparison& cmp)
{
    CloudCase c;
    c.label = cmp.measured.label;
    c.measuredMbps = cmp.measured.mbps;
    c.upperBound = cmp.measured.upperBound;
    c.listedMbps = cmp.listedMbps;
    c.vmCapMbps = cmp.vmCapMbps;
    c.ceilingMbps = cmp.ceilingMbps;
    c.binding = cmp.evaluation.binding;
    c.bindingText = cmp.evaluation.bindingText;
    c.flags = cmp.flags;
    c.verdict = ceilingVerdict(cmp);
    return c;
}

QString headline(const RunRecord& rec)
{
    const QList<CloudCase> cases = casesOf(rec);
    int failed = 0;
    int flagged = 0;
    for (const CloudCase& c : cases) {
        failed += c.failed() ? 1 : 0;
        flagged += c.flagged() ? 1 : 0;
    }
    const QString compared
        = cases.size() == 1 ? QStringLiteral("1 case compared") : QStringLiteral("%1 cases compared").arg(cases.size());
    return QStringLiteral("%1: %2 below 80 % of %3 reachable ceiling, %4 flagged")
        .arg(compared, QString::number(failed), cases.size() == 1 ? QStringLiteral("its") : QStringLiteral("their"),
            QString::number(flagged));
}

QString measuredText(const CloudCase& c)
{
    return QString((c.upperBound ? u"< " : u"") + num(c.measuredMbps) + u" MB/s");
}

QString caseSentence(const CloudCase& c)
{
    QString s = QString(c.label + u" delivers " + measuredText(c));
    if (!c.ceilingMbps || *c.ceilingMbps <= 0) {
        s += QStringLiteral("; no reachable ceiling is published to judge it against.");
        return s;
    }
    const double ceiling = *c.ceilingMbps;
    if (std::any_of(c.flags.begin(), c.flags.end(), [](const Flag& f) { return f.code == u"above-published-max"; }))
        return QString(s + u", above what the disk and the VM publish (a reachable ceiling of " + num(ceiling)
            + u" MB/s): the test did not measure the cloud disk (a cache, local storage or compression), so it is "
              u"not judged.");
    const double share = std::round(c.measuredMbps / ceiling * 100);
    const double needed = std::round(kNearCeilingShare * ceiling * 10) / 10;
    const QString of = QString(u" of its reachable ceiling of " + num(ceiling) + u" MB/s");
    if (c.upperBound && c.measuredMbps <= needed)
        s += QString(
            u", at most " + num(share) + u" %" + of + u": below the 80 % (" + num(needed) + u" MB/s) it should reach.");
    else if (c.upperBound)
        s += QString(u", a bound that does not show whether it reaches 80 %" + of + u" (" + num(needed) + u" MB/s).");
    else if (c.measuredMbps < needed)
        s += QString(
            u", " + num(share) + u" %" + of + u": below the 80 % (" + num(needed) + u" MB/s) it should reach.");
    else
        s += QString(u", " + num(share) + u" %" + of + u": at least the 80 % (" + num(needed) + u" MB/s) it should.");
    if (!c.bindingText.isEmpty())
        s += QString(u" " + c.bindingText.left(1).toUpper() + c.bindingText.mid(1) + u'.');
    return s;
}

} // namespace CloudCatalog
