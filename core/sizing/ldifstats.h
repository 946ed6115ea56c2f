#pragma once

#include "core/common/proberror.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

class RunContext;

struct LdifAttributeStat
{
    QString name; // lower case, options (";binary", ";lang-en") stripped
    qint64 entries = 0; // entries that hold it at least once
    qint64 values = 0;
    double presence = 0; // entries / all entries
};

// An attribute worth an index: typical in search filters and present in most entries (see indexCandidates()).
struct LdifIndexCandidate
{
    QString attribute;
    double presence = 0;
    QString indexTypes; // "eq", "eq,sub"
    QString reason;
};

// What an LDIF file says about a directory's data. An entry's size is its plain LDIF text as one record with
// every value unfolded and decoded ("name: value\n" per value, base64 decoded, the dn line included): close to
// what the server stores and caches, independent of line folding and base64.
struct LdifStats
{
    QString path; // the file read (readFile), empty for a stream
    qint64 entries = 0;
    qint64 changeRecords = 0; // changetype modify/delete/modrdn/moddn: counted, not sized (changetype add is sized)
    qint64 malformedLines = 0; // lines that are neither "name: value", a continuation, a comment nor "-"
    qint64 bytes = 0; // bytes read
    qint64 lines = 0;
    qint64 comments = 0;
    qint64 foldedLines = 0;
    qint64 base64Values = 0;
    qint64 urlValues = 0; // "name:< URL": the URL's length is counted, not the file's
    qint64 totalEntryBytes = 0;
    double meanEntryBytes = 0;
    qint64 p95EntryBytes = 0; // nearest rank: the smallest size with at least 95 % of the entries at or below it
    qint64 maxEntryBytes = 0;
    double seconds = 0; // wall time of the read (readFile)
    QList<LdifAttributeStat> attributes; // most frequent first, then by name
    QList<LdifIndexCandidate> indexCandidates;

    double mbPerSecond() const { return seconds > 0 ? double(bytes) / 1e6 / seconds : 0; }
    const LdifAttributeStat* attribute(const QString& lowerName) const;
    QJsonObject toJson(int maxAttributes = 40) const;
    // What toJson wrote (a saved sizing's "ldif"), its attributes as far as they were kept; nullopt without entries.
    static std::optional<LdifStats> fromJson(const QJsonObject& o);
};

// Streams LDIF (RFC 2849) of any size in constant memory per distinct attribute: folded lines, base64 (`::`) and
// URL (`:<`) values, comments (and their folded continuations), `-` separators, `version:` and `control:` lines,
// CRLF. Feed it chunks of any size, split anywhere; finish() flushes the last record.
class LdifScanner
{
public:
    LdifScanner();
    ~LdifScanner();
    LdifScanner(const LdifScanner&) = delete;
    LdifScanner& operator=(const LdifScanner&) = delete;

    void feed(const char* data, qsizetype size);
    LdifStats finish();

    // Reads a file in 4 MiB blocks; ctx (optional) is polled for cancel per block. Errors name the field "ldif".
    static std::optional<LdifStats> readFile(const QString& path, ProbeError* error, RunContext* ctx = nullptr);

    // The index heuristic: an attribute is a candidate when it is one that searches typically filter on
    // (typicalFilterAttributes) AND it is present in at least `minPresence` of the entries (most entries: an
    // index on an attribute few entries hold serves few searches). Group membership attributes (member,
    // uniqueMember, memberUid) are candidates whenever present, since membership checks filter on them although
    // only groups hold them.
    static QList<LdifIndexCandidate> indexCandidates(
        const QList<LdifAttributeStat>& attributes, qint64 entries, double minPresence = 0.5);
    static QStringList typicalFilterAttributes();

private:
    struct State;
    std::unique_ptr<State> d;
};
