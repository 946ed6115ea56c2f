#pragma once

#include <QString>

class QWidget;

// Help → About DirBench and Help → Documentation.
namespace AboutBox {

// DirBench's version, the Qt it runs with, libldap's and liburing's versions and where the history lives.
QString text();
// A non-modal box (object name "aboutBox") with text(); deleted when closed.
void show(QWidget* parent);

// Where the documentation is: the installed README (or, in a build tree, the source's), else the doc directory.
QString documentationPath();
// Opens documentationPath() with the desktop's viewer; false when nothing could open it.
bool openDocumentation();

} // namespace AboutBox
