// The LDAP page with a saved run (the History page's "open") and with the demo directory started.
#include "core/sandbox/sandboxinfo.h"
#include "ui/demodirectory.h"
#include "ui/formmemory.h"
#include "ui/pages/ldapconnectionform.h"
#include "ui/pages/ldaploadform.h"
#include "ui/pages/ldappage.h"
#include "ui/widgets/agentstrip.h"
#include "ui/widgets/ldaploadview.h"
#include "ui/widgets/probeview.h"
#include "ui/widgets/savedruninputs.h"

#include <QProgressBar>
#include <QTabWidget>

#include <algorithm>

bool LdapPage::showsKind(const QString& kind) const
{
    return kind.startsWith(u"ldap-");
}

bool LdapPage::showRecord(const RunRecord& record, QString* error)
{
    if (!showsKind(record.kind) || isRunning()) {
        if (error)
            *error = isRunning() ? tr("the LDAP page is running a test; open the saved run when it has finished")
                                 : tr("the LDAP page cannot show a saved \"%1\" run").arg(record.kind);
        return false;
    }
    if (record.kind == u"ldap-probe")
        showSavedProbe(record);
    else
        showSavedLoad(record);
    // The run's own inputs, read-only, where the forms (the user's current server) were.
    showSavedInputs(m_savedInputs, m_formTabs, record);
    lockInputs(false);
    m_progress->setValue(0);
    m_progress->setFormat(tr("saved run"));
    return true;
}

void LdapPage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_formTabs))
        return;
    m_loadView->clear();
    m_probeView->clear();
    m_progress->setFormat(tr("idle"));
    lockInputs(false);
}

void LdapPage::showSavedProbe(const RunRecord& record)
{
    m_probeView->setRecord(record);
    m_resultTabs->setCurrentWidget(m_probeView);
}

void LdapPage::showSavedLoad(const RunRecord& record)
{
    m_loadView->clear();
    m_loadView->finish(record);
    m_strip->finish(record);
    m_resultTabs->setCurrentWidget(m_loadView);
}

void LdapPage::onDemoStarted(const SandboxInfo& info)
{
    // The demo's URI and base are shown, never remembered over the user's own (FormMemory).
    const FormMemory::Snapshot connection = FormMemory::snapshot(m_connection);
    const FormMemory::Snapshot load = FormMemory::snapshot(m_loadForm);
    fillFromDemo(info);
    FormMemory::adoptChanged(m_connection, connection);
    FormMemory::adoptChanged(m_loadForm, load);
}

void LdapPage::fillFromDemo(const SandboxInfo& info)
{
    LdapTarget t;
    const bool tls = !info.ldapsUri.isEmpty();
    t.uri = tls ? info.ldapsUri : info.uri;
    t.caFile = tls ? info.caFile : QString();
    t.auth = LdapTarget::Auth::Simple;
    t.bindDn = info.bindDn;
    t.password = DemoDirectory::readPassword(info); // memory only
    m_connection->setTarget(t);
    const QString range = QStringLiteral("[0-%1]").arg(std::max(0, info.entries - 1));
    m_loadForm->setOperation(QStringLiteral("search"));
    m_loadForm->setText(QStringLiteral("base"), info.peopleBase);
    m_loadForm->setText(QStringLiteral("filter"), QStringLiteral("(uid=user") + range + u')');
    m_loadForm->setText(QStringLiteral("dn"), QStringLiteral("uid=user") + range + u',' + info.peopleBase);
    m_loadForm->setText(QStringLiteral("attr"), QStringLiteral("description"));
    m_loadForm->setText(QStringLiteral("value"), QStringLiteral("dirbench [0-999999]"));
    m_loadForm->setText(QStringLiteral("parent"), info.peopleBase);
    emit statusMessage(
        tr("Demo directory running at %1 (%2 entries); the forms are filled in.").arg(t.uri).arg(info.entries));
}
