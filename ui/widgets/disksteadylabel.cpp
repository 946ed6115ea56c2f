#include "ui/widgets/disksteadylabel.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"

#include <QStringList>

DiskSteadyLabel::DiskSteadyLabel(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("steadyLabel"));
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setWordWrap(true);
    hide();
}

QString DiskSteadyLabel::steadyLine(const DiskSteadyState& st)
{
    if (!st.evaluated)
        return tr("steady state not evaluated (fewer than %1 rounds of 1 s)").arg(st.windowS);
    QString line;
    if (!st.reached) {
        line = tr("not steady in %1 s").arg(st.rounds);
    } else {
        const bool iops = st.rate == DiskRate::Iops;
        const QString figure = st.value ? Units::formatNumber(*st.value, iops ? 0 : 1) : QStringLiteral("–");
        line = tr("steady from %1 s over a %2 s window at %3 %4")
                   .arg(Units::formatNumber(st.atS.value_or(0), 0), QString::number(st.windowS), figure,
                       iops ? tr("IOPS") : tr("MB/s"));
    }
    if (st.of && *st.of > 1)
        line += tr(" (reached in %1 of %2 repeats)").arg(st.reachedIn.value_or(0)).arg(*st.of);
    if (st.cacheAnswered)
        line += tr("; a write-back cache answered first");
    return line;
}

void DiskSteadyLabel::setRecord(const RunRecord& record)
{
    const DiskSummary sum = DiskSummary::fromJson(record.summary);
    QStringList lines;
    const auto add = [&lines, &sum](const DiskSummary& s) {
        if (s.steadyState)
            lines << (sum.isSuite() ? s.test + QStringLiteral(": ") : QString()) + steadyLine(*s.steadyState);
    };
    for (const DiskSummary& t : sum.tests)
        add(t);
    if (!sum.isSuite())
        add(sum);
    QString warning;
    for (const RunWarning& w : record.warnings)
        if (w.code == u"not-steady")
            warning = QStringLiteral("\n") + w.message;
    setText(lines.isEmpty() ? QString() : tr("Steady state: %1").arg(lines.join(QStringLiteral("; "))) + warning);
    setVisible(!lines.isEmpty());
}

void DiskSteadyLabel::reset()
{
    clear();
    hide();
}
