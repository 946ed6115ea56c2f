#include "ui/pages/advisorevalform.h"

#include "core/catalog/sources.h"
#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QUrl>
#include <QVBoxLayout>

#include <cmath>

using namespace CloudCatalog;

namespace {

QString num(const std::optional<double>& v, int decimals = 1)
{
    if (!v)
        return QObject::tr("not published");
    return QLocale(QLocale::English).toString(*v, 'f', std::abs(*v - std::round(*v)) < 1e-9 ? 0 : decimals);
}

bool isProvisioned(const DiskType* d)
{
    return d && (d->model == u"provisioned_independent_of_size" || d->model == u"provisioned_iops");
}

} // namespace

AdvisorEvalForm::AdvisorEvalForm(QWidget* parent)
    : QWidget(parent)
    , m_provider(new QComboBox(this))
    , m_disk(new QComboBox(this))
    , m_size(new QDoubleSpinBox(this))
    , m_provisioned(new QDoubleSpinBox(this))
    , m_vm(new QComboBox(this))
    , m_qd(new QSpinBox(this))
    , m_block(new QDoubleSpinBox(this))
    , m_provisionedMbps(new QDoubleSpinBox(this))
    , m_access(new QComboBox(this))
    , m_latency(new QDoubleSpinBox(this))
    , m_result(new QLabel(this))
{
    buildWorkloadFields();
    m_provider->setObjectName(QStringLiteral("evalProvider"));
    m_disk->setObjectName(QStringLiteral("evalDisk"));
    m_size->setObjectName(QStringLiteral("evalSize"));
    m_vm->setObjectName(QStringLiteral("evalVm"));
    m_qd->setObjectName(QStringLiteral("evalQueueDepth"));
    m_result->setObjectName(QStringLiteral("evalResult"));
    m_size->setDecimals(0);
    m_size->setSuffix(tr(" GiB"));
    m_provisioned->setDecimals(0);
    m_provisioned->setRange(0, 1e7);
    m_provisioned->setSpecialValueText(tr("default"));
    m_provisioned->setSuffix(tr(" IOPS"));
    m_provisioned->setToolTip(tr("Provisioned IOPS (io1/io2, gp3, Premium SSD v2, Ultra); 0 = the default"));
    m_qd->setRange(0, 4096);
    m_qd->setSpecialValueText(tr("not known"));
    m_qd->setToolTip(tr("The test's I/Os in flight; with the block size it sets a ceiling (Little's law)"));
    m_block->setRange(0, 65536);
    m_block->setDecimals(0);
    m_block->setSuffix(tr(" KiB"));
    m_block->setSpecialValueText(tr("not known"));
    m_result->setWordWrap(true);
    m_result->setTextFormat(Qt::RichText);
    m_result->setOpenExternalLinks(true);
    m_result->setTextInteractionFlags(Qt::TextBrowserInteraction);

    auto* form = new QFormLayout;
    form->addRow(tr("Provider"), m_provider);
    form->addRow(tr("Disk type"), m_disk);
    form->addRow(tr("Size"), m_size);
    auto* provisionedRow = new QHBoxLayout; // IOPS and MB/s in one row: the labels keep the form narrow
    provisionedRow->addWidget(m_provisioned, 1);
    provisionedRow->addWidget(m_provisionedMbps, 1);
    form->addRow(tr("Provisioned"), provisionedRow);
    form->addRow(tr("VM"), m_vm);
    form->addRow(tr("Queue depth"), m_qd);
    form->addRow(tr("Block size"), m_block);
    form->addRow(tr("Access"), m_access);
    form->addRow(tr("Latency"), m_latency);
    const std::pair<QWidget*, const char*> options[]
        = { { m_provider, "provider" }, { m_disk, "disk" }, { m_size, "size-gb" },
              { m_provisioned, "provisioned-iops" }, { m_provisionedMbps, "provisioned-mbps" }, { m_vm, "vm" },
              { m_qd, "queue-depth" }, { m_block, "block-kib" }, { m_access, "access" }, { m_latency, "latency-ms" } };
    for (const auto& [w, option] : options)
        w->setProperty("cliOption", QLatin1String(option)); // each input names the option of `cloud eval` it sets
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_result);

    connect(m_provider, &QComboBox::currentIndexChanged, this, [this] {
        fillDisks();
        fillVms();
        onDiskChanged();
    });
    connect(m_disk, &QComboBox::currentIndexChanged, this, &AdvisorEvalForm::onDiskChanged);
    for (auto* spin : { m_size, m_provisioned, m_block, m_provisionedMbps, m_latency })
        connect(spin, &QDoubleSpinBox::valueChanged, this, &AdvisorEvalForm::recompute);
    connect(m_access, &QComboBox::currentIndexChanged, this, &AdvisorEvalForm::recompute);
    connect(m_qd, &QSpinBox::valueChanged, this, &AdvisorEvalForm::recompute);
    connect(m_vm, &QComboBox::currentIndexChanged, this, &AdvisorEvalForm::recompute);
}

void AdvisorEvalForm::buildWorkloadFields()
{
    m_provisionedMbps->setObjectName(QStringLiteral("evalProvisionedMbps"));
    m_provisionedMbps->setDecimals(0);
    m_provisionedMbps->setRange(0, 1e6);
    m_provisionedMbps->setSpecialValueText(tr("default"));
    m_provisionedMbps->setSuffix(tr(" MB/s"));
    m_provisionedMbps->setToolTip(tr("Provisioned MB/s (gp3, Premium SSD v2); 0 = the default"));
    m_access->setObjectName(QStringLiteral("evalAccess"));
    m_access->addItem(tr("write"), int(Access::Write));
    m_access->addItem(tr("read"), int(Access::Read));
    m_access->setToolTip(tr("The test's I/O: limits that differ for reads and writes are taken for this one"));
    m_latency->setObjectName(QStringLiteral("evalLatency"));
    m_latency->setDecimals(3);
    m_latency->setRange(0, 60000);
    m_latency->setSpecialValueText(tr("typical"));
    m_latency->setSuffix(tr(" ms"));
    m_latency->setToolTip(tr("Latency per I/O for the queue-depth ceiling (0 = the catalog's typical latency)"));
}

void AdvisorEvalForm::setCatalog(const Catalog* catalog)
{
    const QString keepDisk = diskType() ? diskType()->id : QString();
    m_catalog = catalog;
    m_filling = true;
    {
        const QSignalBlocker block(m_provider);
        m_provider->clear();
        m_provider->addItem(tr("all providers"), QString());
        for (const auto& p : catalog->providers())
            m_provider->addItem(p.toUpper(), p);
    }
    fillDisks();
    fillVms();
    m_filling = false;
    const int i = m_disk->findData(keepDisk);
    m_disk->setCurrentIndex(i >= 0 ? i : 0);
    onDiskChanged();
}

void AdvisorEvalForm::fillDisks()
{
    const QSignalBlocker block(m_disk);
    const QString keep = m_disk->currentData().toString();
    const QString provider = m_provider->currentData().toString();
    m_disk->clear();
    for (const auto& d : m_catalog->disks)
        if (provider.isEmpty() || d.provider == provider)
            m_disk->addItem(QStringLiteral("%1 — %2").arg(d.label(), d.name), d.id);
    const int i = m_disk->findData(keep);
    m_disk->setCurrentIndex(i >= 0 ? i : 0);
}

void AdvisorEvalForm::fillVms()
{
    const QSignalBlocker block(m_vm);
    const QString keep = m_vm->currentData().toString();
    const QString provider = m_provider->currentData().toString();
    m_vm->clear();
    m_vm->addItem(tr("no VM"), QString());
    for (const auto& v : m_catalog->vms)
        if (provider.isEmpty() || v.provider == provider)
            m_vm->addItem(v.id, v.id);
    const int i = m_vm->findData(keep);
    m_vm->setCurrentIndex(i >= 0 ? i : 0);
}

void AdvisorEvalForm::onDiskChanged()
{
    const DiskType* d = diskType();
    if (!d)
        return;
    {
        const QSignalBlocker block(m_size);
        const double keep = m_size->value();
        m_size->setRange(d->minGib, d->maxGib);
        m_size->setValue(keep >= d->minGib && keep <= d->maxGib && keep > 0 ? keep : std::max(d->minGib, 1024.0));
    }
    m_provisioned->setEnabled(isProvisioned(d));
    m_provisionedMbps->setEnabled(isProvisioned(d));
    recompute();
}

void AdvisorEvalForm::select(const QString& diskId, double sizeGib, const QString& vmId, std::optional<double> iops)
{
    const DiskType* d = m_catalog ? m_catalog->disk(diskId) : nullptr;
    if (!d)
        return;
    {
        const QSignalBlocker b1(m_provider);
        m_provider->setCurrentIndex(std::max(0, m_provider->findData(d->provider)));
        fillDisks();
        fillVms();
    }
    {
        const QSignalBlocker b2(m_disk);
        m_disk->setCurrentIndex(m_disk->findData(d->id));
    }
    {
        const QSignalBlocker b3(m_size);
        m_size->setRange(d->minGib, d->maxGib);
        m_size->setValue(sizeGib);
    }
    const QSignalBlocker b4(m_vm);
    m_vm->setCurrentIndex(std::max(0, m_vm->findData(vmId)));
    const QSignalBlocker b5(m_provisioned);
    m_provisioned->setEnabled(isProvisioned(d));
    m_provisionedMbps->setEnabled(isProvisioned(d));
    m_provisioned->setValue(iops.value_or(0));
    recompute();
}

void AdvisorEvalForm::setWorkload(int queueDepth, double blockKib)
{
    const QSignalBlocker b1(m_qd);
    const QSignalBlocker b2(m_block);
    m_qd->setValue(queueDepth);
    m_block->setValue(blockKib);
    recompute();
}

const DiskType* AdvisorEvalForm::diskType() const
{
    return m_catalog ? m_catalog->disk(m_disk->currentData().toString()) : nullptr;
}

double AdvisorEvalForm::sizeGib() const
{
    return m_size->value();
}

const Vm* AdvisorEvalForm::vm() const
{
    const QString id = m_vm->currentData().toString();
    return m_catalog && !id.isEmpty() ? m_catalog->vm(id) : nullptr;
}

Provisioning AdvisorEvalForm::provisioning() const
{
    Provisioning p;
    if (m_provisioned->isEnabled() && m_provisioned->value() > 0)
        p.iops = m_provisioned->value();
    if (const DiskType* d = diskType(); d && m_provisionedMbps->isEnabled() && m_provisionedMbps->value() > 0)
        p.mbps = fromMBps(*d, m_provisionedMbps->value());
    return p;
}

Workload AdvisorEvalForm::workload() const
{
    Workload w;
    w.queueDepth = m_qd->value();
    w.blockKib = m_block->value();
    w.access = Access(m_access->currentData().toInt());
    if (m_latency->value() > 0)
        w.latencyMs = m_latency->value();
    return w;
}

void AdvisorEvalForm::recompute()
{
    if (m_filling || !diskType())
        return;
    QString field;
    m_error.clear();
    m_evaluation = evaluate(*diskType(), sizeGib(), vm(), provisioning(), workload(), &field, &m_error);
    if (!m_evaluation)
        m_error = field + QStringLiteral(": ") + m_error;
    m_result->setText(resultText());
    emit changed();
}

QString AdvisorEvalForm::resultText() const
{
    if (!m_evaluation)
        return QStringLiteral("<span style='color:%2'>%1</span>")
            .arg(m_error.toHtmlEscaped(), NoteStyle::errorColourNow().name());
    const Evaluation& e = *m_evaluation;
    QStringList rows;
    auto row = [&](const QString& k, const QString& v) {
        rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(k, v);
    };
    row(tr("Disk"),
        tr("%1 IOPS, %2 MB/s sustained%3")
            .arg(num(e.diskLimit.iops), num(e.diskLimit.mbps),
                e.raw.tier.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(e.raw.tier)));
    if (e.diskBurst.mbps || e.diskBurst.iops) {
        QString lasts;
        if (e.raw.burstSeconds)
            lasts = std::isinf(*e.raw.burstSeconds)
                ? tr(" while on-demand bursting is enabled (extra charge)")
                : tr(" for %1 min on full credits").arg(num(*e.raw.burstSeconds / 60));
        row(tr("Burst"), tr("%1 IOPS, %2 MB/s%3").arg(num(e.diskBurst.iops), num(e.diskBurst.mbps), lasts));
    } else {
        row(tr("Burst"), tr("none"));
    }
    if (e.vm)
        row(tr("VM cap"),
            e.vm->sustained
                ? tr("%1 MB/s, %2 IOPS%3")
                      .arg(num(e.vmLimit.mbps), num(e.vmLimit.iops),
                          e.vm->burst ? tr("; %1 MB/s for 30 min per 24 h").arg(num(e.vmBurst.mbps)) : QString())
                : tr("not published"));
    if (e.queueCeiling.mbps)
        row(tr("Queue depth"),
            tr("%1 × %2 KiB at %3 ms (%4): %5 MB/s")
                .arg(e.workload.queueDepth)
                .arg(e.workload.blockKib)
                .arg(e.latencyMs)
                .arg(e.latencyBasis, num(e.queueCeiling.mbps)));
    row(tr("Effective"),
        QStringLiteral("<b>%1 MB/s</b> — %2").arg(num(e.effective.mbps), e.bindingText.toHtmlEscaped()));
    QStringList src;
    for (const auto& s : e.disk->sources) {
        // The provider's own page, by title and publisher, where the catalog knows it; else the address's host.
        const Sources::PageLink page = Sources::publishedLink(s.url);
        src << (page.url.isEmpty() ? QStringLiteral("<a href='%1'>%2</a> (%3)")
                                         .arg(s.url, QUrl(s.url).host(), s.asOf.toHtmlEscaped().left(60))
                                   : QStringLiteral("<a href='%1'>%2</a> (%3)")
                                         .arg(page.url, page.label.toHtmlEscaped(), s.asOf.toHtmlEscaped().left(60)));
    }
    QString notes;
    for (const auto& n : e.raw.notes)
        notes += QStringLiteral("<br>• ") + n.toHtmlEscaped();
    if (e.disk->uncertain)
        notes += QStringLiteral("<br><span style='color:%2'>%1</span>")
                     .arg(tr("Marked uncertain in the catalog: re-check the live page."),
                         NoteStyle::warnColourNow().name());
    return QStringLiteral("<table cellspacing='3'>%1</table><small>%2%3<br>%4</small>")
        .arg(rows.join(QString()), tr("Sources: "), src.join(QStringLiteral("; ")), notes);
}
