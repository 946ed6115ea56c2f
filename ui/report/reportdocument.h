#pragma once

#include "core/common/runrecord.h"

#include <QDateTime>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

// The report as a document: what to print, not how. Report::build() makes it from run records; the PDF painter,
// the HTML writer and the tests read it. Every number in it is already text, printed in full (DESIGN.md).

struct ReportTable
{
    QStringList header;
    QList<QStringList> rows;
    bool keyValue = false; // two columns: a name and its value (no header row)
};

struct ReportSeries
{
    QString name;
    QList<QPointF> points;
    bool dashed = false; // a reference or a fitted model
    bool markers = false; // measured points
    bool line = true;
};

struct ReportChart
{
    QString title;
    QString xLabel;
    QString yLabel;
    QList<ReportSeries> series;
    bool compact = false; // a lower plot: the summary page's charts

    bool isEmpty() const;
};

struct ReportBlock
{
    enum class Kind
    {
        Subheading,
        Paragraph,
        Table,
        Chart,
        Verdicts,
        Warnings,
        Code
    };
    Kind kind = Kind::Paragraph;
    QString text; // Subheading, Paragraph, Code
    ReportTable table;
    ReportChart chart;
    QList<Verdict> verdicts;
    QStringList verdictRuns; // Verdicts: the run each verdict belongs to (summary: "run: sentence")
    bool sentences = false; // Verdicts: one plain sentence each (Report::verdictSentence), not the detail line
    QList<RunWarning> warnings;

    static ReportBlock subheading(const QString& text);
    static ReportBlock paragraph(const QString& text);
    static ReportBlock code(const QString& text);
    static ReportBlock ofTable(const ReportTable& table);
    static ReportBlock keyValues(const QList<QStringList>& rows);
    static ReportBlock ofChart(const ReportChart& chart);
    static ReportBlock ofVerdicts(const QList<Verdict>& verdicts);
    static ReportBlock ofVerdictSentences(const QList<Verdict>& verdicts, const QStringList& runs);
    static ReportBlock ofWarnings(const QList<RunWarning>& warnings);
};

struct ReportSection
{
    QString heading;
    QString status; // "ok", "failed: reason", ... (empty for sections that are not a run)
    bool newPage = false; // starts on a page of its own (what follows the summary page)
    QList<ReportBlock> blocks;
};

struct ReportOptions
{
    QString title = QStringLiteral("Directory performance report");
    QString author; // who prepared it ("" = not said)
    QStringList runNames; // one per record (file name, history name); empty: the kind and a number
    QDateTime generated; // invalid: now
};

struct ReportDocument
{
    QString title;
    QString author;
    QDateTime generated;
    // sections.first() is the summary (page 1); the details follow, the environment comes last.
    QList<ReportSection> sections;
    // Every source a published figure cites (verdicts, sizing rules, records), once, in order of appearance;
    // the builder also prints them as the last section.
    QStringList sources;
};
