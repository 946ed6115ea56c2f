#include "core/experiments/pointaxis.h"

#include "core/common/reportformat.h"

namespace PointAxis {

Axis of(const RunRecord& r)
{
    if (r.kind == u"tls-cost")
        return { QStringLiteral("tls"), QStringLiteral("0 = plain, 1 = TLS") };
    if (r.kind == u"database-size")
        return { QStringLiteral("entries"), QStringLiteral("Entries") };
    if (r.spec.value(QStringLiteral("axis")).toString() == u"server_threads")
        return { QStringLiteral("server_threads"), QStringLiteral("Server threads (nsslapd-threadnumber)") };
    return { QStringLiteral("threads"), QStringLiteral("Client threads") };
}

QString bestText(const RunRecord& r)
{
    const Axis axis = of(r);
    if (axis.key == u"tls")
        return {};
    const QJsonObject& s = r.summary;
    const bool older = !s.value(QStringLiteral("best_ok_per_s")).isDouble();
    const QJsonValue best = s.value(older ? QStringLiteral("best_ops_per_s") : QStringLiteral("best_ok_per_s"));
    if (!best.isDouble() || best.toDouble() <= 0)
        return {};
    QString text = QString(u"best " + ReportFormat::number(best.toDouble()) + (older ? u" ops/s" : u" ok/s"));
    const QJsonValue at = s.value(QString(u"best_" + axis.key));
    if (at.isDouble()) {
        const QString what = axis.key == u"threads" ? QStringLiteral("client threads")
            : axis.key == u"server_threads"         ? QStringLiteral("server threads")
                                                    : axis.key;
        text += QString(u" at " + ReportFormat::number(at.toDouble()) + u' ' + what);
    }
    return text;
}

} // namespace PointAxis
