#pragma once

#include "core/common/proberror.h"
#include "core/experiments/curve.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

// The inputs of a coverage curve: mode (cache-sweep / working-set), the points in percent, seconds per point and
// the warm-up, restart (cache-sweep on a sandbox) and the cache's entries (working-set). The search load itself
// (connection, base, filter) is the LDAP page's. Field names are the CLI's (each input's property "cliOption"):
// mode, points, entries, seconds-per-point, warmup, restart, sandbox-dir, cache-entries.
class CurveForm final : public QWidget
{
    Q_OBJECT
public:
    explicit CurveForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(CurveForm)

    // Fills the curve fields of *spec (not the load's target/filter); an error naming the field when unreadable.
    ProbeError readSpec(CurveSpec* spec) const;

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;
    void setInputsEnabled(bool enabled);

    void setMode(CurveSpec::Mode mode);
    void setPointsText(const QString& text);
    void setSecondsPerPoint(double seconds);
    void setWarmup(double seconds);
    void setCacheEntries(qint64 entries); // 0 = from the server's monitor
    void setRestart(bool restart);

    static QString fieldLabel(const QString& field);

private:
    void updateForMode();

    QComboBox* m_modeCombo = nullptr;
    QLineEdit* m_pointsEdit = nullptr;
    QLineEdit* m_secondsEdit = nullptr;
    QLineEdit* m_warmupEdit = nullptr;
    QCheckBox* m_restartCheck = nullptr;
    QLineEdit* m_cacheEntriesEdit = nullptr;
    QLineEdit* m_entriesEdit = nullptr;
    QLineEdit* m_sandboxDirEdit = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QWidget*> m_fields;
    bool m_enabled = true;
};
