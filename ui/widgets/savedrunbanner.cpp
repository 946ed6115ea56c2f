#include "ui/widgets/savedrunbanner.h"

#include "ui/widgets/notestyle.h"

#include <QLocale>

SavedRunBanner::SavedRunBanner(QWidget* parent)
    : QLabel(parent)
{
    setObjectName(QStringLiteral("savedRunBanner"));
    setWordWrap(true);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    NoteStyle::applyBox(this, NoteStyle::savedRunBox);
    hide();
}

QString SavedRunBanner::textFor(const RunRecord& record, const QString& origin)
{
    const QString when
        = record.started.isValid() ? QLocale().toString(record.started, QLocale::ShortFormat) : tr("an unknown date");
    QString text = tr("Viewing a saved run from %1 (read-only)").arg(when);
    if (!origin.isEmpty())
        text += QStringLiteral(": ") + origin;
    return text;
}

void SavedRunBanner::setViewing(const Page* page, const RunRecord& record, const QString& origin)
{
    m_texts.insert(page, textFor(record, origin));
    showFor(m_current);
}

void SavedRunBanner::forget(const Page* page)
{
    m_texts.remove(page);
    showFor(m_current);
}

void SavedRunBanner::showFor(const Page* page)
{
    m_current = page;
    const QString text = m_texts.value(page);
    setText(text);
    setVisible(!text.isEmpty());
}
