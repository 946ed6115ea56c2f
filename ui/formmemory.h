#pragma once

#include <QString>

class QWidget;

// Each form's last values, in QSettings under "forms/<group>/<input's objectName>": line edits, plain text edits
// (a host list), spin boxes, combo boxes (by their text) and check boxes that have an object name. Never a password: a
// line edit that hides its text, or whose name speaks of a password or secret, is neither saved nor restored, and
// neither is anything under a widget whose "formMemory" property is false (the connection profiles, which have their
// own store).
namespace FormMemory {

void save(const QString& group, const QWidget* form);
void restore(const QString& group, QWidget* form);
// Whether this input is one the memory keeps.
bool remembers(const QWidget* input, const QWidget* form);

} // namespace FormMemory
