#include "ui/pages/advisorneedform.h"

#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>

AdvisorNeedForm::AdvisorNeedForm(QWidget* parent)
    : QWidget(parent)
    , m_mbps(new QLineEdit(QStringLiteral("100"), this))
    , m_iops(new QLineEdit(this))
    , m_block(new QLineEdit(QStringLiteral("4"), this))
    , m_commit(new QLineEdit(this))
    , m_provider(new QComboBox(this))
{
    m_mbps->setPlaceholderText(tr("e.g. 100 (the eDirectory article's minimum)"));
    m_iops->setPlaceholderText(tr("e.g. 3000"));
    m_commit->setPlaceholderText(tr("e.g. 5"));
    m_mbps->setObjectName(QStringLiteral("needMbps"));
    m_iops->setObjectName(QStringLiteral("needIops"));
    m_commit->setObjectName(QStringLiteral("needCommit"));
    m_provider->setObjectName(QStringLiteral("needProvider"));
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Sustained MB/s ≥"), m_mbps);
    form->addRow(tr("IOPS ≥"), m_iops);
    form->addRow(tr("… at block KiB"), m_block);
    form->addRow(tr("Commit p99 ms ≤"), m_commit);
    form->addRow(tr("Provider"), m_provider);
    const std::pair<QWidget*, const char*> options[] = { { m_mbps, "mbps" }, { m_iops, "iops" },
        { m_block, "block-kib" }, { m_commit, "commit-p99-ms" }, { m_provider, "provider" } };
    for (const auto& [w, option] : options)
        w->setProperty("cliOption", QLatin1String(option)); // each input names the option of `cloud need` it sets
    for (auto* e : { m_mbps, m_iops, m_block, m_commit })
        connect(e, &QLineEdit::textChanged, this, &AdvisorNeedForm::edited);
    connect(m_provider, &QComboBox::currentIndexChanged, this, &AdvisorNeedForm::edited);
}

void AdvisorNeedForm::setProviders(const QStringList& providers)
{
    const QString keep = m_provider->currentData().toString();
    m_provider->clear();
    m_provider->addItem(tr("all"), QString());
    for (const auto& p : providers)
        m_provider->addItem(p.toUpper(), p);
    m_provider->setCurrentIndex(std::max(0, m_provider->findData(keep)));
}

QLineEdit* AdvisorNeedForm::edit(const QString& field) const
{
    if (field == u"mbps")
        return m_mbps;
    if (field == u"iops")
        return m_iops;
    if (field == u"block-kib")
        return m_block;
    if (field == u"commit-p99-ms")
        return m_commit;
    return nullptr;
}

bool AdvisorNeedForm::read(const CloudCatalog::Catalog& c, CloudCatalog::Requirement* r)
{
    m_errorField.clear();
    m_errorText.clear();
    for (auto* e : { m_mbps, m_iops, m_block, m_commit })
        e->setStyleSheet(QString());
    auto fail = [&](const QString& field, const QString& why) {
        m_errorField = field;
        m_errorText = why;
        if (QLineEdit* e = edit(field))
            e->setStyleSheet(NoteStyle::errorFieldSheet());
        return false;
    };
    const QLocale locale;
    auto value = [&](QLineEdit* e, const QString& field, std::optional<double>* out) {
        const QString t = e->text().trimmed();
        if (t.isEmpty())
            return true;
        bool ok = false;
        double v = locale.toDouble(t, &ok);
        if (!ok)
            v = QLocale::c().toDouble(t, &ok);
        if (!ok)
            return fail(field, tr("'%1' is not a number").arg(t));
        *out = v;
        return true;
    };
    CloudCatalog::Requirement req;
    std::optional<double> block;
    if (!value(m_mbps, QStringLiteral("mbps"), &req.mbps) || !value(m_iops, QStringLiteral("iops"), &req.iops)
        || !value(m_block, QStringLiteral("block-kib"), &block)
        || !value(m_commit, QStringLiteral("commit-p99-ms"), &req.commitP99Ms))
        return false;
    req.blockKib = block.value_or(4);
    req.provider = m_provider->currentData().toString();
    QString field;
    if (const QString why = req.validate(c, &field); !why.isEmpty())
        return fail(field, why);
    *r = req;
    return true;
}
