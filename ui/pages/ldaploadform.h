#pragma once

#include "core/common/proberror.h"
#include "core/ldap/loadspec.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class LoadLimitsBox;

// What an LDAP load does: the operation (or a mix), its templates, the access distribution, the concurrency, the
// rate and the timing. It reads itself into an LdapLoadSpec (fields the operation does not use are left at their
// defaults and disabled) and shows an error next to the field it names. Field names are the CLI's option names,
// as CompiledLoad::compile names them: mix, base, scope, filter, attrs, dn, attr, value, mode, parent, access,
// threads, connections, outstanding, rate, ramp, warmup, duration, interval, fail-after; and server-log (the
// target's access log, read after the load: not part of the spec, see LdapPage). Under "Advanced" (LoadLimitsBox):
// size-limit, ok-codes, max-errors, coalesce-reads, no-server-counters, interval-histograms. Each input names the
// option it sets (property "cliOption").
class LdapLoadForm final : public QWidget
{
    Q_OBJECT
public:
    explicit LdapLoadForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapLoadForm)

    // Fills *spec (all but the target) from the form; an error naming the field when a text cannot be read
    // (the mix) or is missing (the filter of a search load). Does not call CompiledLoad::compile().
    ProbeError readSpec(LdapLoadSpec* spec) const;

    // "search", "bind", "modify", "compare", "adddel" or "mixed".
    void setOperation(const QString& op);
    QString operation() const;
    // Text fields by name: mix, base, filter, attrs, dn, attr, value, parent, access, ramp, server-log.
    void setText(const QString& field, const QString& text);
    QString text(const QString& field) const;
    // Number fields by name: threads, connections, outstanding, rate, warmup, duration, interval, fail-after.
    void setNumber(const QString& field, double value);
    double number(const QString& field) const;
    void setScope(LdapSession::Scope scope);
    void setBindNewConnection(bool newConnection);

    bool uses(const QString& field) const; // does the current operation take this field?
    static QString fieldLabel(const QString& field);
    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

signals:
    void edited();

private:
    QLineEdit* addEdit(const QString& field, const QString& objectName, const QString& tip);
    QDoubleSpinBox* addSeconds(const QString& field, const QString& objectName, double min, double max);
    QSpinBox* addCount(const QString& field, const QString& objectName, int value);
    void updateForOperation();
    QWidget* fieldWidget(const QString& field) const; // the form's or the Advanced box's

    QComboBox* m_opCombo = nullptr;
    QComboBox* m_scopeCombo = nullptr;
    QComboBox* m_modeCombo = nullptr;
    QComboBox* m_accessCombo = nullptr;
    QDoubleSpinBox* m_rateSpin = nullptr;
    QLineEdit* m_mixEdit = nullptr;
    QLineEdit* m_rampEdit = nullptr;
    QLineEdit* m_valueEdit = nullptr;
    LoadLimitsBox* m_limits = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QLineEdit*> m_edits;
    QHash<QString, QDoubleSpinBox*> m_seconds;
    QHash<QString, QSpinBox*> m_counts;
    QHash<QString, QWidget*> m_fields;
    bool m_inputsEnabled = true;
};
