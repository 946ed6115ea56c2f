#include "ui/pages/curveform.h"

#include "core/common/units.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace { } // namespace

CurveForm::CurveForm(QWidget* parent)
    : QWidget(parent)
    , m_modeCombo(new QComboBox(this))
    , m_pointsEdit(new QLineEdit(QStringLiteral("0,10,25,50,75,100"), this))
    , m_secondsEdit(new QLineEdit(QStringLiteral("10"), this))
    , m_warmupEdit(new QLineEdit(QStringLiteral("5"), this))
    , m_restartCheck(new QCheckBox(tr("restart before each point"), this))
    , m_cacheEntriesEdit(new QLineEdit(this))
    , m_entriesEdit(new QLineEdit(this))
    , m_sandboxDirEdit(new QLineEdit(this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &CurveForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return m_fields.value(field); })
{
    m_modeCombo->setObjectName(QStringLiteral("modeCombo"));
    m_modeCombo->setToolTip(tr("working-set: any server, left as it is; cache-sweep: 389-ds as an admin, the entry "
                               "cache is resized per point and put back"));
    m_modeCombo->addItem(tr("working-set"), int(CurveSpec::Mode::WorkingSet));
    m_modeCombo->addItem(tr("cache-sweep"), int(CurveSpec::Mode::CacheSweep));
    m_pointsEdit->setObjectName(QStringLiteral("pointsEdit"));
    m_pointsEdit->setToolTip(tr("Coverage points in percent of the entries, at least two"));
    m_secondsEdit->setObjectName(QStringLiteral("secondsEdit"));
    m_secondsEdit->setToolTip(tr("Seconds measured per point"));
    m_warmupEdit->setObjectName(QStringLiteral("warmupEdit"));
    m_warmupEdit->setToolTip(tr("Seconds of load before each point is measured"));
    m_restartCheck->setObjectName(QStringLiteral("restartCheck"));
    m_restartCheck->setToolTip(tr("cache-sweep on a DirBench 389-ds sandbox: a fresh process per point"));
    m_cacheEntriesEdit->setObjectName(QStringLiteral("cacheEntriesEdit"));
    m_cacheEntriesEdit->setPlaceholderText(tr("empty: from the monitor"));
    m_cacheEntriesEdit->setToolTip(tr("working-set: entries the server's cache holds"));
    m_entriesEdit->setObjectName(QStringLiteral("entriesEdit"));
    m_entriesEdit->setPlaceholderText(tr("empty: the keys of the filter's range"));
    m_entriesEdit->setToolTip(tr("The entries coverage is a share of"));
    m_sandboxDirEdit->setObjectName(QStringLiteral("sandboxDirEdit"));
    m_sandboxDirEdit->setPlaceholderText(tr("empty: the sandbox serving the URI"));
    m_sandboxDirEdit->setToolTip(tr("Restart: the DirBench 389-ds sandbox to restart"));
    m_errorLabel->setObjectName(QStringLiteral("curveErrorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();
    m_fields = { { QStringLiteral("mode"), m_modeCombo }, { QStringLiteral("points"), m_pointsEdit },
        { QStringLiteral("seconds-per-point"), m_secondsEdit }, { QStringLiteral("warmup"), m_warmupEdit },
        { QStringLiteral("restart"), m_restartCheck }, { QStringLiteral("cache-entries"), m_cacheEntriesEdit },
        { QStringLiteral("entries"), m_entriesEdit }, { QStringLiteral("sandbox-dir"), m_sandboxDirEdit } };
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setProperty("cliOption", it.key()); // each input names the option of `curve` it sets

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    for (const char* f :
        { "mode", "points", "entries", "seconds-per-point", "warmup", "cache-entries", "restart", "sandbox-dir" })
        form->addRow(fieldLabel(QString::fromLatin1(f)), m_fields.value(QString::fromLatin1(f)));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);

    connect(m_modeCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateForMode();
        clearError();
    });
    connect(m_restartCheck, &QCheckBox::toggled, this, &CurveForm::updateForMode);
    for (QLineEdit* e :
        { m_pointsEdit, m_secondsEdit, m_warmupEdit, m_cacheEntriesEdit, m_entriesEdit, m_sandboxDirEdit })
        connect(e, &QLineEdit::textEdited, this, &CurveForm::clearError);
    updateForMode();
}

QString CurveForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = { { QStringLiteral("mode"), tr("Mode") },
        { QStringLiteral("points"), tr("Points (%)") },
        { QStringLiteral("seconds-per-point"), tr("Seconds per point") },
        { QStringLiteral("warmup"), tr("Warm-up (s)") }, { QStringLiteral("restart"), tr("Restart") },
        { QStringLiteral("cache-entries"), tr("Cache entries") }, { QStringLiteral("ldap-load"), tr("LDAP load") },
        { QStringLiteral("entries"), tr("Entries") }, { QStringLiteral("sandbox-dir"), tr("Sandbox") } };
    return labels.value(field, field);
}

void CurveForm::updateForMode()
{
    const bool sweep = CurveSpec::Mode(m_modeCombo->currentData().toInt()) == CurveSpec::Mode::CacheSweep;
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setEnabled(m_enabled);
    m_restartCheck->setEnabled(m_enabled && sweep);
    m_cacheEntriesEdit->setEnabled(m_enabled && !sweep);
    m_sandboxDirEdit->setEnabled(m_enabled && sweep && m_restartCheck->isChecked());
}

void CurveForm::setInputsEnabled(bool enabled)
{
    m_enabled = enabled;
    updateForMode();
}

ProbeError CurveForm::readSpec(CurveSpec* spec) const
{
    CurveSpec s = *spec;
    s.mode = CurveSpec::Mode(m_modeCombo->currentData().toInt());
    ProbeError e;
    const auto pts = CurveSpec::parsePoints(m_pointsEdit->text(), &e);
    if (!pts)
        return e.isError() ? e : ProbeError::invalid(QStringLiteral("points"), tr("cannot be read"));
    s.points = *pts;
    const auto secs = Units::parseSeconds(m_secondsEdit->text());
    if (!secs || *secs <= 0)
        return ProbeError::invalid(
            QStringLiteral("seconds-per-point"), tr("\"%1\" is not a duration in seconds").arg(m_secondsEdit->text()));
    s.load.durationSec = *secs;
    const QString w = m_warmupEdit->text().trimmed();
    const auto warm = w.isEmpty() ? std::optional<double>(0) : Units::parseSeconds(w);
    if (!warm || *warm < 0)
        return ProbeError::invalid(QStringLiteral("warmup"), tr("\"%1\" is not a duration in seconds").arg(w));
    s.load.warmupSec = *warm;
    s.restart = s.mode == CurveSpec::Mode::CacheSweep && m_restartCheck->isChecked();
    s.sandboxDir = s.restart ? m_sandboxDirEdit->text().trimmed() : QString();
    s.entries = 0;
    if (const QString n = m_entriesEdit->text().trimmed().remove(u','); !n.isEmpty()) {
        bool ok = false;
        s.entries = n.toLongLong(&ok);
        if (!ok || s.entries < 1)
            return ProbeError::invalid(QStringLiteral("entries"), tr("must be a whole number of entries > 0"));
    }
    s.cacheEntries = 0;
    const QString ce = m_cacheEntriesEdit->text().trimmed().remove(u',');
    if (s.mode == CurveSpec::Mode::WorkingSet && !ce.isEmpty()) {
        bool ok = false;
        s.cacheEntries = ce.toLongLong(&ok);
        if (!ok || s.cacheEntries < 1)
            return ProbeError::invalid(QStringLiteral("cache-entries"), tr("must be a whole number of entries > 0"));
    }
    *spec = s;
    return {};
}

void CurveForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void CurveForm::clearError()
{
    m_error.clear();
}

QString CurveForm::errorText() const
{
    return m_error.text();
}

void CurveForm::setMode(CurveSpec::Mode mode)
{
    m_modeCombo->setCurrentIndex(m_modeCombo->findData(int(mode)));
}

void CurveForm::setPointsText(const QString& text)
{
    m_pointsEdit->setText(text);
}

void CurveForm::setSecondsPerPoint(double seconds)
{
    m_secondsEdit->setText(QString::number(seconds));
}

void CurveForm::setWarmup(double seconds)
{
    m_warmupEdit->setText(QString::number(seconds));
}

void CurveForm::setCacheEntries(qint64 entries)
{
    m_cacheEntriesEdit->setText(entries > 0 ? QString::number(entries) : QString());
}

void CurveForm::setRestart(bool restart)
{
    m_restartCheck->setChecked(restart);
}
