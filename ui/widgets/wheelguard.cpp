#include "ui/widgets/wheelguard.h"

#include <QAbstractScrollArea>
#include <QAbstractSpinBox>
#include <QApplication>
#include <QComboBox>
#include <QScrollBar>
#include <QWheelEvent>

namespace {

// The spin box or combo box a widget is (or is part of: a spin box's and an editable combo's line edit), else null.
QWidget* wheelFieldOf(QObject* watched)
{
    auto* w = qobject_cast<QWidget*>(watched);
    for (int depth = 0; w && depth < 2; ++depth, w = w->parentWidget())
        if (qobject_cast<QAbstractSpinBox*>(w) || qobject_cast<QComboBox*>(w))
            return w;
    return nullptr;
}

QAbstractScrollArea* wheelScrollAreaAround(QWidget* w)
{
    for (QWidget* p = w->parentWidget(); p; p = p->parentWidget())
        if (auto* area = qobject_cast<QAbstractScrollArea*>(p))
            return area;
    return nullptr;
}

} // namespace

void WheelGuard::install()
{
    static WheelGuard* guard = nullptr;
    if (!guard && qApp) {
        guard = new WheelGuard(qApp);
        qApp->installEventFilter(guard);
    }
}

bool WheelGuard::eventFilter(QObject* watched, QEvent* event)
{
    if (event->type() != QEvent::Wheel && event->type() != QEvent::Polish)
        return false;
    QWidget* field = wheelFieldOf(watched);
    if (!field)
        return false;
    // Polished before it is first shown: from then on a wheel does not give it the focus (the application gives
    // the focus before any event filter sees the wheel).
    if (field->focusPolicy() == Qt::WheelFocus)
        field->setFocusPolicy(Qt::StrongFocus);
    if (event->type() != QEvent::Wheel || field->hasFocus())
        return false;
    if (QAbstractScrollArea* area = wheelScrollAreaAround(field))
        QCoreApplication::sendEvent(area->verticalScrollBar(), event);
    return true; // the value stays as it is
}
