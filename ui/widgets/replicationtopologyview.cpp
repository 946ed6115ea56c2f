#include "ui/widgets/replicationtopologyview.h"

#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/experiments/replicationsummary.h"

#include <QHeaderView>

#include <algorithm>

namespace {

enum Column
{
    ColRole,
    ColServer,
    ColState,
    ColMethod,
    ColBehind,
    ColLag,
    ColVendor,
    Columns
};

QString lagText(const ReplicationFigures::Lag& lag)
{
    if (!lag.p99)
        return QStringLiteral("–");
    return QStringLiteral("%1 / %2 / %3")
        .arg(ReplicationFigures::lagValue(lag.p50, lag.p50AtLeast),
            ReplicationFigures::lagValue(lag.p99, lag.p99AtLeast),
            ReplicationFigures::lagValue(lag.max, lag.maxAtLeast));
}

} // namespace

ReplicationTopologyView::ReplicationTopologyView(QWidget* parent)
    : QTableWidget(0, Columns, parent)
{
    setObjectName(QStringLiteral("replicationTopology"));
    setHorizontalHeaderLabels({ tr("Role"), tr("Server"), tr("State"), tr("Method"), tr("Behind"),
        tr("Lag p50/p99/max ms"), tr("Vendor says") });
    horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    horizontalHeader()->setSectionResizeMode(ColServer, QHeaderView::Stretch);
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setWordWrap(false);
    fitHeight();
    setToolTip(tr("Behind: markers written on the supplier and not yet seen on the consumer, and the age of the "
                  "oldest one (it grows second by second while the consumer does not follow)"));
}

void ReplicationTopologyView::setCell(int row, int column, const QString& text, const QString& tip)
{
    auto* item = new QTableWidgetItem(text);
    item->setToolTip(tip.isEmpty() ? text : tip);
    setItem(row, column, item);
}

// As high as its rows (up to a few; more scroll), so that the charts below get the rest.
void ReplicationTopologyView::fitHeight()
{
    int h = horizontalHeader()->sizeHint().height() + 2 * frameWidth() + 2;
    for (int r = 0; r < std::min(rowCount(), 5); ++r)
        h += rowHeight(r);
    setFixedHeight(h);
}

void ReplicationTopologyView::setServers(const QString& supplier, const QStringList& consumers, const QString& method)
{
    m_method = method;
    setRowCount(int(consumers.size()) + 1);
    setCell(0, ColRole, tr("supplier"));
    setCell(0, ColServer, supplier);
    setCell(0, ColState, tr("written to"));
    for (int c = ColMethod; c < Columns; ++c)
        setCell(0, c, QString());
    for (int i = 0; i < consumers.size(); ++i) {
        setCell(i + 1, ColRole, tr("consumer"));
        setCell(i + 1, ColServer, consumers.at(i));
        setCell(i + 1, ColState, tr("waiting"));
        setCell(i + 1, ColMethod, method);
        for (int c = ColBehind; c < Columns; ++c)
            setCell(i + 1, c, QString());
    }
    fitHeight();
}

int ReplicationTopologyView::rowOf(const QString& uri) const
{
    for (int r = 1; r < rowCount(); ++r)
        if (item(r, ColServer) && item(r, ColServer)->text() == uri)
            return r;
    return -1;
}

QString ReplicationTopologyView::stateOf(const QString& consumer) const
{
    const int r = rowOf(consumer);
    return r > 0 && item(r, ColState) ? item(r, ColState)->text() : QString();
}

void ReplicationTopologyView::showConsumer(const ReplicationFigures::ConsumerFigures& c, bool final)
{
    int r = rowOf(c.uri);
    if (r < 0) {
        r = rowCount();
        setRowCount(r + 1);
        setCell(r, ColRole, tr("consumer"));
        setCell(r, ColServer, c.uri);
        fitHeight();
    }
    const double behind = final ? c.unseen.value_or(0) : c.behind;
    const double ageS = final ? c.behindForAtLeastS.value_or(0) : c.oldestUnseenS;
    const QString state = !c.reachable ? tr("unreachable") : behind > 0 ? tr("behind") : tr("in step");
    setCell(r, ColState, state);
    setCell(r, ColMethod, c.method.isEmpty() ? m_method : c.method);
    setCell(r, ColBehind,
        behind > 0 ? tr("%1 (≥ %2 s)").arg(Units::formatNumber(behind, 0), Units::formatNumber(ageS, 1))
                   : QStringLiteral("0"));
    setCell(r, ColLag, lagText(c.lag));
    setCell(r, ColVendor, c.vendor);
}

void ReplicationTopologyView::showInterval(const QJsonObject& interval)
{
    const ReplicationFigures::Interval iv = ReplicationFigures::Interval::fromJson(interval);
    for (const ReplicationFigures::ConsumerFigures& c : iv.consumers)
        showConsumer(c, false);
    if (rowCount() > 0)
        setCell(0, ColState, tr("written to: %1 writes/s").arg(Units::formatNumber(iv.writeOkPerS, 1)));
}

void ReplicationTopologyView::showRecord(const RunRecord& record)
{
    const QStringList uris = ReplicationFigures::consumerUris(record);
    setServers(ReplicationFigures::supplierUri(record), uris, ReplicationFigures::methodOf(record, QString()));
    const ReplicationFigures::Summary s = ReplicationFigures::Summary::of(record);
    for (const QString& uri : uris) {
        const ReplicationFigures::ConsumerFigures* found = s.consumer(uri);
        ReplicationFigures::ConsumerFigures c = found ? *found : ReplicationFigures::ConsumerFigures();
        c.uri = uri;
        if (c.method.isEmpty())
            c.method = ReplicationFigures::methodOf(record, uri);
        showConsumer(c, true);
    }
    setCell(0, ColState,
        tr("written to: %1 markers, %2 writes/s")
            .arg(Units::formatNumber(s.markersWritten.value_or(0), 0),
                Units::formatNumber(s.writeOkPerS.value_or(0), 1)));
}
