#include "ui/charts/chartexport.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QImageWriter>
#include <QMessageBox>
#include <QPainter>
#include <QPixmap>
#include <QSvgGenerator>
#include <QWidget>

namespace {

bool fail(QString* error, const QString& why)
{
    if (error)
        *error = why;
    return false;
}

QString chartName(const QWidget* chart)
{
    return chart->objectName().isEmpty() ? QStringLiteral("chart") : chart->objectName();
}

void chooseAndSave(QWidget* chart, bool svg)
{
    const QString suffix = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    const QString filter = svg ? QObject::tr("SVG images (*.svg)") : QObject::tr("PNG images (*.png)");
    QString path = QFileDialog::getSaveFileName(chart,
        svg ? QObject::tr("Save chart as SVG") : QObject::tr("Save chart as PNG"), chartName(chart) + suffix, filter);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += suffix;
    QString why;
    const bool ok = svg ? ChartExport::saveSvg(chart, path, &why) : ChartExport::savePng(chart, path, &why);
    if (!ok)
        QMessageBox::warning(chart, QObject::tr("Save chart"), QObject::tr("Could not save %1: %2").arg(path, why));
}

} // namespace

namespace ChartExport {

bool savePng(QWidget* chart, const QString& path, QString* error)
{
    const QPixmap pixmap = chart->grab();
    if (pixmap.isNull())
        return fail(error, QObject::tr("the chart has no size yet"));
    QImageWriter writer(path, "png");
    if (!writer.write(pixmap.toImage()))
        return fail(error, writer.errorString());
    return true;
}

bool saveSvg(QWidget* chart, const QString& path, QString* error)
{
    if (chart->size().isEmpty())
        return fail(error, QObject::tr("the chart has no size yet"));
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(chart->size());
    svg.setViewBox(QRect(QPoint(0, 0), chart->size()));
    svg.setTitle(chartName(chart));
    svg.setDescription(QObject::tr("A chart saved by DirBench"));
    QPainter painter;
    if (!painter.begin(&svg))
        return fail(error, QObject::tr("cannot write %1").arg(path));
    chart->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.end();
    if (!QFileInfo(path).isFile() || QFileInfo(path).size() == 0)
        return fail(error, QObject::tr("cannot write %1").arg(path));
    return true;
}

void addSaveActions(QWidget* menuOwner, QWidget* chart)
{
    auto* png = new QAction(QObject::tr("Save chart as PNG…"), menuOwner);
    png->setObjectName(QStringLiteral("saveChartPngAction"));
    auto* svg = new QAction(QObject::tr("Save chart as SVG…"), menuOwner);
    svg->setObjectName(QStringLiteral("saveChartSvgAction"));
    QObject::connect(png, &QAction::triggered, chart, [chart] { chooseAndSave(chart, false); });
    QObject::connect(svg, &QAction::triggered, chart, [chart] { chooseAndSave(chart, true); });
    menuOwner->addAction(png);
    menuOwner->addAction(svg);
    menuOwner->setContextMenuPolicy(Qt::ActionsContextMenu);
}

} // namespace ChartExport
