#pragma once

// A generated 389-ds access log for the Workload page's test and screenshot.
#include <QByteArray>
#include <QLatin1Char>
#include <QString>

#include <cmath>
#include <cstdint>

namespace WorkloadLog {

// A 389-ds access log: `connections` connections opened `spacingS` apart (from 10:00:00 on 1 Dec 2026), each a
// bind, 20 searches by uid (ranks log-uniform over 1..1000: a heavy head, a long tail) and 4 by mail (notes=U), a
// modify, an unbind and the close. Deterministic.
inline QByteArray generate389(int connections, double spacingS)
{
    QByteArray out;
    uint64_t rng = 12345;
    auto next = [&rng] {
        rng = rng * 6364136223846793005ull + 1442695040888963407ull;
        return double(rng >> 11) * 0x1.0p-53;
    };
    auto stamp = [](double t) {
        const int s = int(t);
        const int ns = int((t - s) * 1e9);
        return QStringLiteral("[01/Dec/2026:10:%1:%2.%3 +0000] ")
            .arg(s / 60, 2, 10, QLatin1Char('0'))
            .arg(s % 60, 2, 10, QLatin1Char('0'))
            .arg(ns, 9, 10, QLatin1Char('0'))
            .toLatin1();
    };
    for (int c = 1; c <= connections; ++c) {
        double t = c * spacingS;
        const QByteArray conn = "conn=" + QByteArray::number(c);
        out += stamp(t) + conn + " fd=64 slot=64 connection from 127.0.0." + QByteArray::number(1 + c % 3)
            + " to 127.0.0.1\n";
        int op = 0;
        auto request = [&](const QByteArray& what, int tag, int entries, bool unindexed = false) {
            t += 0.01 + next() * 0.05;
            const QByteArray o = conn + " op=" + QByteArray::number(op);
            out += stamp(t) + o + " " + what + "\n";
            const double optime = 0.0001 + 0.0004 * next() * next() * double(entries); // a long tail
            out += stamp(t + 0.0005) + o + " RESULT err=0 tag=" + QByteArray::number(tag) + " nentries="
                + QByteArray::number(entries) + " wtime=0.000010 optime=" + QByteArray::number(optime, 'f', 6)
                + " etime=" + QByteArray::number(optime + 0.00001, 'f', 6) + (unindexed ? " notes=U" : "") + "\n";
            ++op;
        };
        request("BIND dn=\"uid=app,ou=people,dc=example,dc=com\" method=128 version=3", 97, 0);
        for (int i = 0; i < 20; ++i) {
            const int rank = int(std::floor(std::pow(1000.0, next()))); // heavy head, long tail
            request("SRCH base=\"ou=people,dc=example,dc=com\" scope=2 filter=\"(uid=user" + QByteArray::number(rank)
                    + ")\" attrs=\"cn mail\"",
                101, 1);
            if (i % 5 == 0)
                request("SRCH base=\"dc=example,dc=com\" scope=2 filter=\"(mail=*" + QByteArray::number(i)
                        + "@example.com)\" attrs=ALL",
                    101, 3, true);
        }
        request("MOD dn=\"uid=user" + QByteArray::number(c) + ",ou=people,dc=example,dc=com\"", 103, 0);
        t += 0.01;
        out += stamp(t) + conn + " op=" + QByteArray::number(op) + " UNBIND\n";
        out += stamp(t + 0.001) + conn + " op=" + QByteArray::number(op) + " fd=64 closed - U1\n";
    }
    return out;
}

} // namespace WorkloadLog
