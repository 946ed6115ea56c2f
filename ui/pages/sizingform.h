#pragma once

#include "core/common/proberror.h"
#include "core/sizing/ldifstats.h"
#include "core/sizing/sizinginput.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QJsonObject>
#include <QWidget>

#include <optional>

class QComboBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QPushButton;

// The inputs of a sizing: the server kind and the numbers the calculators take, each empty = "let the calculator
// derive it". It reads itself into a SizingInput with each value's origin ("typed", or "ldif" for the entry count an
// LDIF measure filled in) and shows an error next to the field it names, in the form's words (the field's label).
// Field ids are the CLI's option names without dashes (SizingInput::validate): threads, cpus, dbcache-mb,
// entry-cache-mb, import-cache-mb, entries, entry-cache-bytes-per-entry, db-size-mb, users; under "Advanced" the
// calculators' other inputs (SizingOptions::numbers, backend, instance). Each input names its option ("cliOption");
// an input the server kind's calculator does not read is disabled.
class SizingForm final : public QWidget
{
    Q_OBJECT
public:
    explicit SizingForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(SizingForm)

    // Fills *in from the form; an error naming the field when a text is not a number. Does not validate().
    ProbeError readInput(SizingInput* in) const;

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;

    SizingServer server() const;
    void setServer(SizingServer server);
    void setText(const QString& field, const QString& text);
    QString text(const QString& field) const;
    // The inputs a saved record's spec holds (SizingInput::toJson): the server kind and each field, empty where the
    // spec has none. Emits no edited().
    void setFromSpec(const QJsonObject& spec);
    static QString specKey(const QString& field); // "dbcache-mb" -> "dbcache_mb"
    QLineEdit* edit(const QString& field) const { return m_edits.value(field); }
    QPushButton* ldifButton() const { return m_ldifButton; }

    // What an LDIF measure found: fills the entry count (origin "ldif") and the sizes shown under it.
    void setLdifStats(const LdifStats& stats);
    void clearLdifStats();
    const std::optional<LdifStats>& ldifStats() const { return m_ldif; }
    void setLdifBusy(bool busy, const QString& text = {});

    static QString fieldLabel(const QString& field);
    // An error as the window says it: the field's label, and every input it refers to by its label (never a CLI
    // option).
    static QString windowText(const ProbeError& error);
    static bool serverUses(SizingServer server, const QString& field);

signals:
    void edited();
    void measureLdifRequested();

private:
    void updateForServer();
    QGroupBox* buildAdvanced();
    ProbeError readAdvanced(SizingInput* in) const;

    QComboBox* m_serverCombo = nullptr;
    QHash<QString, QLineEdit*> m_edits;
    QStringList m_advanced; // the Advanced box's inputs, in order
    QPushButton* m_ldifButton = nullptr;
    QLabel* m_ldifLabel = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    std::optional<LdifStats> m_ldif;
};
