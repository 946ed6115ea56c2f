#include "ui/pages/experimentform.h"

#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

namespace { } // namespace

ExperimentForm::ExperimentForm(QWidget* parent)
    : QWidget(parent)
    , m_startTls(new QCheckBox(tr("StartTLS on the LDAP page's URI instead"), this))
    , m_restart(new QCheckBox(tr("Restart the DirBench 389-ds sandbox for each point"), this))
    , m_seconds(new QDoubleSpinBox(this))
    , m_errorLabel(new QLabel(this))
    , m_error(
          m_errorLabel, [this](const QString& field) { return m_labels.value(field, field); },
          [this](const QString& field) -> QWidget* { return m_edits.value(field); })
{
    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    m_seconds->setObjectName(QStringLiteral("secondsSpin"));
    m_seconds->setRange(0.5, 3600);
    m_seconds->setDecimals(1);
    m_seconds->setValue(10);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setProperty("cliOption", QStringLiteral("seconds-per-point"));
    m_restart->setProperty("cliOption", QStringLiteral("restart"));
    m_startTls->setProperty("cliOption", QStringLiteral("tls-starttls"));
    form->addRow(tr("Seconds per point"), m_seconds);
    form->addRow(tr("Client threads (Table 2)"),
        m_points
        = addEdit(QStringLiteral("points"), QStringLiteral("1,2,4,8,16,32"), tr("client threads of each point")));
    form->addRow(tr("…or server threads"),
        addEdit(QStringLiteral("server-threads"), tr("e.g. 4,8,16,32 (389-ds, admin bind)"),
            tr("389-ds nsslapd-threadnumber of each point, under the LDAP page's load; the original is put back")));
    m_restart->setObjectName(QStringLiteral("restartCheck"));
    form->addRow(QString(), m_restart);
    form->addRow(tr("TLS server (Table 7)"),
        addEdit(QStringLiteral("tls-uri"), QStringLiteral("ldaps://host:636"),
            tr("the same server over TLS; connect + bind per operation, plain vs TLS")));
    m_startTls->setObjectName(QStringLiteral("startTlsCheck"));
    form->addRow(QString(), m_startTls);
    form->addRow(tr("TLS CA file"),
        addEdit(QStringLiteral("tls-ca-file"), tr("empty: the system's CAs"), tr("PEM CA certificates")));
    form->addRow(tr("Directory sizes (Table 5)"),
        m_entries = addEdit(QStringLiteral("entries"), QStringLiteral("1000,10000,100000"),
            tr("entries of each demo directory DirBench starts (slapd)")));
    m_points->setText(QStringLiteral("1,2,4,8,16,32"));
    m_entries->setText(QStringLiteral("1000,10000,100000"));
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    NoteStyle::applyError(m_errorLabel, false);
    m_errorLabel->setWordWrap(true);
    m_errorLabel->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);
    // An error names a field by its row's label ("Client threads (Table 2)"), as the form shows it.
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it)
        if (const auto* label = qobject_cast<QLabel*>(form->labelForField(it.value())))
            m_labels.insert(it.key(), label->text());
}

QLineEdit* ExperimentForm::addEdit(const QString& field, const QString& placeholder, const QString& tip)
{
    auto* e = new QLineEdit(this);
    e->setObjectName(field + QStringLiteral("Edit"));
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    e->setProperty("cliOption", field == u"entries" ? QStringLiteral("points") : field); // dbsize: --points entries
    m_edits.insert(field, e);
    connect(e, &QLineEdit::textEdited, this, &ExperimentForm::clearError);
    return e;
}

void ExperimentForm::setText(const QString& field, const QString& text)
{
    if (QLineEdit* e = m_edits.value(field))
        e->setText(text);
}

void ExperimentForm::setRestart(bool restart)
{
    m_restart->setChecked(restart);
}

void ExperimentForm::setSeconds(double seconds)
{
    m_seconds->setValue(seconds);
}

ProbeError ExperimentForm::readList(const QString& field, const QString& text, int lo, int hi, QList<int>* out)
{
    out->clear();
    for (const QString& part : text.split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int v = part.trimmed().toInt(&ok);
        if (!ok || v < lo || v > hi)
            return ProbeError::invalid(
                field, tr("'%1' is not a whole number from %2 to %3").arg(part.trimmed()).arg(lo).arg(hi));
        out->append(v);
    }
    if (out->isEmpty())
        return ProbeError::invalid(field, tr("give at least one point, e.g. 1,2,4"));
    return {};
}

ProbeError ExperimentForm::readThreadSweep(ThreadSweepSpec* spec) const
{
    spec->secondsPerPoint = m_seconds->value();
    const QString server = m_edits.value(QStringLiteral("server-threads"))->text().trimmed();
    spec->restart = m_restart->isChecked();
    if (!server.isEmpty())
        return readList(QStringLiteral("server-threads"), server, 1, 4096, &spec->serverThreads);
    spec->serverThreads.clear();
    if (spec->restart)
        return ProbeError::invalid(QStringLiteral("server-threads"), tr("a restart per point needs server threads"));
    return readList(QStringLiteral("points"), m_points->text(), 1, 1024, &spec->threads);
}

ProbeError ExperimentForm::readTlsCost(TlsCostSpec* spec) const
{
    spec->secondsEach = m_seconds->value();
    const QString uri = m_edits.value(QStringLiteral("tls-uri"))->text().trimmed();
    spec->tls = spec->plain.target;
    if (m_startTls->isChecked()) {
        spec->tls.startTls = true;
    } else if (uri.isEmpty()) {
        return ProbeError::invalid(QStringLiteral("tls-uri"), tr("give the server over ldaps://, or tick StartTLS"));
    } else {
        spec->tls.uri = uri;
        spec->tls.startTls = false;
    }
    const QString ca = m_edits.value(QStringLiteral("tls-ca-file"))->text().trimmed();
    if (!ca.isEmpty())
        spec->tls.caFile = ca;
    if (const ProbeError e = spec->tls.validate(); e.isError())
        return ProbeError::invalid(e.field == u"uri" ? QStringLiteral("tls-uri")
                : e.field == u"ca-file"              ? QStringLiteral("tls-ca-file")
                                                     : e.field,
            e.detail);
    if (!spec->tls.isTls())
        return ProbeError::invalid(QStringLiteral("tls-uri"), tr("must be ldaps:// (or tick StartTLS)"));
    return {};
}

ProbeError ExperimentForm::readDatabaseSize(DatabaseSizeSpec* spec) const
{
    spec->secondsPerPoint = m_seconds->value();
    return readList(QStringLiteral("entries"), m_entries->text(), 10, 10000000, &spec->entries);
}

void ExperimentForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void ExperimentForm::clearError()
{
    m_error.clear();
}

QString ExperimentForm::errorText() const
{
    return m_error.text();
}

void ExperimentForm::setInputsEnabled(bool enabled)
{
    for (QLineEdit* e : std::as_const(m_edits))
        e->setEnabled(enabled);
    m_startTls->setEnabled(enabled);
    m_restart->setEnabled(enabled);
    m_seconds->setEnabled(enabled);
}
