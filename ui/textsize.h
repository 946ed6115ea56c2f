#pragma once

#include <QList>
#include <QString>

// The text size for a projector: the whole application's font (charts read the application font) at 100, 125 or
// 150 % of the platform's, saved in QSettings ("view/textSize").
namespace TextSize {

enum class Level
{
    Normal,
    Large,
    Larger
};

QList<Level> levels();
QString label(Level level); // "&Normal", "&Large", "La&rger"
double factor(Level level);
Level current();
// Sets the application font and remembers the choice.
void apply(Level level);
// At start: the saved choice (Normal when none).
void applySaved();

} // namespace TextSize
