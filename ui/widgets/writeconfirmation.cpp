#include "ui/widgets/writeconfirmation.h"

#include "core/ldap/loadspec.h"

#include <QMessageBox>
#include <QPushButton>
#include <QStringList>

namespace WriteConfirmation {

bool isWriteLoad(const LdapLoadSpec& spec)
{
    for (const auto& p : spec.mix)
        if (p.first == LdapOpKind::Modify || p.first == LdapOpKind::AddDelete)
            return true;
    return false;
}

QString describeWrites(const LdapLoadSpec& spec)
{
    QStringList parts;
    for (const auto& p : spec.mix) {
        if (p.first == LdapOpKind::Modify)
            parts << QMessageBox::tr("modify: replaces <b>%1</b> of the entries <b>%2</b> with the values %3")
                         .arg(spec.attr.toHtmlEscaped(), spec.dnPattern.toHtmlEscaped(),
                             spec.valuePattern.toHtmlEscaped());
        else if (p.first == LdapOpKind::AddDelete)
            parts << QMessageBox::tr("add+delete: adds entries under <b>%1</b> and deletes them again")
                         .arg(spec.parentDn.toHtmlEscaped());
    }
    return parts.join(QStringLiteral("<br>"));
}

QMessageBox* ask(QWidget* parent, const LdapLoadSpec& spec, const std::function<void()>& onConfirmed)
{
    auto* box = new QMessageBox(parent);
    box->setObjectName(QString::fromLatin1(kObjectName));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->setIcon(QMessageBox::Warning);
    box->setWindowTitle(QMessageBox::tr("This load writes to the directory"));
    box->setTextFormat(Qt::RichText);
    box->setText(QMessageBox::tr("This load changes entries on <b>%1</b>:").arg(spec.target.uri.toHtmlEscaped()));
    box->setInformativeText(describeWrites(spec) + QMessageBox::tr("<br><br>Start it?"));
    QPushButton* yes = box->addButton(QMessageBox::tr("Write to the directory"), QMessageBox::AcceptRole);
    yes->setObjectName(QStringLiteral("confirmWriteButton"));
    QPushButton* no = box->addButton(QMessageBox::Cancel);
    no->setObjectName(QStringLiteral("cancelWriteButton"));
    box->setDefaultButton(no);
    // The box closes (and deletes itself) after the click on its own.
    QObject::connect(box, &QMessageBox::buttonClicked, box, [yes, onConfirmed](QAbstractButton* clicked) {
        if (clicked == yes && onConfirmed)
            onConfirmed();
    });
    box->setWindowModality(Qt::WindowModal);
    box->open();
    return box;
}

} // namespace WriteConfirmation
