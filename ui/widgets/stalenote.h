#pragma once

#include "ui/formmemory.h"

#include <QLabel>

#include <optional>

// The line over a page's results that says they belong to other inputs: once the form differs from the inputs the
// results on screen were made with, "these results are from other settings"; back to them, it goes. A page calls
// resultMade() when it shows a result of its form's inputs (a run that ended, or one started) and clear() when it
// shows none. The form's own inputs are compared (FormMemory::snapshot), so a value typed and typed back is not a
// change.
class StaleNote final : public QLabel
{
    Q_OBJECT
public:
    StaleNote(QWidget* form, QWidget* parent);
    Q_DISABLE_COPY_MOVE(StaleNote)

    void resultMade();
    void clear();
    bool isStale() const { return m_stale; }

signals:
    void staleChanged(bool stale);

private:
    void check();
    void watch(QWidget* input);

    QWidget* m_form;
    std::optional<FormMemory::Snapshot> m_inputs;
    bool m_stale = false;
};
