#include "app/cli/historyprinter.h"

#include "core/catalog/verdicttext.h"
#include "core/common/recordenvironment.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"

#include <QJsonObject>

namespace Cli {

std::optional<qint64> resolveRun(const RunStore& store, const QString& idOrName, QString* why)
{
    bool isNumber = false;
    const qint64 id = idOrName.toLongLong(&isNumber);
    if (isNumber && id > 0 && store.load(id))
        return id;
    if (const auto byName = store.findByName(idOrName))
        return byName;
    if (why)
        *why = QStringLiteral("no run with id or name '") + idOrName + QStringLiteral("' in the history (")
            + store.path() + u')';
    return std::nullopt;
}

namespace {

QString cell(const std::optional<double>& v, const QString& unit)
{
    return v ? Comparison::formatValue(*v, unit) : QStringLiteral("-");
}

QString pct(const std::optional<double>& v)
{
    if (!v)
        return QStringLiteral("-");
    return (*v >= 0 ? QStringLiteral("+") : QString()) + QString::number(*v, 'f', 1) + QStringLiteral(" %");
}

QJsonValue opt(const std::optional<double>& v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QString marked(const std::optional<double>& v, const QString& unit, bool derived)
{
    return derived && v ? cell(v, unit) + QStringLiteral(" *") : cell(v, unit);
}

// An LDAP load's figures that are not metrics to compare: CPU per operation (the load threads' and the whole
// client's), missed arrivals.
void printLoadDetails(std::FILE* out, const RunRecord& rec)
{
    if ((!rec.kind.startsWith(u"ldap-") && rec.kind != u"replay") || rec.kind == u"ldap-probe" || rec.summary.isEmpty())
        return;
    const LoadSummary s = LoadSummary::fromJson(rec.summary);
    const auto us = [](const std::optional<double>& v) {
        return v ? Units::formatNumber(*v, 1) + QStringLiteral(" µs") : QStringLiteral("-");
    };
    std::fprintf(out, "  %-42s load threads %s, whole client %s\n", "CPU per operation",
        qPrintable(us(s.loadCpuUsPerOp())), qPrintable(us(s.clientCpuUsPerOp())));
    if (s.missed > 0)
        std::fprintf(out, "  %-42s %s (scheduled, not sent in time)\n", "missed arrivals",
            qPrintable(Units::formatNumber(s.missed, 0)));
}

} // namespace

void printDeltas(std::FILE* out, const QList<Comparison::Delta>& deltas)
{
    std::fprintf(out, "%-42s %18s %18s %9s %8s  %s\n", "metric", "A", "B", "delta", "noise", "B is");
    bool anyDerived = false;
    for (const auto& d : deltas) {
        const QString noise = d.noisePct
            ? QStringLiteral("±") + Units::formatNumber(*d.noisePct, 1) + QStringLiteral(" %")
            : QStringLiteral("-");
        std::fprintf(out, "%-42s %18s %18s %9s %8s  %s\n", qPrintable(d.label),
            qPrintable(marked(d.a, d.unit, d.aDerived)), qPrintable(marked(d.b, d.unit, d.bDerived)),
            qPrintable(pct(d.deltaPct)), qPrintable(noise), qPrintable(d.verdict()));
        anyDerived = anyDerived || (d.aDerived && d.a) || (d.bDerived && d.b);
    }
    std::fprintf(out, "B is better or worse only beyond the runs' own spread (noise: their repeats or intervals)\n");
    if (anyDerived)
        std::fprintf(
            out, "* %s: the record is older than the count of successes\n", qPrintable(Comparison::derivedNote()));
}

QJsonArray deltasToJson(const QList<Comparison::Delta>& deltas)
{
    QJsonArray arr;
    for (const auto& d : deltas)
        arr.append(QJsonObject { { QStringLiteral("metric"), d.key }, { QStringLiteral("label"), d.label },
            { QStringLiteral("unit"), d.unit }, { QStringLiteral("higher_is_better"), d.higherIsBetter },
            { QStringLiteral("a"), opt(d.a) }, { QStringLiteral("b"), opt(d.b) },
            { QStringLiteral("delta_pct"), opt(d.deltaPct) }, { QStringLiteral("a_derived"), d.aDerived },
            { QStringLiteral("b_derived"), d.bDerived }, { QStringLiteral("noise_pct"), opt(d.noisePct) },
            { QStringLiteral("verdict"),
                d.verdict().isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(d.verdict()) } });
    return arr;
}

void printRunList(std::FILE* out, const QList<RunStore::Summary>& runs)
{
    std::fprintf(
        out, "%6s  %-20s %-16s %-9s %-19s %-22s %s\n", "id", "name", "kind", "status", "started", "headline", "tags");
    for (const auto& r : runs)
        std::fprintf(out, "%6lld  %-20s %-16s %-9s %-19s %-22s %s\n", r.id, qPrintable(r.name), qPrintable(r.kind),
            qPrintable(r.status), qPrintable(r.started.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))),
            qPrintable(r.headline), qPrintable(r.tags.join(u',')));
}

QJsonArray runListToJson(const QList<RunStore::Summary>& runs)
{
    QJsonArray arr;
    for (const auto& r : runs)
        arr.append(QJsonObject { { QStringLiteral("id"), double(r.id) }, { QStringLiteral("name"), r.name },
            { QStringLiteral("kind"), r.kind }, { QStringLiteral("status"), r.status },
            { QStringLiteral("started"), r.started.toString(Qt::ISODateWithMs) },
            { QStringLiteral("headline"), r.headline }, { QStringLiteral("host"), r.host },
            { QStringLiteral("tags"), QJsonArray::fromStringList(r.tags) } });
    return arr;
}

void printRun(std::FILE* out, qint64 id, const RunStore::Summary* s, const RunRecord& rec)
{
    std::fprintf(
        out, "run %lld%s\n", id, s && !s->name.isEmpty() ? qPrintable(QStringLiteral(" '") + s->name + u'\'') : "");
    std::fprintf(out, "  kind      %s\n  status    %s%s%s\n  started   %s\n", qPrintable(rec.kind),
        qPrintable(rec.status), rec.failure.isEmpty() ? "" : ": ", qPrintable(rec.failure),
        qPrintable(rec.started.toString(Qt::ISODateWithMs)));
    const QString host = RecordEnvironment::hostOf(rec);
    if (!host.isEmpty())
        std::fprintf(out, "  host      %s\n", qPrintable(host));
    if (s && !s->tags.isEmpty())
        std::fprintf(out, "  tags      %s\n", qPrintable(s->tags.join(QStringLiteral(", "))));
    std::fprintf(out, "  intervals %lld\n", qint64(rec.intervals.size()));
    const QList<Comparison::Metric> ms = Comparison::metrics(rec);
    if (!ms.isEmpty()) {
        std::fprintf(out, "\n");
        for (const auto& m : ms)
            std::fprintf(out, "  %-42s %s%s%s\n", qPrintable(m.label), qPrintable(cell(m.value, m.unit)),
                m.derived && m.value ? qPrintable(u' ' + Comparison::derivedNote()) : "",
                &m == &ms.first() ? "   (headline)" : "");
    }
    printLoadDetails(out, rec);
    for (const auto& v : rec.verdicts)
        std::fprintf(out, "  %s  %s\n", v.passed ? "PASS" : "FAIL", qPrintable(VerdictText::sentence(v)));
    for (const auto& w : rec.warnings)
        std::fprintf(out, "  [%s] %s\n", qPrintable(w.code), qPrintable(w.message));
}

} // namespace Cli
