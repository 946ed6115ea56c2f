#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldaptarget.h"

#include <QByteArray>
#include <QHash>
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <memory>
#include <optional>

class ValuePattern;

struct Workload;

// What a replay of a workload (`dirbench-cli replay`, issue 14) is asked to do. Checked by validate() before any
// work starts; its errors name the command-line option at fault ("speed", "key-space", "write-base", ...).
struct ReplaySpec
{
    enum class Timing
    {
        Speed, // the logged inter-arrival times divided by `speed` (open loop)
        RateProfile, // the log's per-second operation rate, operations in log order (open loop)
        AsFastAsPossible // closed loop: each connection's next operation as soon as the log's order allows
    };
    enum class Values
    {
        Mapped, // pseudonyms mapped onto `keySpace`, keeping their frequency ranks (ReplayPlan)
        Log // the logged values (only where the workload kept them)
    };

    // The replayed connections start anonymous and bind as their log says; target's own bind (--bind-dn) is the
    // setup connection's: the server's counters, reading and restoring the entries the replay writes.
    LdapTarget target;
    QString workloadPath; // --workload
    QStringList logFiles; // --log
    Timing timing = Timing::Speed;
    double speed = 1;
    Values values = Values::Mapped;
    // ATTR=VALUEPATTERN[,PARENT DN]: "uid=user[0-99999]" or "uid=user[0-99999],ou=people,dc=example,dc=com".
    QString keySpace;
    QString passwordsFile; // --passwords: DN<TAB>password lines, mode 0600
    QString sharedPasswordFile; // --shared-password-file: one password for every bind DN
    bool allowWrites = false;
    QString writeBase;
    double durationSec = 0; // 0: the whole workload
    double intervalSec = 1;
    bool dryRun = false;
    bool readServerCounters = true;
    int threads = 2; // the fixed pool that drives every connection
    // --speed with a log of whole-second timestamps: each second's operations are spread over it at random positions
    // drawn from this seed (in log order). Absent: the run draws one and records it (the spec's "seed").
    std::optional<quint64> seed;

    static QString timingName(Timing t); // "speed", "rate-profile", "as-fast-as-possible"
    static QString valuesName(Values v); // "mapped", "log"
    // Which substitution binds get: "shared-password-file", "passwords-file" or "none" (binds are not sent).
    QString passwordSource() const;

    // Everything that can be checked without the network. With a workload, also what depends on it (--values
    // log needs values_kept, mapped needs --key-space when a slot has the key space's attribute, binds need a
    // password source).
    ProbeError validate(const Workload* workload = nullptr) const;
    QJsonObject toJson() const; // the record's `spec` (never a password)
};

// Bind passwords, by DN (case-insensitive), or one for every DN.
class ReplayPasswords
{
public:
    // --passwords FILE: refused unless the file's mode is 0600 (no group or other bits); lines DN<TAB>password,
    // blank lines and lines starting with # skipped. Errors name "passwords" and the line.
    static std::optional<ReplayPasswords> fromFile(const QString& path, ProbeError* error);
    static ReplayPasswords shared(const QByteArray& password);
    // --shared-password-file F: the first line of F (its line end dropped); errors name "shared-password-file".
    static std::optional<ReplayPasswords> sharedFromFile(const QString& path, ProbeError* error);

    // nullopt: no password for this DN (the bind is skipped and counted).
    std::optional<QByteArray> forDn(const QString& dn) const;
    int size() const { return int(m_byDn.size()); }

private:
    std::optional<QByteArray> m_shared;
    QHash<QString, QByteArray> m_byDn; // normalised DN -> password
};

// --key-space ATTR=VALUEPATTERN[,PARENT]: the target's keys (the sandbox: uid=user[0-99999]). A slot whose
// attribute is ATTR takes the value of key r for the token of frequency rank r; a DN whose first RDN is ATTR=?N
// becomes ATTR=value,PARENT (or keeps the logged rest of the DN without PARENT).
struct ReplayKeySpace
{
    QString attr; // lower-cased
    QString valueText; // "user[0-99999]"
    QString parent; // may be empty
    uint64_t keys = 0; // how many values the pattern has
    std::shared_ptr<const ValuePattern> pattern;

    // Errors name "key-space".
    static std::optional<ReplayKeySpace> parse(const QString& text, ProbeError* error);
    QByteArray value(uint64_t key) const; // the value of key (key < keys)
};
