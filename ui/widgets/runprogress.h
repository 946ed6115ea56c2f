#pragma once

#include <QProgressBar>
#include <QString>

#include <algorithm>

// A page's progress bar (range 0..1000) showing a run's fraction and its phase ("phase – 42%").
inline void showRunProgress(QProgressBar* bar, double fraction, const QString& phase)
{
    bar->setValue(int(std::clamp(fraction, 0.0, 1.0) * 1000));
    bar->setFormat(phase.isEmpty() ? QStringLiteral("%p%") : phase + QStringLiteral(" – %p%"));
}
