#pragma once

#include <QProgressBar>
#include <QString>

#include <algorithm>

// A page's progress bar (range 0..1000) showing a run's fraction and its phase ("phase – 42%").
// QProgressBar::setValue repaints at once (a synchronous paint of the bar and what lies behind it, several ms
// per progress report during a live load): with updates off around it, the new value is drawn in the next
// paint event instead, together with the charts' update.
inline void showRunProgress(QProgressBar* bar, double fraction, const QString& phase)
{
    // In steps of 0.5 %: a bar a few hundred pixels wide shows no finer step, and each new value repaints it
    // (the runner reports progress up to 16 times a second, for the whole of a long run).
    const int value = int(std::clamp(fraction, 0.0, 1.0) * 200) * 5;
    const QString format = phase.isEmpty() ? QStringLiteral("%p%") : phase + QStringLiteral(" – %p%");
    if (value == bar->value() && format == bar->format())
        return;
    bar->setUpdatesEnabled(false);
    bar->setValue(value);
    bar->setFormat(format);
    bar->setUpdatesEnabled(true); // schedules an update()
}
