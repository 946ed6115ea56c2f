// Issue 10, "LDAP numbers you can trust": the real dirbench-cli against the sandbox's slapd, checked against the
// record contract — a load in which nothing succeeded is a failed run with a headline of 0 successes per second,
// --ok-codes widens success, a 999:1 mix gives 0.1 % of the minor operation, the intervals add up exactly to the
// summary, and a connection whose reconnect hangs (a black hole behind a relay) does not stall the others.
#include "core/common/histogram.h"
#include "core/ldap/ldaptarget.h"
#include "ldapfixture.h"
#include "tests/common/clirun.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <optional>
#include <vector>

namespace {

const QString kFilter = QStringLiteral("(uid=user[0-1999])");

uint64_t steadyNs()
{
    return uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count());
}

double num(const QJsonObject& o, const char* key)
{
    return o.value(QLatin1String(key)).toDouble();
}

QString codesText(const QJsonObject& codes)
{
    return QString::fromUtf8(QJsonDocument(codes).toJson(QJsonDocument::Compact));
}

// min(P(K <= k), P(K >= k)) for K ~ Binomial(n, p): how surprising k is, exact for any n (no normal approximation,
// whose tails are too thin when n p is small).
double binomialTail(double n, double p, double k)
{
    auto pmf = [&](double j) {
        return std::exp(std::lgamma(n + 1) - std::lgamma(j + 1) - std::lgamma(n - j + 1) + j * std::log(p)
            + (n - j) * std::log1p(-p));
    };
    double below = 0, above = 0;
    for (double j = 0; j <= k; ++j)
        below += pmf(j);
    for (double j = k; j <= n; ++j) {
        const double t = pmf(j);
        above += t;
        if (j > n * p && t < 1e-18 * above)
            break;
    }
    return std::min(below, above);
}

// The number a history headline ("0.0 ok/s", "1,234.5 ops/s") starts with, or NaN.
double leadingNumber(const QString& text)
{
    static const QRegularExpression re(QStringLiteral("^\\s*(-?[0-9][0-9,]*(\\.[0-9]+)?)"));
    const auto m = re.match(text);
    return m.hasMatch() ? m.captured(1).remove(u',').toDouble() : std::nan("");
}

// A TCP relay on 127.0.0.1 with an event loop of its own (its own QThread), so that the test thread can block on
// the CLI. Each client connection gets its own upstream connection. Once the load has run kCutAfterNs (counted from
// the first response it forwarded, and only after kMinResponses responses), it closes the client connection that
// carried the most responses, and from then on accepts every new connection without ever forwarding or answering
// anything: a reconnect into it hangs until the client's own timeout.
class Relay
{
public:
    static constexpr uint64_t kCutAfterNs = 2000000000ULL;
    static constexpr uint64_t kMinResponses = 200;

    explicit Relay(quint16 upstreamPort)
        : m_upstreamPort(upstreamPort)
    {
        m_home->moveToThread(&m_thread);
        m_thread.start();
        QMetaObject::invokeMethod(
            m_home.get(), [this] { listen(); }, Qt::BlockingQueuedConnection);
    }
    ~Relay()
    {
        QMetaObject::invokeMethod(
            m_home.get(), [this] { stop(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    Relay(const Relay&) = delete;
    Relay& operator=(const Relay&) = delete;

    quint16 port() const { return m_port; }
    bool cut() const { return m_cutNs.load() != 0; }
    // When the cut happened, in seconds after the first response (about the record's t, which starts with the load).
    double cutAtSeconds() const { return double(m_cutNs.load() - m_firstNs.load()) / 1e9; }
    uint64_t forwarded() const { return m_forwarded.load(); }
    int swallowed() const { return m_swallowed.load(); } // connections the black hole accepted
    uint64_t cutResponses() const { return m_cutResponses.load(); }

private:
    struct Pair
    {
        QTcpSocket* client = nullptr;
        QTcpSocket* upstream = nullptr;
        QByteArray pending; // what the client sent before the upstream connection was up
        uint64_t responses = 0;
    };

    void listen()
    {
        auto* server = new QTcpServer(m_home.get());
        QObject::connect(server, &QTcpServer::newConnection, server, [this, server] {
            while (QTcpSocket* c = server->nextPendingConnection())
                m_cutNs.load() ? swallow(c) : relay(c);
        });
        if (server->listen(QHostAddress::LocalHost))
            m_port = server->serverPort();
    }
    void stop()
    {
        for (QTcpSocket* s : m_home->findChildren<QTcpSocket*>()) {
            QObject::disconnect(s, nullptr, nullptr, nullptr);
            s->abort();
        }
        qDeleteAll(m_home->children());
    }
    void swallow(QTcpSocket* c)
    {
        ++m_swallowed;
        QObject::connect(c, &QTcpSocket::readyRead, c, [c] { c->readAll(); });
    }
    void relay(QTcpSocket* client)
    {
        m_pairs.push_back(std::make_unique<Pair>());
        Pair* p = m_pairs.back().get();
        p->client = client;
        p->upstream = new QTcpSocket(m_home.get());
        // No Nagle: one small LDAP message at a time must not wait for the peer's delayed ACK.
        client->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        QObject::connect(p->upstream, &QTcpSocket::connected, p->upstream,
            [p] { p->upstream->setSocketOption(QAbstractSocket::LowDelayOption, 1); });
        QObject::connect(client, &QTcpSocket::readyRead, client, [p] {
            const QByteArray data = p->client->readAll();
            if (p->upstream->state() == QAbstractSocket::ConnectedState)
                p->upstream->write(data);
            else
                p->pending += data;
        });
        QObject::connect(p->upstream, &QTcpSocket::connected, p->upstream, [p] {
            p->upstream->write(p->pending);
            p->pending.clear();
        });
        QObject::connect(p->upstream, &QTcpSocket::readyRead, p->upstream, [this, p] { forward(p); });
        QObject::connect(client, &QTcpSocket::disconnected, p->upstream, [p] { p->upstream->abort(); });
        QObject::connect(p->upstream, &QTcpSocket::disconnected, client, [p] { p->client->disconnectFromHost(); });
        p->upstream->connectToHost(QHostAddress::LocalHost, m_upstreamPort);
    }
    void forward(Pair* p)
    {
        p->client->write(p->upstream->readAll());
        ++p->responses;
        const uint64_t now = steadyNs();
        if (m_forwarded++ == 0)
            m_firstNs.store(now);
        if (!m_cutNs.load() && m_forwarded.load() >= kMinResponses && now - m_firstNs.load() >= kCutAfterNs)
            cutBusiest(now);
    }
    void cutBusiest(uint64_t now)
    {
        Pair* busiest = nullptr;
        for (const auto& p : m_pairs)
            if (p->client->state() == QAbstractSocket::ConnectedState
                && (!busiest || p->responses > busiest->responses))
                busiest = p.get();
        if (!busiest)
            return;
        m_cutResponses.store(busiest->responses);
        m_cutNs.store(now);
        busiest->client->abort();
        busiest->upstream->abort();
    }

    const quint16 m_upstreamPort;
    QThread m_thread;
    std::unique_ptr<QObject> m_home = std::make_unique<QObject>(); // lives in m_thread; parent of every socket
    std::vector<std::unique_ptr<Pair>> m_pairs; // touched only in m_thread
    quint16 m_port = 0;
    std::atomic<uint64_t> m_firstNs { 0 }, m_cutNs { 0 }, m_forwarded { 0 }, m_cutResponses { 0 };
    std::atomic<int> m_swallowed { 0 };
};

} // namespace

class TstLoadTrust : public QObject
{
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void noSuchObjectRun();
    void sizeLimitRun();
    void okCodes();
    void mix999();
    void intervalsSum();
    void hangingReconnect();
    void filterRequired();

private:
    struct Run
    {
        CliRun::Result cli;
        QJsonObject rec;
        QJsonObject summary() const { return rec.value(QStringLiteral("summary")).toObject(); }
        QJsonArray intervals() const { return rec.value(QStringLiteral("intervals")).toArray(); }
        std::optional<QString> warning(const QString& code) const; // its message
    };
    enum class Auth
    {
        Admin,
        Anonymous
    };
    Run load(const QString& op, const QStringList& args, Auth auth = Auth::Admin, const QString& uri = {});
    QStringList target(const QString& uri, Auth auth) const;
    QJsonArray historyList() const;
    void expectNothingSucceeded(const Run& r, const QString& codeText, const QString& code);
    static void print(const char* what, const Run& r);

    SandboxGuard m_sbx;
    QTemporaryDir m_tmp;
    int m_runs = 0;
};

std::optional<QString> TstLoadTrust::Run::warning(const QString& code) const
{
    for (const auto& w : rec.value(QStringLiteral("warnings")).toArray())
        if (w.toObject().value(QStringLiteral("code")).toString() == code)
            return w.toObject().value(QStringLiteral("message")).toString();
    return std::nullopt;
}

void TstLoadTrust::initTestCase()
{
    if (SlapdSandbox::slapdProgram().isEmpty())
        QSKIP("slapd is not installed (apt-get install slapd): the LDAP integration tests need a real server");
    QVERIFY(m_tmp.isValid());
    // Every CLI this test starts inherits it: the runs land in a history of this test's own.
    qputenv("DIRBENCH_HISTORY", m_tmp.filePath(QStringLiteral("history.sqlite")).toLocal8Bit());
    QString why;
    m_sbx = LdapFixture::start(2000, false, &why);
    QVERIFY2(m_sbx, qPrintable(why));
}

void TstLoadTrust::cleanupTestCase()
{
    m_sbx.reset();
}

QStringList TstLoadTrust::target(const QString& uri, Auth auth) const
{
    QStringList a { QStringLiteral("--uri"), uri.isEmpty() ? m_sbx->uri : uri };
    if (auth == Auth::Admin)
        a << QStringLiteral("--bind-dn") << m_sbx->bindDn << QStringLiteral("--password-file") << m_sbx->passwordFile;
    return a;
}

// `dirbench-cli ldap OP` with the record written to a file of its own; --no-history unless args has --name.
TstLoadTrust::Run TstLoadTrust::load(const QString& op, const QStringList& args, Auth auth, const QString& uri)
{
    const QString json = m_tmp.filePath(QStringLiteral("run-%1.json").arg(++m_runs));
    QStringList a = QStringList { QStringLiteral("ldap"), op } + target(uri, auth) + args;
    a << QStringLiteral("--json") << json << QStringLiteral("--quiet");
    if (!args.contains(QStringLiteral("--name")))
        a << QStringLiteral("--no-history");
    Run r;
    r.cli = CliRun::run(a, 180000);
    QFile f(json);
    if (f.open(QIODevice::ReadOnly))
        r.rec = QJsonDocument::fromJson(f.readAll()).object();
    return r;
}

QJsonArray TstLoadTrust::historyList() const
{
    const CliRun::Result r = CliRun::run(
        { QStringLiteral("history"), QStringLiteral("list"), QStringLiteral("--json"), QStringLiteral("-") });
    return r.code == 0 ? QJsonDocument::fromJson(r.out).array() : QJsonArray();
}

void TstLoadTrust::print(const char* what, const Run& r)
{
    const QJsonObject s = r.summary();
    qInfo("%s: exit %d, status %s, failure '%s'; ops %.0f, ok %s, errors %.0f, ok/s %s, ops/s %.1f, codes %s", what,
        r.cli.code, qPrintable(r.rec.value(QStringLiteral("status")).toString()),
        qPrintable(r.rec.value(QStringLiteral("failure")).toString()), num(s, "ops"),
        s.contains(QStringLiteral("ok")) ? qPrintable(QString::number(num(s, "ok"))) : "(absent)", num(s, "errors"),
        s.contains(QStringLiteral("ok_per_s")) ? qPrintable(QString::number(num(s, "ok_per_s"))) : "(absent)",
        num(s, "ops_per_s"), qPrintable(codesText(s.value(QStringLiteral("result_codes")).toObject())));
    if (r.rec.isEmpty())
        qInfo("no record; stderr: %s", r.cli.err.constData());
}

// A load in which no operation succeeded has measured nothing: a failed run (exit 1) that names the result it got,
// with 0 successes, the operations it did complete, and the `errors` warning naming the code.
void TstLoadTrust::expectNothingSucceeded(const Run& r, const QString& codeText, const QString& code)
{
    QVERIFY2(!r.rec.isEmpty(), r.cli.err.constData());
    const QJsonObject s = r.summary();
    QVERIFY2(num(s, "ops") > 0, "the run completed no operation at all: nothing to judge");
    QVERIFY2(r.cli.code == 1, qPrintable(QStringLiteral("exit %1, expected 1").arg(r.cli.code)));
    QCOMPARE(r.rec.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    const QString failure = r.rec.value(QStringLiteral("failure")).toString();
    QVERIFY2(
        failure.contains(QStringLiteral("no operation succeeded")) && failure.contains(codeText), qPrintable(failure));
    QVERIFY2(s.value(QStringLiteral("ok")).isDouble(), "summary has no 'ok'");
    QCOMPARE(num(s, "ok"), 0.0);
    QVERIFY2(s.value(QStringLiteral("ok_per_s")).isDouble(), "summary has no 'ok_per_s'");
    QCOMPARE(num(s, "ok_per_s"), 0.0);
    QCOMPARE(num(s, "errors"), num(s, "ops"));
    const auto w = r.warning(QStringLiteral("errors"));
    QVERIFY2(w, "no 'errors' warning");
    QVERIFY2(w->contains(code), qPrintable(*w));
}

void TstLoadTrust::noSuchObjectRun()
{
    const QString name = QStringLiteral("nowhere");
    const Run r = load(QStringLiteral("search"),
        { QStringLiteral("--base"), QStringLiteral("ou=nowhere,") + m_sbx->base, QStringLiteral("--filter"), kFilter,
            QStringLiteral("--duration"), QStringLiteral("2"), QStringLiteral("--name"), name });
    print("search under a base that does not exist", r);
    expectNothingSucceeded(r, QStringLiteral("No such object (32)"), QStringLiteral("32"));
    if (QTest::currentTestFailed())
        return;

    // The history's headline is successes per second: 0 for this run, in the list and in `history show`.
    QJsonObject row;
    for (const auto& v : historyList())
        if (v.toObject().value(QStringLiteral("name")).toString() == name)
            row = v.toObject();
    QVERIFY2(!row.isEmpty(), "the run is not in the history");
    const QString headline = row.value(QStringLiteral("headline")).toString();
    qInfo("history list: status %s, headline '%s'", qPrintable(row.value(QStringLiteral("status")).toString()),
        qPrintable(headline));
    QCOMPARE(row.value(QStringLiteral("status")).toString(), QStringLiteral("failed"));
    QVERIFY2(leadingNumber(headline) == 0.0, qPrintable(headline));
    const CliRun::Result show = CliRun::run({ QStringLiteral("history"), QStringLiteral("show"), name });
    QCOMPARE(show.code, 0);
    QString headLine;
    for (const QString& line : QString::fromUtf8(show.out).split(u'\n'))
        if (line.contains(QStringLiteral("(headline)")))
            headLine = line;
    static const QRegularExpression value(QStringLiteral("\\s(-?[0-9][0-9,]*(\\.[0-9]+)?)\\s+\\S*\\s*\\(headline\\)"));
    const auto m = value.match(headLine);
    QVERIFY2(m.hasMatch(), show.out.constData());
    QVERIFY2(m.captured(1).remove(u',').toDouble() == 0.0, qPrintable(headLine));
}

void TstLoadTrust::sizeLimitRun()
{
    // Anonymous, the whole subtree, a size limit of 1: every search returns one entry, then sizeLimitExceeded (4).
    const Run r = load(QStringLiteral("search"),
        { QStringLiteral("--base"), m_sbx->peopleBase, QStringLiteral("--filter"), QStringLiteral("(objectClass=*)"),
            QStringLiteral("--scope"), QStringLiteral("sub"), QStringLiteral("--size-limit"), QStringLiteral("1"),
            QStringLiteral("--duration"), QStringLiteral("2") },
        Auth::Anonymous);
    print("search that only gets sizeLimitExceeded", r);
    expectNothingSucceeded(r, QStringLiteral("Size limit exceeded (4)"), QStringLiteral("4"));
    if (QTest::currentTestFailed())
        return;
    QCOMPARE(r.summary().value(QStringLiteral("result_codes")).toObject().value(QStringLiteral("4")).toDouble(),
        num(r.summary(), "ops"));
}

void TstLoadTrust::okCodes()
{
    const Run r = load(QStringLiteral("search"),
        { QStringLiteral("--base"), QStringLiteral("ou=nowhere,") + m_sbx->base, QStringLiteral("--filter"), kFilter,
            QStringLiteral("--duration"), QStringLiteral("2"), QStringLiteral("--ok-codes"), QStringLiteral("0,32") });
    print("search under a base that does not exist, --ok-codes 0,32", r);
    QVERIFY2(r.cli.code == 0, r.cli.err.constData());
    QCOMPARE(r.rec.value(QStringLiteral("status")).toString(), QStringLiteral("ok"));
    const QJsonObject s = r.summary();
    QVERIFY(num(s, "ops") > 0);
    QVERIFY2(s.value(QStringLiteral("ok")).isDouble(), "summary has no 'ok'");
    QCOMPARE(num(s, "ok"), num(s, "ops"));
    QCOMPARE(num(s, "errors"), 0.0);
    QCOMPARE(s.value(QStringLiteral("result_codes")).toObject().value(QStringLiteral("32")).toDouble(), num(s, "ops"));
    QVERIFY2(num(s, "ok_per_s") > 0, "ok_per_s is 0 although every operation counted as a success");
    QVERIFY2(!r.warning(QStringLiteral("errors")), "an 'errors' warning although nothing failed");
}

void TstLoadTrust::mix999()
{
    const Run r = load(QStringLiteral("mixed"),
        { QStringLiteral("--mix"), QStringLiteral("search=999,compare=1"), QStringLiteral("--base"), m_sbx->peopleBase,
            QStringLiteral("--filter"), kFilter, QStringLiteral("--dn"),
            QStringLiteral("uid=user[0-1999],") + m_sbx->peopleBase, QStringLiteral("--attr"), QStringLiteral("sn"),
            QStringLiteral("--value"), QStringLiteral("nobody"), QStringLiteral("--duration"), QStringLiteral("3") });
    print("mix search=999,compare=1", r);
    QVERIFY2(r.cli.code == 0, r.cli.err.constData());
    const QJsonObject s = r.summary();
    const QJsonObject byOp = s.value(QStringLiteral("by_operation")).toObject();
    const double total = num(s, "ops");
    // Without by_operation, the compares are the compareFalse/compareTrue results (a search never returns those).
    const QJsonObject codes = s.value(QStringLiteral("result_codes")).toObject();
    const double compares = byOp.contains(QStringLiteral("compare"))
        ? num(byOp.value(QStringLiteral("compare")).toObject(), "ops")
        : codes.value(QStringLiteral("5")).toDouble() + codes.value(QStringLiteral("6")).toDouble();
    const double p = 0.001, sigma = std::sqrt(total * p * (1 - p));
    const double tail = binomialTail(total, p, compares);
    qInfo("%.0f compares of %.0f operations (%s): %.4f %% (expected 0.1 %%, %.1f +- %.1f at 4 sigma); binomial "
          "tail %.3g",
        compares, total, byOp.isEmpty() ? "from result codes 5 and 6: the record has no by_operation" : "by_operation",
        total > 0 ? 100.0 * compares / total : 0.0, total * p, 4 * sigma, tail);
    QVERIFY2(total >= 2000, "too few operations to tell 0.1 % from 1 %");
    if (total * p >= 14) // P(no compare at all) = 0.999^total < 1e-6
        QVERIFY2(compares > 0, "no compare at all");
    QVERIFY2(tail >= 1e-6, "the compare share is not 0.1 % within sampling error");
    QVERIFY2(!byOp.isEmpty(), "summary has no by_operation");
    QCOMPARE(num(byOp.value(QStringLiteral("search")).toObject(), "ops") + compares, total);
}

namespace {

// Adds `from`'s numbers for `keys` and its result codes into `into` (under the same names).
void accumulate(QMap<QString, double>& into, const QJsonObject& from, const QString& prefix)
{
    for (const char* k : { "ops", "ok", "errors" })
        if (from.value(QLatin1String(k)).isDouble())
            into[prefix + QLatin1String(k)] += num(from, k);
    const QJsonObject codes = from.value(QStringLiteral("result_codes")).toObject();
    for (auto it = codes.begin(); it != codes.end(); ++it)
        into[prefix + QStringLiteral("result_codes/") + it.key()] += it.value().toDouble();
}

QMap<QString, double> totals(const QJsonObject& o, QStringList* missing, const QString& where)
{
    QMap<QString, double> t;
    for (const char* k : { "ops", "ok", "errors" })
        if (!o.value(QLatin1String(k)).isDouble())
            *missing << where + QStringLiteral(" has no '") + QLatin1String(k) + u'\'';
    accumulate(t, o, QString());
    const QJsonObject byOp = o.value(QStringLiteral("by_operation")).toObject();
    for (const char* kind : { "search", "modify" }) {
        if (!byOp.contains(QLatin1String(kind)))
            *missing << where + QStringLiteral(" has no by_operation.") + QLatin1String(kind);
        accumulate(t, byOp.value(QLatin1String(kind)).toObject(), QLatin1String(kind) + u'/');
    }
    return t;
}

} // namespace

void TstLoadTrust::intervalsSum()
{
    const Run r = load(QStringLiteral("mixed"),
        { QStringLiteral("--mix"), QStringLiteral("search=80,modify=20"), QStringLiteral("--base"), m_sbx->peopleBase,
            QStringLiteral("--filter"), kFilter, QStringLiteral("--dn"),
            QStringLiteral("uid=user[0-99],") + m_sbx->peopleBase, QStringLiteral("--attr"),
            QStringLiteral("description"), QStringLiteral("--value"), QStringLiteral("changed by dirbench [0-999]"),
            QStringLiteral("--duration"), QStringLiteral("3"), QStringLiteral("--interval"), QStringLiteral("0.5"),
            QStringLiteral("--fail-after"), QStringLiteral("60") });
    print("mix search=80,modify=20", r);
    QVERIFY2(r.cli.code == 0, r.cli.err.constData());
    QVERIFY(num(r.summary(), "ops") > 0);
    QVERIFY(r.intervals().size() >= 5);
    QStringList problems;
    const QMap<QString, double> summary = totals(r.summary(), &problems, QStringLiteral("the summary"));
    QMap<QString, double> sum;
    LatencyHistogram merged;
    int histograms = 0;
    for (const auto& v : r.intervals()) {
        const QJsonObject i = v.toObject();
        QStringList missing;
        const QMap<QString, double> t
            = totals(i, &missing, QStringLiteral("interval t=") + QString::number(num(i, "t")));
        if (problems.size() < 8)
            problems += missing;
        for (auto it = t.begin(); it != t.end(); ++it)
            sum[it.key()] += it.value();
        if (i.value(QStringLiteral("latency_histogram_ns")).isObject()) {
            merged.merge(LatencyHistogram::fromJson(i.value(QStringLiteral("latency_histogram_ns")).toObject()));
            ++histograms;
        }
    }
    QStringList keys = summary.keys() + sum.keys();
    keys.removeDuplicates();
    for (const QString& k : std::as_const(keys))
        if (sum.value(k) != summary.value(k))
            problems << QStringLiteral("%1: intervals %2, summary %3").arg(k).arg(sum.value(k)).arg(summary.value(k));
    const QJsonObject total = r.summary().value(QStringLiteral("latency_histogram_ns")).toObject();
    if (histograms == 0)
        qInfo("the intervals carry no latency histogram: their sum against the summary's is not checked");
    else if (histograms != r.intervals().size()
        || merged.toJson().value(QStringLiteral("buckets")) != total.value(QStringLiteral("buckets")))
        problems << QStringLiteral("latency histograms: %1 of %2 intervals carry one, %3 latencies in them, %4 in "
                                   "the summary's")
                        .arg(histograms)
                        .arg(r.intervals().size())
                        .arg(merged.count())
                        .arg(num(total, "count"));
    qInfo("%lld intervals; %lld sums compared", qint64(r.intervals().size()), qint64(keys.size()));
    for (const QString& p : std::as_const(problems))
        qInfo("  %s", qPrintable(p));
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QStringLiteral("; "))));
}

namespace {

// Successes per second in an interval: ok_per_s, or (ops - errors) / length in a record without it.
double okRate(const QJsonObject& i, double length)
{
    if (i.value(QStringLiteral("ok_per_s")).isDouble())
        return num(i, "ok_per_s");
    return length > 0 ? (num(i, "ops") - num(i, "errors")) / length : 0;
}

} // namespace

void TstLoadTrust::hangingReconnect()
{
    Relay relay(quint16(QUrl(m_sbx->uri).port()));
    QVERIFY(relay.port() != 0);
    const QString via = QStringLiteral("ldap://127.0.0.1:%1/").arg(relay.port());
    QElapsedTimer wall;
    wall.start();
    const Run r = load(QStringLiteral("search"),
        { QStringLiteral("--base"), m_sbx->peopleBase, QStringLiteral("--filter"), kFilter, QStringLiteral("--attrs"),
            QStringLiteral("1.1"), QStringLiteral("--threads"), QStringLiteral("1"), QStringLiteral("--connections"),
            QStringLiteral("4"), QStringLiteral("--outstanding"), QStringLiteral("1"), QStringLiteral("--duration"),
            QStringLiteral("6"), QStringLiteral("--interval"), QStringLiteral("0.5"), QStringLiteral("--op-timeout"),
            QStringLiteral("2"), QStringLiteral("--network-timeout"), QStringLiteral("2"),
            QStringLiteral("--no-server-counters") },
        Auth::Admin, via);
    const qint64 ms = wall.elapsed();
    print("search through a relay that cuts one connection and black-holes its reconnects", r);
    QVERIFY2(
        relay.cut(), qPrintable(QStringLiteral("the relay never cut (%1 responses forwarded)").arg(relay.forwarded())));
    const double cutT = relay.cutAtSeconds();
    const QJsonObject s = r.summary();
    qInfo("cut at t=%.2f s a connection that had carried %llu responses; %d reconnect(s) into the black hole; "
          "reconnects %s, timeouts %s, reconnect_attempts %s, connect_failures %s; the CLI took %lld ms",
        cutT, static_cast<unsigned long long>(relay.cutResponses()), relay.swallowed(),
        qPrintable(s.value(QStringLiteral("reconnects")).toVariant().toString()),
        qPrintable(s.value(QStringLiteral("timeouts")).toVariant().toString()),
        qPrintable(s.value(QStringLiteral("reconnect_attempts")).toVariant().toString()),
        qPrintable(s.value(QStringLiteral("connect_failures")).toVariant().toString()), ms);
    QVERIFY2(r.cli.code == 0, r.cli.err.constData());

    // Before: intervals that ended before the cut; after: intervals that began after it (not the short last one).
    constexpr double kMargin = 0.15;
    double prevT = 0, beforeSum = 0;
    int before = 0;
    QList<QPair<double, QJsonObject>> after; // ok/s, interval
    for (const auto& v : r.intervals()) {
        const QJsonObject i = v.toObject();
        const double t = num(i, "t"), length = t - prevT;
        const double rate = okRate(i, length);
        const QJsonObject lat = i.value(QStringLiteral("latency_ms")).toObject();
        qInfo("  t=%5.2f  ok/s %9.1f  ops %6.0f  errors %4.0f  p99 %s ms  max %s ms", t, rate, num(i, "ops"),
            num(i, "errors"), qPrintable(lat.value(QStringLiteral("p99")).toVariant().toString()),
            qPrintable(lat.value(QStringLiteral("max")).toVariant().toString()));
        if (t <= cutT - kMargin) {
            beforeSum += rate;
            ++before;
        } else if (prevT >= cutT + kMargin && length >= 0.25) {
            after.append({ rate, i });
        }
        prevT = t;
    }
    QVERIFY2(before >= 2 && after.size() >= 4,
        qPrintable(QStringLiteral("%1 intervals before the cut, %2 after").arg(before).arg(after.size())));
    const double beforeRate = beforeSum / before;
    QVERIFY2(beforeRate > 0, "nothing succeeded before the cut");
    for (const auto& [rate, i] : std::as_const(after)) {
        const QJsonValue p99 = i.value(QStringLiteral("latency_ms")).toObject().value(QStringLiteral("p99"));
        const QString at = QStringLiteral("t=") + QString::number(num(i, "t"));
        QVERIFY2(rate > 0.25 * beforeRate,
            qPrintable(at + QStringLiteral(": %1 ok/s after the cut, %2 before").arg(rate).arg(beforeRate)));
        QVERIFY2(p99.isDouble() && p99.toDouble() < 1000,
            qPrintable(at + QStringLiteral(": p99 ") + p99.toVariant().toString() + QStringLiteral(" ms")));
    }
    QVERIFY2(relay.swallowed() >= 1, "the client never tried to reconnect the cut connection");
    QVERIFY2(num(s, "reconnects") + num(s, "reconnect_attempts") + num(s, "connect_failures") + num(s, "timeouts") >= 1,
        "the record counts no reconnect attempt and no timeout");
    for (const auto& v : r.intervals())
        QVERIFY2(v.toObject().value(QStringLiteral("ok_per_s")).isDouble(), "an interval has no ok_per_s");
}

void TstLoadTrust::filterRequired()
{
    const qsizetype rowsBefore = historyList().size();
    const CliRun::Result r
        = CliRun::run(QStringList { QStringLiteral("ldap"), QStringLiteral("search") } + target(m_sbx->uri, Auth::Admin)
            + QStringList {
                QStringLiteral("--base"), m_sbx->peopleBase, QStringLiteral("--duration"), QStringLiteral("1") });
    qInfo("without --filter: exit %d, stderr: %s", r.code, r.err.trimmed().constData());
    QCOMPARE(r.code, 2);
    QVERIFY2(r.err.contains("--filter"), r.err.constData());
    QVERIFY(!r.out.contains("saved in the history"));
    QCOMPARE(historyList().size(), rowsBefore);
}

QTEST_GUILESS_MAIN(TstLoadTrust)
#include "tst_loadtrust.moc"
