#include "ui/pages/page.h"

#include "ui/widgets/savedruninputs.h"

#include <QAbstractButton>

void Page::addRunButtons(const QList<QAbstractButton*>& starts, QAbstractButton* cancel)
{
    for (QAbstractButton* b : starts)
        m_startButtons << b;
    m_cancelButton = cancel;
    if (cancel)
        connect(cancel, &QAbstractButton::clicked, this, &Page::cancel);
    runStateChanged();
}

QList<QAbstractButton*> Page::runButtons() const
{
    QList<QAbstractButton*> out;
    for (const auto& b : m_startButtons)
        if (b)
            out << b.data();
    if (m_cancelButton)
        out << m_cancelButton.data();
    return out;
}

void Page::runStateChanged()
{
    const bool running = isRunning();
    if (!running)
        m_cancelling = false;
    for (const auto& b : std::as_const(m_startButtons))
        if (b)
            b->setEnabled(!running && !m_showingSaved);
    if (m_cancelButton)
        m_cancelButton->setEnabled(running && !m_cancelling);
    if (m_told && m_toldRunning == running && !m_cancelling)
        return;
    m_told = true;
    m_toldRunning = running;
    emit runningChanged(running);
}

void Page::cancelRequested()
{
    m_cancelling = true;
    runStateChanged();
}

void Page::showSavedInputs(SavedRunInputs* inputs, QWidget* form, const RunRecord& record)
{
    setShowingSaved(true);
    inputs->showRecord(record);
    form->hide();
    inputs->show();
}

bool Page::hideSavedInputs(SavedRunInputs* inputs, QWidget* form)
{
    if (!isShowingSaved())
        return false;
    setShowingSaved(false);
    inputs->hide();
    form->show();
    emit statusMessage(tr("Saved run closed"));
    return true;
}

void Page::setShowingSaved(bool showing)
{
    if (m_showingSaved == showing)
        return;
    m_showingSaved = showing;
    runStateChanged();
    emit showingSavedChanged(showing);
}
