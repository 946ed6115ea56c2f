#include "ui/widgets/scrolled.h"

#include <QHBoxLayout>
#include <QScrollArea>
#include <QStyle>
#include <QVBoxLayout>

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
