#pragma once

#include "core/disk/diskresult.h"

#include <QLabel>

struct RunRecord;

// The Disk page's steady-state line under the result: each sustained test's summary.steady_state ("steady from 8 s
// over a 5 s window at 201.3 MB/s", "not steady in 12 s") with the not-steady warning beside it. Hidden when the
// run has no sustained test.
class DiskSteadyLabel final : public QLabel
{
    Q_OBJECT
public:
    explicit DiskSteadyLabel(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskSteadyLabel)

    static QString steadyLine(const DiskSteadyState& steady);
    void setRecord(const RunRecord& record);
    void reset();
};
