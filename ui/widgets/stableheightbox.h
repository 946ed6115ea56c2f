#pragma once

#include <QWidget>

// Holds one widget whose contents change often (a live run's status line, the server's counters) and keeps its
// changes from re-laying out the window: a new text that needs the same height stops here. Only a new height
// (another line, or none) reaches the parent's layout. Without it, every label text set during a load made the
// main window lay out all its pages again (QTabWidget asks each page's height for its width). The box follows
// the child's visibility.
class StableHeightBox : public QWidget
{
public:
    StableHeightBox(QWidget* child, QWidget* parent);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* e) override;
    bool eventFilter(QObject* watched, QEvent* e) override;
    void resizeEvent(QResizeEvent* e) override;

private:
    void fit();
    int neededHeight() const;

    QWidget* m_child;
};
