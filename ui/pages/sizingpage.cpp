#include "ui/pages/sizingpage.h"

#include "core/run/runcontext.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/serversizing.h"
#include "core/store/runrecorder.h"
#include "ui/pages/sizingform.h"
#include "ui/widgets/notestyle.h"
#include "ui/widgets/sizingresultview.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>
#include <QVBoxLayout>

namespace {
const QString kLdifDirKey = QStringLiteral("sizing/ldifDir");
} // namespace

SizingPage::SizingPage(ProbeRunner* runner, QWidget* parent)
    : Page(parent)
    , m_runner(runner)
    , m_form(new SizingForm(this))
    , m_view(new SizingResultView(this))
    , m_debounce(new QTimer(this))
{
    setObjectName(QStringLiteral("sizingPage"));
    m_form->setObjectName(QStringLiteral("sizingForm"));
    m_view->setObjectName(QStringLiteral("sizingResultView"));
    m_debounce->setSingleShot(true);
    m_debounce->setInterval(kDebounceMs);

    auto* formBox = new QGroupBox(tr("Directory"), this);
    auto* formLayout = new QVBoxLayout(formBox);
    formLayout->addWidget(m_form);
    m_serverButton = new QPushButton(tr("Read from the LDAP page's server"), this);
    m_serverButton->setObjectName(QStringLiteral("readServerButton"));
    m_serverButton->setToolTip(tr("Read only: the server kind, entries, entry cache, db files and threads it exposes "
                                  "(389-ds: bind as cn=Directory Manager)"));
    m_serverLabel = new QLabel(this);
    m_serverLabel->setObjectName(QStringLiteral("serverLabel"));
    m_serverLabel->setWordWrap(true);
    m_serverLabel->setTextFormat(Qt::PlainText);
    m_saveButton = new QPushButton(tr("Save in history"), this);
    m_saveButton->setObjectName(QStringLiteral("saveHistoryButton"));
    m_saveButton->setToolTip(tr("Keep this sizing (inputs, every number and its reasoning) in the run history"));
    connect(m_saveButton, &QPushButton::clicked, this, &SizingPage::saveInHistory);
    m_closeButton = new QPushButton(tr("Close the saved sizing"), this);
    m_closeButton->setObjectName(QStringLiteral("closeSavedButton"));
    m_closeButton->setToolTip(tr("Back to your own inputs"));
    m_closeButton->hide();
    connect(m_closeButton, &QPushButton::clicked, this, &SizingPage::closeSaved);
    formLayout->addWidget(m_closeButton);
    formLayout->addWidget(m_serverButton);
    formLayout->addWidget(m_saveButton);
    formLayout->addWidget(m_serverLabel);
    formLayout->addStretch(1);
    auto* note = new QLabel(tr("Sizes in MB = 10<sup>6</sup> bytes, as the HP guide prints them. An empty field is "
                               "derived by the calculator or takes its default; the inputs of each number say which."),
        this);
    note->setWordWrap(true);
    NoteStyle::apply(note);
    formLayout->addWidget(note);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(formBox);
    scroll->setFixedWidth(370);

    auto* layout = new QHBoxLayout(this);
    layout->addWidget(scroll);
    layout->addWidget(m_view, 1);

    connect(m_form, &SizingForm::edited, m_debounce, qOverload<>(&QTimer::start));
    connect(m_debounce, &QTimer::timeout, this, &SizingPage::recompute);
    connect(m_form, &SizingForm::measureLdifRequested, this, &SizingPage::chooseLdif);
    connect(m_serverButton, &QPushButton::clicked, this, &SizingPage::readServerFromLdapPage);
    connect(m_runner, &ProbeRunner::finished, this, &SizingPage::onFinished);

    // The guide's worked example (§3.1) as a starting point: every number says it was typed.
    m_form->setText(QStringLiteral("threads"), QStringLiteral("8"));
    m_form->setText(QStringLiteral("dbcache-mb"), QStringLiteral("685"));
    m_form->setText(QStringLiteral("entries"), QStringLiteral("250000"));
    m_form->setText(QStringLiteral("entry-cache-bytes-per-entry"), QStringLiteral("3000"));
    m_debounce->stop();
    recompute();
}

void SizingPage::recompute()
{
    m_debounce->stop();
    SizingInput in;
    ProbeError error = m_form->readInput(&in);
    applyLive(&in);
    std::optional<SizingResult> r;
    if (!error.isError())
        r = ServerSizing::compute(in, &error);
    if (!r) {
        m_result.reset(); // a result belongs to the inputs that made it
        m_form->showError(error);
        m_view->setInvalid(m_form->errorText());
        emit statusMessage(m_form->errorText());
        emit recomputed();
        return;
    }
    m_form->clearError();
    m_result = r;
    m_view->setResult(*r);
    emit recomputed();
}

RunRecord SizingPage::record() const
{
    if (m_saved)
        return *m_saved;
    // Computed from the inputs on the form now (pure and fast), never a result shown for earlier ones.
    SizingInput in;
    if (m_form->readInput(&in).isError())
        return {};
    applyLive(&in);
    ProbeError error;
    const auto result = ServerSizing::compute(in, &error);
    if (!result)
        return {};
    const auto& ldif = m_form->ldifStats();
    RunRecord rec = ServerSizing::buildRecord(in, *result, ldif ? &*ldif : nullptr);
    if (m_live) {
        rec.server = m_live->identity.toJson();
        rec.extra.insert(QStringLiteral("server_inventory"), m_live->toJson());
    }
    return rec;
}

void SizingPage::applyLive(SizingInput* in) const
{
    if (m_live)
        in->applyMonitor(m_live->values);
}

QString SizingPage::errorField() const
{
    return m_form->errorField();
}

QString SizingPage::errorText() const
{
    return m_form->errorText();
}

void SizingPage::start()
{
    leaveSaved();
    m_made = true;
    recompute();
}

void SizingPage::cancel()
{
    if (m_runId == 0)
        return;
    m_runner->cancel(m_runId);
    cancelRequested();
}

void SizingPage::chooseLdif()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("LDIF file to measure"),
        QSettings().value(kLdifDirKey).toString(), tr("LDIF (*.ldif *.ldf *.txt);;All files (*)"));
    if (path.isEmpty())
        return;
    QSettings().setValue(kLdifDirKey, QFileInfo(path).absolutePath());
    measureLdif(path);
}

void SizingPage::measureLdif(const QString& path)
{
    if (isRunning())
        return;
    leaveSaved();
    auto out = std::make_shared<std::optional<LdifStats>>();
    m_pending = out;
    m_runId = m_runner->start([path, out](RunContext& ctx) {
        RunRecord rec;
        rec.kind = QStringLiteral("ldif-stats");
        rec.started = QDateTime::currentDateTimeUtc();
        ProbeError e;
        *out = LdifScanner::readFile(path, &e, &ctx);
        if (ctx.stopRequested()) {
            rec.status = QStringLiteral("cancelled");
        } else if (!*out) {
            rec.status = QStringLiteral("failed");
            rec.failure = e.message();
        } else {
            rec.summary = (*out)->toJson();
        }
        return rec;
    });
    RunRecorder::of(m_runner)->track(m_runId, QStringLiteral("ldif-stats"), { { QStringLiteral("ldif"), path } });
    m_form->setLdifBusy(true, tr("Reading %1…").arg(QFileInfo(path).fileName()));
    runStateChanged();
    emit statusMessage(tr("Measuring %1").arg(path));
}

void SizingPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    if (m_pendingServer) {
        onServerRead(record);
        return;
    }
    const auto out = std::move(m_pending);
    const bool ok = record.status == u"ok" && out && out->has_value();
    m_form->setLdifBusy(false);
    if (ok) {
        m_form->setLdifStats(**out);
        m_view->setLdifStats(&**out);
        m_made = true;
        recompute();
        emit statusMessage(tr("LDIF measured: %n entries", nullptr, int(std::min<qint64>((*out)->entries, INT_MAX))));
    } else {
        m_form->clearLdifStats();
        m_view->setLdifStats(nullptr);
        const QString why = record.status == u"cancelled" ? tr("LDIF read cancelled") : record.failure;
        m_form->setLdifBusy(false, why);
        emit statusMessage(why);
    }
    runStateChanged();
    emit ldifMeasured(ok);
}

void SizingPage::readServerFromLdapPage()
{
    if (!m_ldapProvider)
        return;
    QString error;
    const auto spec = m_ldapProvider(&error);
    if (!spec) {
        m_serverLabel->setText(tr("The LDAP page's connection is not usable: %1").arg(error));
        emit statusMessage(m_serverLabel->text());
        return;
    }
    readServer(spec->target, spec->base);
}

void SizingPage::readServer(const LdapTarget& target, const QString& base)
{
    if (isRunning())
        return;
    leaveSaved();
    auto out = std::make_shared<std::optional<ServerInventory>>();
    m_pendingServer = out;
    m_runId = m_runner->start([target, base, out](RunContext& ctx) {
        RunRecord rec;
        rec.kind = QStringLiteral("server-inventory");
        rec.started = QDateTime::currentDateTimeUtc();
        ctx.setPhase(QStringLiteral("reading the server"));
        ProbeError e;
        *out = Ldap::readInventory(target, base, &e);
        if (!*out) {
            rec.status = QStringLiteral("failed");
            rec.failure = e.message();
        }
        return rec;
    });
    m_serverButton->setEnabled(false);
    m_serverLabel->setText(tr("Reading %1…").arg(target.uri));
    runStateChanged();
}

void SizingPage::onServerRead(const RunRecord& record)
{
    const auto out = std::move(m_pendingServer);
    m_serverButton->setEnabled(true);
    const bool ok = record.status == u"ok" && out->has_value();
    if (ok) {
        m_live = **out;
        if (const auto kind = SizingInput::serverFromName(m_live->identity.kind))
            m_form->setServer(*kind);
        // A typed input wins over a read one: clear the fields the reading fills.
        const QList<QPair<const char*, const char*>> filled
            = { { "entries", "entries" }, { "entry_cache_size", "entry-cache-bytes-per-entry" },
                  { "db_files_bytes", "db-size-mb" }, { "threads_open", "threads" } };
        for (const auto& [key, field] : filled)
            if (m_live->values.contains(QLatin1String(key)))
                m_form->setText(QLatin1String(field), QString());
        m_serverLabel->setText(serverText());
        m_made = true;
        recompute();
    } else {
        m_serverLabel->setText(tr("Could not read the server: %1").arg(record.failure));
    }
    emit statusMessage(m_serverLabel->text().section(u'\n', 0, 0));
    runStateChanged();
    emit serverRead(ok);
}

QString SizingPage::serverText() const
{
    if (!m_live)
        return {};
    QStringList lines;
    lines << tr("Read from %1 %2, base %3:")
                 .arg(m_live->identity.vendor,
                     m_live->identity.version.isEmpty() ? tr("(version unknown)") : m_live->identity.version,
                     m_live->base);
    for (auto it = m_live->values.begin(); it != m_live->values.end(); ++it)
        lines << QStringLiteral("  %1 = %2").arg(it.key(), QLocale::system().toString(it.value(), 'f', 0));
    for (const auto& n : m_live->notes)
        lines << tr("  note: %1").arg(n);
    return lines.join(u'\n');
}

bool SizingPage::saveInHistory()
{
    if (m_saved) {
        emit statusMessage(tr("A saved sizing is shown read-only; Start makes a new one from its inputs"));
        return false;
    }
    const RunRecord rec = record();
    if (rec.kind.isEmpty()) {
        emit statusMessage(tr("Nothing to save: %1").arg(errorText()));
        return false;
    }
    m_made = true;
    RunRecorder::of(m_runner)->save(rec, {}, this, [this](qint64 id) {
        emit statusMessage(
            id ? tr("Sizing saved in the history as run %1").arg(id) : RunRecorder::of(m_runner)->lastError());
        emit savedInHistory(id);
    });
    return true;
}
