#include "ui/windowsettings.h"

#include <QMainWindow>
#include <QSettings>
#include <QTabWidget>

namespace {

const QString kGeometry = QStringLiteral("window/geometry");
const QString kState = QStringLiteral("window/state");
const QString kPage = QStringLiteral("window/page"); // the page's object name: stable when pages are added

} // namespace

void WindowSettings::restore(QMainWindow* window, QTabWidget* pages)
{
    const QSettings settings;
    if (settings.contains(kGeometry))
        window->restoreGeometry(settings.value(kGeometry).toByteArray());
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
