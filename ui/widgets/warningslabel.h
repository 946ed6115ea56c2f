#pragma once

#include <QLabel>
#include <QList>

struct RunWarning;

// A run's warnings as one yellow box: a bullet per warning with its stable code in brackets. Hidden when empty.
class WarningsLabel final : public QLabel
{
    Q_OBJECT
public:
    explicit WarningsLabel(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(WarningsLabel)

    void setWarnings(const QList<RunWarning>& warnings);
    int count() const { return m_count; }

private:
    int m_count = 0;
};
