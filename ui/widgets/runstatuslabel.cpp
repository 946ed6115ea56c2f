#include "ui/widgets/runstatuslabel.h"

#include "core/common/runrecord.h"
#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QColor>

namespace {

QString colourStyle(const QColor& colour)
{
    return QStringLiteral("QLabel { color: %1; font-weight: bold; }").arg(colour.name());
}

// Red and green that read on the window: the light pair, or lighter ones on a dark window (≥ 4.5:1 on both).
QColor failedColour()
{
    return NoteStyle::isDark(QApplication::palette()) ? QColor(0xef, 0x6b, 0x6b) : QColor(0xc6, 0x28, 0x28);
}

QColor doneColour()
{
    return NoteStyle::passColourNow();
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
        setStyleSheet(colourStyle(failedColour()));
    } else if (record.status == u"cancelled") {
        message = tr("Cancelled. The results cover what was measured until then.");
        setStyleSheet(colourStyle(NoteStyle::colour(QApplication::palette())));
    } else {
        message = doneText.isEmpty() ? tr("Done.") : doneText;
        setStyleSheet(colourStyle(doneColour()));
    }
    setText(message);
    show();
    return message;
}

void RunStatusLabel::showInfo(const QString& text)
{
    setStyleSheet(QString()); // the palette's text colour
    setText(text);
    show();
}

void RunStatusLabel::reset()
{
    clear();
    hide();
}
