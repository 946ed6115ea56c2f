#include "ui/widgets/stableheightbox.h"

#include <QEvent>

StableHeightBox::StableHeightBox(QWidget* child, QWidget* parent)
    : QWidget(parent)
    , m_child(child)
{
    m_child->setParent(this);
    m_child->installEventFilter(this);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setVisible(!m_child->isHidden());
    fit();
}

QSize StableHeightBox::sizeHint() const
{
    return { m_child->sizeHint().width(), height() };
}

QSize StableHeightBox::minimumSizeHint() const
{
    return { m_child->minimumSizeHint().width(), height() };
}

int StableHeightBox::neededHeight() const
{
    if (m_child->isHidden())
        return 0;
    return m_child->hasHeightForWidth() ? m_child->heightForWidth(width()) : m_child->sizeHint().height();
}

// The child at the box's full size, and the box's height changed only when the child needs another one.
void StableHeightBox::fit()
{
    const int h = neededHeight();
    if (h != height() || minimumHeight() != maximumHeight())
        setFixedHeight(h);
    m_child->setGeometry(0, 0, width(), h);
}

// The child asks for a new layout (its text changed): it has no layout to ask but this box.
bool StableHeightBox::event(QEvent* e)
{
    if (e->type() == QEvent::LayoutRequest) {
        fit();
        return true;
    }
    return QWidget::event(e);
}

bool StableHeightBox::eventFilter(QObject* watched, QEvent* e)
{
    if (watched == m_child && (e->type() == QEvent::ShowToParent || e->type() == QEvent::HideToParent)) {
        setVisible(e->type() == QEvent::ShowToParent);
        fit();
    }
    return QWidget::eventFilter(watched, e);
}

void StableHeightBox::resizeEvent(QResizeEvent* e)
{
    QWidget::resizeEvent(e);
    fit();
}
