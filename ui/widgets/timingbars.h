#pragma once

#include <QList>
#include <QString>
#include <QWidget>

#include <limits>

// A small horizontal bar chart of a probe's timing breakdown (TCP connect, TLS handshake, bind, root DSE, one
// search), in ms. A step that was not measured (NaN) shows "not measured" instead of a bar.
class TimingBars final : public QWidget
{
    Q_OBJECT
public:
    struct Bar
    {
        QString label;
        double ms = std::numeric_limits<double>::quiet_NaN();
    };

    explicit TimingBars(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(TimingBars)

    void setBars(const QList<Bar>& bars);
    const QList<Bar>& bars() const { return m_bars; }
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QList<Bar> m_bars;
};
