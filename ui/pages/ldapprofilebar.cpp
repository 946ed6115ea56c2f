#include "ui/pages/ldapprofilebar.h"

#include "ui/models/connectionprofiles.h"
#include "ui/models/keyring.h"
#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPalette>
#include <QPushButton>

LdapProfileBar::LdapProfileBar(std::function<LdapTarget()> target, QWidget* parent)
    : QWidget(parent)
    , m_target(std::move(target))
    , m_combo(new QComboBox(this))
    , m_saveButton(new QPushButton(tr("Save"), this))
    , m_deleteButton(new QPushButton(tr("Delete"), this))
    , m_rememberCheck(new QCheckBox(tr("Remember the password in the OS keyring"), this))
    , m_label(new QLabel(this))
    , m_keyring(new Keyring(this))
{
    m_combo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_combo->setMinimumContentsLength(8);
    m_combo->setObjectName(QStringLiteral("profileCombo"));
    m_combo->setEditable(true);
    m_combo->setInsertPolicy(QComboBox::NoInsert);
    m_combo->lineEdit()->setPlaceholderText(tr("profile name"));
    m_combo->setToolTip(tr("Pick a saved connection, or type a name and press Save"));
    m_saveButton->setObjectName(QStringLiteral("saveProfileButton"));
    m_saveButton->setToolTip(tr("Save this connection under the name (never the password itself)"));
    m_deleteButton->setObjectName(QStringLiteral("deleteProfileButton"));
    m_rememberCheck->setObjectName(QStringLiteral("rememberPasswordCheck"));
    m_rememberCheck->setToolTip(tr("Keep the password in the OS keyring (Secret Service); it is never written to "
                                   "DirBench's settings"));
    m_label->setObjectName(QStringLiteral("profileLabel"));
    m_label->setWordWrap(true);
    m_label->hide();

    auto* grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->addWidget(new QLabel(tr("Profile"), this), 0, 0);
    grid->addWidget(m_combo, 0, 1);
    grid->addWidget(m_saveButton, 0, 2);
    grid->addWidget(m_deleteButton, 0, 3);
    grid->addWidget(m_rememberCheck, 1, 1, 1, 3);
    grid->addWidget(m_label, 2, 1, 1, 3);
    grid->setColumnStretch(1, 1);

    connect(m_saveButton, &QPushButton::clicked, this, &LdapProfileBar::save);
    connect(m_deleteButton, &QPushButton::clicked, this, &LdapProfileBar::remove);
    connect(m_combo, &QComboBox::activated, this, [this](int index) { load(m_combo->itemText(index)); });
    connect(m_keyring, &Keyring::stored, this, [this] {
        showMessage(tr("Password saved in the OS keyring."), false);
        emit keyringAnswered(true, message());
    });
    connect(m_keyring, &Keyring::readDone, this, [this](const QString&, const QByteArray& secret) {
        emit passwordFromKeyring(secret);
        showMessage(tr("Password taken from the OS keyring."), false);
        emit keyringAnswered(true, message());
    });
    connect(m_keyring, &Keyring::removed, this, [this] { emit keyringAnswered(true, QString()); });
    connect(m_keyring, &Keyring::failed, this, [this](const QString&, const QString& why, bool) {
        showMessage(tr("Keyring: %1. Going on without it: type the password.").arg(why), true);
        emit keyringAnswered(false, message());
    });
    refresh(QString());
}

void LdapProfileBar::setProfileName(const QString& name)
{
    m_combo->setCurrentText(name);
}

QString LdapProfileBar::profileName() const
{
    return m_combo->currentText().trimmed();
}

void LdapProfileBar::setRememberPassword(bool remember)
{
    m_rememberCheck->setChecked(remember);
}

void LdapProfileBar::save()
{
    ConnectionProfile p;
    p.name = profileName();
    if (p.name.isEmpty()) {
        showMessage(tr("Type a name for the profile first."), true);
        return;
    }
    p.target = m_target();
    const QByteArray password = p.target.password;
    p.target.password.clear(); // never in QSettings
    p.rememberPassword = m_rememberCheck->isChecked();
    const std::optional<ConnectionProfile> before = ConnectionProfiles::load(p.name);
    ConnectionProfiles::save(p);
    refresh(p.name);
    showMessage(tr("Profile \"%1\" saved (without the password).").arg(p.name), false);
    if (p.rememberPassword && !password.isEmpty())
        m_keyring->store(p.keyringKey(), password);
    else if (!p.rememberPassword && before && before->rememberPassword)
        m_keyring->remove(p.keyringKey());
}

void LdapProfileBar::load(const QString& name)
{
    const std::optional<ConnectionProfile> p = ConnectionProfiles::load(name);
    if (!p)
        return;
    m_rememberCheck->setChecked(p->rememberPassword);
    m_combo->setCurrentText(p->name);
    emit profileLoaded(p->target);
    showMessage(tr("Profile \"%1\" loaded.").arg(p->name), false);
    if (p->rememberPassword)
        m_keyring->read(p->keyringKey());
}

void LdapProfileBar::remove()
{
    const QString name = profileName();
    const std::optional<ConnectionProfile> p = ConnectionProfiles::load(name);
    if (!p) {
        showMessage(tr("No saved profile is called \"%1\".").arg(name), true);
        return;
    }
    ConnectionProfiles::remove(name);
    if (p->rememberPassword)
        m_keyring->remove(p->keyringKey());
    refresh(QString());
    showMessage(tr("Profile \"%1\" deleted.").arg(name), false);
}

QString LdapProfileBar::message() const
{
    return m_label->text();
}

void LdapProfileBar::setInputsEnabled(bool enabled)
{
    for (QWidget* w : std::initializer_list<QWidget*> { m_combo, m_saveButton, m_deleteButton, m_rememberCheck })
        w->setEnabled(enabled);
}

void LdapProfileBar::refresh(const QString& select)
{
    m_combo->clear();
    m_combo->addItems(ConnectionProfiles::names());
    m_combo->setCurrentText(select);
}

void LdapProfileBar::showMessage(const QString& text, bool error)
{
    m_label->setText(text);
    const QPalette p = QApplication::palette();
    m_label->setStyleSheet(
        QStringLiteral("color: %1;").arg((error ? NoteStyle::errorColour(p) : NoteStyle::colour(p)).name()));
    m_label->show();
}
