#pragma once

#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

// One interval of a run, as the engine measured it. `values` is exactly what goes into the RunRecord's
// `intervals` array (with "t" and, when the run has several series, "series" added), so what the chart
// shows live and what the record keeps are the same numbers.
struct Sample
{
    QString series; // "" for a single series; "repeat 2", "rand-read qd8", ... otherwise
    double t = 0; // seconds since the measured phase of this series began
    QJsonObject values;

    QJsonObject toJson() const;
    static Sample fromJson(QJsonObject o); // toJson's inverse (an interval that came over an agent's stream)
    // A status sample (series "status: ..."): what a run is doing (core/agents/agentlive.h), not an interval of
    // it; the history never stores one.
    bool isStatus() const { return series.startsWith(QLatin1String("status: ")); }
};

using SampleBatch = QList<Sample>;

Q_DECLARE_METATYPE(Sample)
