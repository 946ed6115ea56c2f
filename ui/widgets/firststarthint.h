#pragma once

#include <QFrame>

// The line above the pages on a first start: three things to try (a disk test, a load against the demo directory,
// a report), each a button that goes there, and a button that dismisses the hint for good. Not modal.
class FirstStartHint final : public QFrame
{
    Q_OBJECT
public:
    explicit FirstStartHint(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(FirstStartHint)

signals:
    void diskTestRequested();
    void demoLoadRequested();
    void reportRequested();

private:
    void dismiss();
};
