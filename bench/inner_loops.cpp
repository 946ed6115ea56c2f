// What two inner loops cost per operation, printed (bench/inner_loops.sh runs it): a search load's filter render
// (FilterTemplate::render of (uid=user[10000-99999]) under each access distribution, once per request) and a disk
// test's unique data (UniqueData::stamp of one 4 KiB write, beside the splitmix refill it replaces). Each figure is
// the median of REPEATS timed loops, after a warm-up; a checksum of what was produced is printed so the compiler
// cannot drop the work.
#include "core/disk/testfile.h"
#include "core/ldap/accessdistribution.h"
#include "core/ldap/filtertemplate.h"

#include <QByteArray>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double nsPer(Clock::time_point t0, Clock::time_point t1, long n)
{
    return std::chrono::duration<double, std::nano>(t1 - t0).count() / double(n);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

int renderCost(int repeats)
{
    ProbeError e;
    auto filter = FilterTemplate::parse(QStringLiteral("(uid=user[10000-99999])"), &e);
    if (!filter) {
        std::fprintf(stderr, "inner_loops: %s\n", qPrintable(e.message()));
        return 1;
    }
    constexpr long n = 2000000;
    for (const QString& access : { QStringLiteral("uniform"), QStringLiteral("zipf:1.0"), QStringLiteral("hot:80/20"),
             QStringLiteral("sequential") }) {
        filter->setDistribution(*AccessDistribution::parse(access));
        AccessDistribution::Rng rng(9);
        QByteArray out;
        long long checksum = 0;
        for (int i = 0; i < 10000; ++i)
            filter->render(out, rng);
        std::vector<double> ns;
        for (int r = 0; r < repeats; ++r) {
            const auto t0 = Clock::now();
            for (long i = 0; i < n; ++i) {
                filter->render(out, rng);
                checksum += out.at(13);
            }
            ns.push_back(nsPer(t0, Clock::now(), n));
        }
        std::printf("render (uid=user[10000-99999]) under %-10s  %6.1f ns per filter  (%.2f %% of one core at 100,000 "
                    "requests/s) [checksum %lld]\n",
            qPrintable(access), median(ns), median(ns) * 100000 / 1e9 * 100, checksum);
    }
    return 0;
}

void stampCost(int repeats)
{
    AlignedBuffer buf(4096);
    UniqueData::fillRandom(buf.data, buf.size, 5);
    constexpr long n = 200000;
    std::vector<double> stampNs, fillNs;
    for (int r = 0; r < repeats; ++r) {
        const auto t0 = Clock::now();
        for (long i = 0; i < n; ++i)
            UniqueData::stamp(buf.data, buf.size, 5, uint64_t(i) * 4096, uint64_t(i));
        const auto t1 = Clock::now();
        for (long i = 0; i < n / 10; ++i)
            UniqueData::fillRandom(buf.data, buf.size, uint64_t(i));
        const auto t2 = Clock::now();
        stampNs.push_back(nsPer(t0, t1, n));
        fillNs.push_back(nsPer(t1, t2, n / 10));
    }
    uint64_t w = 0;
    std::memcpy(&w, buf.data + 64, 8);
    const double stamp = median(stampNs), fill = median(fillNs);
    std::printf("unique data: stamp (XOR + stamp)      %6.0f ns per 4 KiB write  (%.2f %% of one core at 100,000 "
                "IOPS)\n",
        stamp, stamp * 100000 / 1e9 * 100);
    std::printf("unique data: splitmix refill instead  %6.0f ns per 4 KiB write  (%.1f times the stamp) [%llx]\n", fill,
        fill / stamp, static_cast<unsigned long long>(w & 0xff));
}

} // namespace

int main(int argc, char** argv)
{
    int repeats = 5;
    if (argc > 1) {
        char* end = nullptr;
        const long r = std::strtol(argv[1], &end, 10);
        if (*end != '\0' || r < 1 || r > 100) {
            std::fprintf(stderr, "usage: inner_loops [REPEATS]  (REPEATS: 1 to 100, default 5; got '%s')\n", argv[1]);
            return 2;
        }
        repeats = int(r);
    }
    if (const int rc = renderCost(repeats); rc != 0)
        return rc;
    stampCost(repeats);
    return 0;
}
