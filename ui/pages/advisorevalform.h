#pragma once

#include "core/catalog/evaluation.h"

#include <QString>
#include <QWidget>

#include <optional>

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

// Pick a disk type, a size (and what is provisioned), a VM and the test's queue depth × block size, access and
// latency per I/O (each input names its option of `cloud eval`, property "cliOption"); shows the evaluation: the disk's
// IOPS and MB/s, its burst and how long it lasts, the VM's caps, and the effective limit with what binds.
class AdvisorEvalForm final : public QWidget
{
    Q_OBJECT
public:
    explicit AdvisorEvalForm(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(AdvisorEvalForm)

    void setCatalog(const CloudCatalog::Catalog* catalog);
    // Selects a disk (id), a size, a VM ("" = none) and the provisioned IOPS (provisioned types).
    void select(const QString& diskId, double sizeGib, const QString& vmId,
        std::optional<double> provisionedIops = std::nullopt);
    void setWorkload(int queueDepth, double blockKib);

    const CloudCatalog::DiskType* diskType() const;
    double sizeGib() const;
    const CloudCatalog::Vm* vm() const;
    CloudCatalog::Provisioning provisioning() const;
    CloudCatalog::Workload workload() const;
    // The evaluation on screen, or nullopt with errorText() naming the field.
    const std::optional<CloudCatalog::Evaluation>& evaluation() const { return m_evaluation; }
    QString errorText() const { return m_error; }
    QString resultText() const;

    QComboBox* providerCombo() const { return m_provider; }
    QComboBox* diskCombo() const { return m_disk; }
    QDoubleSpinBox* sizeSpin() const { return m_size; }
    QComboBox* vmCombo() const { return m_vm; }
    QSpinBox* queueDepthSpin() const { return m_qd; }

signals:
    void changed();

private:
    void buildWorkloadFields();
    void fillDisks();
    void fillVms();
    void onDiskChanged();
    void recompute();

    const CloudCatalog::Catalog* m_catalog = nullptr;
    QComboBox* m_provider = nullptr;
    QComboBox* m_disk = nullptr;
    QDoubleSpinBox* m_size = nullptr;
    QDoubleSpinBox* m_provisioned = nullptr;
    QComboBox* m_vm = nullptr;
    QSpinBox* m_qd = nullptr;
    QDoubleSpinBox* m_block = nullptr;
    QDoubleSpinBox* m_provisionedMbps = nullptr;
    QComboBox* m_access = nullptr;
    QDoubleSpinBox* m_latency = nullptr;
    QLabel* m_result = nullptr;
    std::optional<CloudCatalog::Evaluation> m_evaluation;
    QString m_error;
    bool m_filling = false;
};
