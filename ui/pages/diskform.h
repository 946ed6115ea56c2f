#pragma once

#include "core/common/proberror.h"
#include "core/disk/diskspec.h"
#include "ui/widgets/formerror.h"

#include <QHash>
#include <QStringList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

// The inputs of a disk test. It reads itself into a DiskSpec (fields the profile does not use are disabled and
// left at their defaults) and shows an error next to the field it names. Field names are the CLI's option names
// without dashes, as in ProbeError::field: dir, size, block, qd, duration, until-steady, repeat, data, engine,
// buffered, commit-append, interval, requirements; each input names its option (property "cliOption").
class DiskForm final : public QWidget
{
    Q_OBJECT
public:
    explicit DiskForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DiskForm)

    // Fills *spec from the form; an error (kind InvalidSpec, naming the field) when a text cannot be read.
    // Does not call DiskSpec::validate().
    ProbeError readSpec(DiskSpec* spec) const;

    void showError(const ProbeError& error);
    void clearError();
    QString errorField() const { return m_error.field(); }
    QString errorText() const;

    void setInputsEnabled(bool enabled);
    void rememberDirectory() const; // QSettings "disk/dir"

    QString directory() const;
    void setDirectory(const QString& dir);
    DiskProfile profile() const;
    void setProfile(DiskProfile profile);
    void setSizeText(const QString& text);
    void setBlockText(const QString& text);
    void setDurationText(const QString& text);
    void setQueueDepth(int qd); // 0 = profile default
    void setRepeat(int repeat);
    void setData(DiskData data);
    void setEngine(IoEngineChoice engine);
    void setBuffered(bool buffered);

    // A test on a host: the directory is one there (Browse shows this machine's, so it is off, with the reason).
    void setOnHost(bool onHost);
    // The directories offered as the test's (a host's file systems, once it answered its Check).
    void setDirectoryChoices(const QStringList& dirs);
    // Inputs outside the form whose errors its error line shows and marks (the page's Run on row); the labeller
    // gives "" for a field it does not own.
    using OuterFields = std::function<QWidget*(const QString& field)>;
    void setOuterFields(OuterFields fields, FormError::Labeller labels);

    // Does the profile take this field? (dd takes only dir, repeat and data.)
    static bool profileUses(DiskProfile profile, const QString& field);
    // The form's label of a field: "dir" -> "Directory".
    static QString fieldLabel(const QString& field);

signals:
    void edited();

private:
    void browse();
    void buildMoreFields();
    void updateForProfile();
    QWidget* fieldWidget(const QString& field) const
    {
        return m_fields.contains(field) || !m_outerFields ? m_fields.value(field) : m_outerFields(field);
    }
    QString labelOf(const QString& field) const
    {
        const QString outer = m_fields.contains(field) || !m_outerLabels ? QString() : m_outerLabels(field);
        return outer.isEmpty() ? fieldLabel(field) : outer;
    }

    QLineEdit* m_dirEdit = nullptr;
    QPushButton* m_browseButton = nullptr;
    QComboBox* m_profileCombo = nullptr;
    QLabel* m_profileDescription = nullptr;
    QLineEdit* m_sizeEdit = nullptr;
    QLineEdit* m_blockEdit = nullptr;
    QSpinBox* m_qdSpin = nullptr;
    QLineEdit* m_durationEdit = nullptr;
    QSpinBox* m_repeatSpin = nullptr;
    QComboBox* m_dataCombo = nullptr;
    QComboBox* m_engineCombo = nullptr;
    QCheckBox* m_bufferedCheck = nullptr;
    QLineEdit* m_untilSteadyEdit = nullptr;
    QLineEdit* m_intervalEdit = nullptr;
    QCheckBox* m_commitAppendCheck = nullptr;
    QComboBox* m_requirementsCombo = nullptr;
    QLabel* m_errorLabel = nullptr;
    FormErrorLine m_error; // on m_errorLabel
    QHash<QString, QWidget*> m_fields;
    OuterFields m_outerFields;
    FormError::Labeller m_outerLabels;
    bool m_inputsEnabled = true;
    bool m_onHost = false;
};
