#pragma once

#include <QString>

class QWidget;

// Saves a chart widget (any view of this folder: its plot, legend and placeholder as shown) as a picture. The views
// offer both in their context menu ("Save chart as PNG…", "Save chart as SVG…"); these are what the menu calls once
// a file is chosen. False with *error set when the file cannot be written.
namespace ChartExport {

bool savePng(QWidget* chart, const QString& path, QString* error = nullptr);
bool saveSvg(QWidget* chart, const QString& path, QString* error = nullptr);
// Adds the two save actions to `menuOwner`'s context menu (Qt::ActionsContextMenu); they save `chart`.
void addSaveActions(QWidget* menuOwner, QWidget* chart);

} // namespace ChartExport
