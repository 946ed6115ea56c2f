#pragma once

#include <QWidget>

#include <functional>

class QFormLayout;
class QGroupBox;
class QLabel;
class QTreeWidget;
class TimingBars;
struct ProbeSummary;
struct ProbeTls;
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
    // How the window names an input a failure refers to (the connection form's labels); without one, the record's
    // own sentence (the CLI's option names) is shown.
    void setFieldNamer(std::function<QString(const QString& field)> namer) { m_namer = std::move(namer); }
    // The failure as the window says it: the cause in the form's words, where the record holds one.
    QString failureText(const RunRecord& record) const;
    void clear();

    QString serverKind() const { return m_kind; }
    QString serverText() const; // the header as plain text
    QString tlsKeyText() const;
    TimingBars* timingBars() const { return m_timings; }
    QTreeWidget* rootDseTree() const { return m_rootDse; }

private:
    std::function<QString(const QString& field)> m_namer;
    void setServer(const ProbeSummary& probe);
    void setTls(const ProbeTls* tls); // null: no TLS
    void setRootDse(const ProbeSummary& probe);

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
