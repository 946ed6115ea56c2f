#include "ui/widgets/loadlimitsbox.h"

#include "core/ldap/okcodes.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QSpinBox>

#include <limits>

namespace {

QSpinBox* limitsBoxCount(QWidget* parent, const QString& zeroText)
{
    auto* s = new QSpinBox(parent);
    s->setRange(0, std::numeric_limits<int>::max());
    s->setSpecialValueText(zeroText);
    return s;
}

QString okCodesText(const QList<int>& codes)
{
    QStringList out;
    for (const int c : codes)
        out << QString::number(c);
    return out.join(u',');
}

} // namespace

LoadLimitsBox::LoadLimitsBox(Histograms histograms, QWidget* parent)
    : QGroupBox(tr("Advanced"), parent)
    , m_sizeLimit(limitsBoxCount(this, tr("none")))
    , m_okCodes(new QLineEdit(this))
    , m_coalesce(new QCheckBox(tr("Coalesce reads"), this))
    , m_serverCounters(new QCheckBox(tr("Read the server's counters (cn=monitor)"), this))
    , m_maxErrors(limitsBoxCount(this, tr("never")))
{
    setObjectName(QStringLiteral("loadAdvancedBox"));
    auto* form = new QFormLayout(this);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    addField(m_sizeLimit, QStringLiteral("size-limit"), tr("A search's size limit (none: the server's own)"));
    form->addRow(fieldLabel(QStringLiteral("size-limit")), m_sizeLimit);
    m_okCodes->setPlaceholderText(QStringLiteral("0"));
    addField(m_okCodes, QStringLiteral("ok-codes"),
        tr("Result codes that count as success, e.g. 0,32 (empty: 0; a compare also 5 and 6)"));
    form->addRow(fieldLabel(QStringLiteral("ok-codes")), m_okCodes);
    addField(m_maxErrors, QStringLiteral("max-errors"), tr("Stop (failed) after this many errors (never: go on)"));
    form->addRow(fieldLabel(QStringLiteral("max-errors")), m_maxErrors);
    addField(m_coalesce, QStringLiteral("coalesce-reads"),
        tr("Hold responses in the socket until about half of a connection's are in, or 2 ms (closed loop only; "
           "the wait is in every latency, and the record says so)"));
    form->addRow(m_coalesce);
    m_serverCounters->setChecked(true);
    addField(m_serverCounters, QStringLiteral("no-server-counters"),
        tr("Unticked: the server's counters (cn=monitor) are not read, and no figure is checked against them"));
    form->addRow(m_serverCounters);
    if (histograms == Histograms::Offered) {
        m_histograms = new QCheckBox(tr("Interval histograms"), this);
        addField(m_histograms, QStringLiteral("interval-histograms"),
            tr("Each interval's latency histogram in the record, so that records of separate runs merge exactly "
               "(dirbench-cli merge)"));
        form->addRow(m_histograms);
    }
    connect(m_okCodes, &QLineEdit::textEdited, this, &LoadLimitsBox::edited);
    for (QSpinBox* s : { m_sizeLimit, m_maxErrors })
        connect(s, &QSpinBox::valueChanged, this, &LoadLimitsBox::edited);
}

void LoadLimitsBox::addField(QWidget* w, const QString& option, const QString& tip)
{
    w->setObjectName(QStringLiteral("load_") + option);
    w->setProperty("cliOption", option);
    w->setToolTip(tip);
    m_fields.insert(option, w);
    m_tips.insert(option, tip);
}

bool LoadLimitsBox::ownsField(const QString& option)
{
    return !fieldLabel(option).isEmpty();
}

QString LoadLimitsBox::fieldLabel(const QString& option)
{
    static const QHash<QString, QString> labels { { QStringLiteral("size-limit"), tr("Size limit") },
        { QStringLiteral("ok-codes"), tr("Success codes") }, { QStringLiteral("max-errors"), tr("Stop after errors") },
        { QStringLiteral("coalesce-reads"), tr("Coalesce reads") },
        { QStringLiteral("no-server-counters"), tr("Server counters") },
        { QStringLiteral("interval-histograms"), tr("Interval histograms") } };
    return labels.value(option);
}

bool LoadLimitsBox::writeTo(LdapLoadSpec* spec, ProbeError* error) const
{
    if (const QString codes = m_okCodes->text().trimmed(); !codes.isEmpty()) {
        const auto parsed = OkCodes::parse(codes, error);
        if (!parsed)
            return false;
        spec->okCodes = *parsed;
    }
    const auto applies = [this](const char* option) { return m_reasons.value(QLatin1String(option)).isEmpty(); };
    spec->sizeLimit = applies("size-limit") ? m_sizeLimit->value() : 0;
    spec->maxErrors = m_maxErrors->value();
    spec->coalesceReads = applies("coalesce-reads") && m_coalesce->isChecked();
    spec->readServerCounters = m_serverCounters->isChecked();
    spec->intervalHistograms = m_histograms && m_histograms->isChecked();
    return true;
}

void LoadLimitsBox::readFrom(const LdapLoadSpec& spec)
{
    m_okCodes->setText(okCodesText(spec.okCodes));
    m_sizeLimit->setValue(spec.sizeLimit);
    m_maxErrors->setValue(int(std::min<qint64>(spec.maxErrors, std::numeric_limits<int>::max())));
    m_coalesce->setChecked(spec.coalesceReads);
    m_serverCounters->setChecked(spec.readServerCounters);
    if (m_histograms)
        m_histograms->setChecked(spec.intervalHistograms);
}

void LoadLimitsBox::setApplicable(bool hasSearch, bool openLoop)
{
    m_reasons.insert(QStringLiteral("size-limit"), hasSearch ? QString() : tr("Applies to a load with searches"));
    m_reasons.insert(
        QStringLiteral("coalesce-reads"), openLoop ? tr("Closed loop only: not with a rate or a ramp") : QString());
    applyReasons();
}

void LoadLimitsBox::setInputsEnabled(bool enabled)
{
    m_inputsEnabled = enabled;
    applyReasons();
}

void LoadLimitsBox::applyReasons()
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const QString reason = m_reasons.value(it.key());
        it.value()->setEnabled(m_inputsEnabled && reason.isEmpty());
        it.value()->setToolTip(reason.isEmpty() ? m_tips.value(it.key()) : reason);
    }
}
