// Replication records (kind "replication", the marker probe): the lag per consumer over the run beside the
// supplier's write rate (the knee's rate after a ramp), a table per consumer, the verdict sentences, and the
// eDirectory article's -625/-626 in its own terms.
#include "core/common/reportformat.h"
#include "core/experiments/replicationsummary.h"
#include "ui/report/reportsections.h"

namespace ReportSections {

namespace {

ReportSeries line(const QString& name, const QList<QPointF>& points, bool dashed = false)
{
    ReportSeries s;
    s.name = name;
    s.points = points;
    s.dashed = dashed;
    s.markers = points.size() <= 3;
    return s;
}

ReportChart lagChart(const RunRecord& r, const QStringList& uris)
{
    ReportChart c;
    c.title = QStringLiteral("Replication lag per consumer (ms)");
    c.xLabel = QStringLiteral("t (s)");
    c.yLabel = QStringLiteral("lag (ms)");
    const bool named = uris.size() > 1;
    for (const QString& uri : uris) {
        const ReplicationFigures::ConsumerSeries s = ReplicationFigures::seriesOf(r.intervals, uri);
        const QString who = named ? QString(uri + u' ') : QString();
        if (!s.p50.isEmpty())
            c.series << line(QString(who + u"p50"), s.p50);
        if (!s.p99.isEmpty())
            c.series << line(QString(who + u"p99"), s.p99, true);
        if (s.everBehind)
            c.series << line(QString(who + u"behind for at least"), s.behindMs);
    }
    return c;
}

ReportChart writeChart(const RunRecord& r)
{
    ReportChart c;
    c.title = QStringLiteral("Writes acknowledged by the supplier per second");
    c.xLabel = QStringLiteral("t (s)");
    c.yLabel = QStringLiteral("writes/s");
    const QList<QPointF> writes = ReplicationFigures::writeRate(r.intervals);
    if (!writes.isEmpty())
        c.series << line(QStringLiteral("writes/s"), writes);
    if (const auto knee = ReplicationFigures::kneeRate(r.summary); knee && !writes.isEmpty())
        c.series << line(QString(u"knee " + ReportFormat::number(*knee) + u" writes/s"),
            { QPointF(writes.constFirst().x(), *knee), QPointF(writes.constLast().x(), *knee) }, true);
    return c;
}

ReportTable consumerTable(const RunRecord& r, const QStringList& uris)
{
    ReportTable t;
    t.header = { QStringLiteral("consumer"), QStringLiteral("method"), QStringLiteral("p50 ms"),
        QStringLiteral("p99 ms"), QStringLiteral("max ms"), QStringLiteral("markers seen"), QStringLiteral("unseen"),
        QStringLiteral("seen before ack"), QStringLiteral("reachable"), QStringLiteral("vendor") };
    const ReplicationFigures::Summary summary = ReplicationFigures::Summary::of(r);
    for (const QString& uri : uris) {
        const ReplicationFigures::ConsumerFigures* found = summary.consumer(uri);
        const ReplicationFigures::ConsumerFigures c = found ? *found : ReplicationFigures::ConsumerFigures();
        const ReplicationFigures::Lag& lag = c.lag;
        QString unseen = ReplicationFigures::cell(c.unseen);
        if (c.unseen.value_or(0) > 0)
            unseen
                += QString(u" (behind for at least " + ReportFormat::number(c.behindForAtLeastS.value_or(0)) + u" s)");
        t.rows.append(
            { uri, ReplicationFigures::methodOf(r, uri), ReplicationFigures::lagValue(lag.p50, lag.p50AtLeast),
                ReplicationFigures::lagValue(lag.p99, lag.p99AtLeast),
                ReplicationFigures::lagValue(lag.max, lag.maxAtLeast), ReplicationFigures::cell(c.markersSeen), unseen,
                ReplicationFigures::cell(c.seenBeforeAck), c.reachable ? QStringLiteral("yes") : QStringLiteral("no"),
                c.vendor.isEmpty() ? QStringLiteral("n/a") : c.vendor });
    }
    return t;
}

} // namespace

QString replicationHeadline(const RunRecord& r)
{
    return ReplicationFigures::headline(r);
}

void replication(const RunRecord& r, ReportSection& section, QStringList& sources)
{
    Q_UNUSED(sources)
    const QStringList uris = ReplicationFigures::consumerUris(r);
    const ReplicationFigures::Summary s = ReplicationFigures::Summary::of(r);
    section.blocks << ReportBlock::paragraph(QString(u"Markers written on the supplier: "
        + ReplicationFigures::cell(s.markersWritten) + u" (" + ReportFormat::number(s.writeOkPerS.value_or(0))
        + u" writes/s, the probe's own load), write errors " + ReplicationFigures::cell(s.writeErrors)
        + u". Lag = time seen on a consumer - time the supplier acknowledged the write, on one clock; a marker "
          u"not yet seen makes the consumer \"behind for at least\" the age of the oldest one."));
    if (const ReportChart c = lagChart(r, uris); !c.isEmpty())
        section.blocks << ReportBlock::ofChart(c);
    if (const ReportChart c = writeChart(r); !c.isEmpty())
        section.blocks << ReportBlock::ofChart(c);
    if (const auto knee = s.kneeWriteRate)
        section.blocks << ReportBlock::paragraph(QString(u"The knee of the write ramp (the first step whose p99 lag "
                                                         u"exceeds 10 times the first step's and keeps growing): "
            + ReportFormat::number(*knee) + u" writes/s."));
    section.blocks << ReportBlock::subheading(QStringLiteral("Consumers"));
    section.blocks << ReportBlock::ofTable(consumerTable(r, uris));
    const QStringList sentences = ReplicationFigures::verdictSentences(r);
    if (!sentences.isEmpty()) {
        section.blocks << ReportBlock::subheading(QStringLiteral("Lag verdicts"));
        for (const QString& v : sentences)
            section.blocks << ReportBlock::paragraph(v);
    }
    section.blocks << ReportBlock::paragraph(ReplicationFigures::edirectoryNote());
}

} // namespace ReportSections
