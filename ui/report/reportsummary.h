#pragma once

#include "ui/report/reportdocument.h"

// Page 1 of a report, the decision: one conclusion per run (the question it answers and the answer), each verdict in
// one sentence with failures and flagged cases first (measured against required, a bound printed as "< 50"), what
// to do next (from the failed verdicts, the sizing recommendations, the cloud advisor's flags and the runs'
// warnings), and what was tested. Plain words; byte sizes in units a reader takes in (83.2 GB); no path of this
// repository.
namespace ReportSummary {

// `runSections` are the runs' detail sections, in the order of `records` (their first chart is the one shown).
ReportSection section(
    const QList<RunRecord>& records, const ReportOptions& options, const QList<ReportSection>& runSections);
// "A disk test (the directory suite) in /var/tmp on ext4 with 83.2 GB free." One sentence per run.
QString whatWasTested(const RunRecord& r);
// The history's headline, or for kinds it has none for, the number a reader looks for first.
QString headline(const RunRecord& r);
// "389 Directory Server" for a sizing's "389ds"; other names as they are.
QString serverKindName(const QString& kind);
// Labels written for DirBench's own readers name "the seed" (the article DirBench started from); a reader of the
// summary knows it as the eDirectory article.
QString plain(QString s);
// One sentence each; empty when nothing needs doing.
QStringList nextSteps(const QList<RunRecord>& records, const ReportOptions& options);

} // namespace ReportSummary
