#include "ui/widgets/stalenote.h"

#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QSpinBox>

StaleNote::StaleNote(QWidget* form, QWidget* parent)
    : QLabel(parent)
    , m_form(form)
{
    setObjectName(QStringLiteral("staleNote"));
    setWordWrap(true);
    setText(tr("⚠ These results were made with other settings than the form shows now: Start measures with these."));
    NoteStyle::applyBox(this, NoteStyle::savedRunBox);
    hide();
    const QList<QWidget*> inputs = form->findChildren<QWidget*>();
    for (QWidget* w : inputs)
        if (FormMemory::remembers(w, form))
            watch(w);
}

void StaleNote::watch(QWidget* input)
{
    if (auto* e = qobject_cast<QLineEdit*>(input))
        connect(e, &QLineEdit::textChanged, this, &StaleNote::check);
    else if (auto* c = qobject_cast<QComboBox*>(input))
        connect(c, &QComboBox::currentIndexChanged, this, &StaleNote::check);
    else if (auto* s = qobject_cast<QSpinBox*>(input))
        connect(s, &QSpinBox::valueChanged, this, &StaleNote::check);
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(input))
        connect(d, &QDoubleSpinBox::valueChanged, this, &StaleNote::check);
    else if (auto* b = qobject_cast<QCheckBox*>(input))
        connect(b, &QCheckBox::toggled, this, &StaleNote::check);
    else if (auto* t = qobject_cast<QPlainTextEdit*>(input))
        connect(t, &QPlainTextEdit::textChanged, this, &StaleNote::check);
}

void StaleNote::resultMade()
{
    m_inputs = FormMemory::snapshot(m_form);
    check();
}

void StaleNote::clear()
{
    m_inputs.reset();
    check();
}

void StaleNote::check()
{
    const bool stale = m_inputs && FormMemory::snapshot(m_form) != *m_inputs;
    setVisible(stale);
    if (stale != m_stale) {
        m_stale = stale;
        emit staleChanged(stale);
    }
}
