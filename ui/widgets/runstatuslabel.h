#pragma once

#include <QLabel>

struct RunRecord;

// How a run ended, in one coloured line: red "Failed: why", grey "Cancelled…", green for a completed run (the
// caller says what "done" means for its kind of run). Hidden until a run ends.
class RunStatusLabel final : public QLabel
{
    Q_OBJECT
public:
    explicit RunStatusLabel(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(RunStatusLabel)

    // Shows the outcome of `record` and returns the text shown.
    QString showOutcome(const RunRecord& record, const QString& doneText);
    // A neutral line while something runs ("Measuring…").
    void showInfo(const QString& text);
    void reset();
};
