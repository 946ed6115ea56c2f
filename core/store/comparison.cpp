#include "core/store/comparison.h"

#include "core/common/jsonread.h"
#include "core/common/samplestats.h"
#include "core/common/units.h"
#include "core/disk/diskresult.h"
#include "core/store/ldapmetrics.h"

#include <QJsonDocument>
#include <QLocale>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <vector>

namespace Comparison {

namespace {

QString s(const char* latin1)
{
    return QString::fromLatin1(latin1);
}

using JsonRead::number;

bool isThroughputTest(const QString& test)
{
    return test.startsWith(u"seq-") || test.startsWith(u"dd");
}

// A single disk test's summary: MB/s for streaming tests, IOPS for the others.
Metric diskHeadline(const DiskSummary& summary, const QString& test, const QString& prefix = {})
{
    Metric m;
    const bool unknown = test.isEmpty(); // a record from elsewhere: whichever it holds, MB/s first
    if (isThroughputTest(test) || (unknown && summary.mbPerS)) {
        m = { prefix + s("mb_per_s"), s("MB/s"), s("MB/s"), true, summary.mbPerS, s("mb_per_s") };
    } else {
        m = { prefix + s("iops"), test == u"commit" ? s("commits/s") : s("IOPS"),
            test == u"commit" ? s("commits/s") : s("IOPS"), true, summary.iops, s("iops") };
    }
    if (!prefix.isEmpty())
        m.label = prefix.chopped(1) + u' ' + m.label;
    return m;
}

void diskLatency(QList<Metric>* out, const DiskSummary& summary, const QString& prefix = {})
{
    const std::pair<const char*, std::optional<double>> lat[]
        = { { "p50", summary.latencyUs.p50 }, { "p99", summary.latencyUs.p99 } };
    for (const auto& [p, v] : lat)
        out->append({ prefix + s("latency_us/") + s(p),
            (prefix.isEmpty() ? QString() : prefix.chopped(1) + u' ') + s(p) + s(" latency"), QStringLiteral("µs"),
            false, v, QString() });
}

QList<Metric> diskMetrics(const RunRecord& r)
{
    QList<Metric> out;
    const DiskSummary sum = DiskSummary::fromJson(r.summary);
    const std::vector<DiskSummary>& tests = sum.tests;
    if (!tests.empty()) {
        // A suite: the score first, then each sub-test's headline.
        QList<Metric> parts;
        double logSum = 0;
        int n = 0;
        for (const DiskSummary& t : tests) {
            const Metric m = diskHeadline(t, t.test, t.test + u'/');
            if (m.value && *m.value > 0) {
                logSum += std::log(*m.value);
                ++n;
            }
            parts << m;
        }
        out << Metric { s("score"), s("suite score (geometric mean of the tests)"), QString(), true,
            n == int(tests.size()) && n > 0 ? std::optional<double>(std::exp(logSum / n)) : std::nullopt, QString() };
        out << parts;
        return out;
    }
    if (r.summary.isEmpty())
        return out;
    const QString test = sum.test.isEmpty() ? r.spec.value(s("profile")).toString() : sum.test;
    const Metric head = diskHeadline(sum, test);
    out << head;
    if (head.key == u"mb_per_s")
        out << diskHeadline(sum, s("rand-read")); // IOPS as a secondary row
    else
        out << diskHeadline(sum, s("seq-read"));
    diskLatency(&out, sum);
    return out;
}

} // namespace

QString Delta::verdict() const
{
    if (!gainPct)
        return {};
    if (std::abs(*gainPct) < 0.05)
        return s("same");
    // A run that measured nothing against one that measured something is a different outcome, not noise.
    const bool nothing = b && *b == 0;
    if (!noisePct && !nothing)
        return s("no spread");
    if (!nothing && std::abs(*gainPct) <= *noisePct)
        return s("within noise");
    return *gainPct > 0 ? s("better") : s("worse");
}

namespace {

std::optional<double> repeatSpread(const RunRecord& r, const Metric& m)
{
    const QJsonArray reps = r.summary.value(s("repeats")).toArray();
    if (reps.size() < 2)
        return std::nullopt;
    std::vector<double> v;
    for (const auto& rep : reps) {
        RunRecord one = r;
        one.summary = rep.toObject();
        one.summary.remove(s("repeats"));
        for (const Metric& x : metrics(one))
            if (x.key == m.key && x.value)
                v.push_back(*x.value);
    }
    if (v.size() < 2)
        return std::nullopt;
    std::sort(v.begin(), v.end());
    const double median = v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
    if (median == 0)
        return std::nullopt;
    return (v.back() - v.front()) / 2 / std::abs(median) * 100;
}

std::optional<double> intervalSpread(const RunRecord& r, const Metric& m)
{
    // Only a metric that is the mean of the intervals' own column: a curve's points are different loads, not noise.
    if (m.intervalKey.isEmpty() || m.key != m.intervalKey)
        return std::nullopt;
    std::vector<double> v;
    for (const auto& i : r.intervals) {
        const QJsonValue x = i.toObject().value(m.intervalKey);
        if (x.isDouble())
            v.push_back(x.toDouble());
    }
    if (v.size() < 3)
        return std::nullopt;
    const MeanSd s = meanSd(v);
    if (s.mean == 0)
        return std::nullopt;
    return 2 * s.sd / std::sqrt(double(v.size())) / std::abs(s.mean) * 100;
}

void flatten(const QJsonObject& o, const QString& prefix, QMap<QString, QString>* out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QString key = prefix.isEmpty() ? it.key() : prefix + u'.' + it.key();
        const QJsonValue& v = it.value();
        if (v.isObject())
            flatten(v.toObject(), key, out);
        else if (v.isArray())
            out->insert(key, QString::fromUtf8(QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)));
        else if (v.isDouble())
            out->insert(key, QLocale::c().toString(v.toDouble(), 'g', 12));
        else if (v.isBool())
            out->insert(key, v.toBool() ? s("true") : s("false"));
        else if (v.isString())
            out->insert(key, v.toString());
        else
            out->insert(key, QStringLiteral("(none)")); // null: not set
    }
}

} // namespace

std::optional<double> spreadPct(const RunRecord& record, const Metric& metric)
{
    if (const auto r = repeatSpread(record, metric))
        return r;
    return intervalSpread(record, metric);
}

QMap<QString, QString> settings(const RunRecord& record)
{
    QMap<QString, QString> out;
    flatten(record.spec, {}, &out);
    return out;
}

QList<SettingDiff> settingsDiffer(const RunRecord& a, const RunRecord& b)
{
    const QMap<QString, QString> fa = settings(a);
    const QMap<QString, QString> fb = settings(b);
    QMap<QString, bool> keys; // both runs' keys, sorted
    for (auto it = fa.keyBegin(); it != fa.keyEnd(); ++it)
        keys.insert(*it, true);
    for (auto it = fb.keyBegin(); it != fb.keyEnd(); ++it)
        keys.insert(*it, true);
    QList<SettingDiff> out;
    const QString none = QStringLiteral("–");
    for (auto it = keys.keyBegin(); it != keys.keyEnd(); ++it) {
        const QString& k = *it;
        if (fa.value(k, none) != fb.value(k, none))
            out << SettingDiff { k, fa.value(k, none), fb.value(k, none) };
    }
    return out;
}

// A replication run's headline: the p99 lag of its worst consumer (lower is better); none without one.
Metric replicationLag(const QJsonObject& sum)
{
    std::optional<double> worst;
    const QJsonObject consumers = sum.value(s("consumers")).toObject();
    for (auto it = consumers.begin(); it != consumers.end(); ++it)
        if (const auto p99 = number(it.value().toObject().value(s("lag_ms")).toObject(), s("p99")))
            worst = std::max(worst.value_or(*p99), *p99);
    return { s("lag_p99_ms"), s("p99 lag, worst consumer"), s("ms"), false, worst, QString() };
}

// A replay's rate is the workload's (its timing sets it): its headline is the p99 latency (lower is better), then
// the load's figures.
QList<Metric> replayMetrics(const RunRecord& r)
{
    QList<Metric> m = LdapMetrics::ofLoad(r);
    const auto p99 = std::find_if(m.begin(), m.end(), [](const Metric& x) { return x.key == u"latency_ms/p99"; });
    if (p99 != m.end())
        std::rotate(m.begin(), p99, p99 + 1);
    return m;
}

QList<Metric> metrics(const RunRecord& r)
{
    const QString& k = r.kind;
    const QJsonObject& sum = r.summary;
    if (k == u"disk")
        return diskMetrics(r);
    if (k == u"disk-under-load") {
        const QJsonObject loadedJson = sum.value(s("disk_loaded")).toObject();
        if (loadedJson.isEmpty())
            return {};
        const DiskSummary loaded = DiskSummary::fromJson(loadedJson);
        const QString test
            = loaded.test.isEmpty() ? r.spec.value(s("disk")).toObject().value(s("profile")).toString() : loaded.test;
        QList<Metric> out { diskHeadline(loaded, test) };
        diskLatency(&out, loaded);
        return out;
    }
    if (k == u"ldap-probe") {
        const QJsonObject t = sum.value(s("timings_ms")).toObject();
        double total = 0;
        bool any = false;
        QList<Metric> parts;
        for (auto it = t.begin(); it != t.end(); ++it) {
            if (!it.value().isDouble())
                continue;
            total += it.value().toDouble();
            any = true;
            parts << Metric { s("timings_ms/") + it.key(), it.key(), s("ms"), false, it.value().toDouble(), {} };
        }
        QList<Metric> out { { s("probe_ms"), s("probe time"), s("ms"), false,
            any ? std::optional<double>(total) : std::nullopt, QString() } };
        return out + parts;
    }
    if (k.startsWith(u"ldap-"))
        return LdapMetrics::ofLoad(r);
    if (k == u"replay")
        return replayMetrics(r);
    if (k == u"curve" || k == u"database-size")
        return { LdapMetrics::meanOverPoints(r) };
    if (k == u"thread-sweep")
        return { LdapMetrics::bestOfSweep(r) };
    if (k == u"replication")
        return { replicationLag(sum) };
    if (k == u"tls-cost")
        return { { s("tls_ms_per_bind"), s("TLS connect + bind"), s("ms"), false, number(sum, s("tls_ms_per_bind")),
                     QString() },
            { s("plain_ms_per_bind"), s("plain connect + bind"), s("ms"), false, number(sum, s("plain_ms_per_bind")),
                QString() } };
    return {};
}

std::optional<Metric> headline(const RunRecord& record)
{
    const QList<Metric> all = metrics(record);
    if (all.isEmpty() || !all.first().value)
        return std::nullopt;
    return all.first();
}

QList<Delta> compare(const RunRecord& a, const RunRecord& b)
{
    const QList<Metric> ma = metrics(a);
    const QList<Metric> mb = metrics(b);
    QList<Delta> out;
    auto find = [](const QList<Metric>& list, const QString& key) -> const Metric* {
        for (const Metric& m : list)
            if (m.key == key)
                return &m;
        return nullptr;
    };
    auto add = [&](const Metric& m) {
        for (const Delta& d : std::as_const(out))
            if (d.key == m.key)
                return;
        Delta d;
        d.key = m.key;
        d.label = m.label;
        d.unit = m.unit;
        d.higherIsBetter = m.higherIsBetter;
        if (const Metric* x = find(ma, m.key)) {
            d.a = x->value;
            d.aDerived = x->derived;
        }
        if (const Metric* y = find(mb, m.key)) {
            d.b = y->value;
            d.bDerived = y->derived;
        }
        if (d.a && d.b && *d.a != 0) {
            d.deltaPct = (*d.b - *d.a) / std::abs(*d.a) * 100.0;
            d.gainPct = d.higherIsBetter ? *d.deltaPct : -*d.deltaPct;
            const Metric* x = find(ma, m.key);
            const Metric* y = find(mb, m.key);
            const auto sa = x ? spreadPct(a, *x) : std::nullopt;
            const auto sb = y ? spreadPct(b, *y) : std::nullopt;
            // a run without a spread of its own is taken as spread as the other one
            if (sa && sb)
                d.noisePct = std::hypot(*sa, *sb);
            else if (sa || sb)
                d.noisePct = std::hypot(sa ? *sa : *sb, sa ? *sa : *sb);
        }
        out << d;
    };
    for (const Metric& m : ma)
        add(m);
    for (const Metric& m : mb)
        add(m);
    return out;
}

bool comparable(const RunRecord& baseline, const QString& kind, const QJsonObject& spec, QString* why)
{
    auto fail = [why](const QString& text) {
        if (why)
            *why = text;
        return false;
    };
    if (baseline.kind != kind)
        return fail(s("the baseline is a ") + baseline.kind + s(" run, this is a ") + kind + s(" run"));
    const QJsonObject bs = kind == u"disk-under-load" ? baseline.spec.value(s("disk")).toObject() : baseline.spec;
    const QJsonObject ns = kind == u"disk-under-load" ? spec.value(s("disk")).toObject() : spec;
    for (const char* key : { "profile", "mode" }) {
        const QString b = bs.value(QLatin1String(key)).toString();
        const QString n = ns.value(QLatin1String(key)).toString();
        if (!b.isEmpty() && !n.isEmpty() && b != n)
            return fail(s("the baseline's ") + QLatin1String(key) + s(" is ") + b + s(", this run's is ") + n);
    }
    if (!headline(baseline))
        return fail(s("the baseline has no headline metric to compare (status ") + baseline.status + u')');
    return true;
}

QString formatValue(double value, const QString& unit)
{
    const int decimals = unit == u"ms" ? 3 : 1;
    const QString n = Units::formatNumber(value, decimals);
    return unit.isEmpty() ? n : n + u' ' + unit;
}

QString formatValue(const Metric& m)
{
    if (!m.value)
        return {};
    return m.derived ? formatValue(*m.value, m.unit) + u' ' + derivedNote() : formatValue(*m.value, m.unit);
}

QString derivedNote()
{
    return QStringLiteral("(derived: ops − errors)");
}

bool coalescedReads(const RunRecord& r)
{
    if (r.spec.value(QStringLiteral("coalesce_reads")).toBool() || r.hasWarning(QStringLiteral("coalesce-reads")))
        return true;
    for (const char* part : { "load", "ldap", "plain" })
        if (r.spec.value(QLatin1String(part)).toObject().value(QStringLiteral("coalesce_reads")).toBool())
            return true;
    return false;
}

} // namespace Comparison
