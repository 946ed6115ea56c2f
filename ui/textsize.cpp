#include "ui/textsize.h"

#include <QApplication>
#include <QFont>
#include <QSettings>

namespace {

const QString kKey = QStringLiteral("view/textSize");

// The platform's font, taken before the first change.
const QFont& baseFont()
{
    static const QFont base = QApplication::font();
    return base;
}

} // namespace

QList<TextSize::Level> TextSize::levels()
{
    return { Level::Normal, Level::Large, Level::Larger };
}

QString TextSize::label(Level level)
{
    switch (level) {
    case Level::Normal:
        return QApplication::translate("TextSize", "&Normal");
    case Level::Large:
        return QApplication::translate("TextSize", "&Large");
    case Level::Larger:
        return QApplication::translate("TextSize", "La&rger");
    }
    return {};
}

double TextSize::factor(Level level)
{
    switch (level) {
    case Level::Normal:
        return 1.0;
    case Level::Large:
        return 1.25;
    case Level::Larger:
        return 1.5;
    }
    return 1.0;
}

TextSize::Level TextSize::current()
{
    const int v = QSettings().value(kKey, 0).toInt();
    return v >= 0 && v <= int(Level::Larger) ? Level(v) : Level::Normal;
}

void TextSize::apply(Level level)
{
    QFont f = baseFont();
    if (f.pointSizeF() > 0)
        f.setPointSizeF(f.pointSizeF() * factor(level));
    else
        f.setPixelSize(qRound(f.pixelSize() * factor(level)));
    QSettings().setValue(kKey, int(level)); // first: widgets read current() when the font changes
    QApplication::setFont(f);
}

void TextSize::applySaved()
{
    const Level level = current();
    if (level != Level::Normal)
        apply(level);
}
