// The Sizing page with a saved "sizing" record (File → Open record…, the History page's "open"), read-only.
#include "core/ldap/probesummary.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/serversizing.h"
#include "core/sizing/sizingsummary.h"
#include "ui/formmemory.h"
#include "ui/pages/sizingform.h"
#include "ui/pages/sizingpage.h"
#include "ui/widgets/sizingresultview.h"

#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QTimer>

bool SizingPage::showRecord(const RunRecord& record, QString* error)
{
    QString why;
    const auto result = isRunning() ? std::nullopt : ServerSizing::resultOf(record, &why);
    if (!result) {
        if (error)
            *error = isRunning() ? tr("the Sizing page is reading an LDIF file or a server; open the saved run when "
                                      "it has finished")
                                 : tr("the Sizing page cannot show this record: %1").arg(why);
        return false;
    }
    m_debounce->stop();
    if (!m_saved)
        m_userInputs = FormMemory::snapshot(m_form);
    m_live.reset();
    m_form->clearLdifStats();
    m_view->setLdifStats(nullptr);
    m_form->setFromSpec(record.spec);
    if (const auto ldif = LdifStats::fromJson(SizingSummary::of(record).ldif)) {
        const QSignalBlocker quiet(m_form); // the saved result is shown as it was, not computed again
        m_form->setLdifStats(*ldif);
        m_view->setLdifStats(&*ldif);
    }
    m_result = *result;
    m_view->setResult(*result);
    const QString vendor = RecordServer::of(record).id.vendor;
    m_serverLabel->setText(vendor.isEmpty() ? QString() : tr("Inputs read from %1 when it was made").arg(vendor));
    setSavedMode(record);
    emit statusMessage(tr("Saved sizing: %1").arg(m_view->totalText()));
    return true;
}

void SizingPage::setSavedMode(const std::optional<RunRecord>& saved)
{
    m_saved = saved;
    const bool editable = !saved;
    m_form->setEnabled(editable);
    m_serverButton->setEnabled(editable);
    m_saveButton->setEnabled(editable);
    m_closeButton->setVisible(!editable);
}

void SizingPage::closeSaved()
{
    if (!m_saved)
        return;
    leaveSaved();
    {
        const QSignalBlocker quiet(m_form);
        FormMemory::apply(m_userInputs);
    }
    m_form->clearLdifStats();
    m_view->setLdifStats(nullptr);
    recompute();
    emit statusMessage(tr("Saved sizing closed: your own inputs are back"));
}

// Back to a sizing made now (Start, an LDIF measure, a server read): the window drops its "viewing a saved run"
// banner. Start stays enabled while a saved sizing is shown (it computes the user's own inputs at once).
void SizingPage::leaveSaved()
{
    if (!m_saved)
        return;
    m_serverLabel->clear();
    setSavedMode(std::nullopt);
    emit showingSavedChanged(false);
}
