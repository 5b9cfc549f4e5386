#!/usr/bin/env python3
"""cold_stream.py - the table of examples/probe/cold_stream.cu's runs (cold_stream.sh):
per kernel kind, L2 state and size, the median of 3 launches' durations by CUPTI and by
ncu, and the DRAM traffic ncu counted (MiB read and written, at --cache-control none the
program's state; `ncuall` rows: ncu's own flush). With --keys CLOCK_MHZ STORE_RATE (the
profile's clock_mhz and l2_store_line_sectors), the profile lines the runs give instead:

    python3 examples/probe/cold_stream.py examples/data/h100/cold_stream
    python3 examples/probe/cold_stream.py --keys 1975.87 54.45 examples/data/h100/cold_stream

l2_fill_sectors: a copy of 12 MiB against one of 3 after a clean flush (CUPTI), less what
the 9 MiB more of stores take at STORE_RATE; scrub_dirty_mib: the median of what reads,
copies and writes of 96 and 192 MiB write back after the memset over after the clean flush;
scrub_writeback_ld: what reads of 3 to 48 MiB write back after the memset, a MiB read;
scrub_writeback_st: what writes and copies of 3 to 12 MiB write back, less the copies'
reads at that rate, a MiB stored.
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


def keys(none, cupti, mhz, store_rate):
    """The profile's cold-launch keys from the runs (the module's comment says how)."""
    wb = lambda st, kind, m: median(none[(st, kind, m)])[2]
    sectors = 9 * 2**20 / 32                        # 12 MiB less 3, in sectors
    cycles = (median(cupti[("clean", "copy", 12)]) - median(cupti[("clean", "copy", 3)])) * mhz
    fill = sectors / (cycles - sectors / store_rate)
    extra = sorted(wb("dirty", k, m) - wb("clean", k, m)
                   for k in ("read", "copy", "write") for m in (96, 192))
    cap = (extra[2] + extra[3]) / 2
    small = (3, 6, 12)
    wl = sum(wb("dirty", "read", m) for m in (3, 6, 12, 24, 48)) / 93
    ws = (sum(wb("dirty", "write", m) for m in small) +
          sum(wb("dirty", "copy", m) - wl * m for m in small)) / (2 * sum(small))
    print("  l2_fill_sectors: %.1f" % fill)
    print("  scrub_dirty_mib: %.1f" % cap)
    print("  scrub_writeback_ld: %.2f" % wl)
    print("  scrub_writeback_st: %.2f" % ws)


def main():
    args = sys.argv[1:]
    mhz = store_rate = None
    if args[:1] == ["--keys"]:
        if len(args) < 3:
            sys.exit("usage: cold_stream.py [--keys CLOCK_MHZ STORE_RATE] [DIR]")
        mhz, store_rate, args = float(args[1]), float(args[2]), args[3:]
    d = args[0] if args else "examples/data/h100/cold_stream"
    none = ncu_rows(os.path.join(d, "ncu_none.csv.xz"))
    for k, v in ncu_rows(os.path.join(d, "ncu_all.csv.xz")).items():
        none[("ncuall", k[1], k[2])] = v
    cupti = cupti_rows(os.path.join(d, "cupti.csv"), os.path.join(d, "cupti.order"))
    if mhz:
        keys(none, cupti, mhz, store_rate)
        return
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
