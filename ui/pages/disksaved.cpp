// The Disk page showing a saved record (File > Open, History): the run's inputs read-only where the form was.
#include "core/disk/diskrecordfacts.h"
#include "ui/pages/diskhostrow.h"
#include "ui/pages/diskpage.h"
#include "ui/widgets/diskldapview.h"
#include "ui/widgets/savedruninputs.h"

#include <QProgressBar>

bool DiskPage::showsKind(const QString& kind) const
{
    return kind == u"disk" || kind == u"disk-under-load";
}

bool DiskPage::showRecord(const RunRecord& record, QString* error)
{
    if (!showsKind(record.kind) || isRunning()) {
        if (error)
            *error = isRunning() ? tr("a disk test is running; open the saved run when it has finished")
                                 : tr("the Disk page cannot show a saved \"%1\" run").arg(record.kind);
        return false;
    }
    resetResults();
    const bool underLoad = record.kind == u"disk-under-load";
    const QString profile = DiskRecordFacts::of(record).profile;
    m_profileName = underLoad ? tr("%1 under LDAP load").arg(profile) : profile;
    m_ldapView->setVisible(underLoad);
    showResult(record);
    m_progress->setFormat(tr("saved run"));
    // The run's own inputs, read-only, where the form (the user's current settings) was.
    showSavedInputs(m_savedInputs, m_form, record);
    m_hostRow->hide();
    m_underLoadRow->hide();
    return true;
}

void DiskPage::closeSaved()
{
    if (!hideSavedInputs(m_savedInputs, m_form))
        return;
    m_hostRow->show();
    m_underLoadRow->show();
    resetResults();
    m_progress->setFormat(tr("idle"));
}
