// ReplicationWatch::Watcher (replicationwatch.h): one consumer watched for the marker, pushed or polled.
#include "core/experiments/replicationmarker.h"
#include "core/experiments/replicationwatch.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/ldapwatch.h"

#include <algorithm>
#include <chrono>
#include <optional>

namespace {

constexpr int kNoSuchObject = 32;
constexpr int kUnavailableCriticalExtension = 12; // the control is known but not served for this entry's database
constexpr int kUnwillingToPerform = 53;
constexpr int kReconnectMs = 500;
constexpr int kPushWaitMs = 50; // one wait for pushed entries: stop() is honoured within about this
constexpr int kSliceMs = 20;

} // namespace

ReplicationWatch::Watcher::Watcher(const LdapTarget& consumer, const QString& dn, int pollMs, const QString& choice)
    : m_target(consumer)
    , m_dn(dn)
    , m_pollMs(pollMs)
    , m_choice(choice)
{ }

ReplicationWatch::Watcher::~Watcher()
{
    stop();
    m_target.password.fill('\0');
}

void ReplicationWatch::Watcher::start()
{
    m_downSince = nowNs();
    m_thread = std::thread([this] { run(); });
}

void ReplicationWatch::Watcher::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
}

std::vector<qint64> ReplicationWatch::Watcher::seen() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_seen;
}

QString ReplicationWatch::Watcher::lastError() const
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    return m_lastError;
}

QString ReplicationWatch::Watcher::method() const
{
    switch (m_method.load()) {
    case Poll:
        return QStringLiteral("poll");
    case Sync:
        return QStringLiteral("sync");
    case PersistentSearch:
        return QStringLiteral("psearch");
    default:
        return {};
    }
}

void ReplicationWatch::Watcher::record(qint64 highest, qint64 t)
{
    const std::lock_guard<std::mutex> lock(m_mutex);
    while (qint64(m_seen.size()) < highest)
        m_seen.push_back(t);
}

bool ReplicationWatch::Watcher::pause(int ms) const
{
    for (int waited = 0; waited < ms && !m_stop; waited += kSliceMs)
        std::this_thread::sleep_for(std::chrono::milliseconds(std::min(kSliceMs, ms - waited)));
    return !m_stop;
}

// poll: no question asked; else what the root DSE offers. Refuses "push" where it offers neither.
ProbeError ReplicationWatch::Watcher::choose(LdapSession& s)
{
    if (m_choice == u"poll") {
        m_method = Poll;
        return {};
    }
    std::optional<LdapWatch::Mode> mode;
    if (ProbeError e = LdapWatch::offered(s, &mode); e.isError())
        return e;
    if (!mode && m_choice == u"push") {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_lastError = QStringLiteral("--watch push: consumer %1 offers neither RFC 4533 sync (%2) nor the persistent "
                                     "search control (%3) in its root DSE's supportedControl; use --watch auto or poll")
                          .arg(m_target.uri, QLatin1String(LdapWatch::kSyncOid),
                              QLatin1String(LdapWatch::kPersistentSearchOid));
        m_refused = true;
        return {};
    }
    m_method = !mode ? Poll : *mode == LdapWatch::Mode::Sync ? Sync : PersistentSearch;
    return {};
}

// One base-scope read, then the pause of pollMs. An entry not there yet (not replicated) is nothing seen.
ProbeError ReplicationWatch::Watcher::pollOnce(LdapSession& s)
{
    QList<LdapSession::Entry> found;
    ProbeError e = s.search(
        m_dn, LdapSession::Base, QStringLiteral("(objectClass=*)"), { QStringLiteral("description") }, &found);
    const qint64 t = nowNs();
    if (e.isError() && e.nativeCode != kNoSuchObject)
        return e;
    reached();
    if (!found.isEmpty())
        record(ReplicationMarker::highest(found.constFirst().attributes.value(QStringLiteral("description"))), t);
    pause(m_pollMs);
    return {};
}

// The persistent search until stop() or an error; an entry not there yet is asked for again every pollMs.
ProbeError ReplicationWatch::Watcher::push(LdapSession& s)
{
    LdapWatch w(s);
    const LdapWatch::Mode mode = m_method == Sync ? LdapWatch::Mode::Sync : LdapWatch::Mode::PersistentSearch;
    bool running = false;
    while (!m_stop) {
        if (!running) {
            if (ProbeError e = w.start(mode, m_dn, { QStringLiteral("description") }); e.isError())
                return e;
            running = true;
            reached();
        }
        QList<LdapSession::Entry> got;
        ProbeError e;
        switch (w.next(kPushWaitMs, &got, &e)) {
        case LdapWatch::Event::Entries: {
            const qint64 t = nowNs();
            for (const LdapSession::Entry& entry : got)
                record(ReplicationMarker::highest(entry.attributes.value(QStringLiteral("description"))), t);
            break;
        }
        case LdapWatch::Event::Absent:
            running = false;
            pause(m_pollMs);
            break;
        case LdapWatch::Event::Ended:
            return refusedPush(e) ? ProbeError {} : e;
        case LdapWatch::Event::Lost:
            return e;
        case LdapWatch::Event::Nothing:
            break;
        }
    }
    return {};
}

// The consumer refused the push search itself (its root DSE offers the control, the marker's database does not
// serve it): auto polls from now on, push is refused. False for any other end of the search.
bool ReplicationWatch::Watcher::refusedPush(const ProbeError& e)
{
    if (e.nativeCode != kUnavailableCriticalExtension && e.nativeCode != kUnwillingToPerform)
        return false;
    if (m_choice == u"push") {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_lastError = QStringLiteral("--watch push: consumer %1 refused the %2 search of %3: %4")
                          .arg(m_target.uri, method(), m_dn, e.message());
        m_refused = m_stop = true;
        return true;
    }
    m_method = Poll;
    return true;
}

void ReplicationWatch::Watcher::reached()
{
    m_reachable = m_everReached = true;
    if (const qint64 since = m_downSince.exchange(0); since > 0)
        m_longestDown = std::max(m_longestDown.load(), nowNs() - since);
}

double ReplicationWatch::Watcher::longestUnreadableS() const
{
    const qint64 since = m_downSince.load();
    return double(std::max(m_longestDown.load(), since > 0 ? nowNs() - since : 0)) / 1e9;
}

void ReplicationWatch::Watcher::lost(LdapSession& s, const ProbeError& e)
{
    m_reachable = false;
    qint64 up = 0;
    m_downSince.compare_exchange_strong(up, nowNs());
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        m_lastError = e.message();
    }
    m_settled = true;
    s.close();
    pause(kReconnectMs);
}

void ReplicationWatch::Watcher::run()
{
    LdapSession s;
    while (!m_stop) {
        ProbeError e = s.isOpen() ? ProbeError {} : s.open(m_target);
        if (!e.isError() && m_method == Unknown)
            e = choose(s);
        if (m_refused)
            break;
        if (!e.isError()) {
            m_settled = true;
            e = m_method == Poll ? pollOnce(s) : push(s);
        }
        if (e.isError())
            lost(s, e);
    }
    m_settled = true;
}

void ReplicationWatch::awaitSettled(const Watchers& watchers, const std::function<bool()>& stopRequested)
{
    for (const auto& w : watchers)
        while (!w->settled() && !stopRequested())
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
}

QString ReplicationWatch::refusal(const Watchers& watchers)
{
    for (const auto& w : watchers)
        if (w->refused())
            return w->lastError();
    return {};
}

QString ReplicationWatch::methodName(const Watcher& w)
{
    const QString m = w.method();
    return m.isEmpty() ? QStringLiteral("unknown") : m;
}

QString ReplicationWatch::methodSet(const Watchers& watchers)
{
    QString set;
    for (const auto& w : watchers) {
        const QString m = w->method();
        if (m.isEmpty() || m == set)
            continue;
        set = set.isEmpty() ? m : QStringLiteral("mixed");
    }
    return set.isEmpty() ? QStringLiteral("unknown") : set;
}
