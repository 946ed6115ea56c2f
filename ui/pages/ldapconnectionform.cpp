#include "ui/pages/ldapconnectionform.h"

#include "ui/pages/ldapprofilebar.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace { } // namespace

LdapConnectionForm::LdapConnectionForm(QWidget* parent)
    : QWidget(parent)
    , m_uriEdit(new QLineEdit(this))
    , m_startTlsCheck(new QCheckBox(tr("upgrade ldap:// with StartTLS"), this))
    , m_authCombo(new QComboBox(this))
    , m_bindDnEdit(new QLineEdit(this))
    , m_passwordEdit(new QLineEdit(this))
    , m_insecureCheck(new QCheckBox(tr("Trust anyway (insecure)"), this))
    , m_insecureWarning(new QLabel(this))
    , m_networkTimeoutSpin(new QDoubleSpinBox(this))
    , m_opTimeoutSpin(new QDoubleSpinBox(this))
    , m_sourceEdit(new QLineEdit(this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &LdapConnectionForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return (ownsField(field) ? m_fields.value(field) : nullptr); })
{
    m_profileBar = new LdapProfileBar(
        [this] {
            LdapTarget t;
            readTarget(&t);
            t.bindDn = m_bindDnEdit->text().trimmed(); // kept even while another authentication is chosen
            return t;
        },
        this);
    m_profileBar->setObjectName(QStringLiteral("profileBar"));
    m_profileBar->setProperty("formMemory", false); // the profiles have their own store (FormMemory)

    m_uriEdit->setObjectName(QStringLiteral("uriEdit"));
    m_uriEdit->setPlaceholderText(QStringLiteral("ldap://host:389"));
    m_uriEdit->setToolTip(tr("ldap://host[:port], ldaps://host[:port] or ldapi://%2Fpath"));
    m_startTlsCheck->setObjectName(QStringLiteral("startTlsCheck"));
    m_authCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_authCombo->setMinimumContentsLength(8);
    m_authCombo->setObjectName(QStringLiteral("authCombo"));
    m_authCombo->addItem(tr("anonymous"), int(LdapTarget::Auth::Anonymous));
    m_authCombo->addItem(tr("simple bind (DN + password)"), int(LdapTarget::Auth::Simple));
    m_authCombo->addItem(tr("SASL EXTERNAL (ldapi:// or client certificate)"), int(LdapTarget::Auth::SaslExternal));
    m_bindDnEdit->setObjectName(QStringLiteral("bindDnEdit"));
    m_bindDnEdit->setPlaceholderText(QStringLiteral("cn=admin,dc=example,dc=com"));
    m_passwordEdit->setObjectName(QStringLiteral("passwordEdit"));
    m_passwordEdit->setEchoMode(QLineEdit::Password);
    m_passwordEdit->setToolTip(tr("Kept in memory only"));
    m_insecureCheck->setObjectName(QStringLiteral("insecureCheck"));
    m_insecureCheck->setProperty("formMemory", false); // trusting any certificate is chosen anew each session
    m_insecureCheck->setToolTip(tr("Do not check the server's certificate; every record of the run says so"));
    m_insecureWarning->setObjectName(QStringLiteral("insecureWarning"));
    m_insecureWarning->setWordWrap(true);
    m_insecureWarning->setText(tr("⚠ The server's certificate is not checked: anyone in the path can read the "
                                  "password and the traffic. Use only on a test network."));
    NoteStyle::applyBox(m_insecureWarning, NoteStyle::dangerBox);
    m_insecureWarning->hide();
    for (QDoubleSpinBox* s : { m_networkTimeoutSpin, m_opTimeoutSpin }) {
        s->setRange(0.1, 3600);
        s->setDecimals(1);
        s->setSuffix(tr(" s"));
    }
    m_networkTimeoutSpin->setObjectName(QStringLiteral("networkTimeoutSpin"));
    m_networkTimeoutSpin->setValue(LdapTarget().networkTimeoutMs / 1000.0);
    m_networkTimeoutSpin->setToolTip(tr("Seconds to wait for a connection"));
    m_opTimeoutSpin->setObjectName(QStringLiteral("opTimeoutSpin"));
    m_opTimeoutSpin->setValue(LdapTarget().opTimeoutMs / 1000.0);
    m_opTimeoutSpin->setToolTip(tr("Seconds to wait for each operation; late ones are abandoned"));
    m_sourceEdit->setObjectName(QStringLiteral("sourceAddressEdit"));
    m_sourceEdit->setPlaceholderText(tr("any (the system's choice)"));
    m_sourceEdit->setToolTip(tr("Bind the client sockets to these local addresses, round robin per connection "
                                "(e.g. 127.0.0.1,127.0.0.2): more connections than one address's ports allow"));
    m_errorLabel->setObjectName(QStringLiteral("connectionErrorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();

    QLayout* caRow = nullptr;
    QLayout* certRow = nullptr;
    QLayout* keyRow = nullptr;
    m_caFileEdit = fileRow(QStringLiteral("caFileEdit"), tr("CA certificates (PEM); empty: the system's"), &caRow);
    m_certEdit = fileRow(QStringLiteral("certEdit"), tr("Client certificate (PEM), with its key"), &certRow);
    m_keyEdit = fileRow(QStringLiteral("keyEdit"), tr("Client key (PEM)"), &keyRow);

    m_fields = { { QStringLiteral("uri"), m_uriEdit }, { QStringLiteral("starttls"), m_startTlsCheck },
        { QStringLiteral("sasl"), m_authCombo }, { QStringLiteral("bind-dn"), m_bindDnEdit },
        { QStringLiteral("password-file"), m_passwordEdit }, { QStringLiteral("ca-file"), m_caFileEdit },
        { QStringLiteral("cert"), m_certEdit }, { QStringLiteral("key"), m_keyEdit },
        { QStringLiteral("timeout"), m_networkTimeoutSpin }, { QStringLiteral("source-address"), m_sourceEdit } };
    // Each input names the command-line option it sets.
    const QList<std::pair<QWidget*, const char*>> options { { m_uriEdit, "uri" }, { m_startTlsCheck, "starttls" },
        { m_authCombo, "sasl" }, { m_bindDnEdit, "bind-dn" }, { m_passwordEdit, "password-file" },
        { m_caFileEdit, "ca-file" }, { m_certEdit, "cert" }, { m_keyEdit, "key" }, { m_insecureCheck, "insecure" },
        { m_networkTimeoutSpin, "network-timeout" }, { m_opTimeoutSpin, "op-timeout" },
        { m_sourceEdit, "source-address" } };
    for (const auto& [w, option] : options)
        w->setProperty("cliOption", QLatin1String(option));

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(m_profileBar); // the whole width: a name, Save, Delete and the keyring choice
    form->addRow(fieldLabel(QStringLiteral("uri")), m_uriEdit);
    form->addRow(QString(), m_startTlsCheck);
    form->addRow(fieldLabel(QStringLiteral("sasl")), m_authCombo);
    form->addRow(fieldLabel(QStringLiteral("bind-dn")), m_bindDnEdit);
    form->addRow(fieldLabel(QStringLiteral("password-file")), m_passwordEdit);
    form->addRow(fieldLabel(QStringLiteral("ca-file")), caRow);
    form->addRow(fieldLabel(QStringLiteral("cert")), certRow);
    form->addRow(fieldLabel(QStringLiteral("key")), keyRow);
    form->addRow(QString(), m_insecureCheck);
    form->addRow(QString(), m_insecureWarning);
    form->addRow(tr("Connect timeout"), m_networkTimeoutSpin);
    form->addRow(tr("Op timeout"), m_opTimeoutSpin);
    form->addRow(tr("Source addresses"), m_sourceEdit);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);

    m_inputs = { m_profileBar, m_uriEdit, m_startTlsCheck, m_authCombo, m_bindDnEdit, m_passwordEdit, m_caFileEdit,
        m_certEdit, m_keyEdit, m_insecureCheck, m_networkTimeoutSpin, m_opTimeoutSpin, m_sourceEdit };
    for (QLineEdit* e : { m_uriEdit, m_bindDnEdit, m_passwordEdit, m_caFileEdit, m_certEdit, m_keyEdit, m_sourceEdit })
        connect(e, &QLineEdit::textEdited, this, [this] {
            clearError();
            emit edited();
        });
    connect(m_authCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateAuth();
        clearError();
    });
    connect(m_startTlsCheck, &QCheckBox::toggled, this, &LdapConnectionForm::clearError);
    connect(m_insecureCheck, &QCheckBox::toggled, m_insecureWarning, &QWidget::setVisible);
    connect(m_profileBar, &LdapProfileBar::profileLoaded, this, &LdapConnectionForm::setTarget);
    connect(m_profileBar, &LdapProfileBar::passwordFromKeyring, this, &LdapConnectionForm::setPassword);

    m_authCombo->setCurrentIndex(0);
    updateAuth();
}

QLineEdit* LdapConnectionForm::fileRow(const QString& objectName, const QString& tip, QLayout** row)
{
    auto* edit = new QLineEdit(this);
    edit->setObjectName(objectName);
    edit->setToolTip(tip);
    auto* browse = new QPushButton(tr("…"), this);
    browse->setObjectName(objectName + QStringLiteral("Browse"));
    browse->setFixedWidth(32);
    browse->setToolTip(tr("Choose a file"));
    connect(browse, &QPushButton::clicked, this, [this, edit, tip] { browseInto(edit, tip); });
    auto* h = new QHBoxLayout;
    h->addWidget(edit, 1);
    h->addWidget(browse);
    *row = h;
    return edit;
}

void LdapConnectionForm::browseInto(QLineEdit* edit, const QString& caption)
{
    // Non-modal: the dialog deletes itself; the page keeps running while it is open.
    auto* dialog = new QFileDialog(this, caption, edit->text());
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setFileMode(QFileDialog::ExistingFile);
    connect(dialog, &QFileDialog::fileSelected, edit, [this, edit](const QString& file) {
        edit->setText(file);
        clearError();
    });
    dialog->open();
}

QString LdapConnectionForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = { { QStringLiteral("uri"), tr("Server URI") },
        { QStringLiteral("starttls"), tr("StartTLS") }, { QStringLiteral("sasl"), tr("Authentication") },
        { QStringLiteral("bind-dn"), tr("Bind DN") }, { QStringLiteral("password-file"), tr("Password") },
        { QStringLiteral("ca-file"), tr("CA file") }, { QStringLiteral("cert"), tr("Client cert") },
        { QStringLiteral("key"), tr("Client key") }, { QStringLiteral("timeout"), tr("Timeouts") },
        { QStringLiteral("insecure"), tr("Trust anyway (insecure)") },
        { QStringLiteral("source-address"), tr("Source addresses") } };
    return labels.value(field, field);
}

bool LdapConnectionForm::ownsField(const QString& field)
{
    static const QStringList fields = { QStringLiteral("uri"), QStringLiteral("starttls"), QStringLiteral("sasl"),
        QStringLiteral("bind-dn"), QStringLiteral("password-file"), QStringLiteral("ca-file"), QStringLiteral("cert"),
        QStringLiteral("key"), QStringLiteral("timeout"), QStringLiteral("source-address") };
    return fields.contains(field);
}

void LdapConnectionForm::updateAuth()
{
    const auto auth = LdapTarget::Auth(m_authCombo->currentData().toInt());
    const bool enabled = m_uriEdit->isEnabled();
    m_bindDnEdit->setEnabled(enabled && auth == LdapTarget::Auth::Simple);
}

void LdapConnectionForm::readTarget(LdapTarget* target) const
{
    LdapTarget t;
    t.uri = m_uriEdit->text().trimmed();
    t.startTls = m_startTlsCheck->isChecked();
    t.auth = LdapTarget::Auth(m_authCombo->currentData().toInt());
    if (t.auth == LdapTarget::Auth::Simple)
        t.bindDn = m_bindDnEdit->text().trimmed();
    t.password = m_passwordEdit->text().toUtf8();
    t.caFile = m_caFileEdit->text().trimmed();
    t.certFile = m_certEdit->text().trimmed();
    t.keyFile = m_keyEdit->text().trimmed();
    t.insecure = m_insecureCheck->isChecked();
    t.networkTimeoutMs = int(m_networkTimeoutSpin->value() * 1000);
    t.opTimeoutMs = int(m_opTimeoutSpin->value() * 1000);
    const QStringList sources = m_sourceEdit->text().split(u',', Qt::SkipEmptyParts);
    for (const QString& a : sources)
        t.sourceAddresses << a.trimmed();
    *target = t;
}

void LdapConnectionForm::setTarget(const LdapTarget& t)
{
    m_uriEdit->setText(t.uri);
    m_uriEdit->setCursorPosition(0);
    m_startTlsCheck->setChecked(t.startTls);
    m_authCombo->setCurrentIndex(m_authCombo->findData(int(t.auth)));
    m_bindDnEdit->setText(t.bindDn);
    m_bindDnEdit->setCursorPosition(0);
    m_passwordEdit->setText(QString::fromUtf8(t.password));
    m_caFileEdit->setText(t.caFile);
    m_certEdit->setText(t.certFile);
    m_keyEdit->setText(t.keyFile);
    m_insecureCheck->setChecked(t.insecure);
    m_networkTimeoutSpin->setValue(t.networkTimeoutMs / 1000.0);
    m_opTimeoutSpin->setValue(t.opTimeoutMs / 1000.0);
    m_sourceEdit->setText(t.sourceAddresses.join(u','));
    updateAuth();
    clearError();
}

void LdapConnectionForm::setUri(const QString& uri)
{
    m_uriEdit->setText(uri);
    clearError();
}

QString LdapConnectionForm::uri() const
{
    return m_uriEdit->text().trimmed();
}

void LdapConnectionForm::setPassword(const QByteArray& password)
{
    m_passwordEdit->setText(QString::fromUtf8(password));
}

void LdapConnectionForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void LdapConnectionForm::clearError()
{
    m_error.clear();
}

QString LdapConnectionForm::errorText() const
{
    return m_error.text();
}

void LdapConnectionForm::setInputsEnabled(bool enabled)
{
    for (QWidget* w : std::as_const(m_inputs))
        w->setEnabled(enabled);
    updateAuth();
}
