#include "ui/widgets/runstatuslabel.h"

#include "core/common/runrecord.h"

namespace {

QString colourStyle(const char* colour)
{
    return QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(QLatin1String(colour));
}

} // namespace

RunStatusLabel::RunStatusLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
}

QString RunStatusLabel::showOutcome(const RunRecord& record, const QString& doneText)
{
    QString message;
    if (record.status == u"failed") {
        message = tr("Failed: %1").arg(record.failure.isEmpty() ? tr("no reason given") : record.failure);
        setStyleSheet(colourStyle("#c62828"));
    } else if (record.status == u"cancelled") {
        message = tr("Cancelled. The results cover what was measured until then.");
        setStyleSheet(colourStyle("#555555"));
    } else {
        message = doneText.isEmpty() ? tr("Done.") : doneText;
        setStyleSheet(colourStyle("#2e7d32"));
    }
    setText(message);
    show();
    return message;
}

void RunStatusLabel::showInfo(const QString& text)
{
    setStyleSheet(QStringLiteral("QLabel { color: #333333; }"));
    setText(text);
    show();
}

void RunStatusLabel::reset()
{
    clear();
    hide();
}
