#pragma once

#include "core/sandbox/demosandbox.h"
#include "core/sandbox/sandboxinfo.h"

#include <QGroupBox>

class DemoDirectory;
class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;

// "Start demo directory" / "Stop demo directory": which server (OpenLDAP's slapd, or the 389 Directory Server when
// it is installed), how many entries, with or without TLS (slapd), its servers (one, one with 1 to 3 consumers, or a
// mirror pair of providers: for the Replication page; not with TLS; 389-ds: one consumer at most), with or without
// its access log (for the Replay page; one server only), and what the sandbox is doing. What the chosen server
// does not offer is disabled with the reason. The DemoDirectory does the work (as jobs); this box only asks and
// shows.
class DemoDirectoryBox final : public QGroupBox
{
    Q_OBJECT
public:
    explicit DemoDirectoryBox(DemoDirectory* demo, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(DemoDirectoryBox)

    void setServer(DemoSandbox::Server server);
    void setEntries(int entries);
    void setTls(bool tls);
    void setReplica(bool replica); // one consumer, or one server
    void setTopology(const SandboxTopology& topology);
    void setAccessLog(bool on);
    QString statusText() const;

public slots:
    void startDemo();
    void stopDemo();

private:
    void updateState();
    void updateServerChoices();
    DemoSandbox::Server server() const;

    DemoDirectory* m_demo;
    QComboBox* m_serverCombo = nullptr;
    QSpinBox* m_entriesSpin = nullptr;
    QCheckBox* m_tlsCheck = nullptr;
    QComboBox* m_topologyCombo = nullptr;
    QCheckBox* m_accessLogCheck = nullptr;
    QPushButton* m_startButton = nullptr;
    QPushButton* m_stopButton = nullptr;
    QLabel* m_statusLabel = nullptr;
};
