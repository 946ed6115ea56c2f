// LDAP load records (ldap-search, -bind, -modify, -compare, -adddel, -mixed): ops/s and latency over time, result
// codes and the server's own counters (cn=monitor).
#include "ui/report/reportformat.h"
#include "ui/report/reportjson.h"
#include "ui/report/reportsections.h"

#include <QHash>

namespace ReportSections {

namespace {

// The names of the result codes a load meets most (RFC 4511 §4.1.9; negative: libldap's client-side codes).
QString resultCodeName(const QString& code)
{
    static const QHash<QString, QString> kNames = { { QStringLiteral("0"), QStringLiteral("success") },
        { QStringLiteral("3"), QStringLiteral("timeLimitExceeded") },
        { QStringLiteral("4"), QStringLiteral("sizeLimitExceeded") },
        { QStringLiteral("5"), QStringLiteral("compareFalse") }, { QStringLiteral("6"), QStringLiteral("compareTrue") },
        { QStringLiteral("10"), QStringLiteral("referral") },
        { QStringLiteral("16"), QStringLiteral("noSuchAttribute") },
        { QStringLiteral("20"), QStringLiteral("attributeOrValueExists") },
        { QStringLiteral("32"), QStringLiteral("noSuchObject") },
        { QStringLiteral("49"), QStringLiteral("invalidCredentials") },
        { QStringLiteral("50"), QStringLiteral("insufficientAccessRights") },
        { QStringLiteral("51"), QStringLiteral("busy") }, { QStringLiteral("52"), QStringLiteral("unavailable") },
        { QStringLiteral("53"), QStringLiteral("unwillingToPerform") },
        { QStringLiteral("68"), QStringLiteral("entryAlreadyExists") },
        { QStringLiteral("80"), QStringLiteral("other") }, { QStringLiteral("-1"), QStringLiteral("server down") },
        { QStringLiteral("-5"), QStringLiteral("timeout") },
        { QStringLiteral("-11"), QStringLiteral("connect error") } };
    const QString name = kNames.value(code);
    return name.isEmpty() ? code : QString(code + u" (" + name + u')');
}

} // namespace

void loadCharts(const QJsonArray& intervals, ReportSection& section)
{
    intervalCharts(intervals, { QStringLiteral("ops_per_s"), QStringLiteral("target_rate") }, section,
        QStringLiteral("Throughput"));
    QStringList lat;
    for (const char16_t* p : { u"p50", u"p99", u"p999" })
        lat << QString(u"latency_ms." + QString::fromUtf16(p));
    intervalCharts(intervals, lat, section, QStringLiteral("Latency"));
    QStringList faults = { QStringLiteral("errors"), QStringLiteral("timeouts"), QStringLiteral("reconnects") };
    bool anyFault = false;
    for (const QString& k : faults)
        for (const QPointF& p : ReportJson::series(intervals, k))
            anyFault = anyFault || p.y() != 0;
    if (anyFault)
        intervalCharts(intervals, faults, section, QStringLiteral("Faults"));
    // The server's own rates (cn=monitor) that moved during the run; bytes are left out (another scale).
    QStringList monitorKeys;
    for (const QString& k : ReportJson::numericIntervalKeys(intervals)) {
        if (!k.startsWith(u"server.") || !k.endsWith(u"_per_s") || k.contains(u"bytes"))
            continue;
        bool moved = false;
        for (const QPointF& p : ReportJson::series(intervals, k))
            moved = moved || p.y() != 0;
        if (moved)
            monitorKeys << k;
    }
    if (!monitorKeys.isEmpty())
        intervalCharts(intervals, monitorKeys.mid(0, 6), section, QStringLiteral("Server counters (cn=monitor)"), {},
            QStringLiteral("per second"));
}

void ldapLoad(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    const QJsonObject& s = r.summary;
    if (r.server.isObject()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Server"));
        section.blocks << ReportBlock::keyValues(ReportJson::keyValueRows(r.server.toObject()));
    }
    QList<QStringList> rows;
    auto add = [&](const QString& name, const QString& key) {
        const QJsonValue v = ReportJson::at(s, key);
        if (!v.isUndefined())
            rows.append({ name, ReportFormat::value(v) });
    };
    add(QStringLiteral("operations per second (ops/s)"), QStringLiteral("ops_per_s"));
    add(QStringLiteral("operations"), QStringLiteral("ops"));
    add(QStringLiteral("measured seconds"), QStringLiteral("seconds"));
    for (const char16_t* p : { u"p50", u"p95", u"p99", u"p999", u"max", u"mean" })
        add(QString(u"latency " + ReportFormat::label(QString::fromUtf16(p)) + u" (ms)"),
            QString(u"latency_ms." + QString::fromUtf16(p)));
    add(QStringLiteral("errors"), QStringLiteral("errors"));
    add(QStringLiteral("timeouts"), QStringLiteral("timeouts"));
    add(QStringLiteral("reconnects"), QStringLiteral("reconnects"));
    add(QStringLiteral("searches that found nothing"), QStringLiteral("no_entry"));
    add(QStringLiteral("entries returned"), QStringLiteral("entries"));
    add(QStringLiteral("client CPU (s)"), QStringLiteral("client_cpu_s"));
    add(QStringLiteral("client CPU per op (µs)"), QStringLiteral("client_cpu_us_per_op"));
    section.blocks << ReportBlock::subheading(QStringLiteral("Result"));
    section.blocks << ReportBlock::keyValues(rows);

    const QJsonObject codes = s.value(QStringLiteral("result_codes")).toObject();
    if (!codes.isEmpty()) {
        ReportTable t;
        t.header = { QStringLiteral("LDAP result code"), QStringLiteral("operations") };
        for (auto it = codes.begin(); it != codes.end(); ++it)
            t.rows.append({ resultCodeName(it.key()), ReportFormat::value(it.value()) });
        section.blocks << ReportBlock::subheading(QStringLiteral("Result codes"));
        section.blocks << ReportBlock::ofTable(t);
    }
    const QJsonObject counters = s.value(QStringLiteral("server")).toObject();
    if (!counters.isEmpty()) {
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
    loadCharts(r.intervals, section);
    for (const QString& src : ReportJson::sourcesIn(s))
        cite(sources, src);
}

} // namespace ReportSections
