#pragma once

#include <QKeySequence>
#include <QObject>

class MainWindow;
class QAction;
class QMenu;
class QTabWidget;

// The main window's menus and run tool bar: File (Open record… Ctrl+O, Import into history…, Export report… Ctrl+E,
// Quit Ctrl+Q), Run (Start Ctrl+R, Cancel Ctrl+. — never Esc: closing a popup must not end a 30-minute sweep), View
// (a page each, Ctrl+1…, and the text size), Help (User guide F1, About DirBench). The actions call the window.
class MainMenus final : public QObject
{
    Q_OBJECT
public:
    explicit MainMenus(MainWindow* window);
    Q_DISABLE_COPY_MOVE(MainMenus)

    QAction* startAction() const { return m_start; }
    QAction* cancelAction() const { return m_cancel; }
    // View: one action per page in the tabs' order; call once the pages are added.
    void addPageActions(QTabWidget* pages);

private:
    QAction* makeAction(QMenu* menu, const QString& text, const char* name, const QKeySequence& shortcut = {});
    void buildFile();
    void buildRun();
    void buildView();
    void buildTextSize(QMenu* view);
    void buildHelp();

    MainWindow* m_window;
    QAction* m_start = nullptr;
    QAction* m_cancel = nullptr;
    QMenu* m_pagesMenu = nullptr;
};
