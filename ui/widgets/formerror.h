#pragma once

#include "core/common/proberror.h"

#include <QPointer>
#include <QString>

#include <functional>

class QLabel;
class QWidget;

// What a form shows for an error, in its own words: "Label: detail" for an input of the form, with every input the
// detail refers to (ProbeError::ref) named by its label in quotes, never by a command-line option; any other failure
// as its message, the inputs it names labelled alike. `label` maps a field id to the form's label.
namespace FormError {

using Labeller = std::function<QString(const QString& field)>;
QString text(const ProbeError& error, const Labeller& label, bool formsField);

} // namespace FormError

// The error line under a form and the input it marks, one for every form: show() writes the error in the form's
// words (FormError::text) and, when the error names one of the form's inputs, marks that input, gives it the text
// as tooltip and focuses it; clear() unmarks it (its own tooltip back) and hides the line.
class FormErrorLine
{
public:
    using FieldLookup = std::function<QWidget*(const QString& field)>; // the form's input of a field id, or null
    FormErrorLine(QLabel* label, FormError::Labeller labeller, FieldLookup fields);

    void show(const ProbeError& error);
    void clear();
    QString field() const { return m_field; } // the input the error names; empty for any other failure
    QString text() const;

private:
    QLabel* m_label;
    FormError::Labeller m_labeller;
    FieldLookup m_fields;
    QString m_field;
    QPointer<QWidget> m_marked;
    QString m_markedTip; // the marked input's own tooltip
};
