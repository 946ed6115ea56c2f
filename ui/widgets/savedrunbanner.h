#pragma once

#include "core/common/runrecord.h"

#include <QHash>
#include <QLabel>

class Page;

// The line above the pages that says the current page shows a saved run, not one made now: "Viewing a saved run
// from <date> (read-only): <where it came from>". One text per page; a page's text goes when it starts a run.
class SavedRunBanner final : public QLabel
{
    Q_OBJECT
public:
    explicit SavedRunBanner(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(SavedRunBanner)

    void setViewing(const Page* page, const RunRecord& record, const QString& origin);
    void forget(const Page* page);
    // Shows the current page's text, or hides.
    void showFor(const Page* page);

    static QString textFor(const RunRecord& record, const QString& origin);

private:
    QHash<const Page*, QString> m_texts;
    const Page* m_current = nullptr;
};
