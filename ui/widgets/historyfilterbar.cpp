#include "ui/widgets/historyfilterbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>

HistoryFilterBar::HistoryFilterBar(QWidget* parent)
    : QWidget(parent)
    , m_kind(new QComboBox(this))
    , m_tag(new QLineEdit(this))
    , m_text(new QLineEdit(this))
{
    m_kind->setObjectName(QStringLiteral("historyKind"));
    m_tag->setObjectName(QStringLiteral("historyTag"));
    m_text->setObjectName(QStringLiteral("historyText"));
    m_kind->addItem(tr("all kinds"), QString());
    m_tag->setPlaceholderText(tr("tag"));
    m_text->setPlaceholderText(tr("name, kind or host contains…"));
    m_tag->setClearButtonEnabled(true);
    m_text->setClearButtonEnabled(true);
    auto* l = new QHBoxLayout(this);
    l->setContentsMargins(0, 0, 0, 0);
    l->addWidget(new QLabel(tr("Show"), this));
    l->addWidget(m_kind);
    l->addWidget(m_tag);
    l->addWidget(m_text, 1);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &HistoryFilterBar::filterChanged);
    connect(m_tag, &QLineEdit::textChanged, this, &HistoryFilterBar::filterChanged);
    connect(m_text, &QLineEdit::textChanged, this, &HistoryFilterBar::filterChanged);
}

RunStore::Filter HistoryFilterBar::filter() const
{
    RunStore::Filter f;
    f.kind = m_kind->currentData().toString();
    f.tag = m_tag->text().trimmed();
    f.text = m_text->text().trimmed();
    return f;
}

void HistoryFilterBar::setKinds(const QStringList& kinds)
{
    const QString current = m_kind->currentData().toString();
    const QSignalBlocker block(m_kind);
    m_kind->clear();
    m_kind->addItem(tr("all kinds"), QString());
    for (const QString& k : kinds)
        m_kind->addItem(k, k);
    if (!current.isEmpty() && !kinds.contains(current)) // a filter that matches nothing now stays what it is
        m_kind->addItem(current, current);
    const int i = m_kind->findData(current);
    m_kind->setCurrentIndex(i >= 0 ? i : 0);
}

void HistoryFilterBar::setKind(const QString& kind)
{
    if (m_kind->findData(kind) < 0)
        m_kind->addItem(kind, kind);
    m_kind->setCurrentIndex(m_kind->findData(kind));
}

void HistoryFilterBar::setTag(const QString& tag)
{
    m_tag->setText(tag);
}

void HistoryFilterBar::setText(const QString& text)
{
    m_text->setText(text);
}
