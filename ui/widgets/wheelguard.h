#pragma once

#include <QObject>

// A mouse wheel turned over a form scrolls the form, never the value under the pointer: a spin box or a combo box
// takes the wheel only once it has the focus (a click or Tab), and gives it up to the scroll area around it before
// that. Without it, scrolling down a long form changes every field the pointer passes (a 5 s timeout became 0.1 s).
// Installed once on the application (install()); fields get Qt::StrongFocus when they are polished, before they are
// first shown (a wheel no longer gives them the focus).
class WheelGuard final : public QObject
{
    Q_OBJECT
public:
    static void install();

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    using QObject::QObject;
};
