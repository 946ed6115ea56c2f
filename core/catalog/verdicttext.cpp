#include "core/catalog/verdicttext.h"

#include "core/catalog/sources.h"
#include "core/common/reportformat.h"

#include <cmath>

namespace VerdictText {

QString line(const Verdict& v)
{
    QString text = QString((v.passed ? u"PASS  " : u"FAIL  ") + v.requirement + u": measured "
        + (v.measuredIsUpperBound ? u"< " : u"") + ReportFormat::number(v.measured) + u' ' + v.unit + u", threshold "
        + ReportFormat::number(v.threshold) + u' ' + v.unit + u" (source: " + Sources::ofVerdict(v) + u')');
    if (!v.note.isEmpty())
        text += QString(u" - " + v.note);
    return text;
}

QString sentence(const Verdict& v)
{
    QString s = QString(capitalised(plain(v.requirement)) + (v.passed ? u" passed: measured " : u" failed: measured ")
        + (v.measuredIsUpperBound ? u"< " : u"") + quantity(v.measured, v.unit)
        + (isMinimum(v) ? u", required at least " : u", required at most ") + quantity(v.threshold, v.unit) + u'.');
    if (!v.note.isEmpty())
        s += QString(u' ' + capitalised(plain(v.note)) + u'.');
    return s;
}

QString quantity(double value, const QString& unit)
{
    QString q = QString(ReportFormat::number(value) + (unit.isEmpty() ? QString() : u' ' + unit));
    if (unit == u"µs" && std::fabs(value) >= 1000)
        q += QString(u" (" + ReportFormat::number(std::round(value / 100) / 10) + u" ms)");
    return q;
}

bool isMinimum(const Verdict& v)
{
    if (v.requirement.contains(u'≥') || v.requirement.contains(u">="))
        return true;
    if (v.requirement.contains(u'≤') || v.requirement.contains(u"<=") || v.requirement.contains(u"maximum"))
        return false;
    return v.passed == (v.measured >= v.threshold);
}

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

QString plain(QString s)
{
    return s.replace(QStringLiteral("the seed"), QStringLiteral("the eDirectory article"));
}

} // namespace VerdictText
