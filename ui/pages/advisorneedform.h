#pragma once

#include "core/catalog/need.h"

#include <QString>
#include <QWidget>

class QComboBox;
class QLineEdit;

// The requirement for "what do I need": sustained MB/s, IOPS at a block size, commit p99, provider. An empty field
// is not part of the requirement; a bad one is named in errorText().
class AdvisorNeedForm final : public QWidget
{
    Q_OBJECT
public:
    explicit AdvisorNeedForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(AdvisorNeedForm)

    void setProviders(const QStringList& providers);
    // Reads the fields; false with errorField()/errorText() when one is bad.
    bool read(const CloudCatalog::Catalog& c, CloudCatalog::Requirement* r);
    QString errorField() const { return m_errorField; }
    QString errorText() const { return m_errorText; }
    QLineEdit* edit(const QString& field) const; // "mbps", "iops", "block-kib", "commit-p99-ms"
    QComboBox* providerCombo() const { return m_provider; }

signals:
    void edited();

private:
    QLineEdit* m_mbps = nullptr;
    QLineEdit* m_iops = nullptr;
    QLineEdit* m_block = nullptr;
    QLineEdit* m_commit = nullptr;
    QComboBox* m_provider = nullptr;
    QString m_errorField;
    QString m_errorText;
};
