// Report::htmlOf: one self-contained HTML page (inline CSS, inline SVG charts, no external resources).
#include "ui/report/report.h"
#include "ui/report/svgchart.h"

namespace Report {

namespace {

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString tableHtml(const ReportTable& t)
{
    QString h = t.keyValue ? QStringLiteral("<table class=\"kv\">\n") : QStringLiteral("<table>\n");
    if (!t.keyValue) {
        h += u"<tr>";
        for (const QString& c : t.header)
            h += QString(u"<th>" + esc(c) + u"</th>");
        h += u"</tr>\n";
    }
    for (const QStringList& row : t.rows) {
        h += u"<tr>";
        for (qsizetype i = 0; i < row.size(); ++i)
            h += QString((t.keyValue && i == 0 ? u"<th>" : u"<td>") + esc(row.at(i))
                + (t.keyValue && i == 0 ? u"</th>" : u"</td>"));
        h += u"</tr>\n";
    }
    return h + u"</table>\n";
}

QString blockHtml(const ReportBlock& b)
{
    switch (b.kind) {
    case ReportBlock::Kind::Subheading:
        return QString(u"<h3>" + esc(b.text) + u"</h3>\n");
    case ReportBlock::Kind::Paragraph:
        return QString(u"<p>" + esc(b.text) + u"</p>\n");
    case ReportBlock::Kind::Code:
        return QString(u"<pre>" + esc(b.text) + u"</pre>\n");
    case ReportBlock::Kind::Table:
        return tableHtml(b.table);
    case ReportBlock::Kind::Chart:
        return b.chart.isEmpty() ? QString() : QString(u"<figure>" + SvgChart::svg(b.chart) + u"</figure>\n");
    case ReportBlock::Kind::Verdicts: {
        QString h = QStringLiteral("<ul class=\"verdicts\">\n");
        for (qsizetype i = 0; i < b.verdicts.size(); ++i) {
            const Verdict& v = b.verdicts.at(i);
            const QString run = b.verdictRuns.value(i);
            const QString line = b.sentences ? (run.isEmpty() ? QString() : QString(run + u": ")) + verdictSentence(v)
                                             : verdictLine(v);
            h += QStringLiteral("<li class=\"%1\">%2</li>\n")
                     .arg(v.passed ? QStringLiteral("pass") : QStringLiteral("fail"), esc(line));
        }
        return h + u"</ul>\n";
    }
    case ReportBlock::Kind::Warnings: {
        QString h = QStringLiteral("<ul class=\"warnings\">\n");
        for (const RunWarning& w : b.warnings)
            h += QString(u"<li>Warning (" + esc(w.code) + u"): " + esc(w.message) + u"</li>\n");
        return h + u"</ul>\n";
    }
    }
    return {};
}

const char16_t* const kStyle = uR"(
body { font-family: "DejaVu Sans", sans-serif; font-size: 13px; max-width: 980px; margin: 2em auto; color: #111; }
h1 { font-size: 26px; margin-bottom: 0.2em; } h2 { color: #1f3f6f; border-bottom: 1px solid #1f3f6f; margin-top: 2em; }
h3 { font-size: 15px; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; } th, td { border-bottom: 1px solid #ccc; padding: 3px 8px; }
th { background: #e3eaf3; text-align: left; } table.kv th { background: none; } td { font-variant-numeric: tabular-nums; }
pre { background: #f2f2f2; padding: 8px; white-space: pre-wrap; word-break: break-all; }
li.pass::marker { color: #2e7d32; } li.fail { color: #c62828; } ul.warnings li { color: #b26a00; }
.status { color: #555; }
)";

} // namespace

QString htmlOf(const ReportDocument& doc)
{
    QString h = QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    h += QString(u"<title>" + esc(doc.title) + u"</title>\n<style>" + QString::fromUtf16(kStyle) + u"</style>\n");
    h += u"</head>\n<body>\n";
    h += QString(u"<h1>" + esc(doc.title) + u"</h1>\n<p class=\"status\">"
        + (doc.author.isEmpty() ? QString() : QString(u"Prepared by " + esc(doc.author) + u" · "))
        + u"Directory-service performance report made by DirBench on "
        + esc(doc.generated.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss t"))) + u"</p>\n");
    for (const ReportSection& s : doc.sections) {
        h += QString(u"<section>\n<h2>" + esc(s.heading) + u"</h2>\n");
        for (const ReportBlock& b : s.blocks)
            h += blockHtml(b);
        h += u"</section>\n";
    }
    return h + u"</body>\n</html>\n";
}

} // namespace Report
