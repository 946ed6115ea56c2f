#pragma once

#include <QGroupBox>

class DemoDirectory;
class QCheckBox;
class QLabel;
class QPushButton;
class QSpinBox;

// "Start demo directory" / "Stop demo directory": how many entries, with or without TLS or a replica (a syncrepl
// consumer beside the server, for the Replication page; not with TLS), and what the sandbox is doing. The DemoDirectory
// does the work (as jobs); this box only asks and shows.
class DemoDirectoryBox final : public QGroupBox
{
    Q_OBJECT
public:
    explicit DemoDirectoryBox(DemoDirectory* demo, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DemoDirectoryBox)

    void setEntries(int entries);
    void setTls(bool tls);
    void setReplica(bool replica);
    QString statusText() const;

public slots:
    void startDemo();
    void stopDemo();

private:
    void updateState();

    DemoDirectory* m_demo;
    QSpinBox* m_entriesSpin = nullptr;
    QCheckBox* m_tlsCheck = nullptr;
    QCheckBox* m_replicaCheck = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QLabel* m_statusLabel = nullptr;
};
