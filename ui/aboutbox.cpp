#include "ui/aboutbox.h"

#include "core/common/buildinfo.h"
#include "core/ldap/ldapsession.h"
#include "core/store/runstore.h"

#include <QApplication>
#include <QMessageBox>

QString AboutBox::text()
{
    const QString row = QStringLiteral("<tr><td>%1</td><td>%2</td></tr>");
    QString rows;
    rows += row.arg(QApplication::translate("AboutBox", "Qt"), QString::fromLatin1(qVersion()));
    rows += row.arg(QApplication::translate("AboutBox", "libldap"), LdapSession::libraryVersion().toHtmlEscaped());
    rows += row.arg(QApplication::translate("AboutBox", "liburing"), BuildInfo::liburingVersion().toHtmlEscaped());
    rows += row.arg(QApplication::translate("AboutBox", "History"), RunStore::defaultPath().toHtmlEscaped());
    return QApplication::translate("AboutBox",
               "<h3>DirBench %1</h3><p>A workbench for directory-service performance: disks, LDAP probes and loads, "
               "sizing, reports.</p>")
               .arg(BuildInfo::version())
        + QStringLiteral("<table cellspacing='4'>") + rows + QStringLiteral("</table>");
}

void AboutBox::show(QWidget* parent)
{
    auto* box = new QMessageBox(QMessageBox::Information, QApplication::translate("AboutBox", "About DirBench"), text(),
        QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("aboutBox"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setTextFormat(Qt::RichText);
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
    box->open();
}
