#pragma once

#include <QList>
#include <QWidget>

class QLabel;
class QVBoxLayout;
struct Verdict;

// Verdicts of a run, one line each: a PASS (green) / FAIL (red) badge, the requirement, what was measured against
// which threshold, and the source and note in smaller print.
class VerdictList final : public QWidget
{
    Q_OBJECT
public:
    explicit VerdictList(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(VerdictList)

    void setVerdicts(const QList<Verdict>& verdicts);
    // Shown instead of verdicts, e.g. "Verdicts appear after a run."
    void setPlaceholder(const QString& text);
    void clear();
    int count() const { return m_count; }

private:
    void removeRows();

    QVBoxLayout* m_rows = nullptr;
    QLabel* m_placeholder = nullptr;
    int m_count = 0;
};
