#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

class LdapProfileBar;
class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;

// Where and how to connect: URI, StartTLS, authentication, bind DN, password (memory only), CA file, client
// certificate and key, "trust anyway" (with a visible warning), timeouts; above them the profile bar. Field names
// in errors are LdapTarget::validate()'s: uri, starttls, bind-dn, password-file, ca-file, cert, key, sasl, timeout.
class LdapConnectionForm final : public QWidget
{
    Q_OBJECT
public:
    explicit LdapConnectionForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapConnectionForm)

    // Fills *target from the form (does not call validate()).
    void readTarget(LdapTarget* target) const;
    void setTarget(const LdapTarget& target); // the password too (memory only)
    void setUri(const QString& uri);
    QString uri() const;
    void setPassword(const QByteArray& password);

    static bool ownsField(const QString& field);
    static QString fieldLabel(const QString& field);
    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

    LdapProfileBar* profileBar() const { return m_profileBar; }

signals:
    void edited();

private:
    QLineEdit* fileRow(const QString& objectName, const QString& tip, QLayout** row);
    void browseInto(QLineEdit* edit, const QString& caption);
    void updateAuth();

    LdapProfileBar* m_profileBar = nullptr;
    QLineEdit* m_uriEdit = nullptr;
    QCheckBox* m_startTlsCheck = nullptr;
    QComboBox* m_authCombo = nullptr;
    QLineEdit* m_bindDnEdit = nullptr;
    QLineEdit* m_passwordEdit = nullptr;
    QLineEdit* m_caFileEdit = nullptr;
    QLineEdit* m_certEdit = nullptr;
    QLineEdit* m_keyEdit = nullptr;
    QCheckBox* m_insecureCheck = nullptr;
    QLabel* m_insecureWarning = nullptr;
    QDoubleSpinBox* m_networkTimeoutSpin = nullptr;
    QDoubleSpinBox* m_opTimeoutSpin = nullptr;
    QLineEdit* m_sourceEdit = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QWidget*> m_fields;
    QList<QWidget*> m_inputs;
};
