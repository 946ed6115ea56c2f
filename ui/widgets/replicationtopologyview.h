#pragma once

#include <QJsonObject>
#include <QStringList>
#include <QTableWidget>

struct RunRecord;
namespace ReplicationFigures {
struct ConsumerFigures;
}

// The topology of a replication run: the supplier and each consumer with its state (reachable, the method that
// watches it, how many markers it is behind and for how long, its lag, the vendor's own figures when the record
// has them). Rows are set from the spec (before the first interval), then from each interval, or from a record.
class ReplicationTopologyView final : public QTableWidget
{
    Q_OBJECT
public:
    explicit ReplicationTopologyView(QWidget* parent = nullptr);
    Q_DISABLE_COPY_MOVE(ReplicationTopologyView)

    void setServers(const QString& supplier, const QStringList& consumers, const QString& method);
    void showInterval(const QJsonObject& interval);
    void showRecord(const RunRecord& record);
    QString stateOf(const QString& consumer) const; // the State cell's text
    int rowOf(const QString& uri) const;

private:
    void fitHeight();
    void setCell(int row, int column, const QString& text, const QString& tip = {});
    void showConsumer(const ReplicationFigures::ConsumerFigures& c, bool final);

    QString m_method;
};
