#include "ui/pages/advisorpage.h"

#include "core/catalog/comparerecord.h"
#include "core/catalog/need.h"
#include "core/catalog/seedexample.h"
#include "ui/charts/barchartview.h"
#include "ui/pages/advisorevalform.h"
#include "ui/pages/advisorneedform.h"
#include "ui/widgets/comparisonview.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/scrolled.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QResizeEvent>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

using namespace CloudCatalog;

namespace {
const QString kDirKey = QStringLiteral("advisor/dir");
constexpr int kDebounceMs = 150;
// The page width from which "What do I need" and "Measured vs listed" sit side by side (the left column is 400 px).
constexpr int kSideBySideMinWidth = 1300;
} // namespace

AdvisorPage::AdvisorPage(QWidget* parent)
    : Page(parent)
    , m_catalog(Catalog::load())
    , m_eval(new AdvisorEvalForm(this))
    , m_needForm(new AdvisorNeedForm(this))
    , m_sizes(new BarChartView(this))
    , m_vms(new BarChartView(this))
    , m_compare(new ComparisonView(this))
    , m_catalogLabel(new QLabel(this))
    , m_seedCombo(new QComboBox(this))
    , m_testCombo(new QComboBox(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("advisorPage"));
    m_sizes->setObjectName(QStringLiteral("needSizesChart"));
    m_vms->setObjectName(QStringLiteral("needVmChart"));
    m_seedCombo->setObjectName(QStringLiteral("seedCombo"));
    m_catalogLabel->setWordWrap(true);
    NoteStyle::apply(m_catalogLabel);
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);
    m_sizes->setLogScale(true);
    m_sizes->setAxisTitle(tr("GiB, log scale"));
    m_sizes->setToneNames({ tr("meets it, sustained"), tr("meets it (catalog entry uncertain)"), tr("no size meets it"),
        QString(), QString() });
    m_vms->setAxisTitle(tr("MB/s"));
    m_vms->setToneNames(
        { tr("does not cap it"), tr("only 30 min per 24 h"), tr("caps it"), tr("no published cap"), QString() });

    // Left: catalog, disk at a size, requirement.
    auto* catalogBox = new QGroupBox(tr("Catalog"), this);
    auto* loadButton = new QPushButton(tr("Load newer catalog…"), catalogBox);
    loadButton->setObjectName(QStringLiteral("loadCatalogButton"));
    loadButton->setProperty("cliOption", QStringLiteral("catalog"));
    auto* catalogLayout = new QVBoxLayout(catalogBox);
    catalogLayout->addWidget(m_catalogLabel);
    catalogLayout->addWidget(loadButton);
    auto* evalBox = new QGroupBox(tr("Disk at a size"), this);
    (new QVBoxLayout(evalBox))->addWidget(m_eval);
    auto* needBox = new QGroupBox(tr("What do I need"), this);
    (new QVBoxLayout(needBox))->addWidget(m_needForm);
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->addWidget(needBox);
    leftLayout->addWidget(evalBox);
    leftLayout->addWidget(catalogBox);
    leftLayout->addStretch(1);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(left);
    scroll->setFixedWidth(400);

    // Right: "what do I need" (disk sizes above, VMs below) beside measured vs listed.
    auto* needCharts = new QGroupBox(tr("What do I need"), this);
    needCharts->setToolTip(
        tr("The smallest disk of each type that meets the requirement, and the VMs that do not cap it"));
    auto* needLayout = new QVBoxLayout(needCharts);
    needLayout->addWidget(m_sizes, 3);
    needLayout->addWidget(m_vms, 2);
    auto* compareBox = new QGroupBox(tr("Measured vs listed"), this);
    auto* openButton = new QPushButton(tr("Open disk record…"), compareBox);
    openButton->setObjectName(QStringLiteral("openRecordButton"));
    openButton->setProperty("cliOption", QStringLiteral("run"));
    m_seedCombo->setProperty("cliOption", QStringLiteral("seed-example"));
    m_testCombo->setObjectName(QStringLiteral("compareTestCombo"));
    m_testCombo->setProperty("cliOption", QStringLiteral("test"));
    m_testCombo->setToolTip(tr("The suite's sub-test a record is compared by (a suite record holds several)"));
    m_testCombo->setPlaceholderText(tr("sub-test"));
    m_testCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon); // the page fits a laptop
    m_testCombo->setMinimumContentsLength(6);
    m_testCombo->hide();
    connect(m_testCombo, &QComboBox::activated, this, [this](int index) {
        if (!m_savedCases.isEmpty())
            showSavedCase(index);
        else if (QString error; !m_recordPath.isEmpty() && !openRecord(m_recordPath, &error))
            emit statusMessage(error);
    });
    m_seedCombo->addItem(tr("The eDirectory article's cases: choose one…"), QString());
    for (const auto& c : SeedExample::cases())
        m_seedCombo->addItem(tr("Article: %1").arg(c.label), c.id);
    // The seed's case labels are long: the combo must not set the page's width (the window fits a laptop).
    m_seedCombo->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_seedCombo->setMinimumContentsLength(16);
    auto* bar = new QHBoxLayout;
    auto* saveButton = new QPushButton(tr("Save in history"), compareBox);
    saveButton->setObjectName(QStringLiteral("saveComparisonButton"));
    saveButton->setToolTip(tr("Keep the comparison on screen (a cloud-compare record) in the run history"));
    connect(saveButton, &QPushButton::clicked, this, [this] {
        const RunRecord rec = comparisonRecord();
        if (rec.kind.isEmpty())
            emit statusMessage(tr("No comparison to save: open a disk record or choose a seed case"));
        else
            emit saveRequested(rec);
    });
    bar->addWidget(openButton);
    bar->addWidget(m_testCombo); // shown only when there is a choice: the box keeps its width
    bar->addWidget(m_seedCombo, 1);
    bar->addWidget(saveButton);
    auto* hint = new QLabel(tr("A record is compared with the disk, size and VM picked on the left."), compareBox);
    NoteStyle::apply(hint);
    hint->setWordWrap(true);
    auto* compareLayout = new QVBoxLayout(compareBox);
    compareLayout->addLayout(bar);
    compareLayout->addWidget(hint);
    compareLayout->addWidget(m_compare, 1);
    auto* split = m_split = new QSplitter(Qt::Horizontal, this);
    // Charts of many bars scroll, never grow the window; a narrow window scrolls them sideways, never cuts them.
    auto* needScroll = Scrolled::vertically(needCharts, split);
    needScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    split->addWidget(needScroll);
    split->addWidget(compareBox);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({ 600, 360 });

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(scroll);
    layout->addWidget(split, 1);

    connect(loadButton, &QPushButton::clicked, this, &AdvisorPage::chooseCatalog);
    connect(openButton, &QPushButton::clicked, this, &AdvisorPage::chooseRecord);
    connect(m_seedCombo, &QComboBox::activated, this, [this] {
        const QString id = m_seedCombo->currentData().toString();
        if (!id.isEmpty())
            showSeedCase(id);
    });
    connect(m_needForm, &AdvisorNeedForm::edited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &AdvisorPage::recomputeNeed);
    connect(m_eval, &AdvisorEvalForm::changed, this, &AdvisorPage::recompare);

    m_needForm->setProviders(m_catalog.providers());
    m_eval->setCatalog(&m_catalog);
    m_eval->select(QStringLiteral("azure-premium-ssd"), 1024, QStringLiteral("Standard_DS13_v2"));
    m_catalogLabel->setText(catalogText());
    recomputeNeed();
}

QString AdvisorPage::catalogText() const
{
    const bool builtIn = m_catalog.origin.startsWith(u':');
    return tr("%1 (schema %2, compiled %3): %4 disk types, %5 VMs. %6")
        .arg(builtIn ? tr("Built-in catalog") : m_catalog.origin)
        .arg(m_catalog.schemaVersion)
        .arg(m_catalog.compiled)
        .arg(m_catalog.disks.size())
        .arg(m_catalog.vms.size())
        .arg(m_catalog.attribution);
}

void AdvisorPage::start()
{
    recomputeNeed();
    recompare();
}

void AdvisorPage::recomputeNeed()
{
    using Tone = BarChartView::Tone;
    m_debounce->stop();
    Requirement r;
    if (!m_needForm->read(m_catalog, &r)) {
        m_needError = m_needForm->errorField() + QStringLiteral(": ") + m_needForm->errorText();
        emit statusMessage(m_needError);
        emit needRecomputed();
        return;
    }
    m_needError.clear();
    const NeedResult n = need(m_catalog, r);
    QList<BarChartView::Bar> sizes;
    for (const auto& row : n.disks) {
        if (!row.met) {
            sizes << BarChartView::Bar { tr("%1: none").arg(row.disk->apiName), 0, Tone::Bad };
            continue;
        }
        QString what = row.tier.isEmpty() ? QStringLiteral("%1 GiB").arg(row.sizeGib)
                                          : QStringLiteral("%1 %2 GiB").arg(row.tier).arg(row.sizeGib);
        if (row.provisionIops)
            what += tr(", %1 IOPS").arg(*row.provisionIops);
        sizes << BarChartView::Bar { QStringLiteral("%1: %2").arg(row.disk->apiName, what), row.sizeGib,
            row.disk->uncertain ? Tone::Warn : Tone::Good };
    }
    m_sizes->setTitle(tr("Smallest disk for %1").arg(r.text()));
    m_sizes->setBars(sizes);
    QList<BarChartView::Bar> vms;
    for (const auto& v : n.vms) {
        const Tone tone = v.verdict == u"ok" ? Tone::Good
            : v.verdict == u"burst-only"     ? Tone::Warn
            : v.verdict == u"caps"           ? Tone::Bad
                                             : Tone::Neutral;
        vms << BarChartView::Bar { v.vm->sustained
                ? QStringLiteral("%1: %2 MB/s").arg(v.vm->id).arg(v.vm->sustained->mbps)
                : tr("%1: not published").arg(v.vm->id),
            v.vm->sustained ? v.vm->sustained->mbps : 0, tone };
    }
    m_vms->setTitle(tr("VMs (sustained disk cap)"));
    m_vms->setBars(vms);
    m_vms->setTarget(r.mbps.value_or(0), tr("required MB/s"));
    emit needRecomputed();
}

void AdvisorPage::recompare()
{
    m_comparison.reset();
    if (!m_measured)
        return;
    const DiskType* d = m_eval->diskType();
    if (!d)
        return;
    QString field;
    QString error;
    const auto c = compare(*m_measured, *d, m_eval->sizeGib(), m_eval->vm(), m_eval->provisioning(), &field, &error);
    if (!c) {
        m_compare->clear(field + QStringLiteral(": ") + error);
        return;
    }
    m_comparison = c;
    m_compare->setComparison(*c, m_measuredSource);
}

bool AdvisorPage::showRecord(const RunRecord& record, QString* error)
{
    QList<CloudCase> cases = record.kind == u"cloud-compare" ? casesOf(record) : QList<CloudCase>();
    if (cases.isEmpty()) {
        if (error)
            *error = tr("the record holds no comparison");
        return false;
    }
    m_measured.reset();
    m_comparison.reset();
    m_recordPath.clear();
    m_savedCases = cases;
    m_savedSource = measuredSourceOf(record);
    {
        const QSignalBlocker block(m_testCombo);
        m_testCombo->clear();
        for (const CloudCase& c : std::as_const(m_savedCases))
            m_testCombo->addItem(c.label);
        m_testCombo->setVisible(m_savedCases.size() > 1);
    }
    const auto failed = std::find_if(cases.cbegin(), cases.cend(), [](const CloudCase& c) { return c.failed(); });
    showSavedCase(failed == cases.cend() ? 0 : int(failed - cases.cbegin())); // a failed case first
    return true;
}

// A case of the saved comparison as the record holds it (not evaluated again against the catalog in use).
void AdvisorPage::showSavedCase(int index)
{
    if (index < 0 || index >= m_savedCases.size())
        return;
    const QSignalBlocker block(m_testCombo);
    m_testCombo->setCurrentIndex(index);
    m_compare->setCase(m_savedCases.at(index), m_savedSource.isEmpty() ? tr("a saved comparison") : m_savedSource);
}

void AdvisorPage::showSeedCase(const QString& id)
{
    m_savedCases.clear();
    for (const auto& c : SeedExample::cases()) {
        if (c.id != id)
            continue;
        m_measured = SeedExample::measured(c);
        m_measuredSource = tr("the eDirectory article's table (%1): \"%2\"").arg(SeedExample::command(), c.quote);
        m_seedCombo->setCurrentIndex(std::max(0, m_seedCombo->findData(id)));
        m_eval->setWorkload(0, 64); // dd: buffered 64 KiB writes, queue depth set by the kernel
        m_eval->select(c.diskType, c.sizeGib, c.vm, c.provisioning.iops); // emits changed() -> recompare
        return;
    }
}

bool AdvisorPage::openRecord(const QString& path, QString* error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *error = path + QStringLiteral(": ") + f.errorString();
        return false;
    }
    QString why;
    const auto rec = RunRecord::fromJsonBytes(f.readAll(), &why);
    const QString test = path == m_recordPath ? m_testCombo->currentData().toString() : QString();
    const auto m = rec ? measuredFromRecord(*rec, test, &why) : std::nullopt;
    if (!m) {
        *error = QFileInfo(path).fileName() + QStringLiteral(": ") + why;
        m_compare->clear(*error);
        return false;
    }
    m_measured = m;
    m_savedCases.clear();
    m_recordPath = path;
    fillTests(*rec, m->test);
    m_measuredSource = tr("disk record %1").arg(QFileInfo(path).fileName());
    m_seedCombo->setCurrentIndex(0);
    m_eval->setWorkload(m->queueDepth, m->blockKib); // emits changed() -> recompare
    return true;
}

// The record's sub-tests (a suite's parts; one for a single test), the one compared chosen.
void AdvisorPage::fillTests(const RunRecord& record, const QString& current)
{
    const QSignalBlocker block(m_testCombo);
    m_testCombo->clear();
    for (const QString& t : testsOf(record))
        m_testCombo->addItem(t, t);
    m_testCombo->setCurrentIndex(std::max(0, m_testCombo->findData(current)));
    m_testCombo->setVisible(m_testCombo->count() > 1);
}

bool AdvisorPage::loadCatalogFile(const QString& path, QString* error)
{
    auto c = Catalog::loadFile(path, error);
    if (!c) {
        emit statusMessage(tr("Catalog refused: %1").arg(*error));
        return false;
    }
    m_catalog = *c;
    m_eval->setCatalog(&m_catalog);
    m_needForm->setProviders(m_catalog.providers());
    m_catalogLabel->setText(catalogText());
    recomputeNeed();
    recompare();
    emit statusMessage(tr("Catalog loaded from %1").arg(path));
    return true;
}

RunRecord AdvisorPage::comparisonRecord() const
{
    if (!m_comparison)
        return {};
    return compareRecord(
        m_catalog, { *m_comparison }, { { QStringLiteral("source"), m_measuredSource } }, m_measuredSource);
}

void AdvisorPage::chooseCatalog()
{
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Newer cloud catalog"), QSettings().value(kDirKey).toString(), tr("Catalog (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(kDirKey, QFileInfo(path).absolutePath());
    QString error;
    loadCatalogFile(path, &error);
}

void AdvisorPage::chooseRecord()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Disk record (dirbench-cli disk --json)"),
        QSettings().value(kDirKey).toString(), tr("Run record (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(kDirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!openRecord(path, &error))
        emit statusMessage(error);
}

void AdvisorPage::resizeEvent(QResizeEvent* event)
{
    Page::resizeEvent(event);
    // Side by side the charts need some 1,300 px of page; a narrower window (a laptop at Larger text, a scaled
    // screen) stacks them, so neither box's charts are squeezed to a sliver.
    const Qt::Orientation wanted = width() >= kSideBySideMinWidth ? Qt::Horizontal : Qt::Vertical;
    if (m_split && m_split->orientation() != wanted)
        m_split->setOrientation(wanted);
}
