#include "ui/pages/diskhostrow.h"

#include "core/common/units.h"
#include "ui/offthread.h"
#include "ui/pages/sshfields.h"
#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace {

const char* const kLocalWhy = "Only for a test on a host: choose \"a host\" under Run on";

} // namespace

DiskHostRow::DiskHostRow(QWidget* parent)
    : QWidget(parent)
    , m_placeCombo(new QComboBox(this))
    , m_hostEdit(new QLineEdit(this))
    , m_checkButton(new QPushButton(tr("Check"), this))
    , m_sshEdit(new QLineEdit(this))
    , m_commandEdit(new QLineEdit(this))
    , m_checkLabel(new QLabel(this))
    , m_checkErrorLabel(new QLabel(this))
{
    m_placeCombo->setObjectName(QStringLiteral("diskRunOnCombo"));
    m_placeCombo->addItems({ tr("this machine"), tr("a host") });
    m_placeCombo->setToolTip(tr("Test this machine's disk, or the disk of a host (a server) over ssh"));
    m_hostEdit->setObjectName(QStringLiteral("diskHostEdit"));
    m_hostEdit->setPlaceholderText(tr("server1 or admin@ldap1"));
    m_sshEdit->setObjectName(QStringLiteral("diskSshOptionsEdit"));
    m_sshEdit->setPlaceholderText(tr("e.g. -J bastion"));
    m_commandEdit->setObjectName(QStringLiteral("diskAgentCommandEdit"));
    m_commandEdit->setText(Agents::RemoteRunSpec().agentCommand);
    m_checkButton->setObjectName(QStringLiteral("diskCheckHostButton"));
    m_checkLabel->setObjectName(QStringLiteral("diskHostCheckLabel"));
    m_checkLabel->setWordWrap(true);
    m_checkLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkLabel->hide();
    NoteStyle::apply(m_checkLabel);
    m_checkErrorLabel->setObjectName(QStringLiteral("diskHostErrorLabel"));
    m_checkErrorLabel->setWordWrap(true);
    m_checkErrorLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_checkErrorLabel->hide();
    NoteStyle::applyError(m_checkErrorLabel, false);
    m_fields = { { QStringLiteral("host"), m_hostEdit }, { QStringLiteral("ssh-option"), m_sshEdit },
        { QStringLiteral("agent-command"), m_commandEdit } };
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it)
        it.value()->setProperty("cliOption", it.key()); // each input names the option of `disk` it sets

    auto* place = new QHBoxLayout;
    place->addWidget(m_placeCombo);
    place->addWidget(m_hostEdit, 1);
    auto* ssh = new QHBoxLayout;
    ssh->addWidget(m_sshEdit, 3);
    ssh->addWidget(m_commandEdit, 2);
    ssh->addWidget(m_checkButton);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Run on"), place);
    form->addRow(fieldLabel(QStringLiteral("ssh-option")), ssh);
    form->addRow(m_checkLabel);
    form->addRow(m_checkErrorLabel);

    connect(m_placeCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateEnabled();
        emit placeChanged(onHost());
        emit edited();
    });
    for (QLineEdit* e : { m_hostEdit, m_sshEdit, m_commandEdit })
        connect(e, &QLineEdit::textEdited, this, &DiskHostRow::edited);
    connect(m_checkButton, &QPushButton::clicked, this, &DiskHostRow::runCheck);
    updateEnabled();
}

bool DiskHostRow::onHost() const
{
    return m_placeCombo->currentIndex() == 1;
}

void DiskHostRow::setOnHost(bool on)
{
    m_placeCombo->setCurrentIndex(on ? 1 : 0);
}

void DiskHostRow::setHost(const QString& destination)
{
    m_hostEdit->setText(destination);
}

void DiskHostRow::setSshOptions(const QString& options)
{
    m_sshEdit->setText(options);
}

void DiskHostRow::setAgentCommand(const QString& command)
{
    m_commandEdit->setText(command);
}

bool DiskHostRow::ownsField(const QString& field)
{
    return field == u"host" || field == u"ssh-option" || field == u"agent-command";
}

QString DiskHostRow::fieldLabel(const QString& field)
{
    if (field == u"host")
        return tr("Host");
    if (field == u"ssh-option")
        return tr("ssh options");
    if (field == u"agent-command")
        return tr("Program there");
    return {};
}

ProbeError DiskHostRow::read(const DiskSpec& spec, std::optional<Agents::RemoteRunSpec>* remote) const
{
    remote->reset();
    if (!onHost())
        return {};
    const QString host = m_hostEdit->text().trimmed();
    if (const QString problem = Agents::sshDestinationProblem(host); !problem.isEmpty())
        return ProbeError::invalid(QStringLiteral("host"), problem);
    QStringList sshOptions;
    QString command;
    if (ProbeError e = SshFields::read(m_sshEdit->text(), m_commandEdit->text(), &sshOptions, &command); e.isError())
        return e;
    *remote = Agents::remoteDisk(Agents::AgentHost::named(host), sshOptions, command, spec);
    return {};
}

void DiskHostRow::runCheck()
{
    std::optional<Agents::RemoteRunSpec> remote;
    const ProbeError e = read(DiskSpec(), &remote);
    if (m_checking || !remote) {
        if (e.isError())
            showCheck(Agents::HostCheck { e.message(), {}, {}, 0, {} });
        return;
    }
    m_checking = true;
    updateEnabled();
    m_checkErrorLabel->hide();
    m_checkLabel->show();
    m_checkLabel->setText(tr("Asking %1…").arg(remote->host.name));
    OffThread::run<Agents::HostCheck>(
        this, [r = *remote] { return Agents::checkHost(r.host, r.sshOptions, r.agentCommand); },
        [this](const Agents::HostCheck& check) {
            m_checking = false;
            updateEnabled();
            showCheck(check);
        });
}

void DiskHostRow::showCheck(const Agents::HostCheck& check)
{
    QStringList mounts;
    m_checkLabel->setVisible(check.error.isEmpty());
    m_checkErrorLabel->setVisible(!check.error.isEmpty());
    if (!check.error.isEmpty()) {
        m_checkErrorLabel->setText(check.error);
        emit checkFinished(mounts);
        return;
    }
    QStringList shown;
    for (const Mounts::FileSystem& fs : check.fileSystems) {
        mounts << fs.mountPoint;
        shown << tr("%1 (%2, %3 free)").arg(fs.mountPoint, fs.device, Units::formatBytes(fs.freeBytes));
    }
    m_checkLabel->setText(tr("Reached %1: DirBench %2, %3 CPUs. File systems: %4")
                              .arg(check.host, check.version)
                              .arg(check.cpus)
                              .arg(shown.isEmpty() ? tr("none writable") : shown.join(QStringLiteral(", "))));
    emit checkFinished(mounts);
}

QString DiskHostRow::checkText() const
{
    if (!m_checkErrorLabel->isHidden())
        return m_checkErrorLabel->text();
    return m_checkLabel->isHidden() ? QString() : m_checkLabel->text();
}

void DiskHostRow::setInputsEnabled(bool enabled)
{
    m_inputsEnabled = enabled;
    updateEnabled();
}

void DiskHostRow::updateEnabled()
{
    const bool host = onHost();
    m_placeCombo->setEnabled(m_inputsEnabled);
    for (QWidget* w :
        { static_cast<QWidget*>(m_hostEdit), static_cast<QWidget*>(m_sshEdit), static_cast<QWidget*>(m_commandEdit) })
        w->setEnabled(m_inputsEnabled && host);
    m_hostEdit->setToolTip(host ? tr("An ssh destination: a ~/.ssh/config name or user@host (keys, no prompt); "
                                     "dirbench-cli must be installed there")
                                : tr(kLocalWhy));
    m_sshEdit->setToolTip(
        host ? tr("Arguments for ssh, split as a shell would (e.g. -J bastion -F FILE)") : tr(kLocalWhy));
    m_commandEdit->setToolTip(
        host ? tr("The program the host runs, as `CMD agent` (in ssh's PATH there)") : tr(kLocalWhy));
    m_checkButton->setEnabled(m_inputsEnabled && host && !m_checking);
    m_checkButton->setToolTip(host ? tr("Start the host's agent as a test would: its version, CPUs and the file "
                                        "systems it can test")
                                   : tr(kLocalWhy));
}
