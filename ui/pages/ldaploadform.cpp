#include "ui/pages/ldaploadform.h"

#include "core/sandbox/sandboxinfo.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/loadlimitsbox.h"
#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

namespace {

// The operation kinds a load of `op` runs: the mix's for "mixed" (every kind while the mix cannot be read, so that
// every field stays open until it can), else the one.
QList<LdapOpKind> opsOf(const QString& op, const QString& mixText)
{
    const auto mix = LdapLoadSpec::parseMix(op == u"mixed" ? mixText : op + QStringLiteral("=1"), nullptr);
    if (!mix)
        return { LdapOpKind::Search, LdapOpKind::Bind, LdapOpKind::Modify, LdapOpKind::Compare, LdapOpKind::AddDelete };
    QList<LdapOpKind> out;
    for (const auto& p : *mix)
        out << p.first;
    return out;
}

// What the demo directory holds (uid=user0 .. uid=user{N-1}): the filter the form starts with, e.g.
// (uid=user[0-9999]) for the default 10,000 entries; the page replaces it with the running demo's range.
QString demoFilter()
{
    return QStringLiteral("(uid=user[0-%1])").arg(std::max(0, SandboxOptions().entries - 1));
}

} // namespace

LdapLoadForm::LdapLoadForm(QWidget* parent)
    : QWidget(parent)
    , m_opCombo(new QComboBox(this))
    , m_scopeCombo(new QComboBox(this))
    , m_modeCombo(new QComboBox(this))
    , m_accessCombo(new QComboBox(this))
    , m_rateSpin(new QDoubleSpinBox(this))
    , m_limits(new LoadLimitsBox(LoadLimitsBox::Histograms::Offered, this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &LdapLoadForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return fieldWidget(field); })
{
    const LdapLoadSpec defaults;
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    m_opCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_opCombo->setMinimumContentsLength(8);
    m_opCombo->setObjectName(QStringLiteral("operationCombo"));
    for (const char* op : { "search", "bind", "modify", "compare", "adddel", "mixed" })
        m_opCombo->addItem(QString::fromLatin1(op));
    m_opCombo->setItemData(4, tr("adds entries under the parent DN and deletes them again"), Qt::ToolTipRole);
    form->addRow(tr("Operation"), m_opCombo);
    auto row = [&](const QString& field, QWidget* w) {
        w->setProperty("cliOption", field); // the field names the command-line option it sets
        m_fields.insert(field, w);
        form->addRow(fieldLabel(field), w);
    };
    m_mixEdit = addEdit(QStringLiteral("mix"), QStringLiteral("mixEdit"), tr("Weights, e.g. search=90,modify=10"));
    row(QStringLiteral("mix"), m_mixEdit);
    row(QStringLiteral("base"), addEdit(QStringLiteral("base"), QStringLiteral("baseEdit"), tr("Search base DN")));
    m_scopeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_scopeCombo->setMinimumContentsLength(8);
    m_scopeCombo->setObjectName(QStringLiteral("scopeCombo"));
    m_scopeCombo->addItem(tr("subtree"), int(LdapSession::Subtree));
    m_scopeCombo->addItem(tr("one level"), int(LdapSession::OneLevel));
    m_scopeCombo->addItem(tr("base"), int(LdapSession::Base));
    row(QStringLiteral("scope"), m_scopeCombo);
    row(QStringLiteral("filter"),
        addEdit(QStringLiteral("filter"), QStringLiteral("filterEdit"),
            tr("Filter template: uid=user[0-9999], [00000-99999] zero-padded, [file:PATH] lines of a file")));
    setText(QStringLiteral("filter"), demoFilter()); // a search load has no default filter
    row(QStringLiteral("attrs"),
        addEdit(QStringLiteral("attrs"), QStringLiteral("attrsEdit"),
            tr("Attributes to return, comma-separated; empty: all; 1.1: none")));
    row(QStringLiteral("dn"),
        addEdit(QStringLiteral("dn"), QStringLiteral("dnEdit"),
            tr("Entries to work on (bind, modify, compare): uid=user[0-9999],ou=people,…")));
    row(QStringLiteral("attr"),
        addEdit(QStringLiteral("attr"), QStringLiteral("attrEdit"), tr("Attribute for modify and compare")));
    m_valueEdit
        = addEdit(QStringLiteral("value"), QStringLiteral("valueEdit"), tr("Value template for modify and compare"));
    row(QStringLiteral("value"), m_valueEdit);
    m_modeCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_modeCombo->setMinimumContentsLength(8);
    m_modeCombo->setObjectName(QStringLiteral("bindModeCombo"));
    m_modeCombo->addItem(tr("rebind on a persistent connection"), false);
    m_modeCombo->addItem(tr("new connection per bind"), true);
    row(QStringLiteral("mode"), m_modeCombo);
    row(QStringLiteral("parent"),
        addEdit(QStringLiteral("parent"), QStringLiteral("parentEdit"),
            tr("add+delete: the DN under which entries are added and deleted")));
    m_accessCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the form is narrow
    m_accessCombo->setMinimumContentsLength(8);
    m_accessCombo->setObjectName(QStringLiteral("accessCombo"));
    m_accessCombo->setEditable(true);
    m_accessCombo->addItems({ QStringLiteral("uniform"), QStringLiteral("sequential"), QStringLiteral("zipf:1.0"),
        QStringLiteral("hot:20/80") });
    m_accessCombo->setToolTip(tr("Which keys the patterns pick: uniform, sequential, zipf:S, hot:P/Q"));
    row(QStringLiteral("access"), m_accessCombo);
    row(QStringLiteral("threads"),
        addCount(QStringLiteral("threads"), QStringLiteral("threadsSpin"), defaults.threads));
    row(QStringLiteral("connections"),
        addCount(QStringLiteral("connections"), QStringLiteral("connectionsSpin"), defaults.connections));
    row(QStringLiteral("outstanding"),
        addCount(QStringLiteral("outstanding"), QStringLiteral("outstandingSpin"), defaults.outstanding));
    m_rateSpin->setObjectName(QStringLiteral("rateSpin"));
    m_rateSpin->setRange(0, 10000000);
    m_rateSpin->setDecimals(0);
    m_rateSpin->setSuffix(tr(" ops/s"));
    m_rateSpin->setSpecialValueText(tr("unlimited"));
    m_rateSpin->setToolTip(tr("Total operations per second for the run; 0 = as fast as it goes"));
    row(QStringLiteral("rate"), m_rateSpin);
    m_rampEdit = addEdit(QStringLiteral("ramp"), QStringLiteral("rampEdit"),
        tr("Step ramp: rate:1000,2000,4000@10 or outstanding:1,2,4,8@5 (replaces the duration)"));
    row(QStringLiteral("ramp"), m_rampEdit);
    row(QStringLiteral("warmup"), addSeconds(QStringLiteral("warmup"), QStringLiteral("warmupSpin"), 0, 86400));
    row(QStringLiteral("duration"),
        addSeconds(QStringLiteral("duration"), QStringLiteral("durationSpin"), 0.1, 7 * 86400));
    row(QStringLiteral("interval"), addSeconds(QStringLiteral("interval"), QStringLiteral("intervalSpin"), 0.1, 3600));
    QDoubleSpinBox* failAfter = addSeconds(QStringLiteral("fail-after"), QStringLiteral("failAfterSpin"), 0.5, 86400);
    failAfter->setToolTip(tr("Fail when no operation succeeded for this long"));
    row(QStringLiteral("fail-after"), failAfter);
    row(QStringLiteral("server-log"),
        addEdit(QStringLiteral("server-log"), QStringLiteral("serverLogEdit"),
            tr("Optional: the server's access log on this machine (389-ds unbuffered, OpenLDAP stats to a file); "
               "its per-operation times go beside the client's latency")));
    setNumber(QStringLiteral("warmup"), defaults.warmupSec);
    setNumber(QStringLiteral("duration"), defaults.durationSec);
    setNumber(QStringLiteral("interval"), defaults.intervalSec);
    setNumber(QStringLiteral("fail-after"), defaults.failAfterSec);

    m_errorLabel->setObjectName(QStringLiteral("loadErrorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_limits);
    layout->addWidget(m_errorLabel);

    connect(m_limits, &LoadLimitsBox::edited, this, &LdapLoadForm::clearError);
    connect(m_rampEdit, &QLineEdit::textChanged, this, &LdapLoadForm::updateForOperation);
    connect(m_rateSpin, &QDoubleSpinBox::valueChanged, this, &LdapLoadForm::updateForOperation);
    connect(m_opCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateForOperation();
        clearError();
    });
    connect(m_mixEdit, &QLineEdit::textChanged, this, &LdapLoadForm::updateForOperation);
    for (QComboBox* c : { m_scopeCombo, m_modeCombo })
        connect(c, &QComboBox::currentIndexChanged, this, &LdapLoadForm::clearError);
    connect(m_accessCombo, &QComboBox::currentTextChanged, this, &LdapLoadForm::clearError);
    connect(m_rateSpin, &QDoubleSpinBox::valueChanged, this, &LdapLoadForm::clearError);
    updateForOperation();
}

QLineEdit* LdapLoadForm::addEdit(const QString& field, const QString& objectName, const QString& tip)
{
    auto* e = new QLineEdit(this);
    e->setObjectName(objectName);
    e->setToolTip(tip);
    e->setPlaceholderText(tip.section(u':', 0, 0).section(u'(', 0, 0).trimmed());
    m_edits.insert(field, e);
    connect(e, &QLineEdit::textEdited, this, [this] {
        clearError();
        emit edited();
    });
    return e;
}

QDoubleSpinBox* LdapLoadForm::addSeconds(const QString& field, const QString& objectName, double min, double max)
{
    auto* s = new QDoubleSpinBox(this);
    s->setObjectName(objectName);
    s->setRange(min, max);
    s->setDecimals(1);
    s->setSuffix(tr(" s"));
    m_seconds.insert(field, s);
    connect(s, &QDoubleSpinBox::valueChanged, this, &LdapLoadForm::clearError);
    return s;
}

QSpinBox* LdapLoadForm::addCount(const QString& field, const QString& objectName, int value)
{
    auto* s = new QSpinBox(this);
    s->setObjectName(objectName);
    s->setRange(1, 1024);
    s->setValue(value);
    m_counts.insert(field, s);
    connect(s, &QSpinBox::valueChanged, this, &LdapLoadForm::clearError);
    return s;
}

QString LdapLoadForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = { { QStringLiteral("mix"), tr("Mix") },
        { QStringLiteral("base"), tr("Base DN") }, { QStringLiteral("scope"), tr("Scope") },
        { QStringLiteral("filter"), tr("Filter") }, { QStringLiteral("attrs"), tr("Attributes") },
        { QStringLiteral("dn"), tr("DN pattern") }, { QStringLiteral("attr"), tr("Attribute") },
        { QStringLiteral("value"), tr("Value pattern") }, { QStringLiteral("mode"), tr("Bind mode") },
        { QStringLiteral("parent"), tr("Parent DN") }, { QStringLiteral("access"), tr("Access") },
        { QStringLiteral("threads"), tr("Threads") }, { QStringLiteral("connections"), tr("Connections") },
        { QStringLiteral("outstanding"), tr("Outstanding") }, { QStringLiteral("rate"), tr("Rate") },
        { QStringLiteral("ramp"), tr("Ramp") }, { QStringLiteral("warmup"), tr("Warm-up") },
        { QStringLiteral("duration"), tr("Duration") }, { QStringLiteral("interval"), tr("Interval") },
        { QStringLiteral("fail-after"), tr("Fail after") }, { QStringLiteral("server-log"), tr("Server access log") } };
    if (LoadLimitsBox::ownsField(field))
        return LoadLimitsBox::fieldLabel(field);
    return labels.value(field, field);
}

bool LdapLoadForm::uses(const QString& field) const
{
    const QString op = operation();
    if (field == u"mix")
        return op == u"mixed";
    const QList<LdapOpKind> ops = opsOf(op, m_mixEdit->text());
    const auto has = [&ops](LdapOpKind k) { return ops.contains(k); };
    if (field == u"base" || field == u"scope" || field == u"filter" || field == u"attrs")
        return has(LdapOpKind::Search);
    if (field == u"dn")
        return has(LdapOpKind::Bind) || has(LdapOpKind::Modify) || has(LdapOpKind::Compare);
    if (field == u"attr" || field == u"value")
        return has(LdapOpKind::Modify) || has(LdapOpKind::Compare);
    if (field == u"mode")
        return has(LdapOpKind::Bind);
    if (field == u"parent")
        return has(LdapOpKind::AddDelete);
    return true;
}

void LdapLoadForm::updateForOperation()
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setEnabled(m_inputsEnabled && uses(it.key()));
    m_opCombo->setEnabled(m_inputsEnabled);
    m_limits->setInputsEnabled(m_inputsEnabled);
    m_limits->setApplicable(
        uses(QStringLiteral("filter")), m_rateSpin->value() > 0 || !text(QStringLiteral("ramp")).isEmpty());
}

ProbeError LdapLoadForm::readSpec(LdapLoadSpec* spec) const
{
    LdapLoadSpec s;
    const QString op = operation();
    if (op == u"mixed") {
        ProbeError e;
        const auto mix = LdapLoadSpec::parseMix(text(QStringLiteral("mix")), &e);
        if (!mix)
            return e;
        s.mix = *mix;
    } else {
        const auto mix = LdapLoadSpec::parseMix(op + QStringLiteral("=100"), nullptr);
        s.mix = mix.value_or(s.mix);
    }
    const auto used = [this](const char* f) { return uses(QString::fromLatin1(f)); };
    if (used("filter") && text(QStringLiteral("filter")).isEmpty())
        return ProbeError::invalid(QStringLiteral("filter"),
            tr("required for a search load, e.g. (uid=user[0-9999]): without one every search would return the "
               "whole subtree"));
    if (used("base")) {
        s.base = text(QStringLiteral("base"));
        s.scope = LdapSession::Scope(m_scopeCombo->currentData().toInt());
        s.filter = text(QStringLiteral("filter"));
        for (const QString& a : text(QStringLiteral("attrs")).split(u',', Qt::SkipEmptyParts))
            if (!a.trimmed().isEmpty())
                s.attrs << a.trimmed();
    }
    if (used("dn"))
        s.dnPattern = text(QStringLiteral("dn"));
    if (used("attr")) {
        s.attr = text(QStringLiteral("attr"));
        s.valuePattern = m_valueEdit->text(); // spaces may matter in a value
    }
    if (used("mode"))
        s.bindNewConnection = m_modeCombo->currentData().toBool();
    if (used("parent"))
        s.parentDn = text(QStringLiteral("parent"));
    s.access = m_accessCombo->currentText().trimmed();
    s.threads = int(number(QStringLiteral("threads")));
    s.connections = int(number(QStringLiteral("connections")));
    s.outstanding = int(number(QStringLiteral("outstanding")));
    s.rate = m_rateSpin->value();
    s.ramp = text(QStringLiteral("ramp"));
    s.warmupSec = number(QStringLiteral("warmup"));
    s.durationSec = number(QStringLiteral("duration"));
    s.intervalSec = number(QStringLiteral("interval"));
    s.failAfterSec = number(QStringLiteral("fail-after"));
    if (ProbeError e; !m_limits->writeTo(&s, &e))
        return e;
    *spec = s;
    return {};
}

void LdapLoadForm::setOperation(const QString& op)
{
    const int i = m_opCombo->findText(op);
    if (i >= 0)
        m_opCombo->setCurrentIndex(i);
}

QString LdapLoadForm::operation() const
{
    return m_opCombo->currentText();
}

void LdapLoadForm::setText(const QString& field, const QString& value)
{
    if (field == u"access")
        m_accessCombo->setCurrentText(value);
    else if (QLineEdit* e = m_edits.value(field)) {
        e->setText(value);
        e->setCursorPosition(0); // show where a long DN begins
    }
    clearError();
}

QString LdapLoadForm::text(const QString& field) const
{
    if (field == u"access")
        return m_accessCombo->currentText().trimmed();
    const QLineEdit* e = m_edits.value(field);
    return e ? e->text().trimmed() : QString();
}

void LdapLoadForm::setNumber(const QString& field, double value)
{
    if (field == u"rate")
        m_rateSpin->setValue(value);
    else if (QDoubleSpinBox* s = m_seconds.value(field))
        s->setValue(value);
    else if (QSpinBox* c = m_counts.value(field))
        c->setValue(int(value));
}

double LdapLoadForm::number(const QString& field) const
{
    if (field == u"rate")
        return m_rateSpin->value();
    if (const QDoubleSpinBox* s = m_seconds.value(field))
        return s->value();
    const QSpinBox* c = m_counts.value(field);
    return c ? c->value() : 0;
}

void LdapLoadForm::setScope(LdapSession::Scope scope)
{
    m_scopeCombo->setCurrentIndex(m_scopeCombo->findData(int(scope)));
}

void LdapLoadForm::setBindNewConnection(bool newConnection)
{
    m_modeCombo->setCurrentIndex(newConnection ? 1 : 0);
}

void LdapLoadForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void LdapLoadForm::clearError()
{
    m_error.clear();
}

QString LdapLoadForm::errorText() const
{
    return m_error.text();
}

void LdapLoadForm::setInputsEnabled(bool enabled)
{
    m_inputsEnabled = enabled;
    updateForOperation();
}

QWidget* LdapLoadForm::fieldWidget(const QString& field) const
{
    QWidget* w = m_fields.value(field);
    return w ? w : m_limits->field(field);
}
