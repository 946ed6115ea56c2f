#include "ui/widgets/diskldapview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/disk/diskresult.h"
#include "core/experiments/diskunderloadsummary.h"
#include "core/ldap/loadresult.h"
#include "ui/charts/livechartview.h"
#include "ui/models/intervalsamples.h"
#include "ui/models/operationmodel.h"
#include "ui/report/loadfigures.h"

#include <QLabel>
#include <QVBoxLayout>

namespace {

QString opsSeries()
{
    return DiskLdapView::tr("LDAP ok/s");
}

} // namespace

DiskLdapView::DiskLdapView(QWidget* parent)
    : QWidget(parent)
    , m_chart(new LiveChartView(this))
    , m_summary(new QLabel(this))
{
    m_chart->setObjectName(QStringLiteral("ldapLoadChart"));
    m_chart->setAxisTitles(tr("Time (s)"), tr("LDAP ok/s"));
    m_summary->setObjectName(QStringLiteral("ldapLoadSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(new QLabel(tr("<b>LDAP load on the same time axis</b>"), this));
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_summary);
    clear();
}

void DiskLdapView::clear()
{
    m_chart->clear();
    m_chart->setPlaceholderText(tr("The LDAP load starts before the loaded disk test."));
    m_summary->setText(tr("LDAP load: –"));
}

void DiskLdapView::addSamples(const SampleBatch& samples)
{
    QList<QPointF> pts;
    for (const Sample& s : samples)
        if (isLdapSeries(s.series))
            pts << QPointF(s.t, LoadInterval::fromJson(s.values).all.okPerS);
    m_chart->appendPoints(opsSeries(), pts);
    if (!pts.isEmpty())
        m_summary->setText(tr("LDAP load, last interval: %1 ok/s").arg(Units::formatNumber(pts.constLast().y())));
}

void DiskLdapView::finish(const RunRecord& record)
{
    if (!record.intervals.isEmpty()) {
        m_chart->clear();
        addSamples(samplesFromIntervals(record.intervals));
    }
    const QJsonObject ldap = DiskUnderLoadSummary::of(record).ldapSummary;
    if (ldap.isEmpty())
        return;
    const LoadSummary s = LoadSummary::fromJson(ldap);
    m_summary->setText(
        tr("LDAP load during the loaded disk test: %1 ok/s%2 (%3 ops/s completed), p99 %4%5, %6 errors")
            .arg(Units::formatNumber(s.all.okPerS), s.all.okDerived ? tr(" (derived: ops − errors)") : QString(),
                Units::formatNumber(s.all.opsPerS), OperationModel::latencyText(s.all.latencyMs.p99),
                LoadFigures::coalescedReads(record.spec) ? tr(" (coalesced reads)") : QString(),
                Units::formatNumber(s.all.errors, 0)));
}

QString DiskLdapView::doneText(const RunRecord& record)
{
    const DiskUnderLoadSummary s = DiskUnderLoadSummary::of(record);
    const auto loaded = s.loaded.mbPerS;
    const auto idle = s.idle ? s.idle->mbPerS : std::nullopt;
    const std::optional<double> pct = s.mbPerSPct;
    if (!loaded)
        return tr("Done.");
    QString text = tr("Done: %1 MB/s under LDAP load").arg(Units::formatNumber(*loaded));
    if (idle)
        text += tr(", %1 MB/s idle").arg(Units::formatNumber(*idle));
    if (pct)
        text += QStringLiteral(" (%1%2 %)").arg(*pct > 0 ? QStringLiteral("+") : QString(), Units::formatNumber(*pct));
    return text + u'.';
}

int DiskLdapView::pointCount() const
{
    return m_chart->pointCount();
}

QString DiskLdapView::summaryText() const
{
    return m_summary->text();
}
