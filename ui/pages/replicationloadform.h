#pragma once

#include "core/common/proberror.h"
#include "core/ldap/loadspec.h"

#include <QHash>
#include <QWidget>

#include <optional>

class QComboBox;
class QGroupBox;
class QLineEdit;
class QSpinBox;
class LoadLimitsBox;
class QDoubleSpinBox;
struct SandboxInfo;

// The write load beside the replication markers (`replication --mix …`): a checkable box with the options of
// `ldap mixed` a write load needs — the mix (it must write: a modify or an adddel), the entries it modifies (DN
// pattern, attribute, value pattern), the parent of the entries an adddel adds, threads, connections, the rate
// or a ramp (rate:20,40,80@5: the lag is read per step and the knee found), the warm-up; and under "Advanced" the
// other options of `ldap mixed` (a search's base, filter, scope, attributes and size limit, the bind mode, the key
// distribution, operations in flight, the success codes, coalesced reads, the server's counters, the interval,
// the failure window, the error limit). Each input is named by
// the CLI option it sets (objectName and the property "cliOption"); the rate is disabled with the reason while a
// ramp is given, and the DN inputs while the mix does not use them.
class ReplicationLoadForm final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplicationLoadForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplicationLoadForm)

    bool isOn() const;
    void setOn(bool on);
    // The load (its target and timing are the probe's: ReplicationLoad::attach); nullopt when the box is off.
    // An input that cannot be read (the ok codes) sets *error, naming its option.
    std::optional<LdapLoadSpec> readLoad(ProbeError* error) const;
    void fillFrom(const SandboxInfo& info);
    void setText(const QString& option, const QString& text); // mix, dn, attr, value, parent, ramp
    void setNumber(const QString& option, double value); // threads, connections, rate, warmup
    QWidget* field(const QString& option) const;
    static bool ownsField(const QString& option);
    static QString fieldLabel(const QString& option);
    void setInputsEnabled(bool enabled);

signals:
    void edited();

private:
    QWidget* buildAdvanced();
    QLineEdit* line(const QString& option, const QString& placeholder, const QString& tip);
    QSpinBox* count(const QString& option, int value, const QString& tip);
    void name(QWidget* w, const QString& option);
    void updateApplicable();
    QString text(const QString& option) const;
    double numberOf(const QString& option) const; // a spin box's value

    QGroupBox* m_box = nullptr;
    QDoubleSpinBox* m_rate = nullptr;
    QDoubleSpinBox* m_warmup = nullptr;
    QComboBox* m_scope = nullptr;
    QComboBox* m_mode = nullptr;
    LoadLimitsBox* m_limits = nullptr; // size limit, success codes, error limit, coalesced reads, server counters
    QHash<QString, QWidget*> m_fields;
    QHash<QString, QString> m_tips;
    bool m_inputsOn = true;
};
