#pragma once

#include "core/common/runrecord.h"

#include <QColor>
#include <QLabel>
#include <QList>

class QPalette;

// A run's warnings as one yellow box: a bullet per warning with its stable code in brackets. Hidden when empty.
// The colours follow the palette: dark amber with light text when the window is dark, so both read (≥ 4.5:1).
class WarningsLabel final : public QLabel
{
    Q_OBJECT
public:
    struct Colours
    {
        QColor background, text, code, border;
    };

    explicit WarningsLabel(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(WarningsLabel)

    void setWarnings(const QList<RunWarning>& warnings);
    int count() const { return m_count; }

    // The box's colours for a palette: the light pair, or the dark one when the palette's window is dark.
    static Colours colours(const QPalette& palette);
    // WCAG 2 contrast ratio of two colours, 1 to 21.
    static double contrastRatio(const QColor& a, const QColor& b);

protected:
    void changeEvent(QEvent* event) override;

private:
    void applyColours();

    QList<RunWarning> m_warnings;
    int m_count = 0;
};
