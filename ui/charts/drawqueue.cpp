#include "ui/charts/drawqueue.h"

#include <QTimer>

namespace {
// Between two steps: long enough for the posted work of the last one (its charts' layout and the window's paint,
// a chain of posted events that Qt sends in one go) to run and input to come in before the next step starts.
constexpr int kGapMs = 4;
} // namespace

DrawQueue::DrawQueue(QObject* parent)
    : QObject(parent)
{ }

void DrawQueue::post(std::function<void()> step)
{
    m_steps.push_back(std::move(step));
    if (m_scheduled)
        return;
    m_scheduled = true;
    QTimer::singleShot(kGapMs, Qt::PreciseTimer, this, &DrawQueue::runOne);
}

void DrawQueue::runOne()
{
    m_scheduled = false;
    if (m_steps.empty())
        return;
    const std::function<void()> step = std::move(m_steps.front());
    m_steps.pop_front();
    if (!m_steps.empty()) {
        m_scheduled = true;
        QTimer::singleShot(kGapMs, Qt::PreciseTimer, this, &DrawQueue::runOne);
    }
    step();
}

void DrawQueue::flush()
{
    while (!m_steps.empty()) {
        const std::function<void()> step = std::move(m_steps.front());
        m_steps.pop_front();
        step();
    }
}

void DrawQueue::clear()
{
    m_steps.clear();
}
