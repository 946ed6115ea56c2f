#pragma once

#include <QColor>

class QLabel;
class QPalette;
class QString;

// The colours of notes, errors and message boxes taken from the palette, so they read in the light and the dark
// palette alike (text ≥ 4.5:1 on its background in both, tst_windowfit measures them). A label styled here follows
// the application's palette when it changes.
namespace NoteStyle {

// The grey of a side note (a hint, a source, a description): the window text blended a little toward the window.
QColor colour(const QPalette& palette);
bool isDark(const QPalette& palette); // a window darker than its text
void apply(QLabel* label);

// The red of an error text on the window (a form's field error): dark red on a light window, light red on a dark.
QColor errorColour(const QPalette& palette);
void applyError(QLabel* label, bool bold = true);
// The other status colours of a text on the window or in a table (its base), in the same two shades: a pass or a
// better figure (green), a warning (amber), a run in progress (blue). Read the palette when painting, so a change of
// palette repaints in the new shade.
QColor passColour(const QPalette& palette);
QColor warnColour(const QPalette& palette);
QColor busyColour(const QPalette& palette);
// The same for the application's palette now (for models and rich text, which have no widget of their own).
QColor errorColourNow();
QColor passColourNow();
QColor warnColourNow();
QColor busyColourNow();
// The style sheet that outlines the field an error names (the error's red, for the application's palette now).
QString errorFieldSheet();

// A message box: its background, text and border.
struct Box
{
    QColor background, text, border;
};
Box savedRunBox(const QPalette& palette); // amber: "viewing a saved run"
Box dangerBox(const QPalette& palette); // red: a security warning
// Styles the label as that box (for the application's palette), and follows the palette.
void applyBox(QLabel* label, Box (*box)(const QPalette&));

} // namespace NoteStyle
