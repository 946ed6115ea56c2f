#include "ui/pages/replicationform.h"

#include "core/experiments/replicationload.h"
#include "core/sandbox/sandboxinfo.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/replicationloadform.h"
#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

QDoubleSpinBox* spin(QWidget* parent, const QString& name, double lo, double hi, double value, const QString& suffix)
{
    auto* s = new QDoubleSpinBox(parent);
    s->setObjectName(name);
    s->setRange(lo, hi);
    s->setDecimals(lo < 1 ? 1 : 0);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setGroupSeparatorShown(true);
    return s;
}

} // namespace

ReplicationForm::ReplicationForm(QWidget* parent)
    : QWidget(parent)
    , m_connection(new LdapConnectionForm(this))
    , m_consumersEdit(new QLineEdit(this))
    , m_markerEdit(new QLineEdit(this))
    , m_rateSpin(spin(this, QStringLiteral("markerRateSpin"), 0.1, 1000, 10, tr(" /s")))
    , m_durationSpin(spin(this, QStringLiteral("durationSpin"), 1, 86400, 30, tr(" s")))
    , m_pollSpin(new QSpinBox(this))
    , m_maxLagSpin(spin(this, QStringLiteral("maxLagSpin"), 0, 1e9, 1000, tr(" ms")))
    , m_watchCombo(new QComboBox(this))
    , m_consumerDnEdit(new QLineEdit(this))
    , m_consumerPasswordEdit(new QLineEdit(this))
    , m_load(new ReplicationLoadForm(this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &ReplicationForm::fieldLabel, [this](const QString& field) { return fieldWidget(field); })
{
    m_connection->setObjectName(QStringLiteral("replicationConnection"));
    m_watchCombo->setObjectName(QStringLiteral("watchCombo"));
    m_watchCombo->setProperty("cliOption", QStringLiteral("watch"));
    m_watchCombo->addItem(tr("auto (push where offered)"), QStringLiteral("auto"));
    m_watchCombo->addItem(tr("push"), QStringLiteral("push"));
    m_watchCombo->addItem(tr("poll"), QStringLiteral("poll"));
    m_watchCombo->setToolTip(tr("How each consumer is watched for the marker: pushed to DirBench (RFC 4533 sync or a "
                                "persistent search) where the consumer offers it, else read every poll interval; "
                                "push refuses a consumer that offers neither"));
    m_consumerDnEdit->setObjectName(QStringLiteral("consumerBindDnEdit"));
    m_consumerDnEdit->setProperty("cliOption", QStringLiteral("consumer-bind-dn"));
    m_consumerDnEdit->setPlaceholderText(tr("as the supplier binds"));
    m_consumerDnEdit->setToolTip(tr("The DN the consumers are read as, when it is not the supplier's"));
    m_consumerPasswordEdit->setObjectName(QStringLiteral("consumerPasswordEdit"));
    m_consumerPasswordEdit->setProperty("cliOption", QStringLiteral("consumer-password-file"));
    m_consumerPasswordEdit->setEchoMode(QLineEdit::Password);
    m_consumerPasswordEdit->setToolTip(tr("The consumers' bind password (kept in memory only, never saved)"));
    m_consumersEdit->setObjectName(QStringLiteral("consumersEdit"));
    m_consumersEdit->setPlaceholderText(QStringLiteral("ldap://host2:389, ldap://host3:389"));
    m_consumersEdit->setToolTip(tr("The servers that replicate from the supplier, separated by commas or spaces; "
                                   "each is read with the supplier's connection options"));
    m_markerEdit->setObjectName(QStringLiteral("markerDnEdit"));
    m_markerEdit->setPlaceholderText(QStringLiteral("cn=dirbench-marker,dc=example,dc=com"));
    m_markerEdit->setToolTip(tr("Made an organizationalRole when it does not exist and removed at the end; an "
                                "existing entry gets its description values back"));
    m_rateSpin->setToolTip(tr("Markers written per second on the supplier (the probe's own load)"));
    m_pollSpin->setObjectName(QStringLiteral("pollMsSpin"));
    m_pollSpin->setRange(1, 60000);
    m_pollSpin->setValue(5);
    m_pollSpin->setSuffix(tr(" ms"));
    m_pollSpin->setToolTip(tr("Each consumer is read (base scope) this often when it does not push the marker"));
    m_maxLagSpin->setSpecialValueText(tr("no verdict"));
    m_maxLagSpin->setToolTip(tr("A verdict per consumer: its p99 lag at most this (0: no verdict)"));
    const QList<std::pair<QWidget*, const char*>> options { { m_consumersEdit, "consumer" },
        { m_markerEdit, "marker-dn" }, { m_rateSpin, "marker-rate" }, { m_durationSpin, "duration" },
        { m_pollSpin, "poll-ms" }, { m_maxLagSpin, "max-lag-ms" } };
    for (const auto& [w, option] : options)
        w->setProperty("cliOption", QLatin1String(option)); // each input names the command-line option it sets
    m_errorLabel->setObjectName(QStringLiteral("replicationErrorLabel"));
    NoteStyle::applyError(m_errorLabel, false);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->hide();

    auto* supplier = new QGroupBox(tr("Supplier (written to); its options read every consumer"), this);
    auto* supplierLayout = new QVBoxLayout(supplier);
    supplierLayout->addWidget(m_connection);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Consumers"), m_consumersEdit);
    form->addRow(tr("Marker DN"), m_markerEdit);
    form->addRow(tr("Marker rate"), m_rateSpin);
    form->addRow(tr("Duration"), m_durationSpin);
    form->addRow(tr("Watch"), m_watchCombo);
    form->addRow(tr("Poll every"), m_pollSpin);
    form->addRow(tr("Max p99 lag"), m_maxLagSpin);
    form->addRow(tr("Consumers bind as"), m_consumerDnEdit);
    form->addRow(tr("Their password"), m_consumerPasswordEdit);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(supplier);
    layout->addLayout(form);
    layout->addWidget(m_load);
    layout->addWidget(m_errorLabel);
    for (QLineEdit* e : { m_consumersEdit, m_markerEdit, m_consumerDnEdit, m_consumerPasswordEdit })
        connect(e, &QLineEdit::textEdited, this, &ReplicationForm::clearError);
    connect(m_load, &ReplicationLoadForm::edited, this, &ReplicationForm::clearError);
    connect(m_watchCombo, &QComboBox::currentIndexChanged, this, [this] {
        const bool push = m_watchCombo->currentData().toString() == u"push";
        m_pollSpin->setEnabled(m_markerEdit->isEnabled() && !push);
        m_pollSpin->setToolTip(push
                ? tr("Applies when consumers are polled (watch auto or poll)")
                : tr("Each consumer is read (base scope) this often when it does not push the marker"));
    });
    connect(m_connection, &LdapConnectionForm::edited, this, &ReplicationForm::clearError);
}

void ReplicationForm::setConsumers(const QStringList& uris)
{
    m_consumersEdit->setText(uris.join(QStringLiteral(", ")));
}

QStringList ReplicationForm::consumers() const
{
    static const QRegularExpression separators(QStringLiteral("[,\\s]+"));
    return m_consumersEdit->text().split(separators, Qt::SkipEmptyParts);
}

void ReplicationForm::setMarkerDn(const QString& dn)
{
    m_markerEdit->setText(dn);
}

void ReplicationForm::setRate(double perS)
{
    m_rateSpin->setValue(perS);
}

void ReplicationForm::setDuration(double seconds)
{
    m_durationSpin->setValue(seconds);
}

void ReplicationForm::setPollMs(int ms)
{
    m_pollSpin->setValue(ms);
}

void ReplicationForm::setMaxLagMs(double ms)
{
    m_maxLagSpin->setValue(ms);
}

void ReplicationForm::setWatch(const QString& watch)
{
    m_watchCombo->setCurrentIndex(std::max(0, m_watchCombo->findData(watch)));
}

void ReplicationForm::setConsumerBind(const QString& dn, const QByteArray& password)
{
    m_consumerDnEdit->setText(dn);
    m_consumerPasswordEdit->setText(QString::fromUtf8(password));
}

ProbeError ReplicationForm::readSpec(ReplicationSpec* spec) const
{
    m_connection->readTarget(&spec->supplier);
    spec->consumerTemplate = spec->supplier;
    if (const QString dn = m_consumerDnEdit->text().trimmed(); !dn.isEmpty()) {
        spec->consumerTemplate.auth = LdapTarget::Auth::Simple;
        spec->consumerTemplate.bindDn = dn;
        spec->consumerTemplate.password = m_consumerPasswordEdit->text().toUtf8();
    }
    spec->consumers.clear();
    for (const QString& uri : consumers()) {
        LdapTarget c = spec->consumerTemplate;
        c.uri = uri;
        spec->consumers << c;
    }
    spec->markerDn = m_markerEdit->text().trimmed();
    spec->markerRate = m_rateSpin->value();
    spec->durationS = m_durationSpin->value();
    spec->pollMs = m_pollSpin->value();
    spec->maxLagMs = m_maxLagSpin->value();
    spec->watch = m_watchCombo->currentData().toString();
    spec->load.reset();
    ProbeError error;
    if (auto load = m_load->readLoad(&error)) {
        load->durationSec = spec->durationS;
        ReplicationLoad::attach(*spec, std::move(*load));
    }
    return error;
}

ProbeError ReplicationForm::check(const ReplicationSpec& spec)
{
    if (ProbeError e = spec.supplier.validate(); e.isError())
        return e;
    for (const LdapTarget& c : spec.consumers)
        if (const ProbeError e = c.validate(); e.isError())
            return ProbeError::invalid(QStringLiteral("consumer"), c.uri + u": " + e.detail);
    return spec.validate();
}

void ReplicationForm::fillFrom(const SandboxInfo& info, const QByteArray& password)
{
    LdapTarget t;
    t.uri = info.uri;
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    t.password = password; // memory only
    m_connection->setTarget(t);
    QStringList uris;
    for (const SandboxServer& s : info.replicas)
        uris << s.uri;
    setConsumers(uris);
    setMarkerDn(QStringLiteral("cn=dirbench-marker,") + info.base);
    m_load->fillFrom(info);
}

QWidget* ReplicationForm::fieldWidget(const QString& field) const
{
    if (field == u"consumer")
        return m_consumersEdit;
    if (field == u"marker-dn")
        return m_markerEdit;
    if (field == u"marker-rate")
        return m_rateSpin;
    if (field == u"duration")
        return m_durationSpin;
    if (field == u"poll-ms")
        return m_pollSpin;
    if (field == u"max-lag-ms")
        return m_maxLagSpin;
    if (field == u"watch")
        return m_watchCombo;
    if (field == u"consumer-bind-dn")
        return m_consumerDnEdit;
    if (field == u"consumer-password-file")
        return m_consumerPasswordEdit;
    return m_load->field(field);
}

void ReplicationForm::showError(const ProbeError& error)
{
    clearError();
    m_errorField = error.field;
    if (LdapConnectionForm::ownsField(error.field))
        m_connection->showError(error);
    else
        m_error.show(error);
}

void ReplicationForm::clearError()
{
    if (LdapConnectionForm::ownsField(m_errorField))
        m_connection->clearError();
    m_errorField.clear();
    m_error.clear();
}

QString ReplicationForm::errorText() const
{
    return LdapConnectionForm::ownsField(m_errorField) ? m_connection->errorText() : m_error.text();
}

QString ReplicationForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels { { QStringLiteral("consumer"), tr("Consumers") },
        { QStringLiteral("marker-dn"), tr("Marker DN") }, { QStringLiteral("marker-rate"), tr("Marker rate") },
        { QStringLiteral("duration"), tr("Duration") }, { QStringLiteral("watch"), tr("Watch") },
        { QStringLiteral("poll-ms"), tr("Poll every") }, { QStringLiteral("max-lag-ms"), tr("Max p99 lag") },
        { QStringLiteral("consumer-bind-dn"), tr("Consumers bind as") },
        { QStringLiteral("consumer-password-file"), tr("Their password") } };
    if (ReplicationLoadForm::ownsField(field))
        return ReplicationLoadForm::fieldLabel(field);
    return labels.value(field, field);
}

void ReplicationForm::setInputsEnabled(bool enabled)
{
    m_connection->setInputsEnabled(enabled);
    for (QWidget* w : std::initializer_list<QWidget*> { m_consumersEdit, m_markerEdit, m_rateSpin, m_durationSpin,
             m_pollSpin, m_maxLagSpin, m_watchCombo, m_consumerDnEdit, m_consumerPasswordEdit })
        w->setEnabled(enabled);
    m_load->setInputsEnabled(enabled);
}
