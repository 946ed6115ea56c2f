#pragma once

#include "core/common/histogram.h"
#include "core/common/sample.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QMutex>
#include <QString>

#include <cstdint>

class RunContext;
namespace BlockDevices {
class Sampler;
}

// Counts completed I/Os (bytes, latency) per interval and in total. record() may be called from any thread;
// tick() and end() from the coordinating thread, which turns each finished interval into a Sample for the
// context and keeps it for the record.
class IoMeter
{
public:
    IoMeter(RunContext& ctx, QString series, int intervalMs);

    static uint64_t nowNs();

    // The disks' own counters go into every interval as `devices` (started by begin()).
    void setDevices(BlockDevices::Sampler* devices) { m_devices = devices; }
    void begin();
    void record(uint64_t latencyNs, uint64_t bytes);
    void tick();
    void end();

    double elapsedSec() const;
    uint64_t ops() const;
    QJsonObject summary() const;
    const QJsonArray& intervals() const { return m_intervals; }

private:
    void emitInterval(uint64_t nowNs);
    Sample makeSample(const LatencyHistogram& h, uint64_t bytes, uint64_t from, uint64_t to) const;

    RunContext& m_ctx;
    BlockDevices::Sampler* m_devices = nullptr;
    const QString m_series;
    const uint64_t m_intervalNs;
    uint64_t m_t0 = 0;
    uint64_t m_lastEmit = 0;
    uint64_t m_end = 0;

    mutable QMutex m_mutex;
    LatencyHistogram m_interval;
    LatencyHistogram m_total;
    uint64_t m_intervalBytes = 0;
    uint64_t m_totalBytes = 0;
    QJsonArray m_intervals;
    // The last emitted interval, so that a tail too short to stand alone can be folded into it.
    LatencyHistogram m_prev;
    uint64_t m_prevBytes = 0;
    uint64_t m_prevStart = 0;
};

QJsonObject latencySummaryUs(const LatencyHistogram& h, bool full);
