#include "ui/formmemory.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSpinBox>
#include <QVariant>

namespace {

constexpr const char* kBaseline = "formMemoryBaseline";

QString keyOf(const QString& group, const QWidget* input)
{
    return QStringLiteral("forms/") + group + u'/' + input->objectName();
}

bool secretByName(const QString& name)
{
    static const QRegularExpression secret(
        QStringLiteral("password|secret"), QRegularExpression::CaseInsensitiveOption);
    return secret.match(name).hasMatch();
}

bool excludedByAncestor(const QWidget* input, const QWidget* form)
{
    for (const QWidget* w = input; w && w != form; w = w->parentWidget())
        if (w->property("formMemory").isValid() && !w->property("formMemory").toBool())
            return true;
    return false;
}

QVariant valueOf(const QWidget* input)
{
    if (const auto* e = qobject_cast<const QLineEdit*>(input))
        return e->text();
    if (const auto* s = qobject_cast<const QSpinBox*>(input))
        return s->value();
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(input))
        return d->value();
    if (const auto* c = qobject_cast<const QComboBox*>(input))
        return c->currentText();
    if (const auto* b = qobject_cast<const QCheckBox*>(input))
        return b->isChecked();
    if (const auto* t = qobject_cast<const QPlainTextEdit*>(input))
        return t->toPlainText();
    return {};
}

void setValue(QWidget* input, const QVariant& v)
{
    if (auto* e = qobject_cast<QLineEdit*>(input))
        e->setText(v.toString());
    else if (auto* s = qobject_cast<QSpinBox*>(input))
        s->setValue(v.toInt());
    else if (auto* d = qobject_cast<QDoubleSpinBox*>(input))
        d->setValue(v.toDouble());
    else if (auto* c = qobject_cast<QComboBox*>(input)) {
        const int i = c->findText(v.toString());
        if (i >= 0) // an entry that is gone (a catalog changed) leaves the default
            c->setCurrentIndex(i);
    } else if (auto* b = qobject_cast<QCheckBox*>(input))
        b->setChecked(v.toBool());
    else if (auto* t = qobject_cast<QPlainTextEdit*>(input))
        t->setPlainText(v.toString());
}

} // namespace

bool FormMemory::remembers(const QWidget* input, const QWidget* form)
{
    if (input->objectName().isEmpty() || secretByName(input->objectName()) || excludedByAncestor(input, form))
        return false;
    if (const auto* e = qobject_cast<const QLineEdit*>(input)) {
        if (e->echoMode() != QLineEdit::Normal)
            return false;
        // A spin box's or an editable combo's own line edit is kept through its owner.
        return !qobject_cast<const QAbstractSpinBox*>(e->parentWidget())
            && !qobject_cast<const QComboBox*>(e->parentWidget());
    }
    return valueOf(input).isValid();
}

void FormMemory::save(const QString& group, const QWidget* form)
{
    QSettings settings;
    const QList<QWidget*> inputs = form->findChildren<QWidget*>();
    for (const QWidget* w : inputs) {
        if (!remembers(w, form))
            continue;
        const QVariant baseline = w->property(kBaseline);
        const QVariant now = valueOf(w);
        if (!baseline.isValid() || baseline != now) // a value the user chose (not a default, not the program's)
            settings.setValue(keyOf(group, w), now);
    }
}

FormMemory::Snapshot FormMemory::snapshot(const QWidget* form)
{
    Snapshot s;
    const QList<QWidget*> inputs = form->findChildren<QWidget*>();
    for (const QWidget* w : inputs)
        if (remembers(w, form))
            s.insert(w, valueOf(w));
    return s;
}

void FormMemory::adoptChanged(QWidget* form, const Snapshot& before)
{
    const QList<QWidget*> inputs = form->findChildren<QWidget*>();
    for (QWidget* w : inputs) {
        if (!remembers(w, form))
            continue;
        const QVariant now = valueOf(w);
        if (before.value(w) != now)
            w->setProperty(kBaseline, now);
    }
}

void FormMemory::restore(const QString& group, QWidget* form)
{
    const QSettings settings;
    // Creation order: a combo that fills the next one (provider, then disk type) is set first.
    const QList<QWidget*> inputs = form->findChildren<QWidget*>();
    for (QWidget* w : inputs) {
        const QString key = keyOf(group, w);
        if (!remembers(w, form))
            continue;
        if (settings.contains(key))
            setValue(w, settings.value(key));
        w->setProperty(kBaseline, valueOf(w));
    }
}

void FormMemory::apply(const Snapshot& values)
{
    for (auto it = values.begin(); it != values.end(); ++it)
        setValue(const_cast<QWidget*>(it.key()), it.value()); // the snapshot's own inputs, taken from this form
}
