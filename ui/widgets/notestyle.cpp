#include "ui/widgets/notestyle.h"

#include <QApplication>
#include <QColor>
#include <QEvent>
#include <QLabel>
#include <QPalette>

namespace {

void restyle(QLabel* label)
{
    label->setStyleSheet(QStringLiteral("color: %1;").arg(NoteStyle::colour(QApplication::palette()).name()));
}

class Follower final : public QObject
{
public:
    explicit Follower(QLabel* label)
        : QObject(label)
    { }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override
    {
        if (event->type() == QEvent::ApplicationPaletteChange)
            restyle(static_cast<QLabel*>(watched));
        return false;
    }
};

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
    restyle(label);
    label->installEventFilter(new Follower(label));
}
