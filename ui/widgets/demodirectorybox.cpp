#include "ui/widgets/demodirectorybox.h"

#include "core/common/units.h"
#include "ui/demodirectory.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

DemoDirectoryBox::DemoDirectoryBox(DemoDirectory* demo, QWidget* parent)
    : QGroupBox(tr("Demo directory"), parent)
    , m_demo(demo)
    , m_entriesSpin(new QSpinBox(this))
    , m_tlsCheck(new QCheckBox(tr("TLS (ldaps://)"), this))
    , m_topologyCombo(new QComboBox(this))
    , m_accessLogCheck(new QCheckBox(tr("access log"), this))
    , m_startButton(new QPushButton(tr("Start demo directory"), this))
    , m_stopButton(new QPushButton(tr("Stop demo directory"), this))
    , m_statusLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("demoBox"));
    m_entriesSpin->setObjectName(QStringLiteral("demoEntriesSpin"));
    m_entriesSpin->setRange(SandboxOptions::kMinEntries, SandboxOptions::kMaxEntries);
    m_entriesSpin->setSingleStep(1000);
    m_entriesSpin->setGroupSeparatorShown(true);
    m_entriesSpin->setValue(SandboxOptions().entries);
    m_entriesSpin->setSuffix(tr(" entries"));
    m_entriesSpin->setToolTip(tr("uid=user0 … ; loading takes about 1 s per 10,000 entries"));
    m_tlsCheck->setObjectName(QStringLiteral("demoTlsCheck"));
    m_tlsCheck->setToolTip(tr("Also listen on ldaps:// with a self-signed certificate (the form trusts it)"));
    m_topologyCombo->setObjectName(QStringLiteral("demoTopologyCombo"));
    m_topologyCombo->addItem(tr("one server"), 0);
    m_topologyCombo->addItem(tr("with a replica"), 1);
    m_topologyCombo->addItem(tr("with 2 replicas"), 2);
    m_topologyCombo->addItem(tr("with 3 replicas"), 3);
    m_topologyCombo->addItem(tr("a mirror pair"), -1);
    m_topologyCombo->setToolTip(tr("Also start consumers that replicate from it (syncrepl refreshAndPersist, each its "
                                   "own slapd on another port), or a second provider that replicates both ways "
                                   "(mirror mode): for the Replication page; not with TLS"));
    m_accessLogCheck->setObjectName(QStringLiteral("demoAccessLogCheck"));
    m_accessLogCheck->setToolTip(tr("Keep the server's own log of every operation (slapd's stats log): the Replay and "
                                    "Workload pages offer it; one server only"));
    m_startButton->setObjectName(QStringLiteral("startDemoButton"));
    m_startButton->setToolTip(tr("Start a private OpenLDAP server (slapd) on this machine and fill in the forms"));
    m_stopButton->setObjectName(QStringLiteral("stopDemoButton"));
    m_statusLabel->setObjectName(QStringLiteral("demoStatusLabel"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    NoteStyle::apply(m_statusLabel);

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_entriesSpin, 0, 0);
    grid->addWidget(m_tlsCheck, 0, 1);
    grid->addWidget(m_topologyCombo, 1, 0);
    grid->addWidget(m_accessLogCheck, 1, 1);
    grid->addWidget(m_startButton, 2, 0);
    grid->addWidget(m_stopButton, 2, 1);
    grid->addWidget(m_statusLabel, 3, 0, 1, 2);

    connect(m_startButton, &QPushButton::clicked, this, &DemoDirectoryBox::startDemo);
    connect(m_stopButton, &QPushButton::clicked, this, &DemoDirectoryBox::stopDemo);
    connect(m_tlsCheck, &QCheckBox::toggled, this, &DemoDirectoryBox::updateState);
    connect(m_topologyCombo, &QComboBox::currentIndexChanged, this, &DemoDirectoryBox::updateState);
    connect(m_accessLogCheck, &QCheckBox::toggled, this, &DemoDirectoryBox::updateState);
    connect(m_demo, &DemoDirectory::stateChanged, this, &DemoDirectoryBox::updateState);
    connect(m_demo, &DemoDirectory::failed, this, &DemoDirectoryBox::updateState);
    updateState();
}

void DemoDirectoryBox::setEntries(int entries)
{
    m_entriesSpin->setValue(entries);
}

void DemoDirectoryBox::setTls(bool tls)
{
    m_tlsCheck->setChecked(tls);
}

void DemoDirectoryBox::setReplica(bool replica)
{
    setTopology(replica ? SandboxTopology::withReplicas(1) : SandboxTopology());
}

void DemoDirectoryBox::setTopology(const SandboxTopology& topology)
{
    const int data = topology.kind == SandboxTopology::Kind::Mirror ? -1
        : topology.kind == SandboxTopology::Kind::Replicas          ? topology.replicas
                                                                    : 0;
    m_topologyCombo->setCurrentIndex(std::max(0, m_topologyCombo->findData(data)));
}

void DemoDirectoryBox::setAccessLog(bool on)
{
    m_accessLogCheck->setChecked(on);
}

QString DemoDirectoryBox::statusText() const
{
    return m_statusLabel->text();
}

void DemoDirectoryBox::startDemo()
{
    SandboxOptions o;
    o.entries = m_entriesSpin->value();
    const int servers = m_topologyCombo->currentData().toInt();
    o.tls = m_tlsCheck->isChecked() && servers == 0; // a replicated sandbox has no TLS
    if (servers > 0)
        o.topology = SandboxTopology::withReplicas(servers);
    else if (servers < 0)
        o.topology = SandboxTopology::mirror();
    o.accessLog = m_accessLogCheck->isChecked() && servers == 0;
    m_demo->start(o);
}

void DemoDirectoryBox::stopDemo()
{
    m_demo->stop();
}

void DemoDirectoryBox::updateState()
{
    const DemoDirectory::State s = m_demo->state();
    m_startButton->setEnabled(s == DemoDirectory::State::Stopped);
    m_entriesSpin->setEnabled(s == DemoDirectory::State::Stopped);
    const bool one = m_topologyCombo->currentData().toInt() == 0;
    m_tlsCheck->setEnabled(s == DemoDirectory::State::Stopped && one);
    m_topologyCombo->setEnabled(
        s == DemoDirectory::State::Stopped && !m_tlsCheck->isChecked() && !m_accessLogCheck->isChecked());
    m_accessLogCheck->setEnabled(s == DemoDirectory::State::Stopped && one);
    m_stopButton->setEnabled(s == DemoDirectory::State::Running || s == DemoDirectory::State::Starting);
    m_stopButton->setText(s == DemoDirectory::State::Starting ? tr("Cancel") : tr("Stop demo directory"));
    switch (s) {
    case DemoDirectory::State::Stopped:
        m_statusLabel->setText(m_demo->lastError().isEmpty()
                ? tr("A private OpenLDAP server with generated people, for trying DirBench out.")
                : tr("<span style=\"color:%2\">Could not start: %1</span>")
                      .arg(m_demo->lastError().toHtmlEscaped(), NoteStyle::errorColourNow().name()));
        break;
    case DemoDirectory::State::Starting:
        m_statusLabel->setText(tr("Starting (%1 entries)…").arg(Units::formatNumber(m_entriesSpin->value(), 0)));
        break;
    case DemoDirectory::State::Running: {
        const auto info = m_demo->info();
        QString text = info
            ? tr("Running at %1 with %2 entries.")
                  .arg(info->ldapsUri.isEmpty() ? info->uri : info->ldapsUri, Units::formatNumber(info->entries, 0))
            : tr("Running.");
        QStringList others;
        for (const SandboxServer& r : info ? info->replicas : QList<SandboxServer>())
            others << r.uri;
        if (!others.isEmpty())
            text += info->topology == u"mirror" ? tr(" Its mirror at %1.").arg(others.join(QStringLiteral(", ")))
                                                : tr(" Replicas at %1.").arg(others.join(QStringLiteral(", ")));
        m_statusLabel->setText(text);
        break;
    }
    case DemoDirectory::State::Stopping:
        m_statusLabel->setText(tr("Stopping…"));
        break;
    }
}
