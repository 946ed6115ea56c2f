#include "ui/mainmenus.h"

#include "ui/aboutbox.h"
#include "ui/mainwindow.h"
#include "ui/pages/page.h"
#include "ui/textsize.h"
#include "ui/userguide.h"

#include <QAction>
#include <QActionGroup>
#include <QMenu>
#include <QMenuBar>
#include <QTabWidget>
#include <QToolBar>

MainMenus::MainMenus(MainWindow* window)
    : QObject(window)
    , m_window(window)
{
    buildFile();
    buildRun();
    buildView();
    buildHelp();
}

QAction* MainMenus::makeAction(QMenu* menu, const QString& text, const char* name, const QKeySequence& shortcut)
{
    auto* a = menu->addAction(text);
    a->setObjectName(QString::fromLatin1(name));
    a->setShortcut(shortcut);
    return a;
}

void MainMenus::buildFile()
{
    QMenu* file = m_window->menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    auto* open = makeAction(file, tr("&Open record…"), "openRecordAction", QKeySequence(Qt::CTRL | Qt::Key_O));
    open->setToolTip(tr("Show a saved run (a record file, dirbench.run/1) in its page, read-only"));
    connect(open, &QAction::triggered, m_window, &MainWindow::openRecordDialog);
    auto* import = makeAction(file, tr("&Import into history…"), "importAction");
    import->setToolTip(tr("Add record files to the history"));
    connect(import, &QAction::triggered, m_window, &MainWindow::importDialog);
    auto* exportReport
        = makeAction(file, tr("&Export report…"), "exportReportAction", QKeySequence(Qt::CTRL | Qt::Key_E));
    exportReport->setToolTip(
        tr("Write a PDF, HTML or CSV report: the History page's selected runs, else the last run of every page"));
    connect(exportReport, &QAction::triggered, m_window, &MainWindow::exportReport);
    file->addSeparator();
    auto* quit = makeAction(file, tr("&Quit"), "quitAction", QKeySequence(Qt::CTRL | Qt::Key_Q));
    connect(quit, &QAction::triggered, m_window, &QWidget::close);
}

void MainMenus::buildRun()
{
    QMenu* run = m_window->menuBar()->addMenu(tr("&Run"));
    run->setObjectName(QStringLiteral("runMenu"));
    m_start = makeAction(run, tr("&Start"), "startAction", QKeySequence(Qt::CTRL | Qt::Key_R));
    m_start->setToolTip(tr("Start the test of the current page (Ctrl+R)"));
    m_cancel = makeAction(run, tr("&Cancel"), "cancelAction", QKeySequence(Qt::CTRL | Qt::Key_Period));
    m_cancel->setToolTip(tr("Cancel the test of the current page (Ctrl+.)"));
    connect(m_start, &QAction::triggered, m_window, [this] {
        if (Page* p = m_window->currentPage())
            p->start();
    });
    connect(m_cancel, &QAction::triggered, m_window, [this] {
        if (Page* p = m_window->currentPage())
            p->cancel();
    });
    auto* toolBar = m_window->addToolBar(tr("Run"));
    toolBar->setObjectName(QStringLiteral("runToolBar"));
    toolBar->setMovable(false);
    toolBar->addAction(m_start);
    toolBar->addAction(m_cancel);
}

void MainMenus::buildView()
{
    QMenu* view = m_window->menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    m_pagesMenu = view;
    buildTextSize(view);
    view->addSeparator();
}

void MainMenus::buildTextSize(QMenu* view)
{
    QMenu* size = view->addMenu(tr("&Text size"));
    size->setObjectName(QStringLiteral("textSizeMenu"));
    auto* group = new QActionGroup(size);
    const TextSize::Level current = TextSize::current();
    for (const TextSize::Level level : TextSize::levels()) {
        QAction* a = size->addAction(TextSize::label(level));
        a->setObjectName(QStringLiteral("textSize%1Action").arg(int(level)));
        a->setCheckable(true);
        a->setChecked(level == current);
        group->addAction(a);
        connect(a, &QAction::triggered, m_window, [level] { TextSize::apply(level); });
    }
}

void MainMenus::addPageActions(QTabWidget* pages)
{
    for (int i = 0; i < pages->count(); ++i) {
        const auto* page = qobject_cast<const Page*>(pages->widget(i));
        QAction* a = m_pagesMenu->addAction(page ? page->title() : pages->tabText(i));
        a->setObjectName(pages->widget(i)->objectName() + QStringLiteral("Action"));
        if (i < 10) // Ctrl+1 … Ctrl+9, then Ctrl+0 for the tenth
            a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(i < 9 ? Qt::Key_1 + i : Qt::Key_0)));
        connect(a, &QAction::triggered, pages, [pages, i] { pages->setCurrentIndex(i); });
    }
}

void MainMenus::buildHelp()
{
    QMenu* help = m_window->menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    auto* guide = makeAction(help, tr("&User guide"), "userGuideAction", QKeySequence::HelpContents);
    guide->setToolTip(tr("What each page does, how to run it and how far to trust it (F1)"));
    connect(guide, &QAction::triggered, m_window, [this] { UserGuide::open(m_window); });
    auto* about = makeAction(help, tr("&About DirBench"), "aboutAction");
    connect(about, &QAction::triggered, m_window, [this] { AboutBox::show(m_window); });
}
