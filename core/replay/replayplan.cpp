#include "core/replay/replayplan.h"

#include <QHash>
#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <map>
#include <random>

namespace {

constexpr uint64_t kSecondNs = 1000000000ULL;
constexpr int kMappingShown = 20;
// A client that acts on a result sends its next request within about a millisecond of it; one whose next request
// came later than this after the result was keeping its own pace, and the replay keeps that pace even when the
// replayed answer is late.
constexpr uint64_t kReactionNs = 2000000ULL;

// May this request go before the previous one's answer is in? When the log shows it sent before that answer, or
// sent well after it (not in reaction to it: only a log with sub-second times can tell); never after a bind
// (RFC 4511 4.2.1: nothing is sent while a bind is in progress), nor when the log has no time for that answer.
bool mayOverlap(const WorkloadOp* prev, const WorkloadOp& op, bool secondTimes)
{
    if (!prev || !prev->resultOffsetNs || prev->kind == WorkloadOpKind::Bind)
        return false;
    return op.offsetNs < *prev->resultOffsetNs || (!secondTimes && op.offsetNs - *prev->resultOffsetNs >= kReactionNs);
}

bool isWrite(WorkloadOpKind k)
{
    return k == WorkloadOpKind::Modify || k == WorkloadOpKind::Add || k == WorkloadOpKind::Delete
        || k == WorkloadOpKind::ModRdn;
}

// For each ?N of a template (a filter or a DN), the attribute it is the value of, lower-cased: "(uid=?1)" and
// "uid=?1,ou=people" give {1: "uid"}.
std::map<int, QString> slotAttributes(const QString& text)
{
    std::map<int, QString> out;
    for (qsizetype i = text.indexOf(u'?'); i >= 0; i = text.indexOf(u'?', i + 1)) {
        qsizetype j = i + 1;
        while (j < text.size() && text.at(j).isDigit())
            ++j;
        if (j == i + 1)
            continue;
        const int slot = text.mid(i + 1, j - i - 1).toInt();
        qsizetype e = i - 1;
        if (e < 0 || text.at(e) != u'=')
            continue;
        if (e > 0 && (text.at(e - 1) == u'~' || text.at(e - 1) == u'>' || text.at(e - 1) == u'<'))
            --e;
        qsizetype b = e;
        while (b > 0 && (text.at(b - 1).isLetterOrNumber() || text.at(b - 1) == u'-' || text.at(b - 1) == u'.'))
            --b;
        out[slot] = text.mid(b, e - b).toLower();
    }
    return out;
}

QString firstRdnAttr(const QString& dn)
{
    const qsizetype eq = dn.indexOf(u'=');
    return eq > 0 ? dn.left(eq).trimmed().toLower() : QString();
}

// The first RDN's value of a DN template: the slot number when it is "ATTR=?N", else 0.
int firstRdnSlot(const QString& dn)
{
    const qsizetype eq = dn.indexOf(u'=');
    if (eq < 0 || eq + 1 >= dn.size() || dn.at(eq + 1) != u'?')
        return 0;
    qsizetype j = eq + 2;
    while (j < dn.size() && dn.at(j).isDigit())
        ++j;
    return (j == dn.size() || dn.at(j) == u',') ? dn.mid(eq + 2, j - eq - 2).toInt() : 0;
}

QString restOfDn(const QString& dn)
{
    // The first unescaped comma.
    for (qsizetype i = 0; i < dn.size(); ++i) {
        if (dn.at(i) == u'\\')
            ++i;
        else if (dn.at(i) == u',')
            return dn.mid(i + 1);
    }
    return {};
}

QString firstRdn(const QString& dn)
{
    const QString rest = restOfDn(dn);
    return rest.isEmpty() ? dn : dn.left(dn.size() - rest.size() - 1);
}

class Planner
{
public:
    Planner(const Workload& w, const ReplaySpec& s, const ReplayPasswords* pw, const QString& tag)
        : m_w(w)
        , m_s(s)
        , m_pw(pw)
        , m_tag(tag)
    { }

    bool run(ReplayPlan& plan, ProbeError* error);

private:
    const QString& templateText(const WorkloadOp& op) const
    {
        static const QString none;
        return op.templateId >= 0 && size_t(op.templateId) < m_w.templates.size()
            ? m_w.templates[size_t(op.templateId)].text
            : none;
    }
    // A bind's, compare's or write's DN: its template with the values (mapped like a filter's) where the DN has
    // more than one RDN, else the DN as saved (a root DN is kept as logged, Pseudonymizer::dn).
    QString dnText(const WorkloadOp& op) const
    {
        const QString t = templateText(op);
        const bool templated = op.kind != WorkloadOpKind::Search && t.contains(u'?') && t.contains(u',');
        return op.base.isEmpty() || templated ? t : op.base;
    }
    void rankTokens();
    QString slotValue(const WorkloadOp& op, int slot, const QString& attr) const;
    QString render(const WorkloadOp& op, const QString& text) const;
    QString renderDn(const WorkloadOp& op, bool write) const;
    void rankInSeconds();
    void drawSpread();
    void schedule(ReplayPlan& plan);
    void renderOp(const WorkloadOp& op, ReplayOp& r) const;
    void classify(ReplayOp& r, ReplayPlan& plan);
    void countOp(const ReplayOp& r, ReplayPlan& plan) const;

    const Workload& m_w;
    const ReplaySpec& m_s;
    const ReplayPasswords* m_pw;
    const QString m_tag;
    std::optional<ReplayKeySpace> m_keys;
    QHash<QString, uint64_t> m_keyOf; // token -> key
    std::vector<std::pair<QString, uint64_t>> m_top; // the most frequent tokens and their counts, rank order
    QHash<QString, QString> m_created; // token of an added entry -> its new uid
    QSet<QByteArray> m_touched, m_added;
    std::map<uint64_t, uint64_t> m_perSecond; // log second -> operations
    std::map<std::pair<uint64_t, std::pair<size_t, size_t>>, uint64_t> m_rank; // (time, where) -> rank in its second
    std::map<uint64_t, std::vector<uint64_t>> m_spread; // log second -> the drawn positions, sorted
};

void Planner::rankTokens()
{
    struct Seen
    {
        uint64_t count = 0;
        uint64_t first = 0;
    };
    QHash<QString, Seen> seen;
    uint64_t order = 0;
    for (const auto& c : m_w.connections)
        for (const auto& op : c.ops) {
            if (op.kind == WorkloadOpKind::Add) {
                const int slot = firstRdnSlot(dnText(op));
                const QString token = slot > 0 ? op.values.value(slot - 1) : firstRdn(dnText(op));
                if (!token.isEmpty() && !m_created.contains(token))
                    m_created.insert(
                        token, QStringLiteral("dirbench-replay-") + m_tag + u'-' + QString::number(m_created.size()));
            }
            // A search's filter and base; any other operation's DN (its base, else its template).
            const QString dn = dnText(op);
            const bool search = op.kind == WorkloadOpKind::Search;
            for (const QString* text : { search ? &templateText(op) : &dn, search ? &op.base : nullptr })
                for (const auto& [slot, attr] : text ? slotAttributes(*text) : std::map<int, QString>())
                    if (attr == m_keys->attr && slot >= 1 && slot <= op.values.size()) {
                        Seen& s = seen[op.values[slot - 1]];
                        if (s.count++ == 0)
                            s.first = order++;
                    }
        }
    std::vector<std::pair<QString, Seen>> ranked;
    for (auto it = seen.cbegin(); it != seen.cend(); ++it)
        if (!m_created.contains(it.key()))
            ranked.emplace_back(it.key(), it.value());
    std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
        return a.second.count != b.second.count ? a.second.count > b.second.count : a.second.first < b.second.first;
    });
    for (size_t r = 0; r < ranked.size(); ++r)
        m_keyOf.insert(ranked[r].first, uint64_t(r) % std::max<uint64_t>(1, m_keys->keys));
    for (size_t r = 0; r < ranked.size() && r < size_t(kMappingShown); ++r)
        m_top.emplace_back(ranked[r].first, ranked[r].second.count);
}

QString Planner::slotValue(const WorkloadOp& op, int slot, const QString& attr) const
{
    QString token = op.values.value(slot - 1);
    if (m_s.values == ReplaySpec::Values::Log || !m_keys)
        return token;
    if (const auto it = m_created.constFind(token); it != m_created.constEnd())
        return *it;
    if (attr == m_keys->attr)
        if (const auto it = m_keyOf.constFind(token); it != m_keyOf.constEnd())
            return QString::fromUtf8(m_keys->value(*it));
    return token;
}

QString Planner::render(const WorkloadOp& op, const QString& text) const
{
    if (!text.contains(u'?'))
        return text;
    const auto attrs = slotAttributes(text);
    QString out;
    out.reserve(text.size() + 16);
    for (qsizetype i = 0; i < text.size(); ++i) {
        qsizetype j = i + 1;
        if (text.at(i) == u'?')
            while (j < text.size() && text.at(j).isDigit())
                ++j;
        if (text.at(i) != u'?' || j == i + 1) {
            out += text.at(i);
            continue;
        }
        const int slot = text.mid(i + 1, j - i - 1).toInt();
        const auto a = attrs.find(slot);
        out += slotValue(op, slot, a == attrs.end() ? QString() : a->second);
        i = j - 1;
    }
    return out;
}

QString Planner::renderDn(const WorkloadOp& op, bool write) const
{
    const QString text = dnText(op);
    QString dn = render(op, text);
    if (write)
        return firstRdn(dn) + u',' + m_s.writeBase;
    if (m_s.values == ReplaySpec::Values::Mapped && m_keys && !m_keys->parent.isEmpty() && firstRdnSlot(text) > 0
        && firstRdnAttr(text) == m_keys->attr)
        return firstRdn(dn) + u',' + m_keys->parent;
    return dn;
}

void Planner::renderOp(const WorkloadOp& op, ReplayOp& r) const
{
    r.kind = op.kind;
    r.templateId = op.templateId;
    r.loggedCode = op.resultCode;
    r.loggedEntries = op.entries;
    r.loggedEtimeMs = op.etimeMs;
    switch (op.kind) {
    case WorkloadOpKind::Search:
        r.dn = render(op, op.base).toUtf8();
        r.filter = render(op, templateText(op)).toUtf8();
        r.scope = op.scope;
        for (const QString& a : op.attrs)
            r.attrs.push_back(a.toUtf8());
        break;
    case WorkloadOpKind::Bind:
        r.dn = op.base.isEmpty() && op.templateId < 0 ? QByteArray() : renderDn(op, false).toUtf8();
        break;
    case WorkloadOpKind::Compare:
        r.dn = renderDn(op, false).toUtf8();
        r.attr = op.attrs.value(0, QStringLiteral("objectClass")).toUtf8();
        r.value = op.writeValues.empty() ? QByteArray("top") : op.writeValues.front().second.value(0).toUtf8();
        break;
    case WorkloadOpKind::Modify:
    case WorkloadOpKind::Add:
    case WorkloadOpKind::Delete:
        r.dn = renderDn(op, true).toUtf8();
        if (op.kind == WorkloadOpKind::Add) {
            const QString rdn = QString::fromUtf8(r.dn).section(u',', 0, 0);
            r.uid = rdn.mid(rdn.indexOf(u'=') + 1).toUtf8();
            r.dn = "uid=" + r.uid + ',' + m_s.writeBase.toUtf8();
        }
        if (!op.writeValues.empty()) {
            r.attr = op.writeValues.front().first.toUtf8();
            r.value = op.writeValues.front().second.value(0).toUtf8();
        } else {
            r.attr = op.attrs.value(0, QStringLiteral("description")).toUtf8();
        }
        if (r.value.isEmpty())
            r.value = "dirbench replay " + m_tag.toUtf8();
        break;
    default:
        break;
    }
}

void Planner::classify(ReplayOp& r, ReplayPlan& plan)
{
    if (r.kind == WorkloadOpKind::Unbind) {
        r.action = ReplayOp::Action::Unbind;
    } else if (r.kind == WorkloadOpKind::Extended || r.kind == WorkloadOpKind::Abandon
        || r.kind == WorkloadOpKind::ModRdn) {
        r.action = r.kind == WorkloadOpKind::ModRdn && !m_s.allowWrites ? ReplayOp::Action::SkipWrite
                                                                        : ReplayOp::Action::NotReplayable;
    } else if (isWrite(r.kind) && !m_s.allowWrites) {
        r.action = ReplayOp::Action::SkipWrite;
    } else if (r.kind == WorkloadOpKind::Bind && !r.dn.isEmpty() && m_pw) {
        const auto pw = m_pw->forDn(QString::fromUtf8(r.dn));
        r.action = pw ? ReplayOp::Action::Send : ReplayOp::Action::NoPassword;
        r.password = pw.value_or(QByteArray());
    }
    if (r.action != ReplayOp::Action::Send || !isWrite(r.kind))
        return;
    if (r.kind == WorkloadOpKind::Add) {
        if (!m_added.contains(r.dn)) {
            m_added.insert(r.dn);
            plan.addedDns.push_back(r.dn);
        }
    } else if (!m_added.contains(r.dn) && !m_touched.contains(r.dn)) {
        m_touched.insert(r.dn);
        plan.touchedDns.push_back(r.dn);
    }
}

void Planner::countOp(const ReplayOp& r, ReplayPlan& plan) const
{
    if (r.action == ReplayOp::Action::Unbind)
        return;
    ReplayPlanCount* counts[] = { &plan.total,
        r.templateId >= 0 && size_t(r.templateId) < plan.byTemplate.size() ? &plan.byTemplate[size_t(r.templateId)]
                                                                           : nullptr };
    for (ReplayPlanCount* c : counts) {
        if (!c)
            continue;
        ++c->logged;
        switch (r.action) {
        case ReplayOp::Action::Send:
            ++c->send;
            break;
        case ReplayOp::Action::SkipWrite:
            ++c->skippedWrites;
            break;
        case ReplayOp::Action::NoPassword:
            ++c->noPassword;
            break;
        case ReplayOp::Action::NotReplayable:
            ++c->notReplayable;
            break;
        case ReplayOp::Action::Unbind:
            break;
        }
    }
}

// Each second's operations in log order (their rank in the second) and how many it has.
void Planner::rankInSeconds()
{
    std::vector<std::pair<uint64_t, std::pair<size_t, size_t>>> all;
    for (size_t c = 0; c < m_w.connections.size(); ++c)
        for (size_t i = 0; i < m_w.connections[c].ops.size(); ++i)
            all.push_back({ m_w.connections[c].ops[i].offsetNs, { c, i } });
    std::sort(all.begin(), all.end());
    for (const auto& a : all)
        m_rank[a] = m_perSecond[a.first / kSecondNs]++;
}

// A log of whole seconds: each second's n operations at n random positions in it (sorted: log order kept), drawn
// from the seed second by second, so that one seed gives one schedule.
void Planner::drawSpread()
{
    std::mt19937_64 rng(m_s.seed.value_or(0));
    for (const auto& [second, n] : m_perSecond) {
        std::vector<uint64_t>& at = m_spread[second];
        at.resize(n);
        for (auto& v : at)
            v = rng() % kSecondNs;
        std::sort(at.begin(), at.end());
    }
}

// Scheduled times, after every operation is rendered. Rate profile: each operation keeps its log second, and
// the n operations of a second are spread evenly over it, in log order. Speed, with a log of whole seconds: spread
// at random first (drawSpread).
void Planner::schedule(ReplayPlan& plan)
{
    const auto& t = m_s.timing;
    plan.spread = t == ReplaySpec::Timing::Speed && m_w.secondTimestamps();
    if (t == ReplaySpec::Timing::RateProfile || plan.spread)
        rankInSeconds();
    if (plan.spread)
        drawSpread();
    auto at = [&](uint64_t offset, std::pair<size_t, size_t> where) -> uint64_t {
        if (t == ReplaySpec::Timing::AsFastAsPossible)
            return 0;
        if (t == ReplaySpec::Timing::Speed && plan.spread)
            return uint64_t(double(offset + m_spread[offset / kSecondNs][m_rank[{ offset, where }]]) / m_s.speed);
        if (t == ReplaySpec::Timing::Speed)
            return uint64_t(double(offset) / m_s.speed);
        const uint64_t sec = offset / kSecondNs;
        const uint64_t n = m_perSecond[sec];
        return sec * kSecondNs + uint64_t((double(m_rank[{ offset, where }]) + 0.5) * double(kSecondNs) / double(n));
    };
    auto second = [&](uint64_t offset) -> uint64_t {
        if (t == ReplaySpec::Timing::AsFastAsPossible)
            return 0;
        if (t == ReplaySpec::Timing::Speed)
            return uint64_t(double(offset) / m_s.speed);
        return offset / kSecondNs * kSecondNs;
    };
    const uint64_t limit = m_s.durationSec > 0 && t != ReplaySpec::Timing::AsFastAsPossible
        ? uint64_t(m_s.durationSec * 1e9)
        : UINT64_MAX;
    const bool secondTimes = m_w.secondTimestamps();
    uint64_t first = UINT64_MAX, last = 0;
    for (size_t c = 0; c < m_w.connections.size(); ++c) {
        const WorkloadConnection& wc = m_w.connections[c];
        ReplayConnectionPlan& cp = plan.connections[c];
        const uint64_t firstOp = wc.ops.empty() ? 0 : wc.ops.front().offsetNs;
        cp.openAtNs = second(std::min(wc.openNs.value_or(firstOp), firstOp));
        cp.closeAtNs = wc.closeNs ? second(*wc.closeNs) : 0;
        std::vector<ReplayOp> kept;
        for (size_t i = 0; i < wc.ops.size(); ++i) {
            ReplayOp& r = cp.ops[i];
            r.atNs = std::max(at(wc.ops[i].offsetNs, { c, i }), cp.openAtNs);
            const WorkloadOp* prev = i > 0 ? &wc.ops[i - 1] : nullptr;
            r.mayOverlap = mayOverlap(prev, wc.ops[i], secondTimes);
            if (r.atNs > limit) {
                if (r.action != ReplayOp::Action::Unbind)
                    ++plan.cutByDuration;
                continue;
            }
            plan.spanNs = std::max(plan.spanNs, r.atNs);
            first = std::min(first, wc.ops[i].offsetNs);
            last = std::max(last, wc.ops[i].offsetNs);
            kept.push_back(std::move(r));
        }
        cp.ops = std::move(kept);
        if (limit != UINT64_MAX)
            cp.closeAtNs = std::min(cp.closeAtNs, limit);
    }
    plan.loggedSpanNs = last > first ? last - first : 0;
}

bool Planner::run(ReplayPlan& plan, ProbeError* error)
{
    if (ProbeError e = m_s.validate(&m_w); e.isError()) {
        *error = e;
        return false;
    }
    if (!m_s.keySpace.isEmpty()) {
        m_keys = ReplayKeySpace::parse(m_s.keySpace, error);
        if (!m_keys)
            return false;
        rankTokens();
    }
    plan.templates = m_w.templates;
    plan.byTemplate.resize(m_w.templates.size());
    plan.closedLoop = m_s.timing == ReplaySpec::Timing::AsFastAsPossible;
    plan.connections.resize(m_w.connections.size());
    for (size_t c = 0; c < m_w.connections.size(); ++c) {
        const WorkloadConnection& wc = m_w.connections[c];
        ReplayConnectionPlan& cp = plan.connections[c];
        cp.logId = wc.id;
        cp.ops.resize(wc.ops.size());
        for (size_t i = 0; i < wc.ops.size(); ++i) {
            renderOp(wc.ops[i], cp.ops[i]);
            classify(cp.ops[i], plan);
        }
    }
    schedule(plan);
    for (const auto& cp : plan.connections)
        for (const auto& r : cp.ops)
            countOp(r, plan);
    if (m_keys) {
        plan.mappedTokens = uint64_t(m_keyOf.size());
        plan.keysFolded = plan.mappedTokens > m_keys->keys ? plan.mappedTokens - m_keys->keys : 0;
        // The head of the mapping; a token is shown only when it is a pseudonym (never a logged value).
        QJsonArray top;
        for (const auto& [token, count] : m_top) {
            const uint64_t key = m_keyOf.value(token);
            QJsonObject o { { QStringLiteral("count"), double(count) }, { QStringLiteral("key"), double(key) },
                { QStringLiteral("value"), QString::fromUtf8(m_keys->value(key)) } };
            if (m_w.anonymised)
                o.insert(QStringLiteral("token"), token);
            top.append(o);
        }
        plan.mapping.insert(QStringLiteral("top"), top);
    }
    return true;
}

} // namespace

std::optional<ReplayPlan> ReplayPlan::make(const Workload& workload, const ReplaySpec& spec,
    const ReplayPasswords* passwords, const QString& runTag, ProbeError* error)
{
    ReplayPlan plan;
    Planner p(workload, spec, passwords, runTag);
    if (!p.run(plan, error))
        return std::nullopt;
    QJsonObject m = plan.mapping;
    m.insert(QStringLiteral("values"), ReplaySpec::valuesName(spec.values));
    m.insert(QStringLiteral("tokens"), double(plan.mappedTokens));
    m.insert(QStringLiteral("keys_folded"), double(plan.keysFolded));
    m.insert(QStringLiteral("added_entries"), double(plan.addedDns.size()));
    if (!spec.keySpace.isEmpty())
        m.insert(QStringLiteral("key_space"), spec.keySpace);
    m.insert(QStringLiteral("rule"),
        QStringLiteral("the most frequent token of the key space's attribute becomes key 0, the next key 1, ... "
                       "(ties: first seen first); the same token gets the same key everywhere"));
    plan.mapping = m;
    return plan;
}

QJsonObject ReplayPlan::dryRunJson() const
{
    auto countsJson = [](const ReplayPlanCount& c) {
        return QJsonObject { { QStringLiteral("logged"), double(c.logged) }, { QStringLiteral("send"), double(c.send) },
            { QStringLiteral("skipped_writes"), double(c.skippedWrites) },
            { QStringLiteral("not_replayable"), double(c.notReplayable) },
            { QStringLiteral("no_password"), double(c.noPassword) } };
    };
    QJsonArray tpls;
    for (size_t i = 0; i < templates.size(); ++i) {
        QJsonObject o = countsJson(byTemplate[i]);
        o.insert(QStringLiteral("template"), templates[i].text);
        o.insert(QStringLiteral("kind"), workloadOpName(templates[i].kind));
        tpls.append(o);
    }
    QJsonArray conns;
    for (const auto& c : connections) {
        ReplayPlanCount n;
        for (const auto& r : c.ops)
            if (r.action != ReplayOp::Action::Unbind) {
                ++n.logged;
                n.send += r.action == ReplayOp::Action::Send ? 1 : 0;
                n.skippedWrites += r.action == ReplayOp::Action::SkipWrite ? 1 : 0;
            }
        conns.append(QJsonObject { { QStringLiteral("conn"), double(c.logId) },
            { QStringLiteral("open_s"), double(c.openAtNs) / 1e9 }, { QStringLiteral("logged"), double(n.logged) },
            { QStringLiteral("send"), double(n.send) },
            { QStringLiteral("skipped_writes"), double(n.skippedWrites) } });
    }
    QJsonObject out = countsJson(total);
    out.insert(QStringLiteral("by_template"), tpls);
    out.insert(QStringLiteral("by_connection"), conns);
    out.insert(QStringLiteral("connections"), double(connections.size()));
    out.insert(QStringLiteral("cut_by_duration"), double(cutByDuration));
    out.insert(QStringLiteral("span_s"), double(spanNs) / 1e9);
    out.insert(QStringLiteral("mapping"), mapping);
    return out;
}

QString ReplayPlan::dryRunText() const
{
    QString out = QStringLiteral("dry run: nothing sent. %1 connections, %2 operations logged, %3 would be sent, "
                                 "%4 writes skipped, %5 not replayable, %6 binds without a password, %7 cut by "
                                 "--duration; span %8 s\n")
                      .arg(connections.size())
                      .arg(total.logged)
                      .arg(total.send)
                      .arg(total.skippedWrites)
                      .arg(total.notReplayable)
                      .arg(total.noPassword)
                      .arg(cutByDuration)
                      .arg(double(spanNs) / 1e9, 0, 'f', 3);
    out += QStringLiteral("%1  %2  %3  %4  template\n")
               .arg(QStringLiteral("kind"), -8)
               .arg(QStringLiteral("logged"), 8)
               .arg(QStringLiteral("send"), 8)
               .arg(QStringLiteral("skipped"), 8);
    for (size_t i = 0; i < templates.size(); ++i)
        out += QStringLiteral("%1  %2  %3  %4  %5\n")
                   .arg(workloadOpName(templates[i].kind), -8)
                   .arg(byTemplate[i].logged, 8)
                   .arg(byTemplate[i].send, 8)
                   .arg(byTemplate[i].skippedWrites, 8)
                   .arg(templates[i].text);
    out += QStringLiteral("%1  %2  %3  %4\n")
               .arg(QStringLiteral("conn"), 10)
               .arg(QStringLiteral("open s"), 10)
               .arg(QStringLiteral("logged"), 8)
               .arg(QStringLiteral("send"), 8);
    for (const auto& c : connections) {
        uint64_t logged = 0, send = 0;
        for (const auto& r : c.ops)
            if (r.action != ReplayOp::Action::Unbind) {
                ++logged;
                send += r.action == ReplayOp::Action::Send ? 1 : 0;
            }
        out += QStringLiteral("%1  %2  %3  %4\n")
                   .arg(c.logId, 10)
                   .arg(double(c.openAtNs) / 1e9, 10, 'f', 3)
                   .arg(logged, 8)
                   .arg(send, 8);
    }
    return out;
}
