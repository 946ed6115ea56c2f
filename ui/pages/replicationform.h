#pragma once

#include "core/common/proberror.h"
#include "core/experiments/replication.h"
#include "ui/widgets/formerror.h"

#include <QWidget>

class LdapConnectionForm;
class QComboBox;
class QDoubleSpinBox;
class ReplicationLoadForm;
class QLabel;
class QLineEdit;
class QSpinBox;
struct SandboxInfo;

// What the Replication page measures (issue 13's marker probe): the supplier's connection (the LDAP page's
// connection form: URI, TLS, bind; the same options read every consumer), the consumers' URIs, the marker entry,
// markers per second, seconds, how consumers are watched (auto, push, poll) and the poll interval, the p99 lag a
// consumer may have, the consumers' own bind, and a write load beside the markers (ReplicationLoadForm). Errors name
// the field as the CLI names it: uri, consumer, consumer-bind-dn, marker-dn, marker-rate, duration, watch, poll-ms,
// max-lag-ms, and the write load's mix, dn, ramp, ...
class ReplicationForm final : public QWidget
{
    Q_OBJECT
public:
    explicit ReplicationForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplicationForm)

    // Fills *spec from the form; check() validates it (it reads the connection's CA and key files: off the GUI
    // thread, as the LDAP page does).
    // An input that cannot be read (the write load's ok codes) is the error, naming its option.
    ProbeError readSpec(ReplicationSpec* spec) const;
    static ProbeError check(const ReplicationSpec& spec);
    // The demo directory's servers: the first is the supplier, its consumers the consumers; the marker under its base.
    void fillFrom(const SandboxInfo& info, const QByteArray& password);

    LdapConnectionForm* connection() const { return m_connection; }
    void setConsumers(const QStringList& uris);
    QStringList consumers() const;
    void setMarkerDn(const QString& dn);
    void setRate(double perS);
    void setDuration(double seconds);
    void setPollMs(int ms);
    void setMaxLagMs(double ms);
    void setWatch(const QString& watch); // auto, push, poll
    // The consumers' own bind (--consumer-bind-dn and its password); an empty DN: as the supplier binds.
    void setConsumerBind(const QString& dn, const QByteArray& password);
    ReplicationLoadForm* loadForm() const { return m_load; }

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_errorField; }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

private:
    QWidget* fieldWidget(const QString& field) const;
    static QString fieldLabel(const QString& field);

    LdapConnectionForm* m_connection = nullptr;
    QLineEdit* m_consumersEdit = nullptr;
    QLineEdit* m_markerEdit = nullptr;
    QDoubleSpinBox* m_rateSpin = nullptr;
    QDoubleSpinBox* m_durationSpin = nullptr;
    QSpinBox* m_pollSpin = nullptr;
    QDoubleSpinBox* m_maxLagSpin = nullptr;
    QComboBox* m_watchCombo = nullptr;
    QLineEdit* m_consumerDnEdit = nullptr;
    QLineEdit* m_consumerPasswordEdit = nullptr;
    ReplicationLoadForm* m_load = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QString m_errorField;
};
