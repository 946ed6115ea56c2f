#pragma once

#include <QDateTime>
#include <QJsonArray>
#include <QJsonObject>
#include <QJsonValue>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

struct RunWarning
{
    QString code; // stable: "tmpfs", "size-below-ram", "implausible", "buffered", ...
    QString message;

    bool operator==(const RunWarning&) const = default;
};

struct Verdict
{
    QString requirement; // "sequential write >= 100 MB/s (as the seed measured it: dd)"
    QString source; // a citation: "“Title”, kind, publisher" (core/catalog/sources.h)
    bool passed = false;
    double measured = 0;
    double threshold = 0;
    QString unit;
    QString note; // e.g. "passes only on cache or burst"
    QString requirementId; // "seed-dd", "commit-p99" (JSON "requirement_id"; empty in records made before it)
    // The measured figure is a bound: the true figure is below it ("< 50 MB/s"; JSON "measured_is_upper_bound",
    // written only when true). A bound passes a minimum only when it proves it, which it never does.
    bool measuredIsUpperBound = false;

    bool operator==(const Verdict&) const = default;
};

// Everything a run produced. Serialises to JSON with "schema": "dirbench.run/1" (DESIGN.md, "The contract").
struct RunRecord
{
    static constexpr const char* Schema = "dirbench.run/1";

    QString kind; // disk, ldap-probe, ...
    QString status = QStringLiteral("ok"); // ok | failed | cancelled; in the history also running | interrupted
    QString failure; // empty = null
    QDateTime started;
    QJsonObject spec;
    QJsonObject environment;
    QJsonValue server = QJsonValue::Null; // LDAP runs
    QJsonValue engine = QJsonValue::Null; // disk runs: {"io": "io_uring"|"threads", "direct": bool}
    QList<RunWarning> warnings;
    QJsonArray intervals;
    QJsonObject summary;
    QList<Verdict> verdicts;
    QJsonObject extra; // further top-level keys of a kind of run (extensions of the contract, never replacements)

    void addWarning(const QString& code, const QString& message);
    bool hasWarning(const QString& code) const;

    QJsonObject toJson() const;
    QByteArray toJsonBytes() const;
    // Refuses a document without the schema or with a kind missing; `error` says what is wrong.
    static std::optional<RunRecord> fromJson(const QJsonObject& o, QString* error = nullptr);
    static std::optional<RunRecord> fromJsonBytes(const QByteArray& bytes, QString* error = nullptr);
};

Q_DECLARE_METATYPE(RunRecord)
