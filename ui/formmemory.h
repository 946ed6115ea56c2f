#pragma once

#include <QHash>
#include <QString>
#include <QVariant>

class QWidget;

// Each form's last values, in QSettings under "forms/<group>/<input's objectName>": line edits, plain text edits
// (a host list), spin boxes, combo boxes (by their text) and check boxes that have an object name. Never a password: a
// line edit that hides its text, or whose name speaks of a password or secret, is neither saved nor restored, and
// neither is anything under a widget whose "formMemory" property is false (the connection profiles, which have their
// own store).
//
// Only what the user chose is kept: restore() notes each input's value as its baseline (the remembered value, or
// the form's default where none is), and save() writes only the inputs whose value differs from it. A value the
// program puts in (the demo directory's URI and base) is adopted as the baseline (adoptChanged), so it is shown
// but never remembered over the user's own.
namespace FormMemory {

using Snapshot = QHash<const QWidget*, QVariant>;

void save(const QString& group, const QWidget* form);
void restore(const QString& group, QWidget* form);
// Whether this input is one the memory keeps.
bool remembers(const QWidget* input, const QWidget* form);
// The form's remembered inputs and their values now.
Snapshot snapshot(const QWidget* form);
// Every input whose value is not the one in `before` was set by the program: its new value is its baseline.
void adoptChanged(QWidget* form, const Snapshot& before);
// Puts a snapshot's values back (a page that showed a saved run's inputs gives the user's own back).
void apply(const Snapshot& values);

} // namespace FormMemory
