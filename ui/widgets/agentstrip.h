#pragma once

#include "core/agents/agentlive.h"
#include "core/common/runrecord.h"

#include <QTableWidget>

// The agents of a load from many hosts, a row each: its state, ok/s and ops/s of its last interval, its
// successes so far and its CPU seconds, updated live from the coordinator's status samples (agentlive.h); at the
// end (or for a saved run) from the record's agents[]. Hidden when the run has no agents.
class AgentStrip final : public QTableWidget
{
    Q_OBJECT
public:
    explicit AgentStrip(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(AgentStrip)

    enum Column
    {
        Name,
        State,
        OkPerS,
        OpsPerS,
        Ok,
        Cpu,
        Columns
    };

    void begin(const QStringList& agents); // empty: hidden
    void showLive(const Agents::AgentsLive& live);
    void finish(const RunRecord& record); // agents[] of the record; hidden when it has none
    QString cell(int row, Column column) const;

private:
    void setRow(int row, const QStringList& cells, bool bad);
    void fitHeight();
};
