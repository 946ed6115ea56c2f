#include "core/sizing/ldifstats.h"

#include "core/run/runcontext.h"

#include <QElapsedTimer>
#include <QFile>

#include <algorithm>
#include <cstring>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace {

constexpr qint64 kExactSizes = 65536; // entry sizes below this are counted per byte; larger ones kept one by one

} // namespace

struct LdifScanner::State
{
    enum class Last
    {
        None,
        Comment,
        Value,
        Ignored
    };

    LdifStats stats;
    std::string carry; // a line cut by a chunk boundary
    // attributes
    std::deque<std::string> names; // stable storage for the map's keys
    std::unordered_map<std::string_view, int> ids;
    std::vector<qint64> entriesWith, valueCount, stamp;
    // entry sizes
    std::vector<qint64> sizeCounts = std::vector<qint64>(size_t(kExactSizes), 0);
    std::vector<qint64> bigSizes;
    // the record being read
    bool inRecord = false;
    bool isEntry = false; // a dn was seen and no changetype other than add
    bool isChange = false;
    bool anyAttribute = false;
    qint64 entryBytes = 0;
    qint64 serial = 0; // entry number, for the presence stamps
    Last last = Last::None;
    bool valueBase64 = false;
    qint64 valueChars = 0; // raw value length (plain) or base64 characters without '=' (base64)
    qint64 valueHead = 0; // "name: " + "\n" of the pending value

    int idOf(const char* name, size_t n)
    {
        char buf[128];
        const size_t len = std::min(n, sizeof(buf));
        for (size_t i = 0; i < len; ++i) {
            const char c = name[i];
            buf[i] = (c >= 'A' && c <= 'Z') ? char(c + 32) : c;
        }
        const auto it = ids.find(std::string_view(buf, len));
        if (it != ids.end())
            return it->second;
        names.emplace_back(buf, len);
        const int id = int(entriesWith.size());
        ids.emplace(std::string_view(names.back()), id);
        entriesWith.push_back(0);
        valueCount.push_back(0);
        stamp.push_back(-1);
        return id;
    }

    void endValue()
    {
        if (last != Last::Value)
            return;
        const qint64 decoded = valueBase64 ? valueChars * 3 / 4 : valueChars;
        entryBytes += valueHead + decoded;
        last = Last::None;
    }

    void endRecord()
    {
        endValue();
        if (inRecord && isEntry) {
            ++stats.entries;
            stats.totalEntryBytes += entryBytes;
            if (entryBytes < kExactSizes)
                ++sizeCounts[size_t(entryBytes)];
            else
                bigSizes.push_back(entryBytes);
            stats.maxEntryBytes = std::max(stats.maxEntryBytes, entryBytes);
        }
        inRecord = isEntry = isChange = anyAttribute = false;
        entryBytes = 0;
        last = Last::None;
    }

    static qint64 base64Chars(const char* p, size_t n)
    {
        qint64 c = 0;
        for (size_t i = 0; i < n; ++i)
            c += (p[i] != '=' && p[i] != ' ');
        return c;
    }

    void line(const char* p, size_t n)
    {
        ++stats.lines;
        if (n > 0 && p[n - 1] == '\r')
            --n;
        if (n == 0) {
            endRecord();
            return;
        }
        if (p[0] == ' ') { // continuation of the previous line
            ++stats.foldedLines;
            if (last == Last::Value)
                valueChars += valueBase64 ? base64Chars(p + 1, n - 1) : qint64(n - 1);
            return;
        }
        endValue();
        if (p[0] == '#') {
            ++stats.comments;
            last = Last::Comment;
            return;
        }
        if (n == 1 && p[0] == '-') {
            last = Last::Ignored;
            return;
        }
        const char* colon = static_cast<const char*>(std::memchr(p, ':', n));
        if (!colon || colon == p) {
            ++stats.malformedLines;
            if (!inRecord) { // garbage where a record should start: skip up to the next blank line
                inRecord = true;
                isEntry = false;
            }
            last = Last::Ignored;
            return;
        }
        const size_t nameLen = size_t(colon - p);
        size_t v = nameLen + 1;
        bool base64 = false;
        if (v < n && p[v] == ':') {
            base64 = true;
            ++v;
        } else if (v < n && p[v] == '<') {
            ++stats.urlValues;
            ++v;
        }
        while (v < n && p[v] == ' ')
            ++v;
        const char* val = p + v;
        const size_t valLen = n - v;
        auto is = [&](const char* lower) {
            const size_t l = std::strlen(lower);
            if (l != nameLen)
                return false;
            for (size_t i = 0; i < l; ++i)
                if ((p[i] | 0x20) != lower[i])
                    return false;
            return true;
        };

        if (!inRecord) {
            if (is("version")) { // the version line before the first record
                last = Last::Ignored;
                return;
            }
            inRecord = true;
            if (!is("dn")) {
                ++stats.malformedLines; // a record must start with dn: skip it whole
                isEntry = false;
                last = Last::Ignored;
                return;
            }
            isEntry = true;
            ++serial;
        } else if (!isEntry || (!anyAttribute && is("control"))) {
            last = Last::Ignored; // inside a change record or a skipped one, or a change's control line
            return;
        } else if (!anyAttribute && is("changetype")) {
            const bool add = valLen == 3 && (val[0] | 0x20) == 'a' && (val[1] | 0x20) == 'd' && (val[2] | 0x20) == 'd';
            if (!add) {
                isEntry = false;
                isChange = true;
                ++stats.changeRecords;
            }
            last = Last::Ignored;
            return;
        } else {
            anyAttribute = true;
            size_t baseLen = nameLen; // strip options: "cn;lang-en" -> "cn"
            if (const void* semi = std::memchr(p, ';', nameLen))
                baseLen = size_t(static_cast<const char*>(semi) - p);
            const int id = idOf(p, baseLen);
            ++valueCount[size_t(id)];
            if (stamp[size_t(id)] != serial) {
                stamp[size_t(id)] = serial;
                ++entriesWith[size_t(id)];
            }
        }
        if (base64 && anyAttribute)
            ++stats.base64Values; // attribute values only, not the dn
        valueBase64 = base64;
        valueChars = base64 ? base64Chars(val, valLen) : qint64(valLen);
        valueHead = qint64(nameLen) + 3; // "name: " ... "\n"
        last = Last::Value;
    }
};

LdifScanner::LdifScanner()
    : d(std::make_unique<State>())
{ }

LdifScanner::~LdifScanner() = default;

void LdifScanner::feed(const char* data, qsizetype size)
{
    d->stats.bytes += size;
    const char* p = data;
    const char* end = data + size;
    if (!d->carry.empty()) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl) {
            d->carry.append(p, size_t(end - p));
            return;
        }
        d->carry.append(p, size_t(nl - p));
        d->line(d->carry.data(), d->carry.size());
        d->carry.clear();
        p = nl + 1;
    }
    while (p < end) {
        const char* nl = static_cast<const char*>(std::memchr(p, '\n', size_t(end - p)));
        if (!nl) {
            d->carry.assign(p, size_t(end - p));
            return;
        }
        d->line(p, size_t(nl - p));
        p = nl + 1;
    }
}

LdifStats LdifScanner::finish()
{
    if (!d->carry.empty()) {
        d->line(d->carry.data(), d->carry.size());
        d->carry.clear();
    }
    d->endRecord();
    LdifStats s = d->stats;
    if (s.entries > 0) {
        s.meanEntryBytes = double(s.totalEntryBytes) / double(s.entries);
        const qint64 rank = (s.entries * 95 + 99) / 100; // nearest rank: ceil(0.95 n)
        qint64 seen = 0;
        bool found = false;
        for (qint64 b = 0; b < kExactSizes && !found; ++b) {
            seen += d->sizeCounts[size_t(b)];
            if (seen >= rank) {
                s.p95EntryBytes = b;
                found = true;
            }
        }
        if (!found) {
            std::sort(d->bigSizes.begin(), d->bigSizes.end());
            s.p95EntryBytes = d->bigSizes[size_t(rank - seen - 1)];
        }
    }
    for (size_t i = 0; i < d->entriesWith.size(); ++i) {
        LdifAttributeStat a;
        a.name = QString::fromStdString(d->names[i]);
        a.entries = d->entriesWith[i];
        a.values = d->valueCount[i];
        a.presence = s.entries > 0 ? double(a.entries) / double(s.entries) : 0;
        s.attributes.append(a);
    }
    std::sort(s.attributes.begin(), s.attributes.end(),
        [](const auto& a, const auto& b) { return a.entries != b.entries ? a.entries > b.entries : a.name < b.name; });
    s.indexCandidates = indexCandidates(s.attributes, s.entries);
    return s;
}

std::optional<LdifStats> LdifScanner::readFile(const QString& path, ProbeError* error, RunContext* ctx)
{
    auto fail = [&](const QString& why) -> std::optional<LdifStats> {
        if (error)
            *error = ProbeError::invalid(QStringLiteral("ldif"), why);
        return std::nullopt;
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return fail(QStringLiteral("cannot read '%1': %2").arg(path, f.errorString()));
    QElapsedTimer timer;
    timer.start();
    LdifScanner scanner;
    std::vector<char> buf(size_t(4) << 20);
    for (;;) {
        if (ctx && ctx->stopRequested()) {
            if (error) {
                *error = ProbeError();
                error->kind = ProbeError::Kind::Cancelled;
            }
            return std::nullopt;
        }
        const qint64 got = f.read(buf.data(), qint64(buf.size()));
        if (got < 0)
            return fail(QStringLiteral("read error in '%1': %2").arg(path, f.errorString()));
        if (got == 0)
            break;
        scanner.feed(buf.data(), got);
        if (ctx && f.size() > 0)
            ctx->setProgress(double(f.pos()) / double(f.size()));
    }
    LdifStats s = scanner.finish();
    s.seconds = double(timer.nsecsElapsed()) / 1e9;
    s.path = path;
    if (s.entries == 0 && s.changeRecords == 0)
        return fail(QStringLiteral("'%1' holds no LDIF entry (no record starting with dn:)").arg(path));
    return s;
}
