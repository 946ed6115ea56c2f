#!/usr/bin/env python3
"""Pairs LDAP requests and responses seen on the wire and prints their latency percentiles.

Input (stdin): tshark -T fields -E aggregator='|' -e frame.time_epoch -e tcp.stream -e ldap.messageID
-e ldap.protocolOp, one frame a line; a frame may carry several LDAP messages (their IDs and operations joined
by '|'). A request (bind, search, modify, add, delete, compare) starts at the first frame that carries it; it ends
at the frame that carries its final response (searchResDone for a search). Pairs are keyed by (TCP stream,
messageID). Prints: count p50_ms p99_ms mean_ms (the same rank rule as DirBench's histogram: ceil(q * n)).
"""
import math
import sys

REQUESTS = {0, 3, 6, 8, 10, 14}  # bindRequest, searchRequest, modifyRequest, addRequest, delRequest, compareRequest
FINAL = {1, 5, 7, 9, 11, 15}  # bindResponse, searchResDone, modifyResponse, addResponse, delResponse, compareResponse


def main():
    sent = {}
    lat = []
    for line in sys.stdin:
        parts = line.rstrip("\n").split("\t")
        if len(parts) < 4 or not parts[2]:
            continue
        t = float(parts[0])
        stream = parts[1]
        for mid, op in zip(parts[2].split("|"), parts[3].split("|")):
            if not mid or not op:
                continue
            key = (stream, mid)
            op = int(op)
            if op in REQUESTS:
                sent.setdefault(key, t)
            elif op in FINAL and key in sent:
                lat.append((t - sent.pop(key)) * 1e3)
    if not lat:
        print("0 nan nan nan")
        return
    lat.sort()

    def pct(q):
        return lat[max(0, math.ceil(q * len(lat)) - 1)]

    print(f"{len(lat)} {pct(0.5):.3f} {pct(0.99):.3f} {sum(lat) / len(lat):.3f}")


if __name__ == "__main__":
    main()
