#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

// A record's `server_log` object (ServerLogView::read writes it) read into typed values in one place: the CLI's line
// and the window's etime series read these fields.
struct ServerLogFigures
{
    struct Point
    {
        double t = 0; // the interval's end, s
        double etimeP50Ms = 0, etimeP99Ms = 0;
    };

    QString format;
    double ops = 0; // operations of the load's window in the log
    double etimeP50Ms = 0, etimeP99Ms = 0; // over the window
    QList<Point> intervals; // the intervals in which the server logged something
    qsizetype allIntervals = 0; // with those in which it logged nothing

    static ServerLogFigures fromJson(const QJsonObject& serverLog);
};
