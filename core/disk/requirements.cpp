#include "core/disk/requirements.h"

#include "core/common/units.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace Requirements {

namespace {

double numberOr(const QJsonObject& o, const char* key, double fallback)
{
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? v.toDouble() : fallback;
}

} // namespace

QList<RequirementProfile> load(QString* error, const QString& path)
{
    QFile f(path.isEmpty() ? QStringLiteral(":/dirbench/profiles/disk-requirements.json") : path);
    QList<RequirementProfile> out;
    if (!f.open(QIODevice::ReadOnly)) {
        if (error)
            *error = f.fileName() + QStringLiteral(": ") + f.errorString();
        return out;
    }
    const auto doc = QJsonDocument::fromJson(f.readAll());
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const QJsonArray profilesList = doc.object().value(QStringLiteral("profiles")).toArray();
    for (const auto& pv : profilesList) {
        const QJsonObject p = pv.toObject();
        RequirementProfile rp;
        rp.id = p.value(QStringLiteral("id")).toString();
        rp.name = p.value(QStringLiteral("name")).toString();
        rp.source = p.value(QStringLiteral("source")).toString();
        const QJsonArray requirementsList = p.value(QStringLiteral("requirements")).toArray();
        for (const auto& rv : requirementsList) {
            const QJsonObject r = rv.toObject();
            DiskRequirement req;
            req.id = r.value(QStringLiteral("id")).toString();
            req.test = r.value(QStringLiteral("test")).toString();
            req.metric = r.value(QStringLiteral("metric")).toString();
            req.min = numberOr(r, "min", nan);
            req.max = numberOr(r, "max", nan);
            req.minSeconds = numberOr(r, "min_seconds", 0);
            req.unit = r.value(QStringLiteral("unit")).toString();
            req.label = r.value(QStringLiteral("label")).toString();
            req.role = r.value(QStringLiteral("role")).toString();
            rp.requirements.append(req);
        }
        out.append(rp);
    }
    if (out.isEmpty() && error)
        *error = f.fileName() + QStringLiteral(": no requirement profiles");
    return out;
}

QList<Verdict> evaluate(const QList<RequirementProfile>& profiles, const DiskSummary& summary, RunRecord& record,
    const QString& onlyProfileId)
{
    QList<Verdict> verdicts;
    for (const auto& p : profiles) {
        if (!onlyProfileId.isEmpty() && p.id != onlyProfileId)
            continue;
        int burstIndex = -1, sustainedIndex = -1;
        for (const auto& req : p.requirements) {
            const DiskSummary* s = summary.part(req.test);
            if (!s)
                continue;
            const auto value = s->metric(req.metric);
            if (!value)
                continue;
            const double secs = s->seconds.value_or(0);
            if (req.minSeconds > 0 && secs < req.minSeconds) {
                record.addWarning(QStringLiteral("not-sustained"),
                    req.test + QStringLiteral(" ran ") + Units::formatNumber(secs) + QStringLiteral(" s; \"")
                        + req.label + QStringLiteral("\" is judged only on a run of at least ")
                        + Units::formatNumber(req.minSeconds, 0) + QStringLiteral(" s (a longer duration)"));
                continue;
            }
            Verdict v;
            v.requirement = req.label;
            v.requirementId = req.id;
            v.source = p.name + QStringLiteral(" — ") + p.source;
            v.measured = *value;
            v.unit = req.unit;
            if (!std::isnan(req.min)) {
                v.threshold = req.min;
                v.passed = *value >= req.min;
            } else {
                v.threshold = req.max;
                v.passed = *value <= req.max;
            }
            if (req.role == u"burst")
                burstIndex = int(verdicts.size());
            if (req.role == u"sustained")
                sustainedIndex = int(verdicts.size());
            verdicts.append(v);
        }
        if (burstIndex >= 0 && sustainedIndex >= 0) {
            Verdict& b = verdicts[burstIndex];
            Verdict& s = verdicts[sustainedIndex];
            if (b.passed && !s.passed)
                s.note
                    = QStringLiteral("passes only as the seed measured it (dd): the disk is passing on cache or burst, "
                                     "not sustained");
            else if (!b.passed && s.passed)
                b.note = QStringLiteral("the buffered dd test fails while sustained direct writes pass: "
                                        "check for write-back throttling or a slow fdatasync");
        }
    }
    return verdicts;
}

} // namespace Requirements
