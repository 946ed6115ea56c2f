// gen389log: writes a realistic 389-ds access log of about SIZE_MB megabytes to stdout, fast (bench/log_parse.sh).
//   g++ -O2 -o gen389log bench/lib/gen389log.cpp && ./gen389log 1000 > access
// CONNS connections in flight at once, interleaved line by line; each connects, binds (some rebind), runs 5..400
// operations (search 85 % on uid=userN with Zipf(1.0) N over 100,000 users, some (&(objectClass=...)(uid=...)),
// some substring cn=...*; modify 10 %; add/delete 3 %; compare 2 %), some with an overlapping second request,
// unbinds and closes. Results follow their request after other connections' lines. Timestamps in ns, about
// 25,000 lines per second of log.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

struct Conn
{
    uint64_t id = 0;
    int state = 0; // 0 connect, 1 bind, 2 bind result, 3 request, 4 result, 5 unbind, 6 close
    int left = 0;
    int op = 0;
    int kind = 0;
    int ip = 0;
};

std::mt19937_64 rng(12345);
std::vector<double> zipfCdf;

int zipfUser()
{
    std::uniform_real_distribution<double> u(0, zipfCdf.back());
    return int(std::lower_bound(zipfCdf.begin(), zipfCdf.end(), u(rng)) - zipfCdf.begin());
}

} // namespace

int main(int argc, char** argv)
{
    const double sizeMb = argc > 1 ? std::atof(argv[1]) : 1000;
    const int conns = argc > 2 ? std::atoi(argv[2]) : 200;
    const uint64_t target = uint64_t(sizeMb * 1e6);
    double sum = 0;
    for (int i = 1; i <= 100000; ++i)
        zipfCdf.push_back(sum += 1.0 / i);
    std::vector<char> out;
    out.reserve(size_t(8) << 20);
    std::vector<Conn> active(static_cast<size_t>(conns));
    uint64_t nextConn = 1;
    for (auto& c : active)
        c.id = nextConn++;
    uint64_t written = 0;
    uint64_t ns = 1796119200ull * 1000000000ull; // 2026-12-01T10:00:00Z
    char stamp[64];
    uint64_t stampSec = 0;
    size_t stampLen = 0;
    std::uniform_int_distribution<int> pickConn(0, conns - 1), pct(0, 99), step(10000, 70000);
    char line[1024];
    while (written < target) {
        ns += uint64_t(step(rng));
        const uint64_t sec = ns / 1000000000ull;
        if (sec != stampSec) {
            stampSec = sec;
            const uint64_t daySec = sec - 1796083200ull; // seconds since 2026-12-01T00:00:00Z
            stampLen = size_t(std::snprintf(stamp, sizeof stamp, "[%02d/Dec/2026:%02d:%02d:%02d.",
                1 + int(daySec / 86400), int(daySec / 3600 % 24), int(daySec / 60 % 60), int(daySec % 60)));
        }
        Conn& c = active[size_t(pickConn(rng))];
        int n = 0;
        const auto ts = [&] {
            std::snprintf(stamp + stampLen, sizeof stamp - stampLen, "%09llu +0000] ",
                static_cast<unsigned long long>(ns % 1000000000ull));
            return stamp;
        };
        const unsigned long long id = c.id;
        const double etime = 0.00005 + double(pct(rng)) * 0.00001;
        switch (c.state) {
        case 0:
            c.ip = pct(rng);
            n = std::snprintf(line, sizeof line, "%sconn=%llu fd=%d slot=%d connection from 10.1.%d.%d to 10.0.0.1\n",
                ts(), id, 64 + int(id % 900), 64 + int(id % 900), c.ip / 10, c.ip);
            c.state = 1;
            c.op = 0;
            c.left = 5 + int(rng() % 396);
            break;
        case 1:
            n = std::snprintf(line, sizeof line,
                "%sconn=%llu op=%d BIND dn=\"uid=user%d,ou=people,dc=example,dc=com\" method=128 version=3\n", ts(), id,
                c.op, zipfUser());
            c.state = 2;
            break;
        case 2:
            n = std::snprintf(line, sizeof line,
                "%sconn=%llu op=%d RESULT err=%d tag=97 nentries=0 wtime=0.000021 optime=%.6f etime=%.6f\n", ts(), id,
                c.op, pct(rng) < 2 ? 49 : 0, etime - 0.00002, etime);
            ++c.op;
            c.state = 3;
            break;
        case 3: {
            const int r = pct(rng);
            const int user = zipfUser();
            c.kind = r < 85 ? 0 : r < 95 ? 1 : r < 97 ? 2 : r < 98 ? 3 : 4;
            if (c.kind == 0) {
                const int f = pct(rng);
                if (f < 70)
                    n = std::snprintf(line, sizeof line,
                        "%sconn=%llu op=%d SRCH base=\"ou=people,dc=example,dc=com\" scope=2 filter=\"(uid=user%d)\" "
                        "attrs=\"cn mail uid\"\n",
                        ts(), id, c.op, user);
                else if (f < 95)
                    n = std::snprintf(line, sizeof line,
                        "%sconn=%llu op=%d SRCH base=\"dc=example,dc=com\" scope=2 "
                        "filter=\"(&(objectClass=inetOrgPerson)(uid=user%d))\" attrs=ALL\n",
                        ts(), id, c.op, user);
                else
                    n = std::snprintf(line, sizeof line,
                        "%sconn=%llu op=%d SRCH base=\"ou=people,dc=example,dc=com\" scope=1 filter=\"(cn=Us%d*)\" "
                        "attrs=\"cn\"\n",
                        ts(), id, c.op, user % 100);
            } else if (c.kind == 1) {
                n = std::snprintf(line, sizeof line,
                    "%sconn=%llu op=%d MOD dn=\"uid=user%d,ou=people,dc=example,dc=com\"\n", ts(), id, c.op, user);
            } else if (c.kind == 2) {
                n = std::snprintf(line, sizeof line,
                    "%sconn=%llu op=%d ADD dn=\"uid=new%d,ou=people,dc=example,dc=com\"\n", ts(), id, c.op,
                    int(rng() % 1000000));
            } else if (c.kind == 3) {
                n = std::snprintf(line, sizeof line,
                    "%sconn=%llu op=%d DEL dn=\"uid=new%d,ou=people,dc=example,dc=com\"\n", ts(), id, c.op,
                    int(rng() % 1000000));
            } else {
                n = std::snprintf(line, sizeof line,
                    "%sconn=%llu op=%d CMP dn=\"uid=user%d,ou=people,dc=example,dc=com\" attr=\"mail\"\n", ts(), id,
                    c.op, user);
            }
            c.state = 4;
            break;
        }
        case 4: {
            static const int tags[] = { 101, 103, 105, 107, 111 };
            const int nentries = c.kind == 0 ? (pct(rng) < 95 ? 1 : 0) : 0;
            const bool unindexed = c.kind == 0 && pct(rng) == 0;
            n = std::snprintf(line, sizeof line,
                "%sconn=%llu op=%d RESULT err=%d tag=%d nentries=%d wtime=0.000015 optime=%.6f etime=%.6f%s\n", ts(),
                id, c.op, c.kind == 4 ? 6 : 0, tags[c.kind], nentries, etime - 0.000015, etime,
                unindexed ? " notes=U details=\"Partially Unindexed Filter\"" : "");
            ++c.op;
            if (--c.left <= 0)
                c.state = 5;
            else
                c.state = pct(rng) < 3 ? 1 : 3; // a rebind now and then
            break;
        }
        case 5:
            n = std::snprintf(line, sizeof line, "%sconn=%llu op=%d UNBIND\n", ts(), id, c.op);
            c.state = 6;
            break;
        default:
            n = std::snprintf(
                line, sizeof line, "%sconn=%llu op=%d fd=%d closed error - U1\n", ts(), id, c.op, 64 + int(id % 900));
            c = Conn {};
            c.id = nextConn++;
            break;
        }
        out.insert(out.end(), line, line + n);
        written += uint64_t(n);
        if (out.size() > (size_t(4) << 20)) {
            std::fwrite(out.data(), 1, out.size(), stdout);
            out.clear();
        }
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}
