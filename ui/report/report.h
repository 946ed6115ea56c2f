#pragma once

#include "ui/report/reportdocument.h"

#include <QList>
#include <QString>

#include <functional>

// Reports of runs: a PDF (painted with QPdfWriter: vector charts, embedded fonts, selectable text), a self-contained
// HTML page (inline SVG charts) and a CSV of the intervals. Qt Gui only (no Widgets): the CLI uses it on the
// offscreen platform. Files are created 0600 (they may hold host names) and written whole or not at all.
namespace Report {

ReportDocument build(const QList<RunRecord>& records, const ReportOptions& options = {});

// `progress` gets (pages painted, pages) as each page is done; any thread may paint (no widget is involved).
bool writePdf(const ReportDocument& doc, const QString& path, QString* error = nullptr,
    const std::function<void(int done, int total)>& progress = {});
bool writeHtml(const ReportDocument& doc, const QString& path, QString* error = nullptr);
// One row per interval per run: run, kind, then the union of the flattened interval columns with their units.
bool writeCsv(
    const QList<RunRecord>& records, const ReportOptions& options, const QString& path, QString* error = nullptr);

QString htmlOf(const ReportDocument& doc);
QString csvOf(const QList<RunRecord>& records, const ReportOptions& options);
// The name a run goes by in the report: options.runNames[i], else "kind #i+1".
QString runName(const QList<RunRecord>& records, const ReportOptions& options, qsizetype i);
// The verdicts a reader judges a run by: the record's, without the sanity checks older cloud records carried as
// verdicts ("within the published maximum", now the warning above-published-max).
QList<Verdict> judgedVerdicts(const RunRecord& r);
// The verdict as one line of text, as every format prints it:
// "PASS  requirement: measured 123.4 MB/s, threshold 100 MB/s (source: S) - note"
QString verdictLine(const Verdict& v);
// The verdict in one sentence for the summary page, e.g. "Sequential write ≥ 100 MB/s, sustained (...) passed:
// measured 412.3 MB/s, required at least 100 MB/s." (and the verdict's note, if any).
QString verdictSentence(const Verdict& v);

} // namespace Report
