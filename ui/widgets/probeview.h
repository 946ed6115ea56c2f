#pragma once

#include <QWidget>

class QFormLayout;
class QGroupBox;
class QJsonObject;
class QLabel;
class QTreeWidget;
class TimingBars;
struct RunRecord;

// What a probe found ("ldap-probe" record): which server (vendor, version, kind) and why we think so, the timing
// breakdown as bars, the TLS facts with the key size emphasised, and the root DSE's lists.
class ProbeView final : public QWidget
{
    Q_OBJECT
public:
    explicit ProbeView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ProbeView)

    void setRecord(const RunRecord& record);
    void clear();

    QString serverKind() const { return m_kind; }
    QString serverText() const; // the header as plain text
    QString tlsKeyText() const;
    TimingBars* timingBars() const { return m_timings; }
    QTreeWidget* rootDseTree() const { return m_rootDse; }

private:
    void setTls(const QJsonObject& tls);
    void setRootDse(const QJsonObject& dse);

    QLabel* m_serverLabel = nullptr;
    QLabel* m_evidenceLabel = nullptr;
    QLabel* m_failureLabel = nullptr;
    TimingBars* m_timings = nullptr;
    QGroupBox* m_tlsBox = nullptr;
    QFormLayout* m_tlsForm = nullptr;
    QLabel* m_tlsNone = nullptr;
    QLabel* m_keyLabel = nullptr;
    QTreeWidget* m_rootDse = nullptr;
    QString m_kind;
};
