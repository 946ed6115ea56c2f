#include "ui/pages/workloadform.h"

#include "core/workload/logreader.h"
#include "core/workload/workload.h"
#include "ui/widgets/formerror.h"
#include "ui/widgets/notestyle.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

namespace {

// Epoch seconds or ISO 8601 (a time without a zone is UTC, as the CLI reads it).
std::optional<uint64_t> parseTime(const QString& text)
{
    bool ok = false;
    const double secs = text.toDouble(&ok);
    if (ok && secs > 0 && secs < 1e11)
        return uint64_t(secs * 1e9);
    QDateTime t = QDateTime::fromString(text, Qt::ISODateWithMs);
    if (!t.isValid())
        return std::nullopt;
    if (t.timeSpec() == Qt::LocalTime)
        t.setTimeSpec(Qt::UTC);
    const qint64 ms = t.toMSecsSinceEpoch();
    return ms > 0 ? std::optional<uint64_t>(uint64_t(ms) * 1000000ull) : std::nullopt;
}

} // namespace

WorkloadForm::WorkloadForm(QWidget* parent)
    : QWidget(parent)
    , m_files(new QListWidget(this))
    , m_format(new QComboBox(this))
    , m_keepValues(new QCheckBox(tr("Keep the logged values in a saved workload"), this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &WorkloadForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return m_fields.value(field); })
{
    m_files->setObjectName(QStringLiteral("workloadFiles"));
    m_files->setMaximumHeight(90);
    m_files->setSelectionMode(QAbstractItemView::ExtendedSelection);
    auto* add = new QPushButton(tr("Add…"), this);
    add->setObjectName(QStringLiteral("workloadAddFiles"));
    auto* remove = new QPushButton(tr("Remove"), this);
    auto* fileButtons = new QVBoxLayout;
    fileButtons->addWidget(add);
    fileButtons->addWidget(remove);
    fileButtons->addStretch(1);
    auto* fileRow = new QHBoxLayout;
    fileRow->addWidget(m_files, 1);
    fileRow->addLayout(fileButtons);
    connect(add, &QPushButton::clicked, this, &WorkloadForm::chooseFiles);
    connect(remove, &QPushButton::clicked, this, [this] {
        qDeleteAll(m_files->selectedItems());
        clearError();
    });

    m_format->setObjectName(QStringLiteral("workloadFormat"));
    m_format->addItem(tr("Detect"), QStringLiteral("auto"));
    m_format->addItem(tr("389-ds access log"), QStringLiteral("389"));
    m_format->addItem(tr("OpenLDAP stats"), QStringLiteral("openldap"));
    m_format->addItem(tr("slapo-accesslog LDIF"), QStringLiteral("accesslog-ldif"));
    m_keepValues->setObjectName(QStringLiteral("workloadKeepValues"));
    m_keepValues->setToolTip(tr("Off: values, DNs and addresses are replaced by consistent pseudonyms"));

    auto* form = new QFormLayout;
    form->addRow(fieldLabel(QStringLiteral("log")), fileRow);
    form->addRow(fieldLabel(QStringLiteral("format")), m_format);
    const QHash<QString, QString> hints = { { QStringLiteral("from"), tr("ISO 8601 or epoch seconds") },
        { QStringLiteral("to"), tr("ISO 8601 or epoch seconds") }, { QStringLiteral("client"), tr("IP address") },
        { QStringLiteral("operations"), tr("e.g. search,bind") } };
    const std::pair<const char*, QLineEdit**> edits[]
        = { { "from", &m_from }, { "to", &m_to }, { "client", &m_client }, { "operations", &m_operations } };
    for (const auto& [f, member] : edits) {
        const QString field = QLatin1String(f);
        auto* e = new QLineEdit(this);
        *member = e;
        e->setObjectName(QStringLiteral("workload-") + field);
        e->setPlaceholderText(hints.value(field));
        e->setClearButtonEnabled(true);
        connect(e, &QLineEdit::textEdited, this, &WorkloadForm::clearError);
        m_edits.insert(field, e);
        m_fields.insert(field, e);
        form->addRow(fieldLabel(field), e);
    }
    form->addRow(QString(), m_keepValues);
    m_fields.insert(QStringLiteral("log"), m_files);
    m_fields.insert(QStringLiteral("format"), m_format);
    m_inputs = { m_files, add, remove, m_format, m_keepValues };
    for (QLineEdit* e : std::as_const(m_edits))
        m_inputs << e;

    m_errorLabel->setObjectName(QStringLiteral("workloadErrorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_errorLabel);
}

QString WorkloadForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels
        = { { QStringLiteral("log"), tr("Log files") }, { QStringLiteral("format"), tr("Format") },
              { QStringLiteral("from"), tr("From") }, { QStringLiteral("to"), tr("To") },
              { QStringLiteral("client"), tr("Client") }, { QStringLiteral("operations"), tr("Operations") } };
    return labels.value(field, field);
}

void WorkloadForm::chooseFiles()
{
    const QStringList paths = QFileDialog::getOpenFileNames(
        this, tr("Access logs"), QString(), tr("Access logs (access* *.log *.gz *.ldif);;All files (*)"));
    if (!paths.isEmpty())
        setFiles(files() + paths);
}

void WorkloadForm::setFiles(const QStringList& files)
{
    m_files->clear();
    m_files->addItems(files);
    clearError();
}

QStringList WorkloadForm::files() const
{
    QStringList out;
    for (int i = 0; i < m_files->count(); ++i)
        out << m_files->item(i)->text();
    return out;
}

void WorkloadForm::setFormatText(const QString& option)
{
    m_format->setCurrentIndex(std::max(0, m_format->findData(option)));
}

void WorkloadForm::setText(const QString& field, const QString& text)
{
    if (QLineEdit* e = m_edits.value(field))
        e->setText(text);
}

void WorkloadForm::setKeepValues(bool keep)
{
    m_keepValues->setChecked(keep);
}

bool WorkloadForm::keepValues() const
{
    return m_keepValues->isChecked();
}

ProbeError WorkloadForm::readOptions(AnalyzeOptions* options) const
{
    options->logs = files();
    if (options->logs.isEmpty())
        return ProbeError::invalid(QStringLiteral("log"), tr("add the access log file(s) to read"));
    QStringList seen;
    for (const QString& log : std::as_const(options->logs)) {
        const QString canonical = QFileInfo(log).absoluteFilePath();
        if (seen.contains(canonical))
            return ProbeError::invalid(QStringLiteral("log"), tr("'%1' given more than once").arg(log));
        seen << canonical;
    }
    if (options->logs.contains(QStringLiteral("-")))
        return ProbeError::invalid(QStringLiteral("log"), tr("standard input is for the command line"));
    const QString unreadable = LogReader::checkReadable(options->logs);
    if (!unreadable.isEmpty())
        return ProbeError::invalid(QStringLiteral("log"), unreadable);
    const auto format = logFormatFromOption(m_format->currentData().toString());
    if (!format)
        return ProbeError::invalid(QStringLiteral("format"), tr("unknown format"));
    options->format = *format;
    options->keepValues = keepValues();
    return readFilter(&options->filter);
}

ProbeError WorkloadForm::readFilter(WorkloadFilter* filter) const
{
    *filter = WorkloadFilter();
    for (const QLineEdit* edit : { m_from, m_to }) {
        const QString field = edit == m_from ? QStringLiteral("from") : QStringLiteral("to");
        const QString text = edit->text().trimmed();
        if (text.isEmpty())
            continue;
        const auto t = parseTime(text);
        if (!t)
            return ProbeError::invalid(
                field, tr("'%1' is not a time (ISO 8601 such as 2026-12-01T10:00:00Z, or epoch seconds)").arg(text));
        (field == u"from" ? filter->fromNs : filter->toNs) = t;
    }
    if (filter->fromNs && filter->toNs && *filter->toNs < *filter->fromNs)
        return ProbeError::invalid(QStringLiteral("to"), tr("is before From"));
    const QString client = m_client->text().trimmed();
    if (client.contains(u' '))
        return ProbeError::invalid(QStringLiteral("client"), tr("'%1' is not an address").arg(client));
    filter->client = client.toStdString();
    const QStringList kinds = m_operations->text().split(u',', Qt::SkipEmptyParts);
    for (const QString& k : kinds) {
        const auto kind = workloadOpKind(k.trimmed());
        if (!kind)
            return ProbeError::invalid(QStringLiteral("operations"),
                tr("'%1' is not one of bind, search, compare, modify, add, delete, modrdn, extended, abandon, "
                   "unbind")
                    .arg(k.trimmed()));
        filter->kinds |= 1u << unsigned(*kind);
    }
    return {};
}

void WorkloadForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void WorkloadForm::clearError()
{
    m_error.clear();
}

QString WorkloadForm::errorText() const
{
    return m_error.text();
}

void WorkloadForm::setInputsEnabled(bool enabled)
{
    for (QWidget* w : std::as_const(m_inputs))
        w->setEnabled(enabled);
}
