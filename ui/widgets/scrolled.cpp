#include "ui/widgets/scrolled.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

QScrollArea* Scrolled::vertically(QWidget* content, QWidget* parent)
{
    auto* area = new QScrollArea(parent);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(content);
    return area;
}

namespace {

// Keeps a form column at least as wide as its content needs: at a larger text size the fields grow, and a fixed
// width would cut them (the column never scrolls sideways).
class ColumnWidth final : public QObject
{
public:
    ColumnWidth(QScrollArea* area, int width)
        : QObject(area)
        , m_area(area)
        , m_width(width)
    {
        update();
    }

    void update()
    {
        const int content = m_area->widget() ? m_area->widget()->minimumSizeHint().width() : 0;
        m_area->setFixedWidth(
            std::max(m_width, content) + m_area->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, m_area));
    }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::LayoutRequest || event->type() == QEvent::FontChange)
            update();
        return QObject::eventFilter(watched, event);
    }

private:
    QScrollArea* m_area;
    int m_width;
};

} // namespace

QScrollArea* Scrolled::column(QWidget* content, int width, QWidget* parent)
{
    QScrollArea* area = vertically(content, parent);
    content->installEventFilter(new ColumnWidth(area, width));
    return area;
}

QWidget* Scrolled::withRunBar(QScrollArea* area, const QList<QWidget*>& buttons, QWidget* progress, QWidget* parent)
{
    auto* column = new QWidget(parent);
    auto* layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(area, 1);
    auto* row = new QHBoxLayout;
    for (QWidget* b : buttons)
        row->addWidget(b);
    layout->addLayout(row);
    layout->addWidget(progress);
    return column;
}
