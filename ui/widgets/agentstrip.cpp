#include "ui/widgets/agentstrip.h"

#include "core/agents/agentsrecord.h"
#include "core/common/units.h"
#include "core/ldap/loadresult.h"

#include <QHeaderView>
#include <QJsonArray>

#include <algorithm>

namespace {

QString cpuText(double s)
{
    return s < 0 ? QStringLiteral("–") : Units::formatNumber(s, 2);
}

} // namespace

AgentStrip::AgentStrip(QWidget* parent)
    : QTableWidget(0, Columns, parent)
{
    setObjectName(QStringLiteral("agentStrip"));
    setHorizontalHeaderLabels({ tr("Agent"), tr("State"), tr("ok/s"), tr("ops/s"), tr("ok"), tr("CPU s") });
    verticalHeader()->hide();
    horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionMode(QAbstractItemView::NoSelection);
    setToolTip(tr("Each agent's state and its own figures; the charts show the merged run"));
    hide();
}

void AgentStrip::begin(const QStringList& agents)
{
    setRowCount(int(agents.size()));
    for (int r = 0; r < agents.size(); ++r)
        setRow(r, { agents.at(r), tr("launching"), QString(), QString(), QString(), QString() }, false);
    setVisible(!agents.isEmpty());
    fitHeight();
}

void AgentStrip::showLive(const Agents::AgentsLive& live)
{
    if (rowCount() != live.rows.size())
        setRowCount(int(live.rows.size()));
    for (int r = 0; r < live.rows.size(); ++r) {
        const Agents::AgentLiveRow& a = live.rows.at(r);
        setRow(r,
            { a.name, a.state, Units::formatNumber(a.okPerS, 1), Units::formatNumber(a.opsPerS, 1),
                Units::formatNumber(a.ok, 0), cpuText(a.cpuS) },
            a.state == u"lost" || a.state == u"failed");
    }
    show();
    fitHeight();
}

void AgentStrip::finish(const RunRecord& record)
{
    const Agents::AgentsFigures figures = Agents::AgentsFigures::of(record);
    setRowCount(int(figures.agents.size()));
    for (int r = 0; r < figures.agents.size(); ++r) {
        const Agents::AgentFigures& a = figures.agents.at(r);
        const OpFigures& all = a.summary.all;
        setRow(r,
            { a.name, a.status, Units::formatNumber(all.okPerS, 1), Units::formatNumber(all.opsPerS, 1),
                Units::formatNumber(a.ok.value_or(0), 0), cpuText(a.cpuS.value_or(-1)) },
            a.status != u"ok");
    }
    setVisible(!figures.agents.isEmpty());
    fitHeight();
}

QString AgentStrip::cell(int row, Column column) const
{
    const QTableWidgetItem* i = item(row, column);
    return i ? i->text() : QString();
}

void AgentStrip::setRow(int row, const QStringList& cells, bool bad)
{
    for (int c = 0; c < cells.size(); ++c) {
        QTableWidgetItem* i = item(row, c);
        if (!i) {
            i = new QTableWidgetItem;
            i->setTextAlignment(c >= OkPerS ? Qt::AlignRight | Qt::AlignVCenter : Qt::AlignLeft | Qt::AlignVCenter);
            setItem(row, c, i);
        }
        i->setText(cells.at(c));
        i->setForeground(bad ? QColor(0xc6, 0x28, 0x28) : palette().color(QPalette::Text));
    }
}

// Up to four rows without scrolling; more scroll.
void AgentStrip::fitHeight()
{
    const int rows = std::clamp(rowCount(), 1, 4);
    const int rowHeight = verticalHeader()->defaultSectionSize();
    setFixedHeight(horizontalHeader()->height() + rows * rowHeight + 2 * frameWidth() + 2);
}
