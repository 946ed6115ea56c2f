#pragma once

#include <QString>
#include <QWidget>

// A page of the main window (Disk, later LDAP, Sizing, Curve, History). The window's Start and Cancel actions
// are delegated to the current page; the page tells the window when its running state changes.
class Page : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    Q_DISABLE_COPY_MOVE(Page)

    virtual QString title() const = 0;
    virtual bool isRunning() const = 0;

public slots:
    virtual void start() = 0;
    virtual void cancel() = 0;

signals:
    void runningChanged(bool running);
    void statusMessage(const QString& text);
};
