#pragma once

#include "core/store/runstore.h"

#include <QWidget>

class QComboBox;
class QLineEdit;

// Kind / tag / text filter of the History page; filterChanged() fires as the user types (the page debounces).
class HistoryFilterBar final : public QWidget
{
    Q_OBJECT
public:
    explicit HistoryFilterBar(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(HistoryFilterBar)

    RunStore::Filter filter() const;
    void setKinds(const QStringList& kinds); // offered in the kind box (keeps the current choice)
    void setKind(const QString& kind);
    void setTag(const QString& tag);
    void setText(const QString& text);

signals:
    void filterChanged();

private:
    QComboBox* m_kind;
    QLineEdit* m_tag;
    QLineEdit* m_text;
};
