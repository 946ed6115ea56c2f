#pragma once

#include <QRect>
#include <QSize>

class QMainWindow;
class QTabWidget;

// The window's size, position, tool bar state and the page last shown, in QSettings ("window/…"). The window
// always opens within the screen's available area (the screen less its panels): a saved geometry that does not
// fit there (another screen, a page that once grew the window) is not restored, the window gets its first size.
namespace WindowSettings {

// Room the window manager takes around the window (title bar, borders), kept free of the available area.
inline constexpr QSize kFrame { 16, 40 };

// The first size on `available`: 1200 x 800 where that fits with its frame, else the available area less the frame.
QSize initialSize(const QRect& available);
// Whether a window of `size` (its frame added) fits in `available`.
bool fits(const QSize& size, const QRect& available);
// The window's rectangle (without its frame) centred in `available`.
QRect centred(const QSize& size, const QRect& available);

void restore(QMainWindow* window, QTabWidget* pages);
void save(const QMainWindow* window, const QTabWidget* pages);

} // namespace WindowSettings
