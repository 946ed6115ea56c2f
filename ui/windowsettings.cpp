#include "ui/windowsettings.h"

#include <QMainWindow>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>

#include <algorithm>

namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kPage = QStringLiteral("window/page"); // the page's object name: stable when pages are added

QRect availableFor(const QWidget* window)
{
    const QScreen* screen = window->screen();
    return screen ? screen->availableGeometry() : QRect(0, 0, 1366, 768);
}

} // namespace

QSize WindowSettings::initialSize(const QRect& available)
{
    return QSize(1200, 800).boundedTo(available.size() - kFrame);
}

bool WindowSettings::fits(const QSize& size, const QRect& available)
{
    const QSize room = available.size() - kFrame;
    return size.width() <= room.width() && size.height() <= room.height();
}

QRect WindowSettings::centred(const QSize& size, const QRect& available)
{
    QRect r(QPoint(0, 0), size);
    r.moveCenter(available.center());
    r.moveTop(std::max(r.top(), available.top() + kFrame.height() - kFrame.width() / 2)); // the title bar on screen
    return r;
}

void WindowSettings::restore(QMainWindow* window, QTabWidget* pages)
{
    const QSettings settings;
    const QRect available = availableFor(window);
    const QRect first = centred(initialSize(available), available);
    window->setGeometry(first);
    if (settings.contains(kGeometry)) {
        window->restoreGeometry(settings.value(kGeometry).toByteArray());
        if (!fits(window->size(), available))
            window->setGeometry(first);
    }
    if (settings.contains(kState))
        window->restoreState(settings.value(kState).toByteArray());
    const QString page = settings.value(kPage).toString();
    for (int i = 0; i < pages->count(); ++i)
        if (!page.isEmpty() && pages->widget(i)->objectName() == page)
            pages->setCurrentIndex(i);
}

void WindowSettings::save(const QMainWindow* window, const QTabWidget* pages)
{
    QSettings settings;
    settings.setValue(kGeometry, window->saveGeometry());
    settings.setValue(kState, window->saveState());
    if (const QWidget* page = pages->currentWidget())
        settings.setValue(kPage, page->objectName());
}
