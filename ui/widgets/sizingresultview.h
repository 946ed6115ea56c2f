#pragma once

#include "core/sizing/recommendation.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTextBrowser;
class WarningsLabel;
struct LdifStats;

// What a sizing says: a "total RAM" headline with its terms, each recommendation with its value, formula, the
// formula with the numbers, its inputs and their origin, and its source; the calculator's warnings; the change
// that would apply it in a read-only monospace box with a Copy button (DirBench never applies it); and, after an
// LDIF measure, the attribute frequency with the index candidates.
class SizingResultView final : public QWidget
{
    Q_OBJECT
public:
    explicit SizingResultView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(SizingResultView)

    void setResult(const SizingResult& result);
    // No result for the inputs on the form: the last one goes (its numbers and its change belong to other inputs),
    // and a note says why there is none.
    void setInvalid(const QString& why);
    void setLdifStats(const LdifStats* stats);

    QString totalText() const;
    QString termsText() const;
    QString applyText() const;
    QString applyFormatText() const;
    QString recommendationsHtml() const;
    int recommendationCount() const { return m_count; }
    int attributeRows() const;
    QPushButton* copyButton() const { return m_copyButton; }

    // One recommendation as HTML (value + unit, formula, computation, inputs with origin, source, note).
    static QString recommendationHtml(const Recommendation& r);
    // A setting as "current → proposed" ("2,000 MB → 2,926.8 MB"); the current value unknown says so; a computed
    // quantity (total RAM) is its value alone.
    static QString changeText(const Recommendation& r);
    // "base 29 MB + dbcache 685 MB + …" from the summary terms of a server kind.
    static QString termsLine(const SizingResult& result);

private:
    QLabel* m_totalLabel = nullptr;
    QLabel* m_termsLabel = nullptr;
    QLabel* m_invalidLabel = nullptr;
    WarningsLabel* m_warnings = nullptr;
    QTabWidget* m_tabs = nullptr;
    QTextBrowser* m_recommendations = nullptr;
    QTableWidget* m_attributes = nullptr;
    QLabel* m_applyFormat = nullptr;
    QPlainTextEdit* m_apply = nullptr;
    QPushButton* m_copyButton = nullptr;
    int m_count = 0;
};
