#pragma once

#include <QProgressBar>
#include <QString>
#include <QVariant>

#include <algorithm>
#include <chrono>

// A page's progress bar (range 0..1000) showing a run's fraction and its phase ("phase – 42%").
// QProgressBar::setValue repaints at once (a synchronous paint of the bar and what lies behind it, several ms
// per progress report during a live load): with updates off around it, the new value is drawn in the next
// paint event instead, together with the charts' update.
inline void showRunProgress(QProgressBar* bar, double fraction, const QString& phase)
{
    // In steps of 0.5 %: a bar a few hundred pixels wide shows no finer step, and each new value repaints it
    // (the runner reports progress up to 16 times a second, for the whole of a long run). A new value is shown
    // at most 4 times a second (a short run moves 0.5 % every report); a new phase, the start and the end at once.
    constexpr qint64 kMinGapMs = 250;
    const int value = int(std::clamp(fraction, 0.0, 1.0) * 200) * 5;
    const QString format = phase.isEmpty() ? QStringLiteral("%p%") : phase + QStringLiteral(" – %p%");
    if (value == bar->value() && format == bar->format())
        return;
    const qint64 now
        = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch())
              .count();
    const char* const shownAt = "dirbench_progress_shown_ms";
    const bool edge = value == 0 || value == bar->maximum() || format != bar->format();
    if (!edge && now - bar->property(shownAt).toLongLong() < kMinGapMs)
        return;
    bar->setProperty(shownAt, now);
    bar->setUpdatesEnabled(false);
    bar->setValue(value);
    bar->setFormat(format);
    bar->setUpdatesEnabled(true); // schedules an update()
}
