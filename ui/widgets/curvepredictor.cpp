#include "ui/widgets/curvepredictor.h"

#include "core/common/units.h"
#include "ui/widgets/notestyle.h"

#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>

#include <cmath>

namespace {

std::optional<double> number(const QLineEdit* e)
{
    QString t = e->text().trimmed();
    t.remove(u',');
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    return ok && std::isfinite(v) && v > 0 ? std::optional<double>(v) : std::nullopt;
}

} // namespace

CurvePredictor::CurvePredictor(QWidget* parent)
    : QWidget(parent)
    , m_targetEdit(new QLineEdit(this))
    , m_bytesEdit(new QLineEdit(QStringLiteral("3000"), this))
    , m_ramEdit(new QLineEdit(this))
    , m_bytesOrigin(new QLabel(tr("typed"), this))
    , m_ramForTarget(new QLabel(this))
    , m_opsForRam(new QLabel(this))
{
    m_targetEdit->setObjectName(QStringLiteral("targetEdit"));
    m_targetEdit->setPlaceholderText(tr("ops/s you need"));
    m_bytesEdit->setObjectName(QStringLiteral("bytesPerEntryEdit"));
    m_bytesEdit->setToolTip(tr("Memory one cached entry takes: currententrycachesize / currententrycachecount"));
    m_ramEdit->setObjectName(QStringLiteral("ramEdit"));
    m_ramEdit->setPlaceholderText(tr("entry cache in MB"));
    m_bytesOrigin->setObjectName(QStringLiteral("bytesOriginLabel"));
    NoteStyle::apply(m_bytesOrigin);
    m_bytesOrigin->setWordWrap(true);
    for (QLabel* l : { m_ramForTarget, m_opsForRam }) {
        l->setWordWrap(true);
        l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    }
    m_ramForTarget->setObjectName(QStringLiteral("ramForTargetLabel"));
    m_opsForRam->setObjectName(QStringLiteral("opsForRamLabel"));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Bytes per entry"), m_bytesEdit);
    form->addRow(QString(), m_bytesOrigin);
    form->addRow(tr("Target ops/s"), m_targetEdit);
    form->addRow(tr("RAM for this target"), m_ramForTarget);
    form->addRow(tr("Entry cache (MB)"), m_ramEdit);
    form->addRow(tr("ops/s for this RAM"), m_opsForRam);

    connect(m_targetEdit, &QLineEdit::textChanged, this, [this] {
        update();
        emit targetChanged(target());
    });
    connect(m_bytesEdit, &QLineEdit::textEdited, this, [this] { m_bytesOrigin->setText(tr("typed")); });
    for (QLineEdit* e : { m_bytesEdit, m_ramEdit })
        connect(e, &QLineEdit::textChanged, this, &CurvePredictor::update);
    update();
}

void CurvePredictor::setFit(const std::optional<CurveFit>& fit)
{
    m_fit = fit;
    update();
}

void CurvePredictor::setBytesPerEntry(double bytes, const QString& origin)
{
    m_bytesEdit->setText(QString::number(std::round(bytes)));
    m_bytesOrigin->setText(origin);
}

void CurvePredictor::setTargetText(const QString& text)
{
    m_targetEdit->setText(text);
}

void CurvePredictor::setRamText(const QString& text)
{
    m_ramEdit->setText(text);
}

double CurvePredictor::target() const
{
    return number(m_targetEdit).value_or(0);
}

QString CurvePredictor::ramForTargetText() const
{
    return m_ramForTarget->text();
}

QString CurvePredictor::opsForRamText() const
{
    return m_opsForRam->text();
}

// The entry cache the fit needs for `target` ok/s, as the band's range with the fit's own line; `why` the fit's note.
QString CurvePredictor::ramFor(double target, double bytes, QString* why) const
{
    const auto need = m_fit->cacheBytesFor(target, bytes, why);
    if (!need) // above the fully cached rate
        return tr("out of reach: the fully cached rate (1/t_hit) is %1 ops/s")
            .arg(Units::formatNumber(1.0 / m_fit->tHit, 1));
    const CurveFit::BytesRange range = m_fit->cacheBytesRangeFor(target, bytes);
    if (*need <= 0 && range.high && *range.high <= 0) // below the uncached rate, band and line alike
        return tr("none: the fit gives %1 ok/s with no entry cached (1/t_miss), above the target")
            .arg(Units::formatNumber(1.0 / m_fit->tMiss, 0));
    const double all = double(m_fit->entries) * bytes;
    const auto pct = [all](double b) { return Units::formatNumber(all > 0 ? b / all * 100 : 0, 1); };
    const QString low = Units::formatNumber(range.low.value_or(*need) / 1e6, 1);
    const QString high
        = range.high ? Units::formatNumber(*range.high / 1e6, 1) : tr("more than every entry cached gives");
    return tr("%1 – %2 MB of entry cache (%3 – %4 % of the entries) within the fit's band; the fit's own line: %5 MB")
        .arg(low, high, pct(range.low.value_or(*need)), range.high ? pct(*range.high) : tr("100+"),
            Units::formatNumber(*need / 1e6, 1));
}

void CurvePredictor::update()
{
    const auto bytes = number(m_bytesEdit);
    if (!m_fit) {
        m_ramForTarget->setText(tr("– (no curve yet)"));
        m_opsForRam->setText(tr("– (no curve yet)"));
        return;
    }
    if (!bytes) {
        m_ramForTarget->setText(tr("type the bytes per entry"));
        m_opsForRam->setText(tr("type the bytes per entry"));
        return;
    }
    const auto t = number(m_targetEdit);
    if (!t) {
        m_ramForTarget->setText(tr("type a target"));
    } else {
        QString why;
        m_ramForTarget->setText(ramFor(*t, *bytes, &why));
        m_ramForTarget->setToolTip(why);
    }
    const auto ram = number(m_ramEdit);
    if (!ram)
        m_opsForRam->setText(tr("type an entry cache size"));
    else {
        const CurveFit::Band band = m_fit->opsBandForCacheBytes(*ram * 1e6, *bytes);
        const QString high = std::isfinite(band.high) ? Units::formatNumber(band.high, 0) : tr("unbounded");
        m_opsForRam->setText(tr("%1 – %2 ops/s within the fit's band; the fit's own line: %3 ops/s")
                                 .arg(Units::formatNumber(band.low, 0), high,
                                     Units::formatNumber(m_fit->opsForCacheBytes(*ram * 1e6, *bytes), 0)));
    }
}
