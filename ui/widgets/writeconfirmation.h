#pragma once

#include <QString>

#include <functional>

class QMessageBox;
class QWidget;
struct LdapLoadSpec;

// Loads that write (modify, add+delete, or a mix with either) change the directory: before one starts, the user
// confirms in a window-modal QMessageBox that names what will be written. The box is opened, never exec()'d (no
// nested event loop): onConfirmed runs when the user says yes; nothing happens on no.
namespace WriteConfirmation {

inline const char* const kObjectName = "writeConfirmation";

bool isWriteLoad(const LdapLoadSpec& spec);
// "modify: description of uid=user[0-9999],ou=people,dc=example,dc=com; add+delete under ou=people,…"
QString describeWrites(const LdapLoadSpec& spec);
// Opens the question and returns the box (deleted when closed).
QMessageBox* ask(QWidget* parent, const LdapLoadSpec& spec, const std::function<void()>& onConfirmed);

} // namespace WriteConfirmation
