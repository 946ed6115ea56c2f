// LDAP load records (ldap-search, -bind, -modify, -compare, -adddel, -mixed): successes per second (the headline),
// completed operations, errors, latency, a table per kind of operation for a mix, result codes and the server's own
// counters (cn=monitor). Figures are read from the typed summary (core/ldap/loadresult.h).
#include "core/common/reportformat.h"
#include "core/ldap/loadrecordfacts.h"
#include "core/ldap/loadresult.h"
#include "ui/report/loadfigures.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QHash>

namespace ReportSections {

namespace {

// The names of the result codes a load meets most (RFC 4511 §4.1.9; negative: libldap's client-side codes).
QString resultCodeName(int code)
{
    static const QHash<int, QString> kNames = { { 0, QStringLiteral("success") },
        { 3, QStringLiteral("timeLimitExceeded") }, { 4, QStringLiteral("sizeLimitExceeded") },
        { 5, QStringLiteral("compareFalse") }, { 6, QStringLiteral("compareTrue") }, { 10, QStringLiteral("referral") },
        { 16, QStringLiteral("noSuchAttribute") }, { 20, QStringLiteral("attributeOrValueExists") },
        { 32, QStringLiteral("noSuchObject") }, { 49, QStringLiteral("invalidCredentials") },
        { 50, QStringLiteral("insufficientAccessRights") }, { 51, QStringLiteral("busy") },
        { 52, QStringLiteral("unavailable") }, { 53, QStringLiteral("unwillingToPerform") },
        { 68, QStringLiteral("entryAlreadyExists") }, { 80, QStringLiteral("other") },
        { -1, QStringLiteral("server down") }, { -5, QStringLiteral("timeout") },
        { -11, QStringLiteral("connect error") } };
    const QString name = kNames.value(code);
    return name.isEmpty() ? QString::number(code) : QString(QString::number(code) + u" (" + name + u')');
}

QString num(double v)
{
    return ReportFormat::number(v);
}

QString opt(const std::optional<double>& v)
{
    return v ? ReportFormat::number(*v) : QStringLiteral("n/a");
}

// A value derived from a record older than counted successes, marked as such.
QString derived(const QString& value, bool isDerived)
{
    return isDerived ? QString(value + u" (" + QString::fromUtf16(LoadFigures::kDerived) + u')') : value;
}

QString latencyName(const QString& percentile, bool coalesced)
{
    return QString(u"latency " + ReportFormat::label(percentile) + u" (ms"
        + (coalesced ? QString(u", " + QString::fromUtf16(LoadFigures::kCoalesced)) : QString()) + u')');
}

void latencyRows(const LatencyFigures& l, bool coalesced, QList<QStringList>& rows)
{
    const std::pair<const char16_t*, std::optional<double>> figures[] = { { u"p50", l.p50 }, { u"p95", l.p95 },
        { u"p99", l.p99 }, { u"p999", l.p999 }, { u"max", l.max }, { u"mean", l.mean } };
    for (const auto& [name, v] : figures)
        rows.append({ latencyName(QString::fromUtf16(name), coalesced), opt(v) });
}

QList<QStringList> resultRows(const LoadSummary& s, bool coalesced, bool openLoop)
{
    const OpFigures& a = s.all;
    QList<QStringList> rows = { { QStringLiteral("ok/s (successes per second)"), derived(num(a.okPerS), a.okDerived) },
        { QStringLiteral("ops/s (completed per second)"), num(a.opsPerS) },
        { QStringLiteral("operations completed"), num(a.ops) },
        { QStringLiteral("operations succeeded"), derived(num(a.ok), a.okDerived) } };
    const QString top = a.topErrors();
    rows.append({ QStringLiteral("errors"), top.isEmpty() ? num(a.errors) : QString(num(a.errors) + u": " + top) });
    rows.append({ QStringLiteral("measured seconds"), num(s.seconds) });
    latencyRows(a.latencyMs, coalesced, rows);
    rows.append({ QStringLiteral("timeouts"), num(a.timeouts) });
    rows.append({ QStringLiteral("reconnects"), num(s.reconnects) });
    if (openLoop || s.missed > 0)
        rows.append({ QStringLiteral("arrivals missed (schedule behind)"), num(s.missed) });
    if (a.entries > 0 || a.noEntry > 0) {
        rows.append({ QStringLiteral("searches that found nothing"), num(a.noEntry) });
        rows.append({ QStringLiteral("entries returned"), num(a.entries) });
        rows.append({ QStringLiteral("entries per second"), derived(num(a.entriesPerS), a.okDerived) });
    }
    if (s.loadCpuS) {
        rows.append({ QStringLiteral("load threads' CPU (s)"), opt(s.loadCpuS) });
        rows.append({ QStringLiteral("load threads' CPU per op (µs)"), opt(s.loadCpuUsPerOp()) });
    }
    rows.append({ QStringLiteral("client CPU, whole process (s)"), opt(s.clientCpuS) });
    rows.append({ QStringLiteral("client CPU per op (µs)"), opt(s.clientCpuUsPerOp()) });
    return rows;
}

QStringList operationRow(const QString& name, const OpFigures& f)
{
    const LatencyFigures& l = f.latencyMs;
    return { name, num(f.ops), derived(num(f.okPerS), f.okDerived), num(f.errors), opt(l.p50), opt(l.p95), opt(l.p99),
        opt(l.p999), opt(l.max) };
}

// A mix: one row per kind of operation, then all of them.
void operationTable(const LoadSummary& s, bool coalesced, ReportSection& section)
{
    if (s.byOperation.empty())
        return;
    ReportTable t;
    t.header = { QStringLiteral("operation"), QStringLiteral("ops"), QStringLiteral("ok/s"), QStringLiteral("errors"),
        QStringLiteral("p50 (ms)"), QStringLiteral("p95 (ms)"), QStringLiteral("p99 (ms)"),
        QStringLiteral("p99.9 (ms)"), QStringLiteral("max (ms)") };
    for (const auto& [kind, f] : s.byOperation)
        t.rows.append(operationRow(kind, f));
    t.rows.append(operationRow(QStringLiteral("all"), s.all));
    section.blocks << ReportBlock::subheading(QString(u"By operation"
        + (coalesced ? QString(u" (latency with " + QString::fromUtf16(LoadFigures::kCoalesced) + u')') : QString())));
    section.blocks << ReportBlock::ofTable(t);
}

void resultCodes(const OpFigures& all, ReportSection& section)
{
    if (all.resultCodes.empty())
        return;
    ReportTable t;
    t.header = { QStringLiteral("LDAP result code"), QStringLiteral("operations") };
    for (const auto& [code, n] : all.resultCodes)
        t.rows.append({ resultCodeName(code), num(n) });
    section.blocks << ReportBlock::subheading(QStringLiteral("Result codes"));
    section.blocks << ReportBlock::ofTable(t);
}

void serverCounters(const QJsonObject& counters, ReportSection& section)
{
    if (counters.isEmpty())
        return;
    QJsonObject moved;
    QStringList still;
    for (auto it = counters.begin(); it != counters.end(); ++it) {
        if (it.value().toDouble() != 0)
            moved.insert(it.key(), it.value());
        else
            still << it.key();
    }
    section.blocks << ReportBlock::subheading(QStringLiteral("Server counters over the run (cn=monitor)"));
    section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(moved));
    if (!still.isEmpty())
        section.blocks << ReportBlock::paragraph(
            QString(u"Counters that did not move (0): " + still.join(QStringLiteral(", ")) + u'.'));
}

// What a reader must know before the figures: successes derived from an old record, reads held in the socket.
void notes(const LoadSummary& s, bool coalesced, ReportSection& section)
{
    if (s.all.okDerived)
        section.blocks << ReportBlock::paragraph(
            QStringLiteral("This record was made before successful operations were counted apart: ok and ok/s are "
                           "derived from it as completed operations − errors, and marked (derived: ops − errors)."));
    if (coalesced)
        section.blocks << ReportBlock::paragraph(
            QStringLiteral("Reads were coalesced (coalesce_reads): a response could wait in the socket for the "
                           "others of its connection, up to 2 ms, and that wait is in every latency figure of this "
                           "run, marked (coalesced reads)."));
}

} // namespace

void ldapLoad(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    const bool coalesced = LoadFigures::coalescedReads(r.spec);
    if (r.server.isObject()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Server"));
        section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(r.server.toObject()));
    }
    notes(s, coalesced, section);
    section.blocks << ReportBlock::subheading(QStringLiteral("Result"));
    const bool openLoop = LoadRecordFacts::openLoop(r.spec);
    section.blocks << ReportBlock::keyValues(resultRows(s, coalesced, openLoop));
    operationTable(s, coalesced, section);
    agentsTable(r, section);
    resultCodes(s.all, section);
    serverCounters(s.server.toObject(), section);
    loadCharts(r.intervals, section, coalesced);
    for (const QString& src : ReportJson::sourcesIn(r.summary))
        cite(sources, src);
}

QString ldapHeadline(const RunRecord& r)
{
    const LoadSummary s = LoadSummary::fromJson(r.summary);
    QString h = derived(num(s.all.okPerS) + QStringLiteral(" ok/s"), s.all.okDerived);
    if (s.all.latencyMs.p99)
        h += QString(u", p99 " + num(*s.all.latencyMs.p99) + u" ms"
            + (LoadFigures::coalescedReads(r.spec) ? QString(u" (" + QString::fromUtf16(LoadFigures::kCoalesced) + u')')
                                                   : QString()));
    if (s.all.errors > 0)
        h += QString(u", " + num(s.all.errors) + u" errors");
    return h;
}

} // namespace ReportSections
