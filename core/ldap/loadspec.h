#pragma once

#include "core/common/proberror.h"
#include "core/ldap/ldapsession.h"
#include "core/ldap/ldaptarget.h"
#include "core/ldap/valuepattern.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

enum class LdapOpKind
{
    Search,
    Bind,
    Modify,
    AddDelete,
    Compare
};

// A step ramp: the run holds each value for `stepSeconds`, one after the other.
struct LoadRamp
{
    enum class What
    {
        None,
        Rate,
        Outstanding
    };
    What what = What::None;
    QList<double> values;
    double stepSeconds = 0;

    // "rate:1000,2000,4000@10" (ops/s per step, 10 s a step) or "outstanding:1,2,4,8@5".
    static std::optional<LoadRamp> parse(const QString& text, ProbeError* error);
    QJsonObject toJson() const;
};

// What an LDAP load run does. Defaults are those of `dirbench-cli ldap --help`.
struct LdapLoadSpec
{
    LdapTarget target;
    QList<QPair<LdapOpKind, int>> mix { { LdapOpKind::Search, 100 } }; // one operation = one entry at 100
    // search
    QString base;
    LdapSession::Scope scope = LdapSession::Subtree;
    QString filter; // required for a search workload: no default that returns the whole directory
    QStringList attrs; // empty = all user attributes; "1.1" = none
    int sizeLimit = 0;
    // bind, modify, compare
    QString dnPattern;
    QString attr;
    QString valuePattern;
    bool bindNewConnection = false; // bind: connect + bind + unbind per operation, else rebind on a persistent one
    // add+delete
    QString parentDn;
    QString access = QStringLiteral("uniform");
    // concurrency: threads x connections per thread x outstanding operations per connection
    int threads = 2;
    int connections = 2;
    int outstanding = 4;
    double rate = 0; // total ops/s for the run, open loop; 0 = as fast as the window allows (closed loop)
    QString ramp;
    double warmupSec = 0;
    double durationSec = 10;
    double intervalSec = 1;
    double failAfterSec = 10;
    qint64 maxErrors = 0; // 0: errors never stop the run
    bool readServerCounters = true;
    // Result codes that count as success, for every operation of the run; empty = each operation's own (0;
    // compareFalse 5 and compareTrue 6 for compare). `--ok-codes 0,32` for loads meant to miss.
    QList<int> okCodes;
    // Read batching (SO_RCVLOWAT): responses are held in the socket until about half of a connection's are in,
    // or 2 ms. Off by default: that wait is in every measured latency. The record and reports say when it was on.
    bool coalesceReads = false;
    // Each interval keeps its latency histogram (`latency_histogram_ns`, also per by_operation entry), so that
    // records of agents run by any launcher merge exactly (`dirbench-cli merge`).
    bool intervalHistograms = false;
    // An absolute start of the measured phase (CLOCK_REALTIME, ns since the epoch), for runs started together by
    // another launcher; 0 = now + warm-up. Recorded as spec.start_at_epoch_ns.
    qint64 startAtEpochNs = 0;

    static constexpr int kMaxMixWeight = 1000000;
    static constexpr int kMaxResultCode = 16383; // ok_codes: LDAP result codes are 0..16383 (RFC 4520)

    QString kindName() const; // "ldap-search", "ldap-mixed", ...
    static QString opName(LdapOpKind op);
    // "search=90,modify=10": each operation once, weights whole numbers 1..kMaxMixWeight; errors name "mix".
    static std::optional<QList<QPair<LdapOpKind, int>>> parseMix(const QString& text, ProbeError* error);
    QJsonObject toJson() const;
};

// The spec checked and its templates compiled, before any connection is made.
struct CompiledLoad
{
    LdapLoadSpec spec;
    ValuePattern filter;
    ValuePattern dn;
    ValuePattern value;
    LoadRamp ramp;
    QByteArray base;
    QByteArray parent;
    QByteArray attr;
    QList<QByteArray> attrs;

    // Field names in errors are the CLI's: "filter", "dn", "value", "base", "access", "threads", ...
    static std::optional<CompiledLoad> compile(const LdapLoadSpec& spec, ProbeError* error);
    bool has(LdapOpKind op) const;
    double totalSeconds() const;
};
