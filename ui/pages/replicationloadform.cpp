#include "ui/pages/replicationloadform.h"

#include "core/ldap/okcodes.h"
#include "core/sandbox/sandboxinfo.h"
#include "ui/widgets/loadlimitsbox.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace {

const char* const kLoadCliOption = "cliOption";

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
    form->addRow(buildAdvanced());
    connect(m_rate, &QDoubleSpinBox::valueChanged, this, &ReplicationLoadForm::updateApplicable);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_box);
    connect(m_box, &QGroupBox::toggled, this, &ReplicationLoadForm::edited);
    updateApplicable();
}

void ReplicationLoadForm::name(QWidget* w, const QString& option)
{
    w->setObjectName(QStringLiteral("replicationLoad_") + option);
    w->setProperty(kLoadCliOption, option);
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

QWidget* ReplicationLoadForm::buildAdvanced()
{
    auto* box = new QGroupBox(tr("Advanced"), m_box);
    box->setObjectName(QStringLiteral("replicationLoadAdvanced"));
    box->setToolTip(tr("The other options of 'ldap mixed', for a mix with searches or binds and for the run's limits"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Search base"),
        line(QStringLiteral("base"), QStringLiteral("ou=people,dc=example,dc=com"),
            tr("A search's base DN (a mix with searches)")));
    form->addRow(tr("Filter"),
        line(QStringLiteral("filter"), QStringLiteral("(uid=user[0-9999])"),
            tr("A search's filter template (a mix with searches)")));
    m_scope = new QComboBox(box);
    m_scope->addItem(tr("sub"), int(LdapSession::Subtree));
    m_scope->addItem(tr("one"), int(LdapSession::OneLevel));
    m_scope->addItem(tr("base"), int(LdapSession::Base));
    m_scope->setToolTip(tr("A search's scope"));
    name(m_scope, QStringLiteral("scope"));
    form->addRow(tr("Scope"), m_scope);
    form->addRow(tr("Attributes"),
        line(QStringLiteral("attrs"), tr("all"), tr("Attributes a search returns, comma-separated (1.1: none)")));
    m_mode = new QComboBox(box);
    m_mode->addItem(tr("rebind"), QStringLiteral("rebind"));
    m_mode->addItem(tr("new connection"), QStringLiteral("new-connection"));
    m_mode->setToolTip(tr("A bind: again on the same connection, or connect, bind and unbind each time"));
    name(m_mode, QStringLiteral("mode"));
    form->addRow(tr("Bind mode"), m_mode);
    form->addRow(tr("Key access"),
        line(QStringLiteral("access"), QStringLiteral("uniform"),
            tr("How keys are drawn: uniform, sequential, zipf:S or hot:P/Q")));
    form->addRow(tr("In flight"), count(QStringLiteral("outstanding"), 4, tr("Operations in flight per connection")));
    auto* interval = new QDoubleSpinBox(box);
    interval->setRange(0.1, 3600);
    interval->setDecimals(1);
    interval->setValue(1);
    interval->setSuffix(tr(" s"));
    interval->setToolTip(tr("Seconds per interval: the probe's and the load's"));
    name(interval, QStringLiteral("interval"));
    form->addRow(tr("Interval"), interval);
    auto* failAfter = new QDoubleSpinBox(box);
    failAfter->setRange(0.5, 86400);
    failAfter->setDecimals(1);
    failAfter->setValue(10);
    failAfter->setSuffix(tr(" s"));
    failAfter->setToolTip(tr("Fail when the supplier acknowledged no write for this long"));
    name(failAfter, QStringLiteral("fail-after"));
    form->addRow(tr("Fail after"), failAfter);
    // The limits an LDAP load has too (size limit, success codes, error limit, coalesced reads, the server's counters).
    m_limits = new LoadLimitsBox(LoadLimitsBox::Histograms::NotOffered, box);
    m_limits->setTitle(QString());
    m_limits->setFlat(true);
    connect(m_limits, &LoadLimitsBox::edited, this, &ReplicationLoadForm::edited);
    form->addRow(m_limits);
    return box;
}

QString ReplicationLoadForm::fieldLabel(const QString& option)
{
    static const QHash<QString, QString> labels { { QStringLiteral("mix"), tr("Mix") },
        { QStringLiteral("base"), tr("Search base") }, { QStringLiteral("filter"), tr("Filter") },
        { QStringLiteral("scope"), tr("Scope") }, { QStringLiteral("attrs"), tr("Attributes") },
        { QStringLiteral("mode"), tr("Bind mode") }, { QStringLiteral("access"), tr("Key access") },
        { QStringLiteral("outstanding"), tr("In flight") }, { QStringLiteral("interval"), tr("Interval") },
        { QStringLiteral("fail-after"), tr("Fail after") }, { QStringLiteral("dn"), tr("Modify DNs") },
        { QStringLiteral("attr"), tr("Attribute") }, { QStringLiteral("value"), tr("Value") },
        { QStringLiteral("parent"), tr("Add under") }, { QStringLiteral("threads"), tr("Threads") },
        { QStringLiteral("connections"), tr("Connections") }, { QStringLiteral("rate"), tr("Rate") },
        { QStringLiteral("ramp"), tr("Ramp") }, { QStringLiteral("warmup"), tr("Warm-up") } };
    return LoadLimitsBox::ownsField(option) ? LoadLimitsBox::fieldLabel(option) : labels.value(option);
}

QWidget* ReplicationLoadForm::field(const QString& option) const
{
    QWidget* w = m_fields.value(option);
    return w || !m_limits ? w : m_limits->field(option);
}

bool ReplicationLoadForm::ownsField(const QString& option)
{
    return !fieldLabel(option).isEmpty();
}

double ReplicationLoadForm::numberOf(const QString& option) const
{
    const QWidget* w = m_fields.value(option);
    if (const auto* d = qobject_cast<const QDoubleSpinBox*>(w))
        return d->value();
    const auto* i = qobject_cast<const QSpinBox*>(w);
    return i ? i->value() : 0;
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
    const QString mixText = text(QStringLiteral("mix"));
    const auto mix = LdapLoadSpec::parseMix(mixText.isEmpty() ? QStringLiteral("modify=1") : mixText, nullptr);
    const auto has = [&mix](LdapOpKind op) {
        return mix && std::any_of(mix->begin(), mix->end(), [op](const auto& m) { return m.first == op; });
    };
    const bool modify = !mix || has(LdapOpKind::Modify);
    const bool adddel = has(LdapOpKind::AddDelete);
    const QString noSearch = has(LdapOpKind::Search) ? QString() : tr("Applies to a mix with a search");
    const bool openLoop = !text(QStringLiteral("ramp")).isEmpty() || (m_rate && m_rate->value() > 0);
    QList<std::pair<QString, QString>> reasons {
        { QStringLiteral("base"), noSearch },
        { QStringLiteral("filter"), noSearch },
        { QStringLiteral("scope"), noSearch },
        { QStringLiteral("attrs"), noSearch },
        { QStringLiteral("mode"), has(LdapOpKind::Bind) ? QString() : tr("Applies to a mix with a bind") },
        { QStringLiteral("rate"),
            text(QStringLiteral("ramp")).isEmpty() ? QString() : tr("The ramp sets the rate, step by step") },
        { QStringLiteral("dn"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("attr"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("value"), modify ? QString() : tr("Applies to a mix with a modify") },
        { QStringLiteral("parent"), adddel ? QString() : tr("Applies to a mix with an adddel") },
    };
    for (const auto& [option, reason] : reasons) {
        QWidget* w = m_fields.value(option);
        if (!w)
            continue; // still being built
        w->setEnabled(m_inputsOn && reason.isEmpty());
        w->setToolTip(reason.isEmpty() ? m_tips.value(option) : reason);
    }
    if (m_limits)
        m_limits->setApplicable(has(LdapOpKind::Search), openLoop);
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

std::optional<LdapLoadSpec> ReplicationLoadForm::readLoad(ProbeError* error) const
{
    if (!isOn())
        return std::nullopt;
    LdapLoadSpec load;
    if (!m_limits->writeTo(&load, error))
        return std::nullopt;
    load.base = text(QStringLiteral("base"));
    load.filter = text(QStringLiteral("filter"));
    load.scope = LdapSession::Scope(m_scope->currentData().toInt());
    if (const QString attrs = text(QStringLiteral("attrs")); !attrs.isEmpty())
        load.attrs = attrs.split(u',', Qt::SkipEmptyParts);
    load.bindNewConnection = m_mode->currentData().toString() == u"new-connection";
    if (const QString access = text(QStringLiteral("access")); !access.isEmpty())
        load.access = access;
    load.outstanding = int(numberOf(QStringLiteral("outstanding")));
    load.intervalSec = numberOf(QStringLiteral("interval"));
    load.failAfterSec = numberOf(QStringLiteral("fail-after"));
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
    load.threads = int(numberOf(QStringLiteral("threads")));
    load.connections = int(numberOf(QStringLiteral("connections")));
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
    m_limits->setInputsEnabled(enabled);
    if (enabled)
        updateApplicable();
}
