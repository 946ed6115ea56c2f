#pragma once

#include "core/common/runrecord.h"

#include <QList>
#include <QPointer>
#include <QString>
#include <QWidget>

class QAbstractButton;
class SavedRunInputs;

// A page of the main window (Disk, LDAP, Sizing, Curve, …, History). The run plumbing every page shares: the
// window's Start and Cancel (Run menu, tool bar, Ctrl+R, Ctrl+.) call the current page's start() and cancel(),
// exactly as the page's own buttons do, and follow its state. A page tells that state by calling
// runStateChanged() after every change of isRunning() (a run starting or ending, an off-thread check before it):
// the page's own buttons (addRunButtons) are enabled from it, and runningChanged() tells the window, once per change.
class Page : public QWidget
{
    Q_OBJECT
public:
    using QWidget::QWidget;
    Q_DISABLE_COPY_MOVE(Page)

    virtual QString title() const = 0;
    // A run of this page (or the off-thread check before it) is under way: Cancel applies, Start does not.
    virtual bool isRunning() const = 0;
    // A cancel was asked for and the run has not ended yet: Cancel is disabled meanwhile (a second one adds nothing).
    bool isCancelling() const { return m_cancelling && isRunning(); }
    // A saved run is shown in place of the page's form: Start does not apply until the user closes it.
    bool isShowingSaved() const { return m_showingSaved; }
    // The page's own Start and Cancel buttons (addRunButtons), Cancel last; none for a page without a run.
    QList<QAbstractButton*> runButtons() const;

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
    // A saved run was shown (true) or closed (false): the window's Start follows, and drops its saved-run line.
    void showingSavedChanged(bool showing);
    void statusMessage(const QString& text);

protected:
    // The page's own Start buttons (Start, or several that start different runs: their clicks stay the page's to
    // connect) and Cancel (clicked: cancel()). They are enabled from isRunning() at every runStateChanged().
    void addRunButtons(const QList<QAbstractButton*>& starts, QAbstractButton* cancel);
    // Call after every change of isRunning(): the buttons follow, the window hears runningChanged() on a change.
    void runStateChanged();
    // Call when a saved run replaces the page's form (true) and when the user closes it (false).
    void setShowingSaved(bool showing);
    // A saved run's inputs, read-only, in place of `form` (the user's own settings), and Start held meanwhile.
    void showSavedInputs(SavedRunInputs* inputs, QWidget* form, const RunRecord& record);
    // The form back in place of the saved run's inputs, and "Saved run closed" in the status bar; false (nothing
    // done) when no saved run was shown. The page then clears the saved run's results.
    bool hideSavedInputs(SavedRunInputs* inputs, QWidget* form);
    // Call when a cancel was sent to the run: Cancel (the page's and the window's) is disabled until the run ends.
    void cancelRequested();

private:
    QList<QPointer<QAbstractButton>> m_startButtons;
    QPointer<QAbstractButton> m_cancelButton;
    bool m_cancelling = false;
    bool m_showingSaved = false;
    bool m_told = false;
    bool m_toldRunning = false;
};
