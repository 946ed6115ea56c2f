#include "ui/pages/diskform.h"

#include "core/common/units.h"
#include "core/disk/requirements.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCompleter>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>

#include <cmath>

namespace {

const QString kDirKey = QStringLiteral("disk/dir");

ProbeError unreadable(const QString& field, const QString& text, const QString& example)
{
    return ProbeError::invalid(field, DiskForm::tr("\"%1\" cannot be read; write it like %2").arg(text, example));
}

} // namespace

DiskForm::DiskForm(QWidget* parent)
    : QWidget(parent)
    , m_dirEdit(new QLineEdit(this))
    , m_browseButton(new QPushButton(tr("Browse…"), this))
    , m_profileCombo(new QComboBox(this))
    , m_profileDescription(new QLabel(this))
    , m_sizeEdit(new QLineEdit(this))
    , m_blockEdit(new QLineEdit(this))
    , m_qdSpin(new QSpinBox(this))
    , m_durationEdit(new QLineEdit(this))
    , m_repeatSpin(new QSpinBox(this))
    , m_dataCombo(new QComboBox(this))
    , m_engineCombo(new QComboBox(this))
    , m_bufferedCheck(new QCheckBox(tr("through the page cache"), this))
    , m_untilSteadyEdit(new QLineEdit(this))
    , m_intervalEdit(new QLineEdit(this))
    , m_commitAppendCheck(new QCheckBox(tr("append to an empty file"), this))
    , m_requirementsCombo(new QComboBox(this))
    , m_errorLabel(new QLabel(this))
    , m_error(
          m_errorLabel, [this](const QString& field) { return labelOf(field); },
          [this](const QString& field) -> QWidget* { return fieldWidget(field); })
{
    m_dirEdit->setObjectName(QStringLiteral("dirEdit"));
    m_dirEdit->setPlaceholderText(tr("a directory on the disk to test"));
    m_dirEdit->setText(QSettings().value(kDirKey).toString());
    m_browseButton->setObjectName(QStringLiteral("browseButton"));

    m_profileCombo->setObjectName(QStringLiteral("profileCombo"));
    const QStringList names = DiskSpec::profileNames();
    for (const QString& name : names) {
        const auto p = DiskSpec::profileFromName(name);
        if (!p)
            continue;
        m_profileCombo->addItem(name, int(*p));
        m_profileCombo->setItemData(m_profileCombo->count() - 1, DiskSpec::profileDescription(*p), Qt::ToolTipRole);
    }
    m_profileDescription->setObjectName(QStringLiteral("profileDescription"));
    m_profileDescription->setWordWrap(true);
    NoteStyle::apply(m_profileDescription);

    m_sizeEdit->setObjectName(QStringLiteral("sizeEdit"));
    m_sizeEdit->setToolTip(tr("Size of the test file: 64M, 1G, … (powers of 1024)"));
    m_blockEdit->setObjectName(QStringLiteral("blockEdit"));
    m_blockEdit->setToolTip(tr("Size of each I/O: 4K, 64K, 1M, …"));
    m_qdSpin->setObjectName(QStringLiteral("qdSpin"));
    m_qdSpin->setRange(0, 1024);
    m_qdSpin->setToolTip(tr("I/Os in flight at once"));
    m_durationEdit->setObjectName(QStringLiteral("durationEdit"));
    m_durationEdit->setToolTip(tr("Seconds to measure (30, 2.5, 500ms, 2m); 0 = one pass over the file"));
    m_repeatSpin->setObjectName(QStringLiteral("repeatSpin"));
    m_repeatSpin->setRange(1, 100);
    m_repeatSpin->setToolTip(tr("Runs of the test; the result is their median"));
    m_dataCombo->setObjectName(QStringLiteral("dataCombo"));
    m_dataCombo->addItem(tr("unique (zeros for dd)"), int(DiskData::Default));
    m_dataCombo->addItem(tr("unique"), int(DiskData::Unique));
    m_dataCombo->addItem(tr("zeros"), int(DiskData::Zeros));
    m_dataCombo->setToolTip(tr("unique: every 4 KiB of every write distinct and incompressible, so storage that "
                               "compresses, dedupes or detects zeros cannot shrink it; zeros: as dd writes them"));
    m_engineCombo->setObjectName(QStringLiteral("engineCombo"));
    for (const IoEngineChoice e : { IoEngineChoice::Auto, IoEngineChoice::IoUring, IoEngineChoice::Threads })
        m_engineCombo->addItem(DiskSpec::engineName(e), int(e));
    m_engineCombo->setToolTip(tr("auto: io_uring where the kernel allows it, threads otherwise"));
    m_bufferedCheck->setObjectName(QStringLiteral("bufferedCheck"));
    m_bufferedCheck->setToolTip(tr("Buffered I/O instead of O_DIRECT: measures the cache as much as the disk"));

    buildMoreFields();

    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();

    m_fields = { { QStringLiteral("dir"), m_dirEdit }, { QStringLiteral("size"), m_sizeEdit },
        { QStringLiteral("block"), m_blockEdit }, { QStringLiteral("qd"), m_qdSpin },
        { QStringLiteral("duration"), m_durationEdit }, { QStringLiteral("repeat"), m_repeatSpin },
        { QStringLiteral("data"), m_dataCombo }, { QStringLiteral("engine"), m_engineCombo },
        { QStringLiteral("buffered"), m_bufferedCheck }, { QStringLiteral("until-steady"), m_untilSteadyEdit },
        { QStringLiteral("interval"), m_intervalEdit }, { QStringLiteral("commit-append"), m_commitAppendCheck },
        { QStringLiteral("requirements"), m_requirementsCombo } };
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setProperty("cliOption", it.key()); // each input names the option of `disk` it sets
    m_profileCombo->setProperty("cliOption", QStringLiteral("profile"));

    auto* dirRow = new QHBoxLayout;
    dirRow->addWidget(m_dirEdit, 1);
    dirRow->addWidget(m_browseButton);
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(fieldLabel(QStringLiteral("dir")), dirRow);
    form->addRow(tr("Profile"), m_profileCombo);
    form->addRow(QString(), m_profileDescription);
    for (const char* f : { "size", "block", "qd", "duration", "until-steady", "repeat", "data", "engine", "buffered",
             "commit-append", "interval", "requirements" })
        form->addRow(fieldLabel(QString::fromLatin1(f)), fieldWidget(QString::fromLatin1(f)));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);

    connect(m_browseButton, &QPushButton::clicked, this, &DiskForm::browse);
    connect(m_profileCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateForProfile();
        clearError();
    });
    connect(m_untilSteadyEdit, &QLineEdit::textChanged, this, &DiskForm::updateForProfile);
    for (QLineEdit* e : { m_dirEdit, m_sizeEdit, m_blockEdit, m_durationEdit, m_untilSteadyEdit, m_intervalEdit })
        connect(e, &QLineEdit::textEdited, this, [this] {
            clearError();
            emit edited();
        });
    for (QSpinBox* s : { m_qdSpin, m_repeatSpin })
        connect(s, &QSpinBox::valueChanged, this, &DiskForm::clearError);
    setProfile(DiskProfile::SeqWrite);
    updateForProfile();
}

QString DiskForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = { { QStringLiteral("dir"), tr("Directory") },
        { QStringLiteral("size"), tr("File size") }, { QStringLiteral("block"), tr("Block size") },
        { QStringLiteral("qd"), tr("Queue depth") }, { QStringLiteral("duration"), tr("Duration") },
        { QStringLiteral("repeat"), tr("Repeat") }, { QStringLiteral("data"), tr("Data") },
        { QStringLiteral("engine"), tr("I/O engine") }, { QStringLiteral("buffered"), tr("Buffered") },
        { QStringLiteral("interval"), tr("Interval") }, { QStringLiteral("profile"), tr("Profile") },
        { QStringLiteral("ldap-load"), tr("LDAP load") }, { QStringLiteral("until-steady"), tr("Until steady") },
        { QStringLiteral("commit-append"), tr("Commit regime") },
        { QStringLiteral("requirements"), tr("Judge against") }, { QStringLiteral("lead"), tr("Load lead") } };
    return labels.value(field, field);
}

// The profile table says which options a profile has no use for (the CLI refuses the same ones); the commit regime
// is the commit profile's and the suite's, and a steady-state cap runs where a duration does.
bool DiskForm::profileUses(DiskProfile profile, const QString& field)
{
    if (field == u"commit-append")
        return profile == DiskProfile::Commit || profile == DiskProfile::Directory;
    if (field == u"until-steady")
        return profileUses(profile, QStringLiteral("duration"));
    return !DiskSpec::profileRefuses(profile).contains(field);
}

void DiskForm::buildMoreFields()
{
    m_untilSteadyEdit->setObjectName(QStringLiteral("untilSteadyEdit"));
    m_untilSteadyEdit->setPlaceholderText(tr("off"));
    m_untilSteadyEdit->setToolTip(tr("Run the sustained part until it is steady (5 s window) or this many seconds "
                                     "pass (e.g. 300); replaces the duration. Empty: off"));
    m_intervalEdit->setObjectName(QStringLiteral("intervalEdit"));
    m_intervalEdit->setPlaceholderText(tr("default: 0.25 s"));
    m_intervalEdit->setToolTip(tr("Seconds per interval sample of the live chart and the record"));
    m_commitAppendCheck->setObjectName(QStringLiteral("commitAppendCheck"));
    m_commitAppendCheck->setToolTip(tr("Commit: start on an empty file and append until it reaches the file size, "
                                       "instead of overwriting a pre-written one"));
    m_requirementsCombo->setObjectName(QStringLiteral("requirementsCombo"));
    // Profile names are long: the combo must not set the form's width (the window fits a laptop).
    m_requirementsCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_requirementsCombo->setMinimumContentsLength(12);
    m_requirementsCombo->addItem(tr("all profiles that apply"), QString());
    for (const RequirementProfile& r : Requirements::load())
        m_requirementsCombo->addItem(r.name.isEmpty() ? r.id : r.name, r.id);
    m_requirementsCombo->setToolTip(tr("The requirement profile the verdicts judge against"));
}

void DiskForm::updateForProfile()
{
    const DiskProfile p = profile();
    m_profileDescription->setText(DiskSpec::profileDescription(p));
    DiskSpec defaults;
    defaults.profile = p;
    defaults = defaults.resolved();
    m_sizeEdit->setPlaceholderText(tr("default: %1").arg(Units::formatBytes(defaults.sizeBytes)));
    m_blockEdit->setPlaceholderText(defaults.blockBytes > 0
            ? tr("default: %1").arg(Units::formatBytes(defaults.blockBytes))
            : tr("set by each part"));
    m_qdSpin->setSpecialValueText(
        defaults.queueDepth > 0 ? tr("default (%1)").arg(defaults.queueDepth) : tr("default"));
    m_durationEdit->setPlaceholderText(defaults.durationSec > 0
            ? tr("default: %1 s").arg(Units::formatNumber(defaults.durationSec, 0))
            : tr("default: one pass over the file"));
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setEnabled(m_inputsEnabled && profileUses(p, it.key()));
    const bool steady = !m_untilSteadyEdit->text().trimmed().isEmpty();
    m_durationEdit->setEnabled(m_durationEdit->isEnabled() && !steady);
    m_durationEdit->setToolTip(steady ? tr("Until steady replaces the duration")
                                      : tr("Seconds to measure (30, 2.5, 500ms, 2m); 0 = one pass over the file"));
}

void DiskForm::setOnHost(bool onHost)
{
    m_onHost = onHost;
    m_browseButton->setEnabled(m_inputsEnabled && !onHost);
    m_browseButton->setToolTip(onHost ? tr("Browse shows this machine's folders: type a directory on the host (its "
                                           "Check lists the file systems there)")
                                      : QString());
    m_dirEdit->setPlaceholderText(
        onHost ? tr("a directory on the host's disk to test") : tr("a directory on the disk to test"));
    if (!onHost)
        setDirectoryChoices({});
}

void DiskForm::setDirectoryChoices(const QStringList& dirs)
{
    if (dirs.isEmpty()) {
        m_dirEdit->setCompleter(nullptr);
        return;
    }
    auto* completer = new QCompleter(dirs, m_dirEdit);
    completer->setCompletionMode(QCompleter::UnfilteredPopupCompletion);
    m_dirEdit->setCompleter(completer);
    if (m_dirEdit->text().isEmpty() || !dirs.contains(m_dirEdit->text()))
        completer->complete(); // offer them at once
}

void DiskForm::setOuterFields(OuterFields fields, FormError::Labeller labels)
{
    m_outerFields = std::move(fields);
    m_outerLabels = std::move(labels);
}

void DiskForm::setInputsEnabled(bool enabled)
{
    m_inputsEnabled = enabled;
    m_browseButton->setEnabled(enabled && !m_onHost);
    m_profileCombo->setEnabled(enabled);
    updateForProfile();
}

ProbeError DiskForm::readSpec(DiskSpec* spec) const
{
    DiskSpec s;
    s.profile = profile();
    s.dir = directory();
    const auto uses = [&s](const char* field) { return profileUses(s.profile, QString::fromLatin1(field)); };
    if (uses("size") && !m_sizeEdit->text().trimmed().isEmpty()) {
        const auto v = Units::parseSize(m_sizeEdit->text());
        if (!v)
            return unreadable(QStringLiteral("size"), m_sizeEdit->text(), tr("64M or 1G"));
        s.sizeBytes = *v;
    }
    if (uses("block") && !m_blockEdit->text().trimmed().isEmpty()) {
        const auto v = Units::parseSize(m_blockEdit->text());
        if (!v)
            return unreadable(QStringLiteral("block"), m_blockEdit->text(), tr("4K or 1M"));
        s.blockBytes = *v;
    }
    if (uses("qd"))
        s.queueDepth = m_qdSpin->value();
    if (uses("until-steady") && !m_untilSteadyEdit->text().trimmed().isEmpty()) {
        const auto v = Units::parseSeconds(m_untilSteadyEdit->text());
        if (!v || *v <= 0)
            return unreadable(QStringLiteral("until-steady"), m_untilSteadyEdit->text(), tr("300 or 10m"));
        s.untilSteadySec = *v;
    } else if (uses("duration") && !m_durationEdit->text().trimmed().isEmpty()) {
        const auto v = Units::parseSeconds(m_durationEdit->text());
        if (!v)
            return unreadable(QStringLiteral("duration"), m_durationEdit->text(), tr("30, 2.5 or 500ms"));
        s.durationSec = *v;
    }
    s.repeat = m_repeatSpin->value();
    s.data = DiskData(m_dataCombo->currentData().toInt());
    if (uses("engine"))
        s.engine = IoEngineChoice(m_engineCombo->currentData().toInt());
    if (uses("buffered"))
        s.forceBuffered = m_bufferedCheck->isChecked();
    if (uses("interval") && !m_intervalEdit->text().trimmed().isEmpty()) {
        const auto v = Units::parseSeconds(m_intervalEdit->text());
        if (!v || *v <= 0)
            return unreadable(QStringLiteral("interval"), m_intervalEdit->text(), tr("0.25 or 1"));
        s.intervalMs = int(std::lround(*v * 1000.0));
    }
    s.commitAppend = uses("commit-append") && m_commitAppendCheck->isChecked();
    s.requirementProfile = m_requirementsCombo->currentData().toString();
    *spec = s;
    return {};
}

void DiskForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void DiskForm::clearError()
{
    m_error.clear();
}

QString DiskForm::errorText() const
{
    return m_error.text();
}

void DiskForm::rememberDirectory() const
{
    QSettings().setValue(kDirKey, directory());
}

void DiskForm::browse()
{
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Directory to test"), directory());
    if (dir.isEmpty())
        return;
    setDirectory(dir);
    rememberDirectory();
}

QString DiskForm::directory() const
{
    return m_dirEdit->text().trimmed();
}

void DiskForm::setDirectory(const QString& dir)
{
    m_dirEdit->setText(dir);
    clearError();
}

DiskProfile DiskForm::profile() const
{
    return DiskProfile(m_profileCombo->currentData().toInt());
}

void DiskForm::setProfile(DiskProfile profile)
{
    const int i = m_profileCombo->findData(int(profile));
    if (i >= 0)
        m_profileCombo->setCurrentIndex(i);
}

void DiskForm::setSizeText(const QString& text)
{
    m_sizeEdit->setText(text);
}

void DiskForm::setBlockText(const QString& text)
{
    m_blockEdit->setText(text);
}

void DiskForm::setDurationText(const QString& text)
{
    m_durationEdit->setText(text);
}

void DiskForm::setQueueDepth(int qd)
{
    m_qdSpin->setValue(qd);
}

void DiskForm::setRepeat(int repeat)
{
    m_repeatSpin->setValue(repeat);
}

void DiskForm::setData(DiskData data)
{
    m_dataCombo->setCurrentIndex(m_dataCombo->findData(int(data)));
}

void DiskForm::setEngine(IoEngineChoice engine)
{
    m_engineCombo->setCurrentIndex(m_engineCombo->findData(int(engine)));
}

void DiskForm::setBuffered(bool buffered)
{
    m_bufferedCheck->setChecked(buffered);
}
