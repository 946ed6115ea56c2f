#include "ui/widgets/warningslabel.h"

#include "core/common/runrecord.h"

#include <QStringList>

WarningsLabel::WarningsLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setStyleSheet(QStringLiteral("QLabel { background: #fff3cd; color: #5c4400; border: 1px solid #e0c36c; "
                                 "border-radius: 3px; padding: 4px 6px; }"));
    hide();
}

void WarningsLabel::setWarnings(const QList<RunWarning>& warnings)
{
    m_count = int(warnings.size());
    if (warnings.isEmpty()) {
        clear();
        hide();
        return;
    }
    QStringList lines;
    for (const RunWarning& w : warnings)
        lines << QStringLiteral("• ") + w.message.toHtmlEscaped()
                + QStringLiteral(" <span style=\"color:#8a6d1a\">[%1]</span>").arg(w.code.toHtmlEscaped());
    setText(tr("<b>Warnings</b>") + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")));
    show();
}
