#include "ui/pages/replayform.h"

#include "ui/pages/ldapconnectionform.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/scrolled.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QTabWidget>
#include <QVBoxLayout>

namespace {

const char* const kReplayCliOption = "cliOption";

QDoubleSpinBox* replaySpin(QWidget* parent, double lo, double hi, double value, int decimals, const QString& suffix)
{
    auto* s = new QDoubleSpinBox(parent);
    s->setRange(lo, hi);
    s->setDecimals(decimals);
    s->setValue(value);
    s->setSuffix(suffix);
    s->setGroupSeparatorShown(true);
    return s;
}

QString replayPathSeparator()
{
    return QStringLiteral("; ");
}

} // namespace

ReplayForm::ReplayForm(QWidget* parent)
    : QWidget(parent)
    , m_connection(new LdapConnectionForm(this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &ReplayForm::fieldLabel, [this](const QString& field) { return m_fields.value(field); })
{
    m_connection->setObjectName(QStringLiteral("replayConnection"));
    m_errorLabel->setObjectName(QStringLiteral("replayErrorLabel"));
    NoteStyle::applyError(m_errorLabel, false);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->hide();
    auto* targetNote = new QLabel(tr("The replayed connections bind as the log says; this bind reads the server's "
                                     "counters and snapshots and undoes the writes."),
        this);
    targetNote->setWordWrap(true);
    NoteStyle::apply(targetNote);
    auto* target = new QWidget(this);
    auto* targetLayout = new QVBoxLayout(target);
    targetLayout->addWidget(targetNote);
    targetLayout->addWidget(m_connection);
    targetLayout->addStretch(1);
    auto* workload = new QWidget(this);
    auto* workloadLayout = new QVBoxLayout(workload);
    workloadLayout->addWidget(buildSource());
    workloadLayout->addWidget(buildTiming());
    workloadLayout->addStretch(1);
    auto* writes = new QWidget(this);
    auto* writesLayout = new QVBoxLayout(writes);
    writesLayout->addWidget(buildWrites());
    writesLayout->addStretch(1);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("replayFormTabs"));
    m_tabs->addTab(Scrolled::vertically(workload, this), tr("Workload"));
    m_tabs->addTab(Scrolled::vertically(target, this), tr("Target"));
    m_tabs->addTab(Scrolled::vertically(writes, this), tr("Binds and writes"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_tabs, 1);
    layout->addWidget(m_errorLabel);
    connect(m_connection, &LdapConnectionForm::edited, this, &ReplayForm::clearError);
    connect(m_connection, &LdapConnectionForm::edited, this, &ReplayForm::edited);
    updateApplicable();
}

void ReplayForm::name(QWidget* w, const QString& option)
{
    w->setObjectName(option);
    w->setProperty(kReplayCliOption, option);
    m_fields.insert(option, w);
    m_tips.insert(option, w->toolTip());
}

QLineEdit* ReplayForm::lineField(const QString& option, const QString& placeholder, const QString& tip)
{
    auto* e = new QLineEdit(this);
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    name(e, option);
    connect(e, &QLineEdit::textEdited, this, &ReplayForm::clearError);
    connect(e, &QLineEdit::textEdited, this, &ReplayForm::updateApplicable);
    connect(e, &QLineEdit::textEdited, this, &ReplayForm::edited);
    return e;
}

QWidget* ReplayForm::buildSource()
{
    auto* box = new QGroupBox(tr("Source"), this);
    m_source = new QComboBox(box);
    m_source->addItem(tr("Access logs"), QStringLiteral("log"));
    m_source->addItem(tr("Saved workload (.dbwl)"), QStringLiteral("workload"));
    m_source->setObjectName(QStringLiteral("replaySource"));
    m_source->setProperty(kReplayCliOption, QStringLiteral("log|workload"));
    m_source->setToolTip(tr("Access logs (389-ds, OpenLDAP stats, accesslog LDIF; rotated and gzip'd) are read as "
                            "Workload analysis reads them; a saved workload is a .dbwl written there"));
    m_path = new QLineEdit(box);
    m_path->setPlaceholderText(QStringLiteral("/var/log/dirsrv/slapd-example/access"));
    m_path->setToolTip(tr("The file(s) to replay; several logs separated by ';'"));
    name(m_path, QStringLiteral("log"));
    m_fields.insert(QStringLiteral("workload"), m_path);
    connect(m_path, &QLineEdit::textEdited, this, &ReplayForm::clearError);
    auto* browse = new QPushButton(tr("Browse…"), box);
    browse->setObjectName(QStringLiteral("replayBrowse"));
    connect(browse, &QPushButton::clicked, this, &ReplayForm::chooseSource);
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(browse);
    m_values = new QComboBox(box);
    m_values->addItem(tr("Mapped onto the target's keys"), QStringLiteral("mapped"));
    m_values->addItem(tr("As logged (when the workload kept them)"), QStringLiteral("log"));
    m_values->setToolTip(tr("Mapped: each logged value (pseudonymised) becomes a key of the target's, keeping its "
                            "frequency rank: the most frequent gets the first key"));
    name(m_values, QStringLiteral("values"));
    auto* keys = lineField(QStringLiteral("key-space"), QStringLiteral("uid=user[0-99999],ou=people,dc=example,dc=com"),
        tr("The target's keys for mapped values: ATTR=PATTERN[,PARENT]"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Source"), m_source);
    form->addRow(tr("File(s)"), pathRow);
    form->addRow(fieldLabel(QStringLiteral("values")), m_values);
    form->addRow(fieldLabel(QStringLiteral("key-space")), keys);
    connect(m_source, &QComboBox::currentIndexChanged, this, &ReplayForm::updateApplicable);
    connect(m_values, &QComboBox::currentIndexChanged, this, &ReplayForm::updateApplicable);
    return box;
}

QWidget* ReplayForm::buildTiming()
{
    auto* box = new QGroupBox(tr("Timing"), this);
    m_timing = new QComboBox(box);
    m_timing->addItem(tr("Logged times ÷ speed"), int(ReplaySpec::Timing::Speed));
    m_timing->addItem(tr("The log's rate, second by second"), int(ReplaySpec::Timing::RateProfile));
    m_timing->addItem(tr("As fast as possible (closed loop)"), int(ReplaySpec::Timing::AsFastAsPossible));
    m_timing->setToolTip(tr("Open loop (speed, rate): latency counts from the scheduled time, and how late each "
                            "operation left is the send lag. Closed loop: each connection's next operation as soon "
                            "as the log's order allows"));
    m_timing->setObjectName(QStringLiteral("replayTiming"));
    m_timing->setProperty(kReplayCliOption, QStringLiteral("rate-profile|as-fast-as-possible")); // or --speed
    m_fields.insert(QStringLiteral("rate-profile"), m_timing);
    m_fields.insert(QStringLiteral("as-fast-as-possible"), m_timing);
    m_speed = replaySpin(box, 0.001, 1000, 1, 3, tr(" ×"));
    m_speed->setToolTip(tr("The logged inter-arrival times divided by this: 2 replays the log in half its time"));
    name(m_speed, QStringLiteral("speed"));
    auto* seed = lineField(QStringLiteral("seed"), tr("random (recorded)"),
        tr("Whole-second log times: each second's operations are spread over it at positions drawn from this seed"));
    m_threads = new QSpinBox(box);
    m_threads->setRange(1, 64);
    m_threads->setValue(2);
    m_threads->setToolTip(tr("Client threads driving the logged connections (one connection per logged one)"));
    name(m_threads, QStringLiteral("threads"));
    m_duration = replaySpin(box, 0, 7 * 86400, 0, 1, tr(" s"));
    m_duration->setSpecialValueText(tr("the whole workload"));
    m_duration->setToolTip(tr("Stop after this many seconds"));
    name(m_duration, QStringLiteral("duration"));
    m_interval = replaySpin(box, 0.1, 3600, 1, 1, tr(" s"));
    m_interval->setToolTip(tr("Seconds per point of the live charts"));
    name(m_interval, QStringLiteral("interval"));
    m_serverCounters = new QCheckBox(tr("Read the server's counters (cn=monitor)"), box);
    m_serverCounters->setChecked(true);
    m_serverCounters->setToolTip(tr("Unticked: --no-server-counters (the server's own figures are not read)"));
    name(m_serverCounters, QStringLiteral("no-server-counters"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Timing"), m_timing);
    form->addRow(fieldLabel(QStringLiteral("speed")), m_speed);
    form->addRow(fieldLabel(QStringLiteral("seed")), seed);
    form->addRow(fieldLabel(QStringLiteral("threads")), m_threads);
    form->addRow(fieldLabel(QStringLiteral("duration")), m_duration);
    form->addRow(fieldLabel(QStringLiteral("interval")), m_interval);
    form->addRow(m_serverCounters);
    connect(m_timing, &QComboBox::currentIndexChanged, this, &ReplayForm::updateApplicable);
    return box;
}

QWidget* ReplayForm::buildWrites()
{
    auto* box = new QGroupBox(tr("Binds and writes"), this);
    auto* shared = lineField(QStringLiteral("shared-password-file"), tr("a file whose first line is the password"),
        tr("Logs carry no passwords: one password for every bind DN, the first line of this file"));
    auto* perDn = lineField(QStringLiteral("passwords"), tr("DN<TAB>password lines, mode 0600"),
        tr("A password per bind DN: lines DN<TAB>password (the file must be mode 0600)"));
    m_allowWrites = new QCheckBox(tr("Replay writes (undone at the end)"), box);
    m_allowWrites->setToolTip(tr("The logged writes are replayed under the write base; the entries written are read "
                                 "first and restored at the end, added ones removed, also on cancel or failure. "
                                 "Unticked, writes are skipped and counted"));
    name(m_allowWrites, QStringLiteral("allow-writes"));
    auto* base = lineField(QStringLiteral("write-base"), QStringLiteral("ou=replay,dc=example,dc=com"),
        tr("The DN under which the logged writes are replayed"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(fieldLabel(QStringLiteral("shared-password-file")), shared);
    form->addRow(fieldLabel(QStringLiteral("passwords")), perDn);
    form->addRow(m_allowWrites);
    form->addRow(fieldLabel(QStringLiteral("write-base")), base);
    connect(m_allowWrites, &QCheckBox::toggled, this, &ReplayForm::updateApplicable);
    connect(m_allowWrites, &QCheckBox::toggled, this, &ReplayForm::clearError);
    return box;
}

QString ReplayForm::fieldLabel(const QString& option)
{
    static const QHash<QString, QString> labels {
        { QStringLiteral("log"), tr("File(s)") },
        { QStringLiteral("workload"), tr("File(s)") },
        { QStringLiteral("values"), tr("Values") },
        { QStringLiteral("key-space"), tr("Key space") },
        { QStringLiteral("speed"), tr("Speed") },
        { QStringLiteral("seed"), tr("Seed") },
        { QStringLiteral("threads"), tr("Threads") },
        { QStringLiteral("duration"), tr("Duration") },
        { QStringLiteral("interval"), tr("Interval") },
        { QStringLiteral("shared-password-file"), tr("Bind password file") },
        { QStringLiteral("passwords"), tr("Passwords per DN") },
        { QStringLiteral("allow-writes"), tr("Replay writes") },
        { QStringLiteral("write-base"), tr("Write base") },
    };
    return labels.value(option, LdapConnectionForm::fieldLabel(option));
}

// As the command line refuses them: speed and seed with the logged times only, the key space with mapped values,
// the write base with writes, one source of bind passwords.
void ReplayForm::updateApplicable()
{
    const auto timing = ReplaySpec::Timing(m_timing->currentData().toInt());
    const bool mapped = m_values->currentData().toString() == u"mapped";
    const auto* shared = qobject_cast<QLineEdit*>(m_fields.value(QStringLiteral("shared-password-file")));
    const auto* perDn = qobject_cast<QLineEdit*>(field(QStringLiteral("passwords")));
    const QList<std::pair<QString, QString>> reasons {
        { QStringLiteral("speed"),
            timing == ReplaySpec::Timing::Speed ? QString() : tr("Applies to the timing 'Logged times ÷ speed' only") },
        { QStringLiteral("seed"),
            timing == ReplaySpec::Timing::Speed ? QString() : tr("Applies to the timing 'Logged times ÷ speed' only") },
        { QStringLiteral("key-space"), mapped ? QString() : tr("Values as logged are sent as they are: no key space") },
        { QStringLiteral("write-base"),
            m_allowWrites->isChecked() ? QString() : tr("Applies when writes are replayed ('Replay writes')") },
        { QStringLiteral("passwords"),
            shared->text().isEmpty() ? QString() : tr("One source of bind passwords: a bind password file is given") },
        { QStringLiteral("shared-password-file"),
            perDn->text().isEmpty() ? QString() : tr("One source of bind passwords: passwords per DN are given") },
    };
    for (const auto& [option, reason] : reasons) {
        QWidget* w = m_fields.value(option);
        w->setProperty("disabledReason", reason);
        if (w->property("inputsOff").toBool())
            continue;
        w->setEnabled(reason.isEmpty());
        w->setToolTip(reason.isEmpty() ? m_tips.value(option) : reason);
    }
    m_path->setProperty(kReplayCliOption, m_source->currentData().toString());
    m_path->setPlaceholderText(m_source->currentData().toString() == u"log"
            ? QStringLiteral("/var/log/dirsrv/slapd-example/access")
            : QStringLiteral("workload.dbwl"));
}

void ReplayForm::chooseSource()
{
    if (m_source->currentData().toString() == u"log") {
        const QStringList files = QFileDialog::getOpenFileNames(this, tr("Access logs to replay"));
        if (!files.isEmpty())
            setLogs(files);
        return;
    }
    const QString file = QFileDialog::getOpenFileName(
        this, tr("Saved workload to replay"), QString(), tr("DirBench workloads (*.dbwl);;All files (*)"));
    if (!file.isEmpty())
        setWorkloadFile(file);
}

QStringList ReplayForm::paths() const
{
    QStringList out;
    const QStringList parts = m_path->text().split(u';', Qt::SkipEmptyParts);
    for (const QString& p : parts)
        if (!p.trimmed().isEmpty())
            out << p.trimmed();
    return out;
}

void ReplayForm::setLogs(const QStringList& files)
{
    m_source->setCurrentIndex(m_source->findData(QStringLiteral("log")));
    m_path->setText(files.join(replayPathSeparator()));
    clearError();
    emit edited();
}

void ReplayForm::setWorkloadFile(const QString& path)
{
    m_source->setCurrentIndex(m_source->findData(QStringLiteral("workload")));
    m_path->setText(path);
    clearError();
    emit edited();
}

void ReplayForm::setText(const QString& option, const QString& text)
{
    if (auto* e = qobject_cast<QLineEdit*>(m_fields.value(option)))
        e->setText(text);
    updateApplicable();
}

void ReplayForm::setTiming(ReplaySpec::Timing timing, double speed)
{
    m_timing->setCurrentIndex(m_timing->findData(int(timing)));
    m_speed->setValue(speed);
}

void ReplayForm::setAllowWrites(bool allow)
{
    m_allowWrites->setChecked(allow);
}

void ReplayForm::setNumber(const QString& option, double value)
{
    if (auto* d = qobject_cast<QDoubleSpinBox*>(m_fields.value(option)))
        d->setValue(value);
    else if (auto* i = qobject_cast<QSpinBox*>(m_fields.value(option)))
        i->setValue(int(value));
}

void ReplayForm::readSpec(ReplaySpec* spec) const
{
    m_connection->readTarget(&spec->target);
    const QStringList files = paths();
    spec->logFiles.clear();
    spec->workloadPath.clear();
    if (m_source->currentData().toString() == u"log")
        spec->logFiles = files;
    else
        spec->workloadPath = files.value(0);
    spec->timing = ReplaySpec::Timing(m_timing->currentData().toInt());
    spec->speed = m_speed->value();
    spec->values = m_values->currentData().toString() == u"log" ? ReplaySpec::Values::Log : ReplaySpec::Values::Mapped;
    const auto text = [this](const char* option) {
        const auto* e = qobject_cast<QLineEdit*>(m_fields.value(QLatin1String(option)));
        return e && e->isEnabled() ? e->text().trimmed() : QString();
    };
    spec->keySpace = text("key-space");
    spec->sharedPasswordFile = text("shared-password-file");
    spec->passwordsFile = text("passwords");
    spec->allowWrites = m_allowWrites->isChecked();
    spec->writeBase = text("write-base");
    spec->threads = m_threads->value();
    spec->durationSec = m_duration->value();
    spec->intervalSec = m_interval->value();
    spec->readServerCounters = m_serverCounters->isChecked();
    bool ok = false;
    const quint64 seed = text("seed").toULongLong(&ok);
    spec->seed = ok ? std::optional<quint64>(seed) : std::nullopt;
}

// The tab that holds a field.
void ReplayForm::showTabOf(QWidget* field)
{
    for (int i = 0; i < m_tabs->count(); ++i)
        if (m_tabs->widget(i)->isAncestorOf(field))
            m_tabs->setCurrentIndex(i);
}

void ReplayForm::showError(const ProbeError& error)
{
    clearError();
    m_errorField = error.field;
    if (LdapConnectionForm::ownsField(error.field)) {
        showTabOf(m_connection);
        m_connection->showError(error);
        return;
    }
    if (QWidget* w = m_fields.value(error.field))
        showTabOf(w);
    m_error.show(error);
}

void ReplayForm::clearError()
{
    if (LdapConnectionForm::ownsField(m_errorField))
        m_connection->clearError();
    m_errorField.clear();
    m_error.clear();
}

QString ReplayForm::errorText() const
{
    return LdapConnectionForm::ownsField(m_errorField) ? m_connection->errorText() : m_error.text();
}

void ReplayForm::setInputsEnabled(bool enabled)
{
    m_connection->setInputsEnabled(enabled);
    for (QWidget* w : std::as_const(m_fields)) {
        w->setProperty("inputsOff", !enabled);
        w->setEnabled(enabled);
    }
    m_source->setEnabled(enabled);
    if (enabled)
        updateApplicable();
}
