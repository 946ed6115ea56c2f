#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

// The typed reading of a dirbench.workload/1 analysis (WorkloadAnalysis::toJson writes it): the one place that reads
// its keys; the CLI printer, the Workload page and its template table read these fields.
struct WorkloadSkew
{
    QString model; // "zipf", "hot", "uniform"; empty: no fit
    double alpha = 0; // "zipf"
    double keysPct = 0, opsPct = 0; // "hot": keysPct % of the keys get opsPct % of the operations

    static WorkloadSkew fromJson(const QJsonObject& o);
    QString shortText() const; // "zipf a=0.96", "hot 5.0%/90.0%", the model otherwise (the CLI's column)
};

struct WorkloadTemplateRow
{
    QString text; // the filter template
    QString kind;
    double count = 0, share = 0;
    QList<QPair<QString, double>> resultCodes; // code -> count, in the analysis's order
    std::optional<double> entriesMean, unindexedShare;
    bool hasEtime = false;
    std::optional<double> etimeP50Ms, etimeP99Ms;
    WorkloadSkew skew;

    static WorkloadTemplateRow fromJson(const QJsonObject& o);
};

struct WorkloadChurn
{
    double connects = 0, connectsPerS = 0, closes = 0, openAtStart = 0, openAtEnd = 0;
    double bindsPerConnMean = 0, bindsPerConnMax = 0, opsPerConnMean = 0, opsPerConnP99 = 0;
    bool hasLifetime = false; // some connection both opened and closed in the log
    double lifetimeP50S = 0, lifetimeP99S = 0, lifetimeMaxS = 0;
};

struct WorkloadConcurrency
{
    double meanInFlight = 0, p99InFlight = 0, maxInFlight = 0;
    QString method;
};

// One bucket of the operation mix: its start (s from per_second_start), operations per kind (in the order of
// WorkloadSummary::operations), mean operations in flight.
struct WorkloadBucket
{
    double t = 0;
    QList<double> byKind;
    double inFlight = 0;
};

struct WorkloadSummary
{
    QString format, first, last;
    qsizetype files = 0;
    double durationS = 0;
    QList<QPair<QString, double>> operations; // kind -> count, in the analysis's order
    double operationsTotal = 0, connections = 0;
    QList<WorkloadTemplateRow> templates;
    QStringList gaps;
    double bucketWidthS = 0;
    QList<WorkloadBucket> buckets;
    WorkloadChurn churn;
    WorkloadConcurrency concurrency;

    static WorkloadSummary fromJson(const QJsonObject& analysis);
    // The dirbench.workload/1 analysis a file holds (workload analyze --json, the Workload page's Export JSON), or
    // nullopt when the bytes are not one.
    static std::optional<QJsonObject> analysisIn(const QByteArray& bytes);
    QStringList operationKinds() const;
};
