#pragma once

#include <QObject>

#include <deque>
#include <functional>

// Window work split over event-loop turns: one step at a time, a few milliseconds apart, so that the window lays
// out and paints what a step changed (and takes input) before the next step runs. A live run's batch of samples updates
// three charts, a table and labels; done in one event, their first layout and paint stall the window for tens of
// milliseconds (bench/gui_responsiveness.sh).
class DrawQueue final : public QObject
{
public:
    explicit DrawQueue(QObject* parent);
    Q_DISABLE_COPY_MOVE(DrawQueue)

    void post(std::function<void()> step); // runs in a later turn, after the steps posted before it
    void flush(); // runs every waiting step now, in order
    void clear(); // drops the waiting steps

private:
    void runOne();

    std::deque<std::function<void()>> m_steps;
    bool m_scheduled = false;
};
