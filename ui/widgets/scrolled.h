#pragma once

#include <QList>

class QScrollArea;
class QWidget;

// A part of a page that scrolls up and down when the window is too low for it (a 768-px screen, large text), so the
// page's minimum height is not the sum of its parts: frameless, resizing its content, never scrolling sideways.
namespace Scrolled {

QScrollArea* vertically(QWidget* content, QWidget* parent);
// A page's form column: `width` px for the content (more when the content needs it: a larger text size), and
// room for the scroll bar beside it.
QScrollArea* column(QWidget* content, int width, QWidget* parent);
// `area` with a row of `buttons` (a page's Start and Cancel) and `progress` under it, outside the scrolling.
QWidget* withRunBar(QScrollArea* area, const QList<QWidget*>& buttons, QWidget* progress, QWidget* parent);

} // namespace Scrolled
