#pragma once

#include <QString>

class QWidget;

// Help → About DirBench.
namespace AboutBox {

// DirBench's version, the Qt it runs with, libldap's and liburing's versions and where the history lives.
QString text();
// A non-modal box (object name "aboutBox") with text(); deleted when closed.
void show(QWidget* parent);

} // namespace AboutBox
