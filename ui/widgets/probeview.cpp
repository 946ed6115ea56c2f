#include "ui/widgets/probeview.h"

#include "core/common/proberror.h"
#include "core/common/runrecord.h"
#include "core/common/units.h"
#include "core/ldap/probesummary.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/timingbars.h"

#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QTextDocument>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <cmath>

namespace {

double msOrNaN(const std::optional<double>& v)
{
    return v ? *v : std::nan("");
}

QLabel* factLabel(const QString& text, QWidget* parent)
{
    auto* l = new QLabel(text, parent);
    l->setWordWrap(true);
    l->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return l;
}

// Key strength as a reader judges it: RSA/DSA below 2048 bits and EC below 256 are weak.
bool weakKey(const QString& type, int bits)
{
    if (bits <= 0)
        return false;
    return type.contains(QLatin1String("EC"), Qt::CaseInsensitive) ? bits < 256 : bits < 2048;
}

} // namespace

ProbeView::ProbeView(QWidget* parent)
    : QWidget(parent)
    , m_serverLabel(new QLabel(this))
    , m_evidenceLabel(new QLabel(this))
    , m_failureLabel(new QLabel(this))
    , m_timings(new TimingBars(this))
    , m_tlsBox(new QGroupBox(tr("TLS"), this))
    , m_tlsForm(new QFormLayout)
    , m_tlsNone(new QLabel(this))
    , m_rootDse(new QTreeWidget(this))
{
    m_serverLabel->setObjectName(QStringLiteral("probeServerLabel"));
    m_serverLabel->setTextFormat(Qt::RichText);
    m_serverLabel->setWordWrap(true);
    m_serverLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_evidenceLabel->setObjectName(QStringLiteral("probeEvidenceLabel"));
    m_evidenceLabel->setTextFormat(Qt::RichText);
    m_evidenceLabel->setWordWrap(true);
    NoteStyle::apply(m_evidenceLabel);
    m_evidenceLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_failureLabel->setObjectName(QStringLiteral("probeFailureLabel"));
    m_failureLabel->setWordWrap(true);
    NoteStyle::applyError(m_failureLabel);
    m_timings->setObjectName(QStringLiteral("probeTimings"));
    m_tlsNone->setObjectName(QStringLiteral("probeTlsNone"));
    m_tlsNone->setWordWrap(true);
    NoteStyle::apply(m_tlsNone);
    m_rootDse->setObjectName(QStringLiteral("rootDseTree"));
    m_rootDse->setHeaderLabels({ tr("Root DSE") });
    m_rootDse->header()->setStretchLastSection(true);
    m_rootDse->setUniformRowHeights(true);

    auto* serverBox = new QGroupBox(tr("Server"), this);
    auto* serverLayout = new QVBoxLayout(serverBox);
    serverLayout->addWidget(m_serverLabel);
    serverLayout->addWidget(m_evidenceLabel);
    serverLayout->addWidget(m_failureLabel);
    auto* timingBox = new QGroupBox(tr("One request, step by step"), this);
    auto* timingLayout = new QVBoxLayout(timingBox);
    timingLayout->addWidget(m_timings);
    auto* tlsLayout = new QVBoxLayout(m_tlsBox);
    tlsLayout->addWidget(m_tlsNone);
    tlsLayout->addLayout(m_tlsForm);
    m_tlsForm->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);

    auto* left = new QVBoxLayout;
    left->addWidget(serverBox);
    left->addWidget(timingBox);
    left->addWidget(m_tlsBox);
    left->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(left, 3);
    layout->addWidget(m_rootDse, 2);
    clear();
}

void ProbeView::clear()
{
    m_kind.clear();
    m_serverLabel->setText(tr("Press <b>Probe</b> to see which server answers, how long each step of one request "
                              "takes, and its TLS certificate."));
    m_evidenceLabel->clear();
    m_evidenceLabel->hide();
    m_failureLabel->hide();
    m_timings->setBars(
        { { tr("TCP connect") }, { tr("TLS handshake") }, { tr("bind") }, { tr("root DSE") }, { tr("search") } });
    setTls(nullptr);
    setRootDse(ProbeSummary {});
}

void ProbeView::setRecord(const RunRecord& record)
{
    clear();
    const ProbeSummary probe = ProbeSummary::of(record);
    setServer(probe);
    if (record.status != u"ok") {
        m_failureLabel->setText(
            record.status == u"cancelled" ? tr("Cancelled.") : tr("Probe failed: %1").arg(failureText(record)));
        m_failureLabel->show();
    }
    const ProbeTimings& t = probe.timings;
    m_timings->setBars({ { tr("TCP connect"), msOrNaN(t.tcpConnect) }, { tr("TLS handshake"), msOrNaN(t.tlsHandshake) },
        { tr("bind"), msOrNaN(t.bind) }, { tr("root DSE"), msOrNaN(t.rootDse) }, { tr("search"), msOrNaN(t.search) } });
    setTls(probe.tls ? &*probe.tls : nullptr);
    setRootDse(probe);
}

void ProbeView::setServer(const ProbeSummary& probe)
{
    const ServerIdentity& id = probe.server.id;
    m_kind = id.kind;
    if (!probe.server.identified) {
        m_serverLabel->setText(tr("The server was not identified."));
        return;
    }
    m_serverLabel->setText(tr("<span style=\"font-size: 15pt\"><b>%1</b></span> %2<br>kind: <b>%3</b>")
                               .arg((id.vendor.isEmpty() ? tr("unknown vendor") : id.vendor).toHtmlEscaped(),
                                   id.version.isEmpty() ? tr("(version not exposed)") : id.version.toHtmlEscaped(),
                                   m_kind.toHtmlEscaped()));
    QStringList evidence;
    for (const auto& e : id.evidence)
        evidence << QStringLiteral("• ") + e.toHtmlEscaped();
    m_evidenceLabel->setText(tr("Evidence:") + QStringLiteral("<br>") + evidence.join(QStringLiteral("<br>")));
    m_evidenceLabel->setVisible(!evidence.isEmpty());
}

void ProbeView::setTls(const ProbeTls* tls)
{
    while (m_tlsForm->rowCount() > 0)
        m_tlsForm->removeRow(0);
    m_keyLabel = nullptr;
    if (!tls) {
        m_tlsNone->setText(m_kind.isEmpty() ? tr("Shown after a probe over ldaps:// or StartTLS.")
                                            : tr("Not TLS: this connection is in clear text."));
        m_tlsNone->show();
        return;
    }
    m_tlsNone->hide();
    const QString& keyType = tls->keyType;
    const int bits = tls->keyBits;
    m_keyLabel = factLabel(QStringLiteral("%1 %2").arg(bits > 0 ? tr("%1 bits").arg(bits) : tr("unknown size"),
                               keyType.isEmpty() ? QString() : QStringLiteral("(") + keyType + u')'),
        this);
    m_keyLabel->setObjectName(QStringLiteral("probeKeyLabel"));
    m_keyLabel->setStyleSheet(
        QStringLiteral("QLabel { font-size: 14pt; font-weight: bold; color: %1; }")
            .arg((weakKey(keyType, bits) ? NoteStyle::errorColourNow() : NoteStyle::passColourNow()).name()));
    m_tlsForm->addRow(tr("Key"), m_keyLabel);
    m_tlsForm->addRow(tr("Protocol"), factLabel(tls->protocol + QStringLiteral(" · ") + tls->cipher, this));
    m_tlsForm->addRow(tr("Subject"), factLabel(tls->subject, this));
    m_tlsForm->addRow(tr("Issuer"), factLabel(tls->issuer, this));
    const std::optional<double> days = tls->daysLeft;
    auto* expiry = factLabel(tls->notAfter + (days ? tr(" (%n day(s) left)", nullptr, int(*days)) : QString()), this);
    if (days && *days < 30)
        expiry->setStyleSheet(QStringLiteral("color: %1; font-weight: bold;").arg(NoteStyle::errorColourNow().name()));
    m_tlsForm->addRow(tr("Expires"), expiry);
    m_tlsForm->addRow(
        tr("Names"), factLabel(tls->sans.isEmpty() ? tr("none") : tls->sans.join(QStringLiteral(", ")), this));
    const bool verified = tls->verified;
    auto* check = factLabel(verified ? tr("verified") : tr("NOT verified (trusted anyway)"), this);
    check->setStyleSheet(verified
            ? QStringLiteral("color: %1;").arg(NoteStyle::passColourNow().name())
            : QStringLiteral("color: %1; font-weight: bold;").arg(NoteStyle::errorColourNow().name()));
    m_tlsForm->addRow(tr("Certificate"), check);
}

void ProbeView::setRootDse(const ProbeSummary& probe)
{
    m_rootDse->clear();
    if (!probe.hasRootDse())
        return;
    const std::pair<const char*, QString> sections[] = { { "namingContexts", tr("Naming contexts") },
        { "supportedControl", tr("Controls") }, { "supportedExtension", tr("Extensions") },
        { "supportedSASLMechanisms", tr("SASL mechanisms") }, { "supportedLDAPVersion", tr("LDAP versions") } };
    for (const auto& [key, title] : sections) {
        const QStringList values = probe.rootDseValues(QLatin1String(key));
        auto* top = new QTreeWidgetItem(m_rootDse, { QStringLiteral("%1 (%2)").arg(title).arg(values.size()) });
        QFont bold = top->font(0);
        bold.setBold(true);
        top->setFont(0, bold);
        for (const auto& v : values)
            new QTreeWidgetItem(top, { v });
        top->setExpanded(QLatin1String(key) != QLatin1String("supportedControl"));
    }
    for (const char* key : { "vendorName", "vendorVersion", "monitorContext" }) {
        if (const auto v = probe.rootDseString(QLatin1String(key)))
            new QTreeWidgetItem(m_rootDse, { QLatin1String(key) + QStringLiteral(": ") + *v });
    }
}

QString ProbeView::serverText() const
{
    QTextDocument doc;
    doc.setHtml(m_serverLabel->text());
    return doc.toPlainText();
}

QString ProbeView::tlsKeyText() const
{
    return m_keyLabel ? m_keyLabel->text() : QString();
}

QString ProbeView::failureText(const RunRecord& record) const
{
    const ProbeSummary probe = ProbeSummary::of(record);
    if (!m_namer || !probe.hasFailureCause)
        return record.failure;
    ProbeError e;
    e.detail = probe.failureDetail;
    return e.detailNaming(m_namer);
}
