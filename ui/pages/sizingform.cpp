#include "ui/pages/sizingform.h"

#include "core/common/units.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizingoptions.h"
#include "core/sizing/sizingsummary.h"
#include "ui/widgets/notestyle.h"

#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace {

// The form's fields in order: CLI name, SizingInput origin key, placeholder.
struct Field
{
    const char* name;
    const char* key;
    const char* hint;
};
constexpr Field kFields[] = {
    { "threads", "threads", "worker threads, e.g. 8" },
    { "cpus", "cpus", "empty: threads as given" },
    { "dbcache-mb", "dbcache_mb", "empty: from the DB files" },
    { "entry-cache-mb", "entry_cache_mb", "empty: entries × bytes per entry" },
    { "import-cache-mb", "import_cache_mb", "0 when you only import offline" },
    { "entries", "entries", "e.g. 250000" },
    { "entry-cache-bytes-per-entry", "entry_cache_bytes_per_entry", "cached size of one entry, e.g. 3000" },
    { "db-size-mb", "db_size_mb", "Σ of the database files" },
    { "users", "users", "user accounts (AD)" },
};

// "250,000", "250 000" and "2926.8" read; anything else is not a number.
std::optional<double> readNumber(const QString& text)
{
    QString t = text.trimmed();
    t.remove(u',');
    t.remove(u' ');
    t.remove(u'_');
    bool ok = false;
    const double v = QLocale::c().toDouble(t, &ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

} // namespace

SizingForm::SizingForm(QWidget* parent)
    : QWidget(parent)
    , m_serverCombo(new QComboBox(this))
    , m_ldifButton(new QPushButton(tr("Measure from an LDIF file…"), this))
    , m_ldifLabel(new QLabel(this))
    , m_errorLabel(new QLabel(this))
    , m_error(m_errorLabel, &SizingForm::fieldLabel,
          [this](const QString& field) -> QWidget* { return m_edits.value(field); })
{
    m_serverCombo->setObjectName(QStringLiteral("serverCombo"));
    m_serverCombo->addItem(tr("389 Directory Server / RHDS"), int(SizingServer::Ds389));
    m_serverCombo->addItem(tr("OpenLDAP (back-mdb)"), int(SizingServer::OpenLdap));
    m_serverCombo->addItem(tr("NetIQ eDirectory"), int(SizingServer::EDirectory));
    m_serverCombo->addItem(tr("Active Directory"), int(SizingServer::ActiveDirectory));

    auto* form = new QFormLayout;
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Server"), m_serverCombo);
    for (const Field& f : kFields) {
        const QString name = QString::fromLatin1(f.name);
        auto* e = new QLineEdit(this);
        e->setObjectName(name + QStringLiteral("Edit"));
        e->setPlaceholderText(tr(f.hint));
        e->setToolTip(tr("--%1; empty: the calculator derives it or uses its default").arg(name));
        m_edits.insert(name, e);
        form->addRow(fieldLabel(name), e);
        connect(e, &QLineEdit::textEdited, this, [this] {
            clearError();
            emit edited();
        });
    }
    form->addRow(buildAdvanced());
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it)
        it.value()->setProperty("cliOption", it.key()); // each input names the option of `sizing` it sets
    m_serverCombo->setProperty("cliOption", QStringLiteral("server"));
    m_ldifButton->setProperty("cliOption", QStringLiteral("ldif"));
    m_ldifButton->setObjectName(QStringLiteral("ldifButton"));
    m_ldifButton->setToolTip(tr("Reads the file in the background: entry count, entry sizes, attribute frequency"));
    m_ldifLabel->setObjectName(QStringLiteral("ldifLabel"));
    m_ldifLabel->setWordWrap(true);
    NoteStyle::apply(m_ldifLabel);
    m_ldifLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_errorLabel->setObjectName(QStringLiteral("errorLabel"));
    m_errorLabel->setWordWrap(true);
    NoteStyle::applyError(m_errorLabel);
    m_errorLabel->hide();

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(m_ldifButton);
    layout->addWidget(m_ldifLabel);
    layout->addWidget(m_errorLabel);

    connect(m_serverCombo, &QComboBox::currentIndexChanged, this, [this] {
        updateForServer();
        clearError();
        emit edited();
    });
    connect(m_ldifButton, &QPushButton::clicked, this, &SizingForm::measureLdifRequested);
    clearLdifStats();
    updateForServer();
}

// The inputs users tune less often, each with the CLI's help as its tooltip: the other numbers of the calculators,
// and the back end and instance the 389 commands name.
QGroupBox* SizingForm::buildAdvanced()
{
    auto* box = new QGroupBox(tr("Advanced"), this);
    box->setObjectName(QStringLiteral("sizingAdvanced"));
    auto* form = new QFormLayout(box);
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    const auto add = [&](const QString& name, const QString& tip) {
        auto* e = new QLineEdit(box);
        e->setObjectName(name + QStringLiteral("Edit"));
        e->setPlaceholderText(tr("default"));
        e->setToolTip(tip);
        m_edits.insert(name, e);
        m_advanced << name;
        form->addRow(fieldLabel(name), e);
        connect(e, &QLineEdit::textEdited, this, [this] {
            clearError();
            emit edited();
        });
    };
    for (const SizingOptions::NumberOption& o : SizingOptions::numbers())
        if (!m_edits.contains(o.name))
            add(o.name, o.help);
    add(QStringLiteral("backend"), tr("389: the back end's name in the commands (default userRoot)"));
    add(QStringLiteral("instance"), tr("389: dsconf's instance name or URL in the commands (default INSTANCE)"));
    return box;
}

QString SizingForm::fieldLabel(const QString& field)
{
    static const QHash<QString, QString> labels = { { QStringLiteral("threads"), tr("Worker threads") },
        { QStringLiteral("dbcache-mb"), tr("DB cache (MB)") },
        { QStringLiteral("entry-cache-mb"), tr("Entry cache (MB)") },
        { QStringLiteral("import-cache-mb"), tr("Import cache (MB)") }, { QStringLiteral("entries"), tr("Entries") },
        { QStringLiteral("entry-cache-bytes-per-entry"), tr("Bytes per entry") },
        { QStringLiteral("db-size-mb"), tr("DB files (MB)") }, { QStringLiteral("users"), tr("Users") },
        { QStringLiteral("cpus"), tr("CPUs") }, { QStringLiteral("ldif"), tr("Measure from an LDIF file…") },
        { QStringLiteral("server"), tr("Server") }, { QStringLiteral("ram-mb"), tr("RAM (MB)") },
        { QStringLiteral("entry-factor"), tr("Entry cache factor") },
        { QStringLiteral("ldif-cache-factor"), tr("LDIF cache factor") },
        { QStringLiteral("backends"), tr("Back ends") }, { QStringLiteral("autosize"), tr("Autosize (% of RAM)") },
        { QStringLiteral("autosize-split"), tr("Autosize split (% DB cache)") },
        { QStringLiteral("ram-available-mb"), tr("Available RAM (MB)") }, { QStringLiteral("growth"), tr("Growth") },
        { QStringLiteral("safety"), tr("Safety margin") }, { QStringLiteral("os-reserve-mb"), tr("OS reserve (MB)") },
        { QStringLiteral("os-mb"), tr("OS RAM (MB)") }, { QStringLiteral("sysvol-mb"), tr("SYSVOL (MB)") },
        { QStringLiteral("backend"), tr("Back end") }, { QStringLiteral("instance"), tr("Instance") } };
    return labels.value(field, field);
}

bool SizingForm::serverUses(SizingServer server, const QString& field)
{
    return SizingOptions::inputsOf(server).contains(field);
}

void SizingForm::updateForServer()
{
    const SizingServer s = server();
    for (auto it = m_edits.cbegin(); it != m_edits.cend(); ++it)
        it.value()->setEnabled(serverUses(s, it.key()));
}

SizingServer SizingForm::server() const
{
    return SizingServer(m_serverCombo->currentData().toInt());
}

void SizingForm::setServer(SizingServer server)
{
    m_serverCombo->setCurrentIndex(m_serverCombo->findData(int(server)));
}

void SizingForm::setText(const QString& field, const QString& text)
{
    if (QLineEdit* e = m_edits.value(field)) {
        e->setText(text);
        clearError();
        emit edited();
    }
}

QString SizingForm::specKey(const QString& field)
{
    for (const Field& f : kFields)
        if (field == QLatin1String(f.name))
            return QString::fromLatin1(f.key);
    return {};
}

void SizingForm::setFromSpec(const QJsonObject& spec)
{
    const auto kind = SizingSummary::serverOfSpec(spec);
    {
        const QSignalBlocker block(m_serverCombo);
        setServer(kind.value_or(SizingServer::Ds389));
    }
    updateForServer();
    for (const Field& f : kFields) {
        const QJsonValue v = spec.value(QLatin1String(f.key));
        m_edits.value(QString::fromLatin1(f.name))->setText(v.isDouble() ? SizingText::num(v.toDouble()) : QString());
    }
    clearError();
}

QString SizingForm::text(const QString& field) const
{
    const QLineEdit* e = m_edits.value(field);
    return e ? e->text() : QString();
}

ProbeError SizingForm::readInput(SizingInput* in) const
{
    SizingInput s;
    s.server = server();
    for (const Field& f : kFields) {
        const QString name = QString::fromLatin1(f.name);
        const QLineEdit* e = m_edits.value(name);
        if (!e->isEnabled() || e->text().trimmed().isEmpty())
            continue;
        const auto v = readNumber(e->text());
        if (!v)
            return ProbeError::invalid(name, tr("\"%1\" is not a number").arg(e->text().trimmed()));
        const bool whole = name == u"threads" || name == u"cpus" || name == u"entries" || name == u"users";
        if (whole && std::floor(*v) != *v)
            return ProbeError::invalid(name, tr("must be a whole number"));
        if (name == u"threads")
            s.threads = int(std::clamp(*v, -1.0, 1e6));
        else if (name == u"cpus")
            s.cpus = int(std::clamp(*v, -1.0, 1e6));
        else if (name == u"dbcache-mb")
            s.dbcacheMb = *v;
        else if (name == u"entry-cache-mb")
            s.entryCacheMb = *v;
        else if (name == u"import-cache-mb")
            s.importCacheMb = *v;
        else if (name == u"entries")
            s.entries = qint64(std::clamp(*v, -1.0, 1e15));
        else if (name == u"entry-cache-bytes-per-entry")
            s.entryCacheBytesPerEntry = *v;
        else if (name == u"db-size-mb")
            s.dbSizeMb = *v;
        else if (name == u"users")
            s.users = qint64(std::clamp(*v, -1.0, 1e15));
        const bool fromLdif = name == u"entries" && m_ldif && s.entries == m_ldif->entries;
        s.origin.insert(QString::fromLatin1(f.key), fromLdif ? QStringLiteral("ldif") : QStringLiteral("typed"));
    }
    if (ProbeError e = readAdvanced(&s); e.isError())
        return e;
    if (m_ldif)
        s.applyLdif(*m_ldif);
    *in = s;
    return {};
}

ProbeError SizingForm::readAdvanced(SizingInput* in) const
{
    for (const QString& name : m_advanced) {
        const QLineEdit* e = m_edits.value(name);
        const QString text = e->text().trimmed();
        if (!e->isEnabled() || text.isEmpty())
            continue;
        if (name == u"backend")
            in->backendName = text;
        else if (name == u"instance")
            in->instance = text;
        else if (const auto v = readNumber(text); !v)
            return ProbeError::invalid(name, tr("\"%1\" is not a number").arg(text));
        else if (ProbeError err = SizingOptions::setNumber(in, name, *v); err.isError())
            return err;
    }
    return {};
}

void SizingForm::setLdifStats(const LdifStats& stats)
{
    m_ldif = stats;
    edit(QStringLiteral("entries"))->setText(QString::number(stats.entries));
    m_ldifLabel->setText(
        tr("%1: %2 entries, mean %3 B, p95 %4 B, max %5 B per entry (%6 read in %7 s)")
            .arg(QFileInfo(stats.path).fileName(), Units::formatNumber(double(stats.entries), 0),
                Units::formatNumber(stats.meanEntryBytes, 0), Units::formatNumber(double(stats.p95EntryBytes), 0),
                Units::formatNumber(double(stats.maxEntryBytes), 0), Units::formatBytes(stats.bytes),
                Units::formatNumber(stats.seconds, 2)));
    clearError();
    emit edited();
}

void SizingForm::clearLdifStats()
{
    m_ldif.reset();
    m_ldifLabel->setText(tr("No LDIF measured: entry sizes come from the numbers above."));
}

void SizingForm::setLdifBusy(bool busy, const QString& text)
{
    m_ldifButton->setEnabled(!busy);
    if (!text.isEmpty())
        m_ldifLabel->setText(text);
}

void SizingForm::showError(const ProbeError& error)
{
    m_error.show(error);
}

void SizingForm::clearError()
{
    m_error.clear();
}

QString SizingForm::windowText(const ProbeError& error)
{
    const QString detail
        = error.detailNaming([](const QString& field) -> QString { return u'"' + fieldLabel(field) + u'"'; });
    if (error.kind != ProbeError::Kind::InvalidSpec || error.field.isEmpty())
        return error.kind == ProbeError::Kind::InvalidSpec ? detail : error.message();
    return fieldLabel(error.field) + QStringLiteral(": ") + detail;
}

QString SizingForm::errorText() const
{
    return m_error.text();
}
