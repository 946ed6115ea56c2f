#!/usr/bin/env python3
"""bench/lib/replicationlag.py — the JSON side of bench/replication_lag.sh (run by it, not alone).

  replicationlag.py okrate REC.json
      the ok/s of an `ldap` load record (the supplier's limit, measured closed loop)
  replicationlag.py steps LIMIT
      a doubling ramp 100, 200, 400, ... below LIMIT, then LIMIT x 1.2 (towards and past the limit)
  replicationlag.py ramp REC.json
      lag p50/p99 and its slope per step and consumer, the write rate per step, and the knee
  replicationlag.py stop CONSUMER_PID SECONDS LEAD REC.json -- CLI ARGS...
      runs the CLI (a replication probe writing REC.json), SIGSTOPs the consumer LEAD s after the first interval
      line for SECONDS s (SIGCONT always follows, also on error or Ctrl-C), and prints the measured lag of the
      first marker written after the stop against the expected one (SECONDS minus its offset)
"""

import json
import math
import os
import signal
import subprocess
import sys
import time


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def fmt(v, d=1):
    return "-" if v is None else f"{v:,.{d}f}"


def okrate(path):
    print(f"{load(path)['summary']['ok_per_s']:.0f}")


def steps(limit):
    limit = float(limit)
    out, r = [], 100
    while r < limit:
        out.append(r)
        r *= 2
    out.append(int(math.ceil(max(limit, 100) * 1.2 / 10) * 10))
    print(",".join(str(int(x)) for x in out))


def ramp(path):
    rec = load(path)
    s = rec["summary"]
    if rec.get("status") != "ok":
        print(f"run {rec.get('status')}: {rec.get('failure')}")
    print(f"{'step':>4} {'target/s':>9} {'writes/s':>9}  consumer: lag p50 / p99 ms from the ack | from the send, "
          f"slope ms/s")
    for st in s.get("steps", []):
        for uri, c in st["consumers"].items():
            note = f", {c['unseen']} never seen (censored)" if c.get("unseen") else ""
            knee = "  <- knee" if c.get("knee") else ""
            bound = "> " if c.get("p99_at_least") else ""
            print(f"{st['step']:>4} {fmt(st.get('target_rate'), 0):>9} {fmt(st['write_rate']):>9}  "
                  f"{uri}: {fmt(c['p50_ms'])} / {bound}{fmt(c['p99_ms'])} | {fmt(c.get('p50_from_send_ms'))} / "
                  f"{bound}{fmt(c.get('p99_from_send_ms'))}, {fmt(c['slope_ms_per_s'])}{note}{knee}")
    for uri, c in s.get("consumers", {}).items():
        a, b = c.get("lag_ms") or {}, c.get("lag_from_send_ms") or {}
        at = lambda o, k: ("> " if o.get(k + "_at_least") else "") + fmt(o.get(k))
        print(f"whole run, {uri}: lag p50/p99/max from the ack {at(a, 'p50')} / {at(a, 'p99')} / {at(a, 'max')} ms, "
              f"from the send {at(b, 'p50')} / {at(b, 'p99')} / {at(b, 'max')} ms; {c.get('markers_seen')} seen, "
              f"{c.get('unseen')} censored, {c.get('seen_before_ack')} seen before their ack")
    print(f"markers: {s.get('markers_written')} acknowledged, {s.get('markers_missed', 0)} missed (not sent on time), "
          f"{s.get('write_errors')} write errors")
    load_s = s.get("load", {})
    print(f"load: {fmt(load_s.get('ok_per_s'))} ok/s over the ramp, {fmt(load_s.get('errors'), 0)} errors; "
          f"markers {fmt(s.get('marker_write_ok_per_s'))}/s")
    if s.get("knee_write_rate") is not None:
        print(f"knee: step {s['knee_step']} at {fmt(s['knee_write_rate'])} writes/s "
              f"(target {fmt(s.get('knee_target_rate'), 0)}/s), {s.get('knee_consumer')}")
    else:
        print("knee: none (no step's p99 lag exceeded 10 x the first step's while growing)")
        first = (s.get("steps") or [{}])[0].get("consumers", {})
        if any((c.get("slope_ms_per_s") or 0) > 0 and (c.get("p99_ms") or 0) > 1000 for c in first.values()):
            print("  the first step already fell behind (p99 above 1 s and growing): the consumer's limit is below it; "
                  "start lower (STEPS=20,40,80,...)")


def first_after_stop(rec, uri, stop_rel, cont_rel):
    """The acknowledgement time (record time) of the oldest marker unseen during the stop."""
    acks = []
    for iv in rec["intervals"]:
        c = iv["consumers"].get(uri, {})
        if stop_rel < iv["t"] <= cont_rel and c.get("behind", 0) > 0:
            acks.append(iv["t"] - c["oldest_unseen_s"])
    return min(acks) if acks else None


def run_with_stop(pid, seconds, lead, rec_path, cli):
    proc = subprocess.Popen(cli, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    stopped = False
    t_stop = t_cont = None
    try:
        for line in proc.stdout:  # the first interval line: the markers are being written
            if " s  writes" in line:
                break
        time.sleep(lead)
        a = time.monotonic()
        os.kill(pid, signal.SIGSTOP)
        stopped = True
        t_stop = (a + time.monotonic()) / 2
        time.sleep(seconds)
        c = time.monotonic()
        os.kill(pid, signal.SIGCONT)
        stopped = False
        t_cont = (c + time.monotonic()) / 2
        proc.communicate(timeout=120)
    finally:
        if stopped:
            os.kill(pid, signal.SIGCONT)
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
    if proc.returncode != 0:
        sys.exit(f"the probe exited with {proc.returncode}: {proc.stderr.read() if proc.stderr else ''}")
    return t_stop, t_cont


def stop(pid, seconds, lead, rec_path, cli):
    t_stop, t_cont = run_with_stop(int(pid), float(seconds), float(lead), rec_path, cli)
    rec = load(rec_path)
    s = rec["summary"]
    t0 = s["t0_monotonic_s"]
    stop_rel, cont_rel = t_stop - t0, t_cont - t0
    for uri, c in s["consumers"].items():
        ack = first_after_stop(rec, uri, stop_rel, cont_rel)
        measured = (c.get("lag_ms") or {}).get("max")
        print(f"method {c.get('method', s.get('method'))}: consumer {uri} stopped at t={stop_rel:.3f} s for "
              f"{cont_rel - stop_rel:.3f} s (SIGSTOP..SIGCONT); markers {s['markers_written']}, "
              f"unseen at the end {c.get('unseen')}")
        if ack is None or measured is None:
            print("  no marker was behind during the stop: nothing to compare")
            continue
        offset = ack - stop_rel
        expected = cont_rel - ack
        print(f"  first marker after the stop: acknowledged {offset * 1000:+.1f} ms after the stop; its lag "
              f"measured {measured / 1000:.3f} s, expected {expected:.3f} s (stop {cont_rel - stop_rel:.3f} s minus "
              f"the offset): detection delay {measured - expected * 1000:+.1f} ms")


def main(argv):
    if len(argv) >= 3 and argv[1] == "okrate":
        okrate(argv[2])
    elif len(argv) >= 3 and argv[1] == "steps":
        steps(argv[2])
    elif len(argv) >= 3 and argv[1] == "ramp":
        ramp(argv[2])
    elif len(argv) >= 8 and argv[1] == "stop" and argv[6] == "--":
        stop(argv[2], argv[3], argv[4], argv[5], argv[7:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
