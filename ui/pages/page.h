#pragma once

#include "core/common/runrecord.h"

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

    // Saved runs (File → Open record…, a history run): does this page show records of this kind, and showing one as
    // the page's result, read-only (nothing runs, nothing is saved). The default shows none and says so in *error.
    virtual bool showsKind(const QString& kind) const
    {
        Q_UNUSED(kind)
        return false;
    }
    virtual bool showRecord(const RunRecord& record, QString* error)
    {
        if (error)
            *error = tr("the %1 page cannot show a saved \"%2\" run").arg(title(), record.kind);
        return false;
    }

public slots:
    virtual void start() = 0;
    virtual void cancel() = 0;

signals:
    void runningChanged(bool running);
    void statusMessage(const QString& text);
};
