#include "app/cli/historysink.h"

#include "app/cli/clicommon.h"
#include "app/cli/historyprinter.h"
#include "core/store/comparison.h"
#include "core/store/historysink.h"
#include "core/store/runstore.h"

#include <QCommandLineParser>

namespace Cli {

QList<QCommandLineOption> historyOptions()
{
    return { QCommandLineOption(QStringLiteral("no-history"), QStringLiteral("Do not save the run in the history.")),
        QCommandLineOption(QStringLiteral("name"),
            QStringLiteral("Save the run in the history under NAME (a baseline can then refer to it)."),
            QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("baseline"),
            QStringLiteral("Compare the run with the newest history run named NAME (or with id NAME); the baseline "
                           "must be of the same kind and profile."),
            QStringLiteral("NAME")),
        QCommandLineOption(QStringLiteral("fail-if-slower"),
            QStringLiteral("With --baseline: exit 3 when the headline metric (ok/s, MB/s, IOPS higher is better; "
                           "latency lower is better) is worse than the baseline's by more than PCT percent."),
            QStringLiteral("PCT")) };
}

HistorySink::HistorySink() = default;
HistorySink::~HistorySink() = default;

int HistorySink::configure(const QCommandLineParser& parser)
{
    m_save = !parser.isSet(QStringLiteral("no-history"));
    m_name = parser.value(QStringLiteral("name")).trimmed();
    if (parser.isSet(QStringLiteral("name")) && m_name.isEmpty())
        return badArgument(QStringLiteral("--name"), QStringLiteral("must not be empty"));
    if (parser.isSet(QStringLiteral("name")) && !m_save)
        return badArgument(
            QStringLiteral("--name"), QStringLiteral("names a run in the history: not with --no-history"));
    m_baselineName = parser.value(QStringLiteral("baseline"));
    if (parser.isSet(QStringLiteral("fail-if-slower"))) {
        if (!parser.isSet(QStringLiteral("baseline")))
            return badArgument(QStringLiteral("--fail-if-slower"), QStringLiteral("needs --baseline NAME"));
        bool ok = false;
        const double pct = parser.value(QStringLiteral("fail-if-slower")).toDouble(&ok);
        if (!ok || !(pct >= 0) || pct > 1e6)
            return badArgument(QStringLiteral("--fail-if-slower"),
                QStringLiteral("'") + parser.value(QStringLiteral("fail-if-slower"))
                    + QStringLiteral("' is not a percentage ≥ 0 (e.g. 10 for 10 %)"));
        m_failIfSlowerPct = pct;
    }
    if (!m_save && m_baselineName.isEmpty())
        return ExitOk;
    m_sink = std::make_unique<::HistorySink>();
    ProbeError e;
    if (!m_sink->open({}, &e)) {
        m_sink.reset();
        if (!m_baselineName.isEmpty())
            return badArgument(QStringLiteral("--baseline"), QStringLiteral("cannot open the history: ") + e.message());
        std::fprintf(stderr, "dirbench-cli: the run is not saved in the history: %s\n", qPrintable(e.message()));
        return ExitOk;
    }
    if (parser.isSet(QStringLiteral("baseline"))) {
        QString why;
        const auto id = resolveRun(*m_sink->store(), m_baselineName, &why);
        if (!id)
            return badArgument(QStringLiteral("--baseline"), why);
        m_baseline = m_sink->store()->load(*id, &e);
        if (!m_baseline)
            return badArgument(QStringLiteral("--baseline"), e.message());
        if (m_baseline->status != u"ok")
            return badArgument(QStringLiteral("--baseline"),
                QStringLiteral("run %1 '%2' did not complete (%3): not a baseline")
                    .arg(*id)
                    .arg(m_baselineName, m_baseline->status));
        m_baselineId = *id;
    }
    return ExitOk;
}

void HistorySink::configureSaveOnly(bool save)
{
    m_save = save;
    if (!save)
        return;
    m_sink = std::make_unique<::HistorySink>();
    ProbeError e;
    if (!m_sink->open({}, &e)) {
        m_sink.reset();
        std::fprintf(stderr, "dirbench-cli: the run is not saved in the history: %s\n", qPrintable(e.message()));
    }
}

int HistorySink::begin(const QString& kind, const QJsonObject& spec)
{
    if (m_baseline) {
        QString why;
        if (!Comparison::comparable(*m_baseline, kind, spec, &why))
            return badArgument(QStringLiteral("--baseline"),
                QStringLiteral("run %1 '%2' cannot be compared with this run: %3")
                    .arg(m_baselineId)
                    .arg(m_baselineName, why));
    }
    if (m_sink && m_save) {
        ProbeError e;
        if (!m_sink->begin(kind, spec, m_name, &e))
            std::fprintf(stderr, "dirbench-cli: the run is not saved in the history: %s\n", qPrintable(e.message()));
    }
    return ExitOk;
}

void HistorySink::add(const SampleBatch& batch)
{
    if (m_sink)
        m_sink->add(batch);
}

qint64 HistorySink::finish(std::FILE* out, const RunRecord& record)
{
    qint64 id = 0;
    if (m_sink && m_sink->id()) {
        ProbeError e;
        id = m_sink->finish(record, &e);
        if (id)
            std::fprintf(out, "saved in the history as run %lld%s\n", id,
                m_name.isEmpty() ? "" : qPrintable(QStringLiteral(" '") + m_name + u'\''));
        else
            std::fprintf(
                stderr, "dirbench-cli: the run could not be saved in the history: %s\n", qPrintable(e.message()));
    }
    if (!m_baseline || record.status != u"ok")
        return id;
    const QList<Comparison::Delta> deltas = Comparison::compare(*m_baseline, record);
    std::fprintf(out, "\ncompared with the baseline, run %lld '%s' (A) — this run is B:\n", m_baselineId,
        qPrintable(m_baselineName));
    printDeltas(out, deltas);
    if (deltas.isEmpty() || !deltas.first().gainPct) {
        std::fprintf(out, "baseline: the headline could not be compared\n");
        m_slower = m_failIfSlowerPct.has_value();
        return id;
    }
    const Comparison::Delta& h = deltas.first();
    const double worsePct = -*h.gainPct;
    if (m_failIfSlowerPct) {
        m_slower = worsePct > *m_failIfSlowerPct;
        std::fprintf(out, "baseline: %s %s by %s %% (limit %s %%): %s\n", qPrintable(h.label),
            worsePct > 0 ? "worse" : "better", qPrintable(QString::number(std::abs(worsePct), 'f', 1)),
            qPrintable(QString::number(*m_failIfSlowerPct, 'f', 1)), m_slower ? "FAIL (exit 3)" : "PASS");
    }
    return id;
}

} // namespace Cli
