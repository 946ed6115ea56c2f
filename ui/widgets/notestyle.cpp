#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QColor>
#include <QEvent>
#include <QLabel>
#include <QPalette>

#include <functional>

namespace {

using Sheet = std::function<QString(const QPalette&)>;

void restyle(QLabel* label, const Sheet& sheet)
{
    const QString s = sheet(QApplication::palette());
    if (s != label->styleSheet())
        label->setStyleSheet(s);
}

// Restyles its label when the application's palette changes.
class Follower final : public QObject
{
public:
    Follower(QLabel* label, Sheet sheet)
        : QObject(label)
        , m_sheet(std::move(sheet))
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::ApplicationPaletteChange)
            restyle(static_cast<QLabel*>(watched), m_sheet);
        return false;
    }

private:
    Sheet m_sheet;
};

void follow(QLabel* label, Sheet sheet)
{
    restyle(label, sheet);
    label->installEventFilter(new Follower(label, std::move(sheet)));
}

} // namespace

QColor NoteStyle::colour(const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    const QColor window = palette.color(QPalette::Window);
    constexpr double kText = 0.64;
    const auto mix = [](double a, double b) { return qRound(kText * a + (1 - kText) * b); };
    return QColor(mix(text.red(), window.red()), mix(text.green(), window.green()), mix(text.blue(), window.blue()));
}

bool NoteStyle::isDark(const QPalette& palette)
{
    return palette.color(QPalette::Window).lightness() < palette.color(QPalette::WindowText).lightness();
}

void NoteStyle::apply(QLabel* label)
{
    follow(label, [](const QPalette& p) { return QStringLiteral("color: %1;").arg(colour(p).name()); });
}

QColor NoteStyle::errorColour(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xff, 0x8a, 0x80) : QColor(0xc6, 0x28, 0x28);
}

QColor NoteStyle::passColour(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x6c, 0xc0, 0x70) : QColor(0x27, 0x6b, 0x2b);
}

QColor NoteStyle::warnColour(const QPalette& palette)
{
    return isDark(palette) ? QColor(0xe3, 0xb3, 0x5c) : QColor(0x8a, 0x5a, 0x00);
}

QColor NoteStyle::busyColour(const QPalette& palette)
{
    return isDark(palette) ? QColor(0x90, 0xca, 0xf9) : QColor(0x15, 0x65, 0xc0);
}

QColor NoteStyle::errorColourNow()
{
    return errorColour(QApplication::palette());
}

QColor NoteStyle::passColourNow()
{
    return passColour(QApplication::palette());
}

QColor NoteStyle::warnColourNow()
{
    return warnColour(QApplication::palette());
}

QColor NoteStyle::busyColourNow()
{
    return busyColour(QApplication::palette());
}

void NoteStyle::applyError(QLabel* label, bool bold)
{
    const QString weight = bold ? QStringLiteral(" font-weight: bold;") : QString();
    follow(label, [weight](const QPalette& p) -> QString {
        return QStringLiteral("color: %1;").arg(errorColour(p).name()) + weight;
    });
}

QString NoteStyle::errorFieldSheet()
{
    return QStringLiteral("border: 1px solid %1; border-radius: 2px; padding: 1px;")
        .arg(errorColour(QApplication::palette()).name());
}

NoteStyle::Box NoteStyle::savedRunBox(const QPalette& palette)
{
    if (isDark(palette))
        return { QColor(0x3b, 0x2f, 0x08), QColor(0xff, 0xe9, 0xa8), QColor(0x8a, 0x70, 0x24) };
    return { QColor(0xff, 0xf3, 0xcd), QColor(0x5c, 0x44, 0x00), QColor(0xe0, 0xc4, 0x6c) };
}

NoteStyle::Box NoteStyle::dangerBox(const QPalette& palette)
{
    if (isDark(palette))
        return { QColor(0x3d, 0x14, 0x14), QColor(0xff, 0xb4, 0xab), QColor(0xa8, 0x4a, 0x4a) };
    return { QColor(0xfd, 0xec, 0xea), QColor(0x8e, 0x1b, 0x1b), QColor(0xe5, 0xa3, 0xa3) };
}

void NoteStyle::applyBox(QLabel* label, Box (*box)(const QPalette&))
{
    follow(label, [box](const QPalette& p) {
        const Box b = box(p);
        return QStringLiteral("QLabel { background: %1; color: %2; border: 1px solid %3; border-radius: 3px; "
                              "padding: 4px 6px; }")
            .arg(b.background.name(), b.text.name(), b.border.name());
    });
}
