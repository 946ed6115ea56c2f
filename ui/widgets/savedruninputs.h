#pragma once

#include "core/common/runrecord.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

// The inputs of a saved run, read-only, in place of a page's editable form while the page shows that run: every
// setting of its spec (dotted keys, as the record holds them; never a password, which no record holds) and a Close
// button that gives the page back its own form. A page that shows saved runs puts one beside its form.
class SavedRunInputs final : public QWidget
{
    Q_OBJECT
public:
    explicit SavedRunInputs(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(SavedRunInputs)

    void showRecord(const RunRecord& record);
    int rowCount() const;
    QString value(const QString& key) const; // a setting as shown, or "" when the run has none
    QPushButton* closeButton() const { return m_close; }

signals:
    void closeRequested();

private:
    QLabel* m_title = nullptr;
    QTableWidget* m_table = nullptr;
    QPushButton* m_close = nullptr;
};
