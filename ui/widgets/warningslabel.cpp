#include "ui/widgets/warningslabel.h"

#include <QApplication>
#include <QEvent>
#include <QPalette>
#include <QStringList>

#include <cmath>

namespace {

double channel(double c)
{
    return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
}

double luminance(const QColor& c)
{
    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF());
}

} // namespace

WarningsLabel::WarningsLabel(QWidget* parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::RichText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    applyColours();
    hide();
}

WarningsLabel::Colours WarningsLabel::colours(const QPalette& palette)
{
    if (palette.color(QPalette::Window).lightnessF() < 0.5)
        return { QColor(0x3b, 0x2f, 0x08), QColor(0xff, 0xe9, 0xa8), QColor(0xe6, 0xc4, 0x6a),
            QColor(0x8a, 0x70, 0x24) };
    return { QColor(0xff, 0xf3, 0xcd), QColor(0x5c, 0x44, 0x00), QColor(0x6e, 0x56, 0x10), QColor(0xe0, 0xc3, 0x6c) };
}

double WarningsLabel::contrastRatio(const QColor& a, const QColor& b)
{
    const double la = luminance(a);
    const double lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

void WarningsLabel::changeEvent(QEvent* event)
{
    QLabel::changeEvent(event);
    // A child hears of the application's palette, a window of its own one (the sheet's own change is a no-op).
    if (event->type() == QEvent::ApplicationPaletteChange || event->type() == QEvent::PaletteChange)
        applyColours();
}

// From the application's palette: the label's own one is the style sheet's.
void WarningsLabel::applyColours()
{
    const Colours c = colours(QApplication::palette());
    const QString sheet = QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3; "
                                         "border-radius: 3px; padding: 4px 6px; }")
                              .arg(c.background.name(), c.text.name(), c.border.name());
    if (sheet != styleSheet())
        setStyleSheet(sheet);
    if (m_count > 0)
        setWarnings(m_warnings);
}

void WarningsLabel::setWarnings(const QList<RunWarning>& warnings)
{
    m_warnings = warnings;
    m_count = int(warnings.size());
    if (warnings.isEmpty()) {
        clear();
        hide();
        return;
    }
    const QString code = colours(QApplication::palette()).code.name();
    QStringList lines;
    for (const RunWarning& w : warnings)
        lines << QStringLiteral("• ") + w.message.toHtmlEscaped()
                + QStringLiteral(" <span style=\"color:%1\">[%2]</span>").arg(code, w.code.toHtmlEscaped());
    setText(tr("<b>Warnings</b>") + QStringLiteral("<br>") + lines.join(QStringLiteral("<br>")));
    show();
}
