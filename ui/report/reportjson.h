#pragma once

#include "ui/report/reportdocument.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <utility>

// Reading record JSON for a report: flattening nested objects into "a.b" keys, interval series, generic tables.
namespace ReportJson {

// Scalar leaves of an object as ("a.b", value), in key order; arrays of scalars count as one leaf; arrays of
// objects are skipped (see tablesOf). Depth-limited: deeper objects become one leaf.
QList<std::pair<QString, QJsonValue>> leaves(const QJsonObject& o, const QString& prefix = {}, int depth = 3);
// The leaves as name/value rows, values printed in full.
QList<QStringList> keyValueRows(const QJsonObject& o, const QStringList& skip = {});
// Every array of objects under `o` (any depth) as a titled table: columns are the union of their leaves.
QList<std::pair<QString, ReportTable>> tablesOf(const QJsonObject& o, const QStringList& skip = {});
ReportTable tableOf(const QJsonArray& objects);
// The numeric interval columns ("t" excluded), flattened, in first-seen order.
QStringList numericIntervalKeys(const QJsonArray& intervals);
// (t, value) of one flattened key; intervals without that value are left out. No "t": the interval's index.
QList<QPointF> series(const QJsonArray& intervals, const QString& key);
QJsonValue at(const QJsonObject& o, const QString& dottedKey);
// Every string under a key named source/sources/reference/url (any depth), in order.
QStringList sourcesIn(const QJsonValue& v);

} // namespace ReportJson
