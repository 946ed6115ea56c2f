#pragma once

#include "core/common/runrecord.h"
#include "core/ldap/loadspec.h"
#include "core/ldap/serverinventory.h"
#include "core/run/proberunner.h"
#include "core/sizing/recommendation.h"
#include "core/sizing/sizinginput.h"
#include "ui/pages/page.h"

#include <QHash>
#include <QString>
#include <QVariant>

#include <functional>
#include <memory>
#include <optional>

class QLabel;
class QPushButton;
class QTimer;
class SizingForm;
class SizingResultView;
struct LdifStats;

// The Sizing page: the inputs on the left, the recommendations on the right, updated as the user types
// (ServerSizing::compute is pure and fast, so it runs on the UI thread, 150 ms after the last edit). "Measure from
// an LDIF file…" reads the file as a job on the shared ProbeRunner (the page ignores every other run id) and fills
// the entry count, the entry sizes, the attribute frequency and the index candidates. Start recomputes now;
// Cancel stops an LDIF read. "Read from the LDAP page's server" reads a live server (Ldap::readInventory, read only,
// as a job) over the LDAP page's connection and base: the server kind, and the inputs it exposes (origin "monitor";
// a typed input wins, so the fields the reading fills are cleared first).
class SizingPage final : public Page
{
    Q_OBJECT
public:
    explicit SizingPage(ProbeRunner* runner, QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(SizingPage)

    QString title() const override { return tr("Sizing"); }
    bool isRunning() const override { return m_runId != 0; }
    // A saved "sizing" record, read-only: the form holds its spec (disabled), the view its summary. Start leaves it
    // (the form is editable again and computes anew); refused while an LDIF or a server is being read.
    bool showsKind(const QString& kind) const override { return kind == u"sizing"; }
    bool showRecord(const RunRecord& record, QString* error = nullptr) override;
    // A saved sizing is shown (Start stays enabled: it computes the user's own inputs at once, and closes it).
    bool showingSaved() const { return m_saved.has_value(); }
    // Leaves a saved sizing: the form gets the user's own inputs back (as they were before it was opened).
    void closeSaved();
    QPushButton* closeSavedButton() const { return m_closeButton; }

    SizingForm* form() const { return m_form; }
    SizingResultView* resultView() const { return m_view; }
    // The result on screen (nullopt before the first valid input) and the record it makes.
    const std::optional<SizingResult>& result() const { return m_result; }
    RunRecord record() const;
    // record() once the user made a sizing (Start, Save in history, an LDIF measured, a server read); before that
    // an empty record: the form's untouched example is not a run, and a report leaves it out.
    // A saved record shown is record() but not the page's own run (as on the other pages): no lastRecord().
    RunRecord lastRecord() const { return m_made && !m_saved ? record() : RunRecord(); }
    QString errorField() const;
    QString errorText() const;
    // Reads this LDIF as a job (what the button does after its file dialog).
    void measureLdif(const QString& path);
    // The live server: where the connection comes from (the LDAP page's), and the reading itself.
    using LdapLoadProvider = std::function<std::optional<LdapLoadSpec>(QString* error)>;
    void setLdapLoadProvider(LdapLoadProvider provider) { m_ldapProvider = std::move(provider); }
    void readServer(const LdapTarget& target, const QString& base);
    const std::optional<ServerInventory>& serverInventory() const { return m_live; }
    QString serverText() const;
    // Saves record() in the history (what "Save in history" does), on the history's thread: false when there is
    // nothing valid to save, else savedInHistory(id or 0) follows.
    bool saveInHistory();
    static constexpr int kDebounceMs = 150;

public slots:
    void start() override;
    void cancel() override;
    void recompute();

signals:
    void recomputed();
    void ldifMeasured(bool ok);
    void serverRead(bool ok);
    void savedInHistory(qint64 historyId);

private:
    void chooseLdif();
    void readServerFromLdapPage();
    void onServerRead(const RunRecord& record);
    void applyLive(SizingInput* in) const;
    void onFinished(int runId, const RunRecord& record);
    void setSavedMode(const std::optional<RunRecord>& saved);
    void leaveSaved();

    ProbeRunner* m_runner;
    SizingForm* m_form = nullptr;
    SizingResultView* m_view = nullptr;
    QTimer* m_debounce = nullptr;
    std::optional<SizingResult> m_result;
    int m_runId = 0;
    std::shared_ptr<std::optional<LdifStats>> m_pending;
    std::shared_ptr<std::optional<ServerInventory>> m_pendingServer;
    std::optional<ServerInventory> m_live;
    LdapLoadProvider m_ldapProvider;
    QPushButton* m_serverButton = nullptr;
    QLabel* m_serverLabel = nullptr;
    QPushButton* m_saveButton = nullptr;
    std::optional<RunRecord> m_saved;
    QPushButton* m_closeButton = nullptr;
    QHash<const QWidget*, QVariant> m_userInputs; // the form before a saved sizing was opened (FormMemory::Snapshot)
    bool m_made = false;
};
