#include "ui/widgets/scrolled.h"

#include <QScrollArea>
#include <QStyle>

QScrollArea* Scrolled::vertically(QWidget* content, QWidget* parent)
{
    auto* area = new QScrollArea(parent);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    area->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    area->setWidget(content);
    return area;
}

QScrollArea* Scrolled::column(QWidget* content, int width, QWidget* parent)
{
    QScrollArea* area = vertically(content, parent);
    area->setFixedWidth(width + area->style()->pixelMetric(QStyle::PM_ScrollBarExtent, nullptr, area));
    return area;
}
