#pragma once

#include "core/sizing/curvefit.h"

#include <QWidget>

#include <optional>

class QLabel;
class QLineEdit;

// What a fitted curve predicts, both ways: the entry-cache RAM for a target ops/s (CurveFit::cacheBytesFor) and
// the ops/s for an entry cache of a given size (CurveFit::opsForCacheBytes). Bytes per cached entry come from the
// record (a cache sweep measures it) or are typed. Pure arithmetic on the UI thread; updates as the user types.
class CurvePredictor final : public QWidget
{
    Q_OBJECT
public:
    explicit CurvePredictor(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(CurvePredictor)

    void setFit(const std::optional<CurveFit>& fit);
    void setBytesPerEntry(double bytes, const QString& origin);
    void setTargetText(const QString& text);
    void setRamText(const QString& text);

    double target() const; // 0 when none or unreadable
    QString ramForTargetText() const;
    QString opsForRamText() const;
    QLineEdit* targetEdit() const { return m_targetEdit; }

signals:
    void targetChanged(double opsPerSec);

private:
    void update();
    QString ramFor(double target, double bytes, QString* why) const;

    QLineEdit* m_targetEdit = nullptr;
    QLineEdit* m_bytesEdit = nullptr;
    QLineEdit* m_ramEdit = nullptr;
    QLabel* m_bytesOrigin = nullptr;
    QLabel* m_ramForTarget = nullptr;
    QLabel* m_opsForRam = nullptr;
    std::optional<CurveFit> m_fit;
};
