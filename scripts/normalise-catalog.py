#!/usr/bin/env python3
"""Normalise shared/data/cloud-disks.json (schema 1) into resources/catalog/cloud-disks.json (schema 2).

Schema 2 keeps every field and every source of schema 1 and adds, per disk type:
  throughput_unit   "MiB/s" | "MB/s" (from units.throughput)
  size_range        {min_gib, max_gib, published}  (GCP ranges were not captured: published false, 1..65536)
  parameters        the model's numbers, machine-readable (the *_expr strings stay as notes for people)
  tiers             fixed-tier models: rows with one set of field names (iops, mbps, burst_*, up_to)
  typical_latency_ms  {value, basis: published|assumption, note}: for the queue-depth ceiling (Little's law)
and per VM: id, sustained/burst/cached limits in MB/s and IOPS. DirBench reads schema 2 only.
Usage: scripts/normalise-catalog.py IN.json OUT.json
"""
import copy
import json
import sys

LAT = {  # typical latency per I/O for the Little's-law ceiling
    "aws-ebs-gp2": (1.0, "assumption", "AWS: single-digit millisecond latency; DirBench assumes 1 ms"),
    "aws-ebs-gp3": (1.0, "assumption", "AWS: single-digit millisecond latency; DirBench assumes 1 ms"),
    "aws-ebs-io1": (1.0, "assumption", "AWS: single-digit millisecond latency; DirBench assumes 1 ms"),
    "aws-ebs-io2": (1.0, "assumption", "AWS: single-digit millisecond latency; DirBench assumes 1 ms"),
    "aws-ebs-io2-bx": (0.5, "published", "sub-millisecond average (the catalog's formulas.latency); 0.5 ms used"),
    "aws-ebs-st1": (10.0, "assumption", "HDD; DirBench assumes 10 ms"),
    "aws-ebs-sc1": (10.0, "assumption", "HDD; DirBench assumes 10 ms"),
    "azure-premium-ssd": (2.0, "assumption", "networked premium SSD; DirBench assumes 2 ms"),
    "azure-standard-ssd": (5.0, "assumption", "networked standard SSD; DirBench assumes 5 ms"),
    "azure-standard-hdd": (10.0, "published", "designed for write latency < 10 ms (read < 20 ms)"),
    "azure-premium-ssd-v2": (1.0, "assumption", "DirBench assumes 1 ms"),
    "azure-ultra-disk": (0.5, "published", "sub-millisecond (the catalog's formulas.latency); 0.5 ms used"),
    "gcp-pd-standard": (10.0, "assumption", "HDD; DirBench assumes 10 ms"),
    "gcp-pd-balanced": (2.0, "assumption", "DirBench assumes 2 ms"),
    "gcp-pd-ssd": (1.0, "assumption", "DirBench assumes 1 ms"),
    "gcp-pd-extreme": (1.0, "assumption", "DirBench assumes 1 ms"),
    "gcp-hyperdisk-balanced": (0.5, "published", "sub-millisecond latency design; 0.5 ms used"),
}

PARAMS = {
    "aws-ebs-gp2": {"basis": "iops", "iops_per_gib": 3, "min_iops": 100, "max_iops": 16000, "burst_iops": 3000,
                    "burst_below_gib": 1024, "credit_bucket_io": 5400000, "io_unit_kib": 256,
                    "throughput_bands": [{"up_to_gib": 170, "mibps": 128},
                                         {"up_to_gib": 333, "mibps": 128, "burst_mibps": 250},
                                         {"up_to_gib": None, "mibps": 250}]},
    "aws-ebs-st1": {"basis": "throughput", "baseline_mibps_per_tib": 40, "baseline_max_mibps": 500,
                    "burst_mibps_per_tib": 250, "burst_max_mibps": 500, "max_iops": 500, "io_unit_kib": 1024,
                    "credit_bucket_mib_per_tib": 1048576},
    "aws-ebs-sc1": {"basis": "throughput", "baseline_mibps_per_tib": 12, "baseline_max_mibps": 192,
                    "burst_mibps_per_tib": 80, "burst_max_mibps": 250, "max_iops": 250, "io_unit_kib": 1024,
                    "credit_bucket_mib_per_tib": 1048576},
    "aws-ebs-gp3": {"included_iops": 3000, "included_mbps": 125, "max_iops": 16000, "max_iops_per_gib": 500,
                    "max_mbps": 1000, "mbps_per_provisioned_iops": 0.25, "io_unit_kib": 256},
    "azure-premium-ssd-v2": {"included_iops": 3000, "included_mbps": 125, "max_iops": 80000, "max_iops_per_gib": 500,
                             "max_mbps": 1200, "mbps_per_provisioned_iops": 0.25, "io_unit_kib": 256},
    "azure-ultra-disk": {"included_iops": None, "included_mbps": None, "min_iops": 100, "min_iops_per_gib": 1,
                         "max_iops": 160000, "max_iops_per_gib": 300, "max_mbps": 4000,
                         "mbps_per_provisioned_iops": 0.25, "io_unit_kib": 256,
                         "discrepancy": "the text says 256 kB/s per provisioned IOPS; the published per-size table "
                                        "(rows) matches 0.25 MB/s per IOPS, which is used"},
    "gcp-hyperdisk-balanced": {"included_iops": 3000, "included_mbps": 140, "max_iops": 160000,
                               "max_iops_per_gib": None, "max_mbps": 2400, "mbps_per_provisioned_iops": None,
                               "io_unit_kib": 256},
    "aws-ebs-io1": {"min_iops": 100, "max_iops": 64000, "max_iops_per_gib": 50, "io_unit_kib": 256,
                    "throughput_tiers": [{"up_to_iops": 32000, "mibps_per_iops": 0.25, "max_mibps": 500},
                                         {"up_to_iops": 64000, "mibps_per_iops": 0.015625, "max_mibps": 1000}]},
    "aws-ebs-io2": {"min_iops": 100, "max_iops": 64000, "max_iops_per_gib": 500, "io_unit_kib": 256,
                    "throughput_tiers": [{"up_to_iops": 32000, "mibps_per_iops": 0.25, "max_mibps": 500},
                                         {"up_to_iops": 64000, "mibps_per_iops": 0.015625, "max_mibps": 1000}]},
    "aws-ebs-io2-bx": {"min_iops": 100, "max_iops": 256000, "max_iops_per_gib": 1000, "io_unit_kib": 256,
                       "throughput_tiers": [{"up_to_iops": 256000, "mibps_per_iops": 0.256, "max_mibps": 4000}]},
    "gcp-pd-extreme": {"min_iops": None, "max_iops": None, "max_iops_per_gib": None, "io_unit_kib": 256,
                       "throughput_tiers": [], "read_max_mibps": 4000, "write_max_mibps": 3000},
}
for gid, src in (("gcp-pd-standard", None), ("gcp-pd-balanced", None), ("gcp-pd-ssd", None)):
    PARAMS[gid] = {}

ONDEMAND = "on-demand"


def tiers(d):
    out = []
    for r in d["rows"]:
        burst = None
        minutes = None
        model = r.get("burst_model", "")
        if r.get("burst_iops") is not None:
            if "on-demand" in model:
                burst = ONDEMAND
            else:
                burst = "credit"
                minutes = r.get("burst_max_minutes", 30)
        out.append({
            "sku": r["sku"], "size_gib": r["size_gib"],
            "iops": r.get("iops", r.get("iops_up_to")), "mbps": r.get("mbps", r.get("mbps_up_to")),
            "up_to": "iops_up_to" in r,
            "burst_iops": r.get("burst_iops"), "burst_mbps": r.get("burst_mbps"),
            "burst": burst, "burst_max_minutes": minutes,
        })
    return out


def vm(v):
    o = copy.deepcopy(v)
    o["id"] = v["vm"]
    if v["provider"] == "aws":
        m, b = v.get("max"), v.get("baseline")
        o["sustained"] = {"mbps": b["throughput_MBps_128KiB"], "iops": b["iops_16KiB"]} if b else None
        o["burst"] = {"mbps": m["throughput_MBps_128KiB"], "iops": m["iops_16KiB"], "max_minutes": 30,
                      "per_hours": 24} if m else None
        o["cached"] = None
    else:
        u, c = v["max_uncached_disk"], v["max_cached_and_temp"]
        o["sustained"] = {"mbps": u["mbps"], "iops": u["iops"]}
        o["burst"] = None
        o["cached"] = {"mbps": c["mbps"], "iops": c["iops"], "cache_size_gib": c["cache_size_gib"]}
    return o


def main(src, dst):
    d = json.load(open(src))
    assert d["schema_version"] == 1, "expects schema 1"
    out = copy.deepcopy(d)
    out["schema_version"] = 2
    out["normalised_from"] = {"schema_version": 1, "file": "shared/data/cloud-disks.json",
                              "by": "scripts/normalise-catalog.py"}
    for t in out["disk_types"]:
        unit = t["units"]["throughput"]
        t["throughput_unit"] = "MiB/s" if unit.startswith("MiB/s") else "MB/s"
        sz = t.get("size_gib")
        t["size_range"] = ({"min_gib": sz["min"], "max_gib": sz["max"], "published": True} if sz else
                           {"min_gib": 1, "max_gib": 65536, "published": False})
        t["parameters"] = PARAMS.get(t["id"], {})
        f = t.get("formulas", {})
        if t["performance_model"].startswith("size_scaled_with") and t["id"].startswith("gcp"):
            t["parameters"] = {k: f[k] for k in ("read_iops_per_gib", "write_iops_per_gib",
                                                 "throughput_mibps_per_gib", "read_mibps_per_instance",
                                                 "write_mibps_per_instance")}
            t["parameters"].update({"baseline_iops": None, "baseline_mibps": None})
        if t["performance_model"].startswith("fixed_tiers"):
            t["tiers"] = tiers(t)
            t["parameters"] = {"io_unit_kib": 256 if t["media"] == "ssd" else 0}
        lat = LAT[t["id"]]
        t["typical_latency_ms"] = {"value": lat[0], "basis": lat[1], "note": lat[2]}
    out["vm_caps"] = [vm(v) for v in out["vm_caps"]]
    json.dump(out, open(dst, "w"), indent=1, ensure_ascii=False)
    open(dst, "a").write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
