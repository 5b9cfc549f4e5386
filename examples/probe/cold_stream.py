#!/usr/bin/env python3
"""cold_stream.py - the table of examples/probe/cold_stream.cu's runs (cold_stream.sh):
per kernel kind, L2 state and size, the median of 3 launches' durations by CUPTI and by
ncu, and the DRAM traffic ncu counted (MiB read and written, at --cache-control none the
program's state; `ncuall` rows: ncu's own flush).

    python3 examples/probe/cold_stream.py examples/data/h100/cold_stream
"""
import csv
import io
import lzma
import os
import sys

SIZES = (3, 6, 12, 24, 48, 96, 192)
KINDS = ("read", "copy", "write", "empty", "param")


def ncu_rows(path):
    """(state, kind, MiB) -> [(us, read MiB, written MiB)] from an ncu run: its CSV rows
    in launch order, paired with the order lines the program printed among them."""
    text = lzma.open(path, "rt").read().splitlines()
    order = [l.split(",") for l in text if l and l[0] not in '"=#']
    rows = list(csv.reader(io.StringIO("\n".join(l for l in text if l.startswith('"')))))
    head, data = rows[0], rows[2:]
    if len(order) != len(data):
        sys.exit(f"{path}: {len(order)} launches printed, {len(data)} profiled")
    out = {}
    for o, r in zip(order, data):
        d = dict(zip(head, r))
        f = lambda k: float(d[k].replace(",", ""))
        out.setdefault((o[0], o[1], int(o[2])), []).append(
            (f("gpu__time_duration.sum") / 1e3, f("dram__sectors_read.sum") * 32 / 2**20,
             f("dram__sectors_write.sum") * 32 / 2**20))
    return out


def cupti_rows(path, order_path):
    """(state, kind, MiB) -> [us] from the CUPTI run: the k_ launches in order."""
    with open(path) as f:
        rows = list(csv.DictReader(l for l in f if not l.startswith("#")))
    ks = [r for r in rows if r["kernel"].startswith("k_")]
    with open(order_path) as f:
        order = [l.strip().split(",") for l in f if l.strip() and not l.startswith("#")]
    if len(order) != len(ks):
        sys.exit(f"{path}: {len(order)} launches printed, {len(ks)} timed")
    out = {}
    for o, r in zip(order, ks):
        out.setdefault((o[0], o[1], int(o[2])), []).append(float(r["median_us"]))
    return out


def median(v):
    return sorted(v)[len(v) // 2]


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "examples/data/h100/cold_stream"
    none = ncu_rows(os.path.join(d, "ncu_none.csv.xz"))
    for k, v in ncu_rows(os.path.join(d, "ncu_all.csv.xz")).items():
        none[("ncuall", k[1], k[2])] = v
    cupti = cupti_rows(os.path.join(d, "cupti.csv"), os.path.join(d, "cupti.order"))
    print("# kind, L2 state, MiB: CUPTI us, ncu us, DRAM MiB read, DRAM MiB written "
          "(medians of 3; ncuall: ncu --cache-control all, no CUPTI run)")
    print("%-6s %-9s %4s %9s %9s %8s %8s" % ("kind", "state", "MiB", "cupti_us", "ncu_us",
                                            "rd_MiB", "wr_MiB"))
    for kind in KINDS:
        for st in ("clean", "ncuall", "dirty", "dirtyall", "warm"):
            for m in SIZES:
                v = none.get((st, kind, m))
                if not v:
                    continue
                us, rd, wr = median(v)
                c = cupti.get((st, kind, m))
                print("%-6s %-9s %4d %9s %9.2f %8.2f %8.2f" % (
                    kind, st, m, "%.2f" % median(c) if c else "-", us, rd, wr))


if __name__ == "__main__":
    main()
