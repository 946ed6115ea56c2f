#include "ui/widgets/sizingresultview.h"

#include "core/catalog/sources.h"
#include "core/common/units.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/sizingsummary.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/warningslabel.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include <cmath>

namespace {

QString noteColour()
{
    return NoteStyle::colour(QApplication::palette()).name();
}

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString mb(double v)
{
    return Units::formatNumber(v, std::fabs(v - std::round(v)) < 1e-9 ? 0 : 1) + QStringLiteral(" MB");
}

} // namespace

SizingResultView::SizingResultView(QWidget* parent)
    : QWidget(parent)
    , m_totalLabel(new QLabel(this))
    , m_termsLabel(new QLabel(this))
    , m_invalidLabel(new QLabel(this))
    , m_warnings(new WarningsLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_recommendations(new QTextBrowser(this))
    , m_attributes(new QTableWidget(this))
    , m_applyFormat(new QLabel(this))
    , m_apply(new QPlainTextEdit(this))
    , m_copyButton(new QPushButton(tr("Copy"), this))
{
    m_totalLabel->setObjectName(QStringLiteral("totalRamLabel"));
    m_totalLabel->setStyleSheet(QStringLiteral("font-size: 16pt; font-weight: bold;"));
    m_totalLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_termsLabel->setObjectName(QStringLiteral("termsLabel"));
    m_termsLabel->setWordWrap(true);
    m_termsLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_invalidLabel->setObjectName(QStringLiteral("invalidLabel"));
    m_invalidLabel->setWordWrap(true);
    NoteStyle::applyError(m_invalidLabel, false);
    m_invalidLabel->hide();
    m_warnings->setObjectName(QStringLiteral("sizingWarnings"));
    m_recommendations->setObjectName(QStringLiteral("recommendationsView"));
    m_recommendations->setOpenExternalLinks(true);
    m_attributes->setObjectName(QStringLiteral("attributeTable"));
    m_attributes->setColumnCount(4);
    m_attributes->setHorizontalHeaderLabels({ tr("Attribute"), tr("Entries"), tr("Presence"), tr("Index candidate") });
    m_attributes->verticalHeader()->hide();
    m_attributes->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_attributes->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    m_tabs->setObjectName(QStringLiteral("sizingTabs"));
    m_tabs->addTab(m_recommendations, tr("Recommendations"));
    m_tabs->addTab(m_attributes, tr("LDIF attributes"));
    m_applyFormat->setObjectName(QStringLiteral("applyFormatLabel"));
    m_apply->setObjectName(QStringLiteral("applyText"));
    m_apply->setReadOnly(true);
    m_apply->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_apply->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_apply->setMaximumHeight(170);
    m_copyButton->setObjectName(QStringLiteral("copyApplyButton"));
    m_copyButton->setToolTip(tr("Copy the change to the clipboard; DirBench never applies it"));

    auto* applyHeader = new QHBoxLayout;
    applyHeader->addWidget(m_applyFormat, 1);
    applyHeader->addWidget(m_copyButton);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_totalLabel);
    layout->addWidget(m_termsLabel);
    layout->addWidget(m_invalidLabel);
    layout->addWidget(m_warnings);
    layout->addWidget(m_tabs, 1);
    layout->addLayout(applyHeader);
    layout->addWidget(m_apply);

    connect(m_copyButton, &QPushButton::clicked, this,
        [this] { QApplication::clipboard()->setText(m_apply->toPlainText()); });
    setLdifStats(nullptr);
    m_totalLabel->setText(tr("Total RAM: –"));
    m_copyButton->setEnabled(false);
}

QString SizingResultView::termsLine(const SizingResult& r)
{
    const QJsonObject& t = r.terms;
    auto v = [&t](const char* k) { return t.value(QLatin1String(k)).toDouble(); };
    if (r.server == u"389ds") {
        const double factor = v("entry_caches_mb") > 0 ? v("entry_caches_term_mb") / v("entry_caches_mb") : 2.3;
        return tr("base %1 + dbcache %2 + %3 × entry caches %4 (= %5) + import cache %6")
            .arg(mb(v("base_mb")), mb(v("dbcache_mb")), Units::formatNumber(factor, 1), mb(v("entry_caches_mb")),
                mb(v("entry_caches_term_mb")), mb(v("import_cache_mb")));
    }
    QStringList parts;
    for (auto it = t.constBegin(); it != t.constEnd(); ++it) {
        if (it.key() == u"total_ram_mb" || !it.value().isDouble())
            continue;
        QString name = it.key();
        const bool isMb = name.endsWith(QStringLiteral("_mb"));
        if (isMb)
            name.chop(3);
        name.replace(u'_', u' ');
        parts << name + QStringLiteral(" ")
                + (isMb ? mb(it.value().toDouble()) : Units::formatNumber(it.value().toDouble(), 0));
    }
    return parts.join(QStringLiteral(" · "));
}

QString SizingResultView::recommendationHtml(const Recommendation& r)
{
    QString h = QStringLiteral("<h3 style='margin-bottom:2px'>%1: %2</h3>").arg(esc(r.name), esc(changeText(r)));
    if (r.change() == u"lower")
        h += QStringLiteral("<div style='color:%2'><b>%1</b></div>")
                 .arg(tr("Lower than the server has now: see the note"), NoteStyle::warnColourNow().name());
    h += QStringLiteral("<div><i>%1</i></div>").arg(esc(r.formula));
    if (!r.computation.isEmpty())
        h += QStringLiteral("<div style='font-family:monospace'>%1</div>").arg(esc(r.computation));
    if (!r.inputs.isEmpty()) {
        QStringList ins;
        for (const SizingInputUsed& i : r.inputs)
            ins << QStringLiteral("%1 = %2 <span style='color:%4'>(%3)</span>")
                       .arg(esc(i.name), esc(SizingText::withUnit(i.value, i.unit)), esc(i.origin), noteColour());
        h += QStringLiteral("<div>%1 %2</div>").arg(tr("Inputs:"), ins.join(QStringLiteral(", ")));
    }
    if (!r.note.isEmpty())
        h += QStringLiteral("<div style='color:%2'>%1</div>").arg(esc(r.note), NoteStyle::warnColourNow().name());
    if (!r.source.isEmpty())
        h += QStringLiteral("<div style='color:%3'>%1 %2</div>")
                 .arg(tr("Source:"), esc(Sources::readable(r.source)), noteColour());
    return h;
}

QString SizingResultView::changeText(const Recommendation& r)
{
    if (r.isSetting && !r.current)
        return tr("%1 (now: not read; \"Read from the LDAP page's server\" reads it)")
            .arg(SizingText::withUnit(r.value, r.unit));
    return SizingText::proposal(r);
}

void SizingResultView::setResult(const SizingResult& r)
{
    m_invalidLabel->hide();
    const std::optional<double> total = SizingSummary::totalRamMb(r);
    m_totalLabel->setText(total ? tr("Total RAM: %1").arg(mb(*total)) : tr("Total RAM: not computed for this server"));
    QString terms = termsLine(r);
    if (const Recommendation* tot = r.find(QStringLiteral("total RAM")))
        terms = QStringLiteral("%1<br><span style='font-family:monospace'>%2</span><br>%3")
                    .arg(esc(terms), esc(tot->computation), esc(tot->formula));
    else
        terms = esc(terms);
    m_termsLabel->setText(terms);
    m_warnings->setWarnings(r.warnings);
    QString html;
    m_count = 0;
    for (const Recommendation& rec : r.recommendations) {
        html += recommendationHtml(rec);
        ++m_count;
    }
    m_recommendations->setHtml(html);
    m_applyFormat->setText(
        tr("<b>Apply</b> (%1) – DirBench shows the change; it never applies it").arg(esc(r.applyFormat)));
    m_apply->setPlainText(r.apply.isEmpty() ? tr("# nothing to set") : r.apply);
    m_copyButton->setEnabled(!r.apply.isEmpty());
}

void SizingResultView::setInvalid(const QString& why)
{
    m_invalidLabel->setText(tr("No result for these inputs: %1").arg(why));
    m_invalidLabel->show();
    m_totalLabel->setText(tr("Total RAM: –"));
    m_termsLabel->clear();
    m_warnings->setWarnings({});
    m_recommendations->clear();
    m_count = 0;
    m_applyFormat->clear();
    m_apply->clear();
    m_copyButton->setEnabled(false);
}

void SizingResultView::setLdifStats(const LdifStats* s)
{
    m_attributes->setRowCount(0);
    m_tabs->setTabEnabled(1, s != nullptr);
    if (!s)
        return;
    QHash<QString, QString> candidates;
    for (const LdifIndexCandidate& c : s->indexCandidates)
        candidates.insert(c.attribute.toLower(), c.indexTypes + QStringLiteral(" – ") + c.reason);
    m_attributes->setRowCount(int(s->attributes.size()));
    int row = 0;
    for (const LdifAttributeStat& a : s->attributes) {
        const QStringList cells { a.name, Units::formatNumber(double(a.entries), 0),
            Units::formatNumber(a.presence * 100, 1) + QStringLiteral(" %"), candidates.value(a.name) };
        for (int c = 0; c < cells.size(); ++c)
            m_attributes->setItem(row, c, new QTableWidgetItem(cells[c]));
        ++row;
    }
    m_tabs->setTabText(1, tr("LDIF attributes (%1 index candidates)").arg(s->indexCandidates.size()));
}

QString SizingResultView::totalText() const
{
    return m_totalLabel->text();
}

QString SizingResultView::termsText() const
{
    return m_termsLabel->text();
}

QString SizingResultView::applyText() const
{
    return m_apply->toPlainText();
}

QString SizingResultView::applyFormatText() const
{
    return m_applyFormat->text();
}

QString SizingResultView::recommendationsHtml() const
{
    return m_recommendations->toHtml();
}

int SizingResultView::attributeRows() const
{
    return m_attributes->rowCount();
}
