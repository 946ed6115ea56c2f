#include "ui/pages/replicationloadform.h"

#include "core/sandbox/sandboxinfo.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

const char* const kCliOption = "cliOption";

} // namespace

ReplicationLoadForm::ReplicationLoadForm(QWidget* parent)
    : QWidget(parent)
    , m_box(new QGroupBox(tr("Write load on the supplier, beside the markers"), this))
{
    m_box->setObjectName(QStringLiteral("replicationLoadBox"));
    m_box->setCheckable(true);
    m_box->setChecked(false);
    m_box->setToolTip(tr("An LDAP load that writes on the supplier while the markers are timed (--mix): the lag "
                         "under the writes your users make; with a ramp, the write rate at which the consumers "
                         "stop keeping up (the knee)"));
    auto* form = new QFormLayout(m_box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(fieldLabel(QStringLiteral("mix")),
        line(QStringLiteral("mix"), QStringLiteral("modify=1"),
            tr("Weights of the operations, e.g. modify=1 or search=90,modify=9,adddel=1: a modify or an adddel is "
               "required")));
    form->addRow(fieldLabel(QStringLiteral("dn")),
        line(QStringLiteral("dn"), QStringLiteral("uid=user[0-9999],ou=people,dc=example,dc=com"),
            tr("The entries a modify changes: a DN pattern ([a-b] is a number drawn from a to b)")));
    form->addRow(fieldLabel(QStringLiteral("attr")),
        line(QStringLiteral("attr"), QStringLiteral("description"), tr("The attribute a modify replaces")));
    form->addRow(fieldLabel(QStringLiteral("value")),
        line(QStringLiteral("value"), QStringLiteral("dirbench-[0-999999]"),
            tr("The value a modify writes (a pattern)")));
    form->addRow(fieldLabel(QStringLiteral("parent")),
        line(QStringLiteral("parent"), QStringLiteral("ou=people,dc=example,dc=com"),
            tr("Where an adddel adds its entries (and deletes them again; what is left is removed at the end)")));
    form->addRow(
        fieldLabel(QStringLiteral("threads")), count(QStringLiteral("threads"), 2, tr("Client threads of the load")));
    form->addRow(fieldLabel(QStringLiteral("connections")),
        count(QStringLiteral("connections"), 2, tr("Connections of the load, shared out over its threads")));
    m_rate = new QDoubleSpinBox(m_box);
    m_rate->setRange(0, 1e7);
    m_rate->setDecimals(0);
    m_rate->setSuffix(tr(" ops/s"));
    m_rate->setSpecialValueText(tr("as fast as it goes"));
    m_rate->setToolTip(tr("Operations per second of the load, all kinds together (open loop); 0: as fast as it goes"));
    name(m_rate, QStringLiteral("rate"));
    form->addRow(fieldLabel(QStringLiteral("rate")), m_rate);
    form->addRow(fieldLabel(QStringLiteral("ramp")),
        line(QStringLiteral("ramp"), QStringLiteral("rate:20,40,80,160@5"),
            tr("Steps of rate (rate:A,B,…@S, S seconds each): the lag per step, and the knee where it runs away; the "
               "probe lasts the ramp's steps")));
    m_warmup = new QDoubleSpinBox(m_box);
    m_warmup->setRange(0, 3600);
    m_warmup->setDecimals(1);
    m_warmup->setSuffix(tr(" s"));
    m_warmup->setToolTip(tr("Seconds of load before the markers start (not measured)"));
    name(m_warmup, QStringLiteral("warmup"));
    form->addRow(fieldLabel(QStringLiteral("warmup")), m_warmup);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_box);
    connect(m_box, &QGroupBox::toggled, this, &ReplicationLoadForm::edited);
    updateApplicable();
}

void ReplicationLoadForm::name(QWidget* w, const QString& option)
{
    w->setObjectName(QStringLiteral("replicationLoad_") + option);
    w->setProperty(kCliOption, option);
    m_fields.insert(option, w);
    m_tips.insert(option, w->toolTip());
}

QLineEdit* ReplicationLoadForm::line(const QString& option, const QString& placeholder, const QString& tip)
{
    auto* e = new QLineEdit(m_box);
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    name(e, option);
    connect(e, &QLineEdit::textChanged, this, &ReplicationLoadForm::updateApplicable);
    connect(e, &QLineEdit::textEdited, this, &ReplicationLoadForm::edited);
    return e;
}

QSpinBox* ReplicationLoadForm::count(const QString& option, int value, const QString& tip)
{
    auto* s = new QSpinBox(m_box);
    s->setRange(1, 4096);
    s->setValue(value);
    s->setToolTip(tip);
    name(s, option);
    return s;
}

QString ReplicationLoadForm::fieldLabel(const QString& option)
{
    static const QHash<QString, QString> labels { { QStringLiteral("mix"), tr("Mix") },
        { QStringLiteral("dn"), tr("Modify DNs") }, { QStringLiteral("attr"), tr("Attribute") },
        { QStringLiteral("value"), tr("Value") }, { QStringLiteral("parent"), tr("Add under") },
        { QStringLiteral("threads"), tr("Threads") }, { QStringLiteral("connections"), tr("Connections") },
        { QStringLiteral("rate"), tr("Rate") }, { QStringLiteral("ramp"), tr("Ramp") },
        { QStringLiteral("warmup"), tr("Warm-up") } };
    return labels.value(option);
}

bool ReplicationLoadForm::ownsField(const QString& option)
{
    return !fieldLabel(option).isEmpty() || option == u"outstanding";
}

QString ReplicationLoadForm::text(const QString& option) const
{
    const auto* e = qobject_cast<const QLineEdit*>(m_fields.value(option));
    return e ? e->text().trimmed() : QString();
}

// As `ldap mixed` refuses them: the rate with a ramp that steps the rate; the modify's inputs without a modify in
// the mix, the parent without an adddel.
void ReplicationLoadForm::updateApplicable()
{
    const QString mix = text(QStringLiteral("mix"));
    const bool modify = mix.isEmpty() || mix.contains(QLatin1String("modify"));
    const bool adddel = mix.contains(QLatin1String("adddel"));
    const QList<std::pair<QString, QString>> reasons {
        { QStringLiteral("rate"),
            text(QStringLiteral("ramp")).isEmpty() ? QString() : tr("The ramp sets the rate, step by step") },
        { QStringLiteral("dn"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("attr"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("value"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("parent"), adddel ? QString() : tr("Applies to a mix with an adddel") },
    };
    for (const auto& [option, reason] : reasons) {
        QWidget* w = m_fields.value(option);
        w->setEnabled(m_inputsOn && reason.isEmpty());
        w->setToolTip(reason.isEmpty() ? m_tips.value(option) : reason);
    }
}

bool ReplicationLoadForm::isOn() const
{
    return m_box->isChecked();
}

void ReplicationLoadForm::setOn(bool on)
{
    m_box->setChecked(on);
}

void ReplicationLoadForm::setText(const QString& option, const QString& value)
{
    if (auto* e = qobject_cast<QLineEdit*>(m_fields.value(option)))
        e->setText(value);
}

void ReplicationLoadForm::setNumber(const QString& option, double value)
{
    if (auto* d = qobject_cast<QDoubleSpinBox*>(m_fields.value(option)))
        d->setValue(value);
    else if (auto* i = qobject_cast<QSpinBox*>(m_fields.value(option)))
        i->setValue(int(value));
}

std::optional<LdapLoadSpec> ReplicationLoadForm::readLoad() const
{
    if (!isOn())
        return std::nullopt;
    LdapLoadSpec load;
    const QString mix = text(QStringLiteral("mix"));
    if (const auto parsed = LdapLoadSpec::parseMix(mix.isEmpty() ? QStringLiteral("modify=1") : mix, nullptr))
        load.mix = *parsed;
    else
        load.mix.clear(); // named at the check: an empty mix is refused with the field "mix"
    load.dnPattern = text(QStringLiteral("dn"));
    load.attr = text(QStringLiteral("attr")).isEmpty() ? QStringLiteral("description") : text(QStringLiteral("attr"));
    load.valuePattern = text(QStringLiteral("value")).isEmpty() ? QStringLiteral("dirbench-[0-999999]")
                                                                : text(QStringLiteral("value"));
    load.parentDn = text(QStringLiteral("parent"));
    load.threads = qobject_cast<QSpinBox*>(m_fields.value(QStringLiteral("threads")))->value();
    load.connections = qobject_cast<QSpinBox*>(m_fields.value(QStringLiteral("connections")))->value();
    load.ramp = text(QStringLiteral("ramp"));
    load.rate = load.ramp.isEmpty() ? m_rate->value() : 0;
    load.warmupSec = m_warmup->value();
    return load;
}

void ReplicationLoadForm::fillFrom(const SandboxInfo& info)
{
    setText(QStringLiteral("mix"), QStringLiteral("modify=1"));
    setText(QStringLiteral("dn"),
        QStringLiteral("uid=user[0-%1],%2").arg(std::max(0, info.entries - 1)).arg(info.peopleBase));
    setText(QStringLiteral("attr"), QStringLiteral("description"));
    setText(QStringLiteral("parent"), info.peopleBase);
}

void ReplicationLoadForm::setInputsEnabled(bool enabled)
{
    m_inputsOn = enabled;
    m_box->setEnabled(enabled);
    for (QWidget* w : std::as_const(m_fields))
        w->setEnabled(enabled);
    if (enabled)
        updateApplicable();
}
