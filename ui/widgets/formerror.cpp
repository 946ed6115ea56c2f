#include "ui/widgets/formerror.h"

#include "ui/widgets/notestyle.h"

#include <QLabel>
#include <QWidget>

#include <utility>

namespace FormError {

QString text(const ProbeError& error, const Labeller& label, bool formsField)
{
    const auto quoted = [&label](const QString& field) { return QString(u'“' + label(field) + u'”'); };
    if (formsField && error.kind == ProbeError::Kind::InvalidSpec && !error.field.isEmpty())
        return label(error.field) + QStringLiteral(": ") + error.detailNaming(quoted);
    ProbeError named = error;
    named.detail = error.detailNaming(quoted); // message() then finds no reference left to name as an option
    return named.message();
}

} // namespace FormError

FormErrorLine::FormErrorLine(QLabel* label, FormError::Labeller labeller, FieldLookup fields)
    : m_label(label)
    , m_labeller(std::move(labeller))
    , m_fields(std::move(fields))
{ }

void FormErrorLine::show(const ProbeError& error)
{
    clear();
    const bool invalidInput = error.kind == ProbeError::Kind::InvalidSpec && !error.field.isEmpty();
    QWidget* input = invalidInput ? m_fields(error.field) : nullptr;
    m_label->setText(FormError::text(error, m_labeller, true));
    m_label->show();
    m_field = invalidInput ? error.field : QString();
    if (!input)
        return;
    m_marked = input;
    m_markedTip = input->toolTip();
    input->setStyleSheet(NoteStyle::errorFieldSheet());
    input->setToolTip(m_label->text());
    input->setFocus();
}

void FormErrorLine::clear()
{
    if (m_marked) {
        m_marked->setStyleSheet(QString());
        if (m_marked->toolTip() == m_label->text()) // unless the form has since said something else there
            m_marked->setToolTip(m_markedTip);
    }
    m_marked.clear();
    m_markedTip.clear();
    m_field.clear();
    m_label->clear();
    m_label->hide();
}

QString FormErrorLine::text() const
{
    return m_label->text();
}
