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
#include <QStandardItemModel>

namespace {

// An item of a combo the current choice does not offer: greyed out, its tooltip saying why.
void offerItem(QComboBox* combo, int index, bool offered, const QString& why)
{
    auto* model = qobject_cast<QStandardItemModel*>(combo->model());
    QStandardItem* item = model ? model->item(index) : nullptr;
    if (!item)
        return;
    item->setEnabled(offered);
    item->setToolTip(offered ? QString() : why);
}

} // namespace

DemoDirectoryBox::DemoDirectoryBox(DemoDirectory* demo, QWidget* parent)
    : QGroupBox(tr("Demo directory"), parent)
    , m_demo(demo)
    , m_serverCombo(new QComboBox(this))
    , m_entriesSpin(new QSpinBox(this))
    , m_tlsCheck(new QCheckBox(tr("TLS (ldaps://)"), this))
    , m_topologyCombo(new QComboBox(this))
    , m_accessLogCheck(new QCheckBox(tr("access log"), this))
    , m_startButton(new QPushButton(tr("Start demo directory"), this))
    , m_stopButton(new QPushButton(tr("Stop demo directory"), this))
    , m_statusLabel(new QLabel(this))
{
    setObjectName(QStringLiteral("demoBox"));
    m_serverCombo->setObjectName(QStringLiteral("demoServerCombo"));
    m_serverCombo->addItem(tr("OpenLDAP (slapd)"), int(DemoSandbox::Server::OpenLdap));
    m_serverCombo->addItem(tr("389 Directory Server"), int(DemoSandbox::Server::Ds389));
    m_serverCombo->setToolTip(tr("Which server the demo runs: OpenLDAP's slapd (TLS, up to 3 replicas, a mirror "
                                 "pair) or the 389 Directory Server (one consumer at most, no TLS; the Curve page's "
                                 "cache sweep restarts it)"));
    for (int i = 0; i < m_serverCombo->count(); ++i) {
        const QString why = DemoSandbox::unavailableReason(DemoSandbox::Server(m_serverCombo->itemData(i).toInt()));
        offerItem(m_serverCombo, i, why.isEmpty(), why);
    }
    m_entriesSpin->setObjectName(QStringLiteral("demoEntriesSpin"));
    m_entriesSpin->setRange(SandboxOptions::kMinEntries, SandboxOptions::kMaxEntries);
    m_entriesSpin->setSingleStep(1000);
    m_entriesSpin->setGroupSeparatorShown(true);
    m_entriesSpin->setValue(SandboxOptions().entries);
    m_entriesSpin->setSuffix(tr(" entries"));
    m_entriesSpin->setToolTip(tr("uid=user0 … ; loading takes about 1 s per 10,000 entries"));
    m_tlsCheck->setObjectName(QStringLiteral("demoTlsCheck"));
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
    m_stopButton->setObjectName(QStringLiteral("stopDemoButton"));
    m_statusLabel->setObjectName(QStringLiteral("demoStatusLabel"));
    m_statusLabel->setWordWrap(true);
    m_statusLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    NoteStyle::apply(m_statusLabel);

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_serverCombo, 0, 0);
    grid->addWidget(m_tlsCheck, 0, 1);
    grid->addWidget(m_entriesSpin, 1, 0);
    grid->addWidget(m_accessLogCheck, 1, 1);
    grid->addWidget(m_topologyCombo, 2, 0);
    grid->addWidget(m_startButton, 3, 0);
    grid->addWidget(m_stopButton, 3, 1);
    grid->addWidget(m_statusLabel, 4, 0, 1, 2);

    connect(m_startButton, &QPushButton::clicked, this, &DemoDirectoryBox::startDemo);
    connect(m_stopButton, &QPushButton::clicked, this, &DemoDirectoryBox::stopDemo);
    connect(m_serverCombo, &QComboBox::currentIndexChanged, this, &DemoDirectoryBox::updateServerChoices);
    connect(m_tlsCheck, &QCheckBox::toggled, this, &DemoDirectoryBox::updateState);
    connect(m_topologyCombo, &QComboBox::currentIndexChanged, this, &DemoDirectoryBox::updateServerChoices);
    connect(m_accessLogCheck, &QCheckBox::toggled, this, &DemoDirectoryBox::updateState);
    connect(m_demo, &DemoDirectory::stateChanged, this, &DemoDirectoryBox::updateState);
    connect(m_demo, &DemoDirectory::failed, this, &DemoDirectoryBox::updateState);
    updateServerChoices();
}

DemoSandbox::Server DemoDirectoryBox::server() const
{
    return DemoSandbox::Server(m_serverCombo->currentData().toInt());
}

void DemoDirectoryBox::setServer(DemoSandbox::Server server)
{
    m_serverCombo->setCurrentIndex(std::max(0, m_serverCombo->findData(int(server))));
}

// What the chosen server offers: 389-ds has no TLS, no mirror pair and one consumer at most.
void DemoDirectoryBox::updateServerChoices()
{
    const bool ds389 = server() == DemoSandbox::Server::Ds389;
    const QString why = tr("the 389-ds demo has one consumer at most");
    for (int i = 0; i < m_topologyCombo->count(); ++i) {
        const int servers = m_topologyCombo->itemData(i).toInt();
        offerItem(m_topologyCombo, i, !ds389 || servers == 0 || servers == 1, why);
    }
    const int chosen = m_topologyCombo->currentData().toInt();
    if (ds389 && chosen != 0 && chosen != 1)
        m_topologyCombo->setCurrentIndex(m_topologyCombo->findData(1));
    if (ds389)
        m_tlsCheck->setChecked(false);
    m_tlsCheck->setToolTip(ds389 ? tr("TLS is not offered by the 389-ds demo")
                                 : tr("Also listen on ldaps:// with a self-signed certificate (the form trusts it)"));
    m_startButton->setToolTip(ds389
            ? tr("Start a private 389 Directory Server (ns-slapd) on this machine and fill in the forms")
            : tr("Start a private OpenLDAP server (slapd) on this machine and fill in the forms"));
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
    m_demo->start(o, server());
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
    m_serverCombo->setEnabled(s == DemoDirectory::State::Stopped);
    const bool one = m_topologyCombo->currentData().toInt() == 0;
    m_tlsCheck->setEnabled(s == DemoDirectory::State::Stopped && one && server() == DemoSandbox::Server::OpenLdap);
    m_topologyCombo->setEnabled(
        s == DemoDirectory::State::Stopped && !m_tlsCheck->isChecked() && !m_accessLogCheck->isChecked());
    m_accessLogCheck->setEnabled(s == DemoDirectory::State::Stopped && one);
    m_stopButton->setEnabled(s == DemoDirectory::State::Running || s == DemoDirectory::State::Starting);
    m_stopButton->setText(s == DemoDirectory::State::Starting ? tr("Cancel") : tr("Stop demo directory"));
    switch (s) {
    case DemoDirectory::State::Stopped:
        m_statusLabel->setText(m_demo->lastError().isEmpty()
                ? (server() == DemoSandbox::Server::Ds389
                        ? tr("A private 389 Directory Server with generated people, for trying DirBench out.")
                        : tr("A private OpenLDAP server with generated people, for trying DirBench out."))
                : tr("<span style=\"color:%2\">Could not start: %1</span>")
                      .arg(m_demo->lastError().toHtmlEscaped(), NoteStyle::errorColourNow().name()));
        break;
    case DemoDirectory::State::Starting:
        m_statusLabel->setText(tr("Starting (%1 entries)…").arg(Units::formatNumber(m_entriesSpin->value(), 0)));
        break;
    case DemoDirectory::State::Running: {
        const auto info = m_demo->info();
        QString text = info
            ? tr("%1 running at %2 with %3 entries.")
                  .arg(info->is389ds() ? tr("389-ds") : tr("OpenLDAP"),
                      info->ldapsUri.isEmpty() ? info->uri : info->ldapsUri, Units::formatNumber(info->entries, 0))
            : tr("Running.");
        QStringList others;
        for (const SandboxServer& r : info ? info->replicas : QList<SandboxServer>())
            others << r.uri;
        if (!others.isEmpty())
            text += info->topology == u"mirror" ? tr(" Its mirror at %1.").arg(others.join(QStringLiteral(", ")))
                : others.size() == 1            ? tr(" Its replica at %1.").arg(others.constFirst())
                                                : tr(" Replicas at %1.").arg(others.join(QStringLiteral(", ")));
        m_statusLabel->setText(text);
        break;
    }
    case DemoDirectory::State::Stopping:
        m_statusLabel->setText(tr("Stopping…"));
        break;
    }
}
