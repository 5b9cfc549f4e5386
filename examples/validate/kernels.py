#!/usr/bin/env python3
"""examples/validate/kernels.py - pnsim import on the seven multi-block kernels of
examples/kernels/ (examples/data/h100/kernels/), each launch simulated and compared with its
measured median time, its best block size, and pnsim's occupancy against ncu's.

usage: kernels.py PNSIM OUTDIR      (writes OUTDIR/*.yaml, OUTDIR/results.csv; prints tables)
"""
import csv
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DATA = os.path.join(ROOT, "examples", "data", "h100", "kernels")


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    pnsim, out = sys.argv[1], sys.argv[2]
    subprocess.run([pnsim, "import", "-o", out, os.path.join(DATA, "ncu_import.csv")], check=True)
    times = {}
    with open(os.path.join(DATA, "times.csv")) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            times[(r["kernel"], int(r["threads"]), int(r["blocks"]))] = r
    rows = []
    for cfg in sorted(glob.glob(os.path.join(out, "*.yaml"))):
        text = open(cfg).read()
        k = re.search(r"name: (\S+)", text).group(1)
        t = int(re.search(r"threads: (\d+)", text).group(1))
        b = int(re.search(r"blocks: (\d+)", text).group(1))
        m = times[(k, t, b)]
        ncu = [int(x) for x in re.search(r"occupancy limits blocks (\d+), registers (\d+), shared (\d+), warps (\d+)", text).groups()]
        js = json.loads(subprocess.run([pnsim, "run", "-r", "3", "-f", "json", cfg], check=True,
                                       capture_output=True, text=True).stdout)
        g = js["model"]["grid"]
        pred = js["time_us"]["mean"]
        meas = float(m["median_us"])
        rows.append(dict(kernel=k, size=int(m["size"]), threads=t, blocks=b, measured_us=meas,
                         predicted_us=pred, err_pct=(pred - meas) / meas * 100,
                         resident_pnsim=g["resident"], resident_ncu=min(ncu),
                         limiter_pnsim=g["limiter"], config=os.path.basename(cfg)))
    with open(os.path.join(out, "results.csv"), "w") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print("%-10s %9s %7s %7s %11s %11s %8s %5s %5s" % ("kernel", "size", "threads", "blocks",
          "measured", "predicted", "err%", "R", "ncu"))
    for r in rows:
        print("%-10s %9d %7d %7d %11.2f %11.2f %8.1f %5d %5d" % (r["kernel"], r["size"], r["threads"],
              r["blocks"], r["measured_us"], r["predicted_us"], r["err_pct"], r["resident_pnsim"],
              r["resident_ncu"]))
    mape = sum(abs(r["err_pct"]) for r in rows) / len(rows)
    occ = sum(r["resident_pnsim"] == r["resident_ncu"] for r in rows)
    groups = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["size"]), []).append(r)
    right = 0
    print("\nbest block size per kernel and size (measured / predicted; ties within 1 %% of the best count)")
    for key, rs in sorted(groups.items()):
        bm = min(rs, key=lambda r: r["measured_us"])
        bp = min(rs, key=lambda r: r["predicted_us"])
        ok = bp["measured_us"] <= bm["measured_us"] * 1.01
        right += ok
        print("  %-10s %9d  measured %5d  predicted %5d  %s" % (key[0], key[1], bm["threads"],
              bp["threads"], "right" if ok else "wrong"))
    print("\nMAPE %.1f %% over %d launches; best block size right for %d of %d; resident blocks "
          "equal ncu's for %d of %d" % (mape, len(rows), right, len(groups), occ, len(rows)))


if __name__ == "__main__":
    main()
