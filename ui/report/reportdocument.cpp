#include "ui/report/reportdocument.h"

ReportBlock ReportBlock::subheading(const QString& text)
{
    ReportBlock b;
    b.kind = Kind::Subheading;
    b.text = text;
    return b;
}

ReportBlock ReportBlock::paragraph(const QString& text)
{
    ReportBlock b;
    b.kind = Kind::Paragraph;
    b.text = text;
    return b;
}

ReportBlock ReportBlock::code(const QString& text)
{
    ReportBlock b;
    b.kind = Kind::Code;
    b.text = text;
    return b;
}

ReportBlock ReportBlock::ofTable(const ReportTable& table)
{
    ReportBlock b;
    b.kind = Kind::Table;
    b.table = table;
    return b;
}

ReportBlock ReportBlock::keyValues(const QList<QStringList>& rows)
{
    ReportBlock b;
    b.kind = Kind::Table;
    b.table.keyValue = true;
    b.table.rows = rows;
    return b;
}

ReportBlock ReportBlock::ofChart(const ReportChart& chart)
{
    ReportBlock b;
    b.kind = Kind::Chart;
    b.chart = chart;
    return b;
}

ReportBlock ReportBlock::ofVerdicts(const QList<Verdict>& verdicts)
{
    ReportBlock b;
    b.kind = Kind::Verdicts;
    b.verdicts = verdicts;
    return b;
}

ReportBlock ReportBlock::ofVerdictSentences(const QList<Verdict>& verdicts, const QStringList& runs)
{
    ReportBlock b = ofVerdicts(verdicts);
    b.sentences = true;
    b.verdictRuns = runs;
    return b;
}

ReportBlock ReportBlock::ofWarnings(const QList<RunWarning>& warnings)
{
    ReportBlock b;
    b.kind = Kind::Warnings;
    b.warnings = warnings;
    return b;
}
