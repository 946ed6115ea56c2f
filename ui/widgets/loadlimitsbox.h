#pragma once

#include "core/common/proberror.h"
#include "core/ldap/loadspec.h"

#include <QGroupBox>
#include <QHash>

class QCheckBox;
class QLineEdit;
class QSpinBox;

// The load options a user tunes less often, in a box titled "Advanced", one input per option of `dirbench-cli ldap`
// (each named by the property "cliOption"): the search's size limit (size-limit), the codes that count as success
// (ok-codes), coalesced reads (coalesce-reads: closed loop only), reading the server's counters
// (no-server-counters), the error limit (max-errors) and, when asked for, per-interval histograms
// (interval-histograms). Shared by the LDAP page's load and the replication write load.
class LoadLimitsBox final : public QGroupBox
{
    Q_OBJECT
public:
    enum class Histograms
    {
        Offered,
        NotOffered
    };
    explicit LoadLimitsBox(Histograms histograms, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(LoadLimitsBox)

    // Writes the box's options into *spec; false with *error naming the option when the success codes cannot be
    // read.
    bool writeTo(LdapLoadSpec* spec, ProbeError* error) const;
    void readFrom(const LdapLoadSpec& spec);
    // Disables what the load cannot take, with the reason as tooltip: the size limit without a search, coalesced
    // reads in an open loop (a rate or a ramp).
    void setApplicable(bool hasSearch, bool openLoop);
    void setInputsEnabled(bool enabled);
    QWidget* field(const QString& option) const { return m_fields.value(option); }
    static bool ownsField(const QString& option);
    static QString fieldLabel(const QString& option);

signals:
    void edited();

private:
    void addField(QWidget* w, const QString& option, const QString& tip);
    void applyReasons();

    QSpinBox* m_sizeLimit = nullptr;
    QLineEdit* m_okCodes = nullptr;
    QCheckBox* m_coalesce = nullptr;
    QCheckBox* m_serverCounters = nullptr;
    QSpinBox* m_maxErrors = nullptr;
    QCheckBox* m_histograms = nullptr;
    QHash<QString, QWidget*> m_fields;
    QHash<QString, QString> m_tips;
    QHash<QString, QString> m_reasons; // option -> why it does not apply now
    bool m_inputsEnabled = true;
};
