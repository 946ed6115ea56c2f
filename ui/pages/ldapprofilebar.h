#pragma once

#include "core/ldap/ldaptarget.h"

#include <QWidget>

#include <functional>

class Keyring;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
struct ConnectionProfile;

// Named connection profiles: pick one to load it, type a name and Save, Delete. A profile is saved in QSettings
// without the password; with "remember" ticked the password goes to the OS keyring (QtKeychain, never its
// plaintext fallback). When the keyring is unavailable the bar says so and the user goes on typing the password.
class LdapProfileBar final : public QWidget
{
    Q_OBJECT
public:
    // target(): the form's current connection, password included (memory only).
    explicit LdapProfileBar(std::function<LdapTarget()> target, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LdapProfileBar)

    void setProfileName(const QString& name);
    QString profileName() const;
    void setRememberPassword(bool remember);
    void save();
    void load(const QString& name);
    void remove();
    QString message() const;
    void setInputsEnabled(bool enabled);

signals:
    void profileLoaded(const LdapTarget& target); // without the password
    void passwordFromKeyring(const QByteArray& password);
    // The keyring answered a store/read/remove: ok, or the sentence shown to the user.
    void keyringAnswered(bool ok, const QString& message);

private:
    void refresh(const QString& select);
    void showMessage(const QString& text, bool error);

    std::function<LdapTarget()> m_target;
    QComboBox* m_combo = nullptr;
    QPushButton* m_saveButton = nullptr;
    QPushButton* m_deleteButton = nullptr;
    QCheckBox* m_rememberCheck = nullptr;
    QLabel* m_label = nullptr;
    Keyring* m_keyring = nullptr;
};
