#pragma once

class QMainWindow;
class QTabWidget;

// The window's size, position, tool bar state and the page last shown, in QSettings ("window/…").
namespace WindowSettings {

void restore(QMainWindow* window, QTabWidget* pages);
void save(const QMainWindow* window, const QTabWidget* pages);

} // namespace WindowSettings
