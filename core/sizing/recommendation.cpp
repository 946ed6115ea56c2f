#include "core/sizing/recommendation.h"

#include "core/common/units.h"

#include <QJsonArray>
#include <QLocale>

#include <algorithm>
#include <cmath>

QJsonObject Recommendation::toJson() const
{
    QJsonArray in;
    for (const auto& i : inputs)
        in.append(QJsonObject { { QStringLiteral("name"), i.name }, { QStringLiteral("value"), i.value },
            { QStringLiteral("unit"), i.unit }, { QStringLiteral("origin"), i.origin } });
    QJsonObject o { { QStringLiteral("name"), name }, { QStringLiteral("value"), value },
        { QStringLiteral("unit"), unit }, { QStringLiteral("formula"), formula },
        { QStringLiteral("computation"), computation }, { QStringLiteral("inputs"), in },
        { QStringLiteral("source"), source },
        { QStringLiteral("apply"), apply.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(apply) } };
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    if (isSetting)
        o.insert(QStringLiteral("current"), current ? QJsonValue(*current) : QJsonValue(QJsonValue::Null));
    else
        o.insert(QStringLiteral("setting"), false);
    return o;
}

QString Recommendation::change() const
{
    if (!current || !isSetting)
        return {};
    const double tolerance = std::max(1e-9, std::abs(*current) * 1e-6);
    if (std::abs(value - *current) <= tolerance)
        return QStringLiteral("keep");
    return value > *current ? QStringLiteral("raise") : QStringLiteral("lower");
}

void Recommendation::compareWithCurrent(std::optional<double> now, const QString& whyLower)
{
    current = now;
    if (change() != u"lower")
        return;
    const QString needed = SizingText::num(value) + (unit.isEmpty() ? QString() : u' ' + unit);
    const QString is = SizingText::num(*current) + (unit.isEmpty() ? QString() : u' ' + unit);
    QString why;
    if (whyLower.isEmpty()) {
        why = QStringLiteral("the server has %1 now, more than the %2 needed: keep %1 (not lowered)").arg(is, needed);
        value = *current;
        apply.clear();
    } else {
        why = QStringLiteral("below the %1 the server has now: %2").arg(is, whyLower);
    }
    note = note.isEmpty() ? why : why + QStringLiteral("; ") + note;
}

Recommendation Recommendation::fromJson(const QJsonObject& o)
{
    auto str = [&o](const char* k) { return o.value(QLatin1String(k)).toString(); };
    Recommendation r;
    r.name = str("name");
    r.value = o.value(QStringLiteral("value")).toDouble();
    r.unit = str("unit");
    r.formula = str("formula");
    r.computation = str("computation");
    r.source = str("source");
    r.apply = str("apply"); // null: nothing to set
    r.note = str("note");
    r.isSetting = o.value(QStringLiteral("setting")).toBool(true);
    if (o.value(QStringLiteral("current")).isDouble())
        r.current = o.value(QStringLiteral("current")).toDouble();
    const QJsonArray inputs = o.value(QStringLiteral("inputs")).toArray();
    for (const auto& v : inputs) {
        const QJsonObject i = v.toObject();
        r.inputs.append({ i.value(QStringLiteral("name")).toString(), i.value(QStringLiteral("value")).toDouble(),
            i.value(QStringLiteral("unit")).toString(), i.value(QStringLiteral("origin")).toString() });
    }
    return r;
}

const Recommendation* SizingResult::find(const QString& n) const
{
    for (const auto& r : recommendations)
        if (r.name == n)
            return &r;
    return nullptr;
}

void SizingResult::addWarning(const QString& code, const QString& message)
{
    for (const auto& w : warnings)
        if (w.code == code && w.message == message)
            return;
    warnings.append({ code, message });
}

namespace SizingText {

QString num(double value, int decimals)
{
    if (!std::isfinite(value))
        return QStringLiteral("-");
    if (value != 0 && std::abs(value) < 1)
        decimals = std::max(decimals, 6); // 0.000241 MB, not 0
    QString s = QLocale::c().toString(value, 'f', decimals);
    if (s.contains(u'.')) {
        while (s.endsWith(u'0'))
            s.chop(1);
        if (s.endsWith(u'.'))
            s.chop(1);
    }
    return s == u"-0" ? QStringLiteral("0") : s;
}

qint64 mbToBytes(double mb)
{
    return qint64(std::llround(mb * 1e6));
}

SizingInputUsed input(const char* name, double value, const char* unit, const QString& origin)
{
    return { QLatin1String(name), value, QLatin1String(unit), origin };
}

QString withUnit(double value, const QString& unit)
{
    const int decimals = std::fabs(value - std::round(value)) < 1e-9 ? 0 : (std::fabs(value) < 10 ? 2 : 1);
    return Units::formatNumber(value, decimals) + (unit.isEmpty() ? QString() : u' ' + unit);
}

QString currentText(const Recommendation& r)
{
    if (!r.isSetting)
        return {};
    return r.current ? withUnit(*r.current, r.unit) : QStringLiteral("not read");
}

QString proposal(const Recommendation& r)
{
    QString proposed = withUnit(r.value, r.unit);
    if (!r.isSetting)
        return proposed;
    if (!r.current)
        return proposed + QStringLiteral(" (now: not read)");
    const QString change = r.change();
    if (change == u"keep")
        return proposed + QStringLiteral(" (keep)");
    return withUnit(*r.current, r.unit) + QStringLiteral(" → ") + proposed + QStringLiteral(" (") + change + u')';
}

} // namespace SizingText
