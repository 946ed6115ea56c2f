#include "ui/pages/ldapagentsform.h"

#include "core/common/units.h"
#include "ui/offthread.h"
#include "ui/pages/sshfields.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <cmath>

namespace {

struct CheckOutcome
{
    ProbeError error;
    QList<Agents::AgentCheck> checks;
};

QString ms(const std::optional<double>& v)
{
    if (!v)
        return QStringLiteral("–");
    const double rounded = std::round(*v * 1000.0) / 1000.0;
    return Units::formatNumber(rounded == 0 ? 0.0 : rounded, 3); // never "-0.000"
}

} // namespace

LdapAgentsForm::LdapAgentsForm(QWidget* parent)
    : QWidget(parent)
    , m_sourceCombo(new QComboBox(this))
    , m_hostsEdit(new QPlainTextEdit(this))
    , m_sshEdit(new QLineEdit(this))
    , m_commandEdit(new QLineEdit(this))
    , m_checkButton(new QPushButton(tr("Check agents"), this))
    , m_checkTable(new QTableWidget(0, 6, this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &LdapAgentsForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return m_fields.value(field); })
    , m_lossCombo(new QComboBox(this))
    , m_clockSkewCheck(new QCheckBox(tr("allow"), this))
{
    m_sourceCombo->setObjectName(QStringLiteral("loadSourceCombo"));
    m_sourceCombo->addItems({ tr("this machine"), tr("these hosts"), tr("both") });
    m_sourceCombo->setToolTip(tr("Where the load runs: here, from agents on these hosts, or both"));
    m_hostsEdit->setObjectName(QStringLiteral("agentHostsEdit"));
    m_hostsEdit->setPlaceholderText(tr("load1\nload2\n@hosts.txt\nansible:inventory.ini:loadgen\nlocal:2"));
    m_hostsEdit->setToolTip(tr("One a line: a host as in ~/.ssh/config, local:N (N processes here, no ssh), @FILE, "
                               "ansible:INVENTORY:GROUP or this"));
    m_hostsEdit->setFixedHeight(m_hostsEdit->fontMetrics().lineSpacing() * 5 + 12);
    m_sshEdit->setObjectName(QStringLiteral("sshOptionsEdit"));
    m_sshEdit->setPlaceholderText(tr("e.g. -J bastion -F /path/config"));
    m_sshEdit->setToolTip(tr("Arguments for every agent's ssh, split as a shell would"));
    m_commandEdit->setObjectName(QStringLiteral("agentCommandEdit"));
    m_commandEdit->setText(Agents::CoordinatorSpec().agentCommand);
    m_commandEdit->setToolTip(tr("The program each agent runs, as `CMD agent` (in ssh's PATH on the hosts)"));
    m_checkButton->setObjectName(QStringLiteral("checkAgentsButton"));
    m_checkButton->setToolTip(tr("Start each agent as a run would: its version, clock offset, round trip, CPUs, "
                                 "and whether it reaches the target"));
    m_checkTable->setObjectName(QStringLiteral("agentCheckTable"));
    m_checkTable->setHorizontalHeaderLabels(
        { tr("Agent"), tr("Version"), tr("CPUs"), tr("Offset ms"), tr("RTT ms"), tr("Target") });
    m_checkTable->verticalHeader()->hide();
    m_checkTable->horizontalHeader()->setStretchLastSection(true);
    m_checkTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_checkTable->setMinimumHeight(110);
    m_errorLabel->setObjectName(QStringLiteral("agentsErrorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel, false);
    m_errorLabel->hide();
    auto* note = new QLabel(tr("Threads and rate are totals, split evenly across the agents (at least one thread "
                               "each). Each host runs the agent command over ssh (BatchMode: keys, no prompt); "
                               "local:N and this run it here."),
        this);
    note->setWordWrap(true);

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Generate load from"), m_sourceCombo);
    m_clockSkewCheck->setObjectName(QStringLiteral("allowClockSkewCheck"));
    m_clockSkewCheck->setToolTip(tr("Start even when an agent's clock is off by more than a tenth of the interval "
                                    "(its intervals then line up less well with the others')"));
    m_lossCombo->setObjectName(QStringLiteral("onAgentLossCombo"));
    m_lossCombo->addItem(tr("stop the run (failed)"), QStringLiteral("fail"));
    m_lossCombo->addItem(tr("the others go on"), QStringLiteral("continue"));
    m_lossCombo->setToolTip(tr("When an agent is lost during the run"));
    m_fields = { { QStringLiteral("agents"), m_hostsEdit }, { QStringLiteral("ssh-option"), m_sshEdit },
        { QStringLiteral("agent-command"), m_commandEdit }, { QStringLiteral("on-agent-loss"), m_lossCombo },
        { QStringLiteral("allow-clock-skew"), m_clockSkewCheck } };
    for (const QString& f : { QStringLiteral("agents"), QStringLiteral("ssh-option"), QStringLiteral("agent-command"),
             QStringLiteral("on-agent-loss"), QStringLiteral("allow-clock-skew") }) {
        m_fields.value(f)->setProperty("cliOption", f); // each input names the option of `ldap --agents` it sets
        form->addRow(fieldLabel(f), m_fields.value(f));
    }
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(m_checkButton, 0, Qt::AlignLeft);
    layout->addWidget(m_checkTable);
    layout->addWidget(m_errorLabel);

    connect(m_sourceCombo, &QComboBox::currentIndexChanged, this, [this] {
        clearError();
        updateEnabled();
    });
    connect(m_hostsEdit, &QPlainTextEdit::textChanged, this, &LdapAgentsForm::clearError);
    connect(m_sshEdit, &QLineEdit::textEdited, this, &LdapAgentsForm::clearError);
    connect(m_commandEdit, &QLineEdit::textEdited, this, &LdapAgentsForm::clearError);
    connect(m_checkButton, &QPushButton::clicked, this, &LdapAgentsForm::checkRequested);
    updateEnabled();
}

LdapAgentsForm::Source LdapAgentsForm::source() const
{
    return Source(m_sourceCombo->currentIndex());
}

void LdapAgentsForm::setSource(Source s)
{
    m_sourceCombo->setCurrentIndex(int(s));
}

void LdapAgentsForm::setHosts(const QString& lines)
{
    m_hostsEdit->setPlainText(lines);
}

QString LdapAgentsForm::hostsText() const
{
    return m_hostsEdit->toPlainText();
}

void LdapAgentsForm::setSshOptions(const QString& options)
{
    m_sshEdit->setText(options);
}

void LdapAgentsForm::setAgentCommand(const QString& command)
{
    m_commandEdit->setText(command);
}

ProbeError LdapAgentsForm::readSettings(Agents::CoordinatorSpec* spec) const
{
    if (ProbeError e
        = SshFields::read(m_sshEdit->text(), m_commandEdit->text(), &spec->sshOptions, &spec->agentCommand);
        e.isError())
        return e;
    spec->continueOnLoss = m_lossCombo->currentData().toString() == u"continue";
    spec->allowClockSkew = m_clockSkewCheck->isChecked();
    spec->printAgentStderr = false; // no terminal behind a window: an agent's failure is in the record
    spec->publishAgentStates = true;
    return {};
}

std::optional<QList<Agents::AgentHost>> LdapAgentsForm::hosts(const QString& lines, bool withThis, ProbeError* error)
{
    QList<Agents::AgentHost> out;
    if (withThis)
        out.append(Agents::AgentHost::named(QStringLiteral("this"), true));
    const QStringList all = lines.split(u'\n');
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString line = all.at(i).section(u'#', 0, 0).trimmed();
        if (line.isEmpty())
            continue;
        QString why;
        const auto some = Agents::parseAgentList(line, &why);
        if (!some) {
            *error = ProbeError::invalid(QStringLiteral("agents"), tr("line %1: %2").arg(i + 1).arg(why));
            return std::nullopt;
        }
        out << *some;
    }
    if (out.size() == (withThis ? 1 : 0)) {
        *error = ProbeError::invalid(QStringLiteral("agents"),
            tr("no host: one a line, e.g. load1, local:2, @hosts.txt or ansible:inventory.ini:loadgen"));
        return std::nullopt;
    }
    return out;
}

void LdapAgentsForm::runCheck(const QString& uri)
{
    if (m_checking)
        return;
    clearError();
    Agents::CoordinatorSpec spec;
    if (const ProbeError e = readSettings(&spec); e.isError()) {
        showError(e);
        return;
    }
    m_checking = true;
    updateEnabled();
    m_checkTable->setRowCount(0);
    const QString lines = hostsText();
    const bool withThis = source() == Source::Both;
    OffThread::run<CheckOutcome>(
        this,
        [spec, lines, withThis, uri]() mutable {
            CheckOutcome out;
            const auto list = hosts(lines, withThis, &out.error);
            if (!list)
                return out;
            spec.hosts = *list;
            out.checks = Agents::checkAgents(spec, uri);
            return out;
        },
        [this](const CheckOutcome& out) {
            m_checking = false;
            updateEnabled();
            if (out.error.isError())
                showError(out.error);
            showChecks(out.checks);
            emit checkFinished();
        });
}

void LdapAgentsForm::showChecks(const QList<Agents::AgentCheck>& checks)
{
    m_checkTable->setRowCount(int(checks.size()));
    for (int r = 0; r < checks.size(); ++r) {
        const Agents::AgentCheck& c = checks.at(r);
        const QString target = c.ok() ? tr("reached") : c.targetText();
        const QStringList cells = { c.host.name, c.version().isEmpty() ? QStringLiteral("–") : c.version(),
            c.cpus() > 0 ? QString::number(c.cpus()) : QStringLiteral("–"), ms(c.offsetMs), ms(c.rttMs), target };
        for (int col = 0; col < cells.size(); ++col) {
            auto* item = new QTableWidgetItem(cells.at(col));
            item->setToolTip(col == 5 ? c.targetText() : cells.at(col));
            if (!c.ok())
                item->setForeground(NoteStyle::errorColourNow());
            m_checkTable->setItem(r, col, item);
        }
    }
    m_checkTable->resizeColumnsToContents();
}

bool LdapAgentsForm::ownsField(const QString& field)
{
    return field == u"agents" || field == u"ssh-option" || field == u"agent-command";
}

QString LdapAgentsForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels { { QStringLiteral("agents"), tr("Hosts") },
        { QStringLiteral("ssh-option"), tr("ssh options") }, { QStringLiteral("agent-command"), tr("Agent command") },
        { QStringLiteral("on-agent-loss"), tr("An agent lost") },
        { QStringLiteral("allow-clock-skew"), tr("Clock skew") } };
    return labels.value(field, field);
}

void LdapAgentsForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void LdapAgentsForm::clearError()
{
    m_error.clear();
}

QString LdapAgentsForm::errorText() const
{
    return m_error.text();
}

void LdapAgentsForm::setInputsEnabled(bool enabled)
{
    m_inputsEnabled = enabled;
    updateEnabled();
}

void LdapAgentsForm::updateEnabled()
{
    const bool agents = usesAgents();
    m_sourceCombo->setEnabled(m_inputsEnabled);
    for (QWidget* w : std::as_const(m_fields))
        w->setEnabled(m_inputsEnabled && agents);
    m_checkButton->setEnabled(m_inputsEnabled && agents && !m_checking);
    m_checkButton->setText(m_checking ? tr("Checking agents…") : tr("Check agents"));
}
