#!/usr/bin/env python3
"""Medians and tables for bench/ldap_vs_ldclt.sh and bench/bind_vs_ldclt.sh.

  ldapbench.py record FILE        DirBench RunRecord -> "status client_ops cpu_us_per_op p50_ms p99_ms"
  ldapbench.py table TSV MIN_RATIO [MAX_CPU_RATIO]
                                  TSV rows: group tool config round server_ops wall_s user_s sys_s server_cpu_s
                                  (tool = ldclt | dirbench). Prints the per-configuration medians, then per
                                  group each tool at its best configuration (highest median ops/s), the
                                  ratios DirBench/ldclt and the verdict against the targets.
"""
import json
import statistics
import sys


def record(path):
    try:
        r = json.load(open(path))
    except (OSError, ValueError) as e:
        print("FAILED", 0, "", "", "", f"unreadable record: {e}")
        return
    s = r.get("summary", {})
    lat = s.get("latency_ms") or {}
    print(r.get("status", "?"), int(s.get("ok", s.get("ops")) or 0), s.get("client_cpu_us_per_op") or "",
          lat.get("p50") or "", lat.get("p99") or "", (r.get("failure") or "").replace(" ", "_"))


def fmt_num(x, digits=0):
    return "n/a" if x is None else f"{x:,.{digits}f}"


def print_table(head, rows):
    w = [max(len(str(x)) for x in col) for col in zip(head, *rows)]
    line = lambda r: "  ".join(str(c).ljust(w[i]) if i < 3 else str(c).rjust(w[i]) for i, c in enumerate(r))
    print(line(head))
    print("  ".join("-" * x for x in w))
    for r in rows:
        print(line(r))


def table(tsv, min_ratio, max_cpu_ratio):
    runs = {}  # (group, tool, config) -> list of dicts
    order = []
    for raw in open(tsv):
        f = raw.rstrip("\n").split("\t")
        if len(f) < 9:
            continue
        group, tool, config = f[0], f[1], f[2]
        ops, wall, user, sys_ = float(f[4]), float(f[5]), float(f[6]), float(f[7])
        srv = float(f[8]) if f[8] else 0.0
        key = (group, tool, config)
        if key not in runs:
            runs[key] = []
            order.append(key)
        if ops <= 0 or wall <= 0:
            runs[key].append(None)
            continue
        runs[key].append({"ops_s": ops / wall, "cpu_us": (user + sys_) * 1e6 / ops,
                          "sys_share": sys_ / (user + sys_) if user + sys_ > 0 else 0.0,
                          "srv_us": srv * 1e6 / ops})

    med = {}
    rows = []
    for key in order:
        ok = [r for r in runs[key] if r]
        if ok:
            m = {k: statistics.median(r[k] for r in ok) for k in ("ops_s", "cpu_us", "sys_share", "srv_us")}
            m["spread"] = (max(r["ops_s"] for r in ok) - min(r["ops_s"] for r in ok)) / m["ops_s"]
        else:
            m = None
        med[key] = m
        rows.append((key[0], key[1], key[2], f"{len(ok)}/{len(runs[key])}",
                     fmt_num(m and m["ops_s"]), fmt_num(m and m["cpu_us"], 1),
                     "n/a" if not m else f"{100 * m['sys_share']:.0f} %",
                     fmt_num(m and m["srv_us"], 1),
                     "n/a" if not m else f"{100 * m['spread']:.0f} %"))
    print("Per configuration (medians over the rounds; ops/s = server-counted operations / window wall time;")
    print("client CPU = utime+stime of the client process over the same window, µs per op = ms per 1,000 ops;")
    print("server µs/op = slapd's CPU over the window per operation; spread = (max - min) / median of the runs)")
    print()
    print_table(("group", "tool", "config", "runs ok", "ops/s", "client µs/op", "kernel share", "server µs/op",
                 "ops/s spread"), rows)

    print()
    print("ldclt at its best configuration (highest median ops/s) against DirBench at its best configuration within")
    print("the CPU target (the fastest DirBench configuration whose client CPU/op is within the target; without a")
    print("CPU target, or when none is within it, simply its fastest). Ratios are DirBench / ldclt:")
    print()
    final = []
    verdicts = []
    for group in dict.fromkeys(k[0] for k in order):
        def cands(tool):
            c = [(k, med[k]) for k in order if k[0] == group and k[1] == tool and med[k]]
            return sorted(c, key=lambda kv: kv[1]["ops_s"], reverse=True)
        lc, dc = cands("ldclt"), cands("dirbench")
        if not lc or not dc:
            final.append((group, "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "n/a", "NO DATA"))
            verdicts.append(False)
            continue
        lk, lm = lc[0]
        within = [kv for kv in dc if max_cpu_ratio is None or kv[1]["cpu_us"] <= max_cpu_ratio * lm["cpu_us"]]
        dk, dm = within[0] if within else dc[0]
        r_ops = dm["ops_s"] / lm["ops_s"]
        r_cpu = dm["cpu_us"] / lm["cpu_us"]
        ok = r_ops >= min_ratio and (max_cpu_ratio is None or r_cpu <= max_cpu_ratio)
        verdicts.append(ok)
        final.append((group, lk[2], dk[2], fmt_num(lm["ops_s"]), fmt_num(dm["ops_s"]), f"{r_ops:.3f}",
                      f"{lm['cpu_us']:.1f}", f"{dm['cpu_us']:.1f}", f"{r_cpu:.3f}", "MET" if ok else "NOT MET"))
    head = ("group", "ldclt best", "DirBench best", "ldclt ops/s", "DirBench ops/s", "ops ratio",
            "ldclt µs/op", "DirBench µs/op", "CPU ratio", "verdict")
    print_table(head, final)
    print()
    target = f"DirBench ops/s >= {min_ratio:g} x ldclt's best"
    if max_cpu_ratio is not None:
        target += f" at <= {max_cpu_ratio:g} x its client CPU per operation"
    print(f"Target: {target}: {'MET' if all(verdicts) else 'NOT MET'}")


def main(argv):
    if len(argv) >= 2 and argv[0] == "record":
        record(argv[1])
    elif len(argv) >= 3 and argv[0] == "table":
        table(argv[1], float(argv[2]), float(argv[3]) if len(argv) > 3 else None)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
