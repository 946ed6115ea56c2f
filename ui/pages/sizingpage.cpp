#include "ui/pages/sizingpage.h"

#include "core/run/runcontext.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/serversizing.h"
#include "core/store/runrecorder.h"
#include "ui/pages/sizingform.h"
#include "ui/widgets/sizingresultview.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
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
    formLayout->addStretch(1);
    auto* note = new QLabel(tr("Sizes in MB = 10<sup>6</sup> bytes, as the HP guide prints them. An empty field is "
                               "derived by the calculator or takes its default; the inputs of each number say which."),
        this);
    note->setWordWrap(true);
    note->setStyleSheet(QStringLiteral("color: #555555;"));
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
    std::optional<SizingResult> r;
    if (!error.isError())
        r = ServerSizing::compute(in, &error);
    if (!r) {
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
    SizingInput in;
    if (!m_result || m_form->readInput(&in).isError())
        return {};
    const auto& ldif = m_form->ldifStats();
    return ServerSizing::buildRecord(in, *m_result, ldif ? &*ldif : nullptr);
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
    recompute();
}

void SizingPage::cancel()
{
    if (m_runId != 0)
        m_runner->cancel(m_runId);
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
    emit runningChanged(true);
    emit statusMessage(tr("Measuring %1").arg(path));
}

void SizingPage::onFinished(int runId, const RunRecord& record)
{
    if (runId != m_runId || runId == 0)
        return;
    m_runId = 0;
    const auto out = std::move(m_pending);
    const bool ok = record.status == u"ok" && out && out->has_value();
    m_form->setLdifBusy(false);
    if (ok) {
        m_form->setLdifStats(**out);
        m_view->setLdifStats(&**out);
        recompute();
        emit statusMessage(tr("LDIF measured: %n entries", nullptr, int(std::min<qint64>((*out)->entries, INT_MAX))));
    } else {
        m_form->clearLdifStats();
        m_view->setLdifStats(nullptr);
        const QString why = record.status == u"cancelled" ? tr("LDIF read cancelled") : record.failure;
        m_form->setLdifBusy(false, why);
        emit statusMessage(why);
    }
    emit runningChanged(false);
    emit ldifMeasured(ok);
}
