#pragma once

class QColor;
class QLabel;
class QPalette;

// The grey of a side note (a hint, a source, a description) taken from the palette, so it reads in the light and
// the dark palette alike (≥ 4.5:1 on the window in both): the window text blended a little toward the window.
// Followed when the application's palette changes.
namespace NoteStyle {

QColor colour(const QPalette& palette);
bool isDark(const QPalette& palette); // a window darker than its text
void apply(QLabel* label);

} // namespace NoteStyle
