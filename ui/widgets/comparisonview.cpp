#include "ui/widgets/comparisonview.h"

#include "core/catalog/cloudverdict.h"
#include "core/common/runrecord.h"
#include "ui/charts/barchartview.h"
#include "ui/widgets/warningslabel.h"

#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

using namespace CloudCatalog;

namespace {

QString num(double v)
{
    return QLocale(QLocale::English).toString(v, 'f', std::abs(v - std::round(v)) < 1e-9 ? 0 : 1);
}

} // namespace

ComparisonView::ComparisonView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new BarChartView(this))
    , m_headline(new QLabel(this))
    , m_flags(new WarningsLabel(this))
{
    m_chart->setObjectName(QStringLiteral("compareChart"));
    m_headline->setObjectName(QStringLiteral("compareHeadline"));
    m_headline->setWordWrap(true);
    m_chart->setAxisTitle(tr("MB/s (10^6 bytes/s)"));
    m_chart->setToneNames({ tr("reachable ceiling"), tr("far below the listed limit"),
        tr("above the published maximum"), tr("published limit"), tr("measured") });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_headline);
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_flags);
    clear(tr("Open a disk record (a disk test from the History page or a file) or pick one of the eDirectory "
             "article's cases."));
}

void ComparisonView::clear(const QString& message)
{
    m_codes.clear();
    m_verdict = Verdict::None;
    m_headline->setText(message);
    m_chart->setBars({});
    m_chart->setPlaceholderText(message);
    m_flags->setWarnings({});
}

void ComparisonView::setComparison(const Comparison& c, const QString& source)
{
    using Tone = BarChartView::Tone;
    const bool above = c.hasFlag(QStringLiteral("above-published-max"));
    const bool below = c.hasFlag(QStringLiteral("far-below-listed"));
    QList<BarChartView::Bar> bars;
    bars << BarChartView::Bar {
        tr("measured: %1%2 MB/s").arg(c.measured.upperBound ? QStringLiteral("< ") : QString(), num(c.measured.mbps)),
        c.measured.mbps, above ? Tone::Bad : (below ? Tone::Warn : Tone::Measured)
    };
    auto add = [&](const QString& label, const std::optional<double>& v) {
        bars << BarChartView::Bar { v ? QStringLiteral("%1: %2 MB/s").arg(label, num(*v))
                                      : QStringLiteral("%1: not published").arg(label),
            v.value_or(0), Tone::Neutral };
    };
    add(tr("disk listed"), c.listedMbps);
    if (c.listedMaxMbps && c.listedMbps && *c.listedMaxMbps > *c.listedMbps + 1e-9)
        add(tr("disk burst"), c.listedMaxMbps);
    if (c.evaluation.vm) {
        add(tr("VM cap"), c.vmCapMbps);
        if (c.vmMaxMbps && c.vmCapMbps && *c.vmMaxMbps > *c.vmCapMbps + 1e-9)
            add(tr("VM burst"), c.vmMaxMbps);
    }
    bars << BarChartView::Bar { c.ceilingMbps ? tr("reachable ceiling: %1 MB/s").arg(num(*c.ceilingMbps))
                                              : tr("reachable ceiling: not known"),
        c.ceilingMbps.value_or(0), Tone::Good };
    m_chart->setTitle(QStringLiteral("%1 at %2 GiB%3")
                          .arg(c.evaluation.disk->label())
                          .arg(c.evaluation.requestedGib)
                          .arg(c.evaluation.vm ? QStringLiteral(" on ") + c.evaluation.vm->id : QString()));
    m_chart->setBars(bars);
    showJudged(caseOf(c), c.measured.label, source);
}

void ComparisonView::setCase(const CloudCase& c, const QString& source)
{
    using Tone = BarChartView::Tone;
    const bool above
        = std::any_of(c.flags.begin(), c.flags.end(), [](const Flag& f) { return f.code == u"above-published-max"; });
    const bool below
        = std::any_of(c.flags.begin(), c.flags.end(), [](const Flag& f) { return f.code == u"far-below-listed"; });
    QList<BarChartView::Bar> bars;
    bars << BarChartView::Bar {
        tr("measured: %1%2 MB/s").arg(c.upperBound ? QStringLiteral("< ") : QString(), num(c.measuredMbps)),
        c.measuredMbps, above ? Tone::Bad : (below ? Tone::Warn : Tone::Measured)
    };
    const auto add = [&](const QString& label, const std::optional<double>& v, Tone tone) {
        bars << BarChartView::Bar { v ? QStringLiteral("%1: %2 MB/s").arg(label, num(*v))
                                      : QStringLiteral("%1: not known").arg(label),
            v.value_or(0), tone };
    };
    add(tr("disk listed"), c.listedMbps, Tone::Neutral);
    if (!c.vm.isEmpty())
        add(tr("VM cap"), c.vmCapMbps, Tone::Neutral);
    add(tr("reachable ceiling"), c.ceilingMbps, Tone::Good);
    m_chart->setTitle(QStringLiteral("%1%2%3%4")
                          .arg(c.diskLabel, c.tier.isEmpty() ? QString() : QStringLiteral(" ") + c.tier,
                              c.sizeGib ? QStringLiteral(" at %1 GiB").arg(num(*c.sizeGib)) : QString(),
                              c.vm.isEmpty() ? QString() : QStringLiteral(" on ") + c.vm));
    m_chart->setBars(bars);
    showJudged(c, c.label, source);
}

// The flags in words with their codes, and the verdict as the report and the CLI say it
// (core/catalog/cloudverdict.h): the flags are warnings, never passes.
void ComparisonView::showJudged(const CloudCase& judged, const QString& label, const QString& source)
{
    QList<RunWarning> flags;
    m_codes.clear();
    for (const auto& f : judged.flags) {
        flags << RunWarning { f.code, f.message };
        m_codes << f.code;
    }
    m_flags->setWarnings(flags);
    m_verdict = judged.verdict ? (judged.verdict->passed ? Verdict::Passed : Verdict::Failed) : Verdict::None;
    const QString badge = m_verdict == Verdict::Passed ? QStringLiteral("<span style=\"color:#2e7d32\">✓ PASS</span>")
        : m_verdict == Verdict::Failed                 ? QStringLiteral("<span style=\"color:#c62828\">✗ FAIL</span>")
                                                       : QStringLiteral("not judged");
    m_headline->setText(
        tr("<b>%1</b> — %2.<br><b>%3</b> %4")
            .arg(label.toHtmlEscaped(), source.toHtmlEscaped(), badge, caseSentence(judged).toHtmlEscaped()));
}

QString ComparisonView::headline() const
{
    return m_headline->text();
}
