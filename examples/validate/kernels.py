#!/usr/bin/env python3
"""examples/validate/kernels.py - pnsim import on the seven multi-block kernels of
examples/kernels/ (examples/data/h100/kernels/), each launch simulated on the pipelined net
(the imported config) and on the paper net (the same config with model.net: paper, the h100
profile's paper calibration) and compared with its measured median time, its best block
size, and pnsim's occupancy against ncu's; then each config that import fitted across block
sizes is swept and compared with the per-launch configs at the profiled sizes.

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
    subprocess.run([pnsim, "import", "-O", out, os.path.relpath(os.path.join(DATA, "ncu_import.csv"))],
                   check=True)
    times = {}
    with open(os.path.join(DATA, "times.csv")) as f:
        for r in csv.DictReader(l for l in f if not l.startswith("#")):
            times[(r["kernel"], int(r["threads"]), int(r["blocks"]))] = r
    rows = []
    fitted = sorted(glob.glob(os.path.join(out, "*-x*.yaml")))
    for cfg in sorted(set(glob.glob(os.path.join(out, "*.yaml"))) - set(fitted)):
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
        paper_cfg = os.path.join(out, "paper", os.path.basename(cfg))
        os.makedirs(os.path.dirname(paper_cfg), exist_ok=True)
        with open(paper_cfg, "w") as f:
            f.write(text.replace("model: {net: pipelined}", "model: {net: paper}"))
        pj = json.loads(subprocess.run([pnsim, "run", "-r", "3", "-f", "json", paper_cfg],
                                       check=True, capture_output=True, text=True).stdout)
        paper = pj["time_us"]["mean"]
        meas = float(m["median_us"])
        rows.append(dict(kernel=k, size=int(m["size"]), threads=t, blocks=b, measured_us=meas,
                         predicted_us=pred, err_pct=(pred - meas) / meas * 100,
                         paper_us=paper, paper_err_pct=(paper - meas) / meas * 100,
                         resident_pnsim=g["resident"], resident_ncu=min(ncu),
                         limiter_pnsim=g["limiter"], config=os.path.basename(cfg)))
    with open(os.path.join(out, "results.csv"), "w") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    print("times in us; pipelined: the imported config; paper: the same with model.net: paper")
    print("%-10s %9s %7s %7s %10s %10s %7s %10s %7s %5s %5s" % ("kernel", "size", "threads",
          "blocks", "measured", "pipelined", "err%", "paper", "err%", "R", "ncu"))
    for r in rows:
        print("%-10s %9d %7d %7d %10.2f %10.2f %7.1f %10.2f %7.1f %5d %5d" % (r["kernel"],
              r["size"], r["threads"], r["blocks"], r["measured_us"], r["predicted_us"],
              r["err_pct"], r["paper_us"], r["paper_err_pct"], r["resident_pnsim"],
              r["resident_ncu"]))
    mape = sum(abs(r["err_pct"]) for r in rows) / len(rows)
    mape_paper = sum(abs(r["paper_err_pct"]) for r in rows) / len(rows)
    print("\nMAPE per kernel (pipelined / paper)")
    for kern in sorted({r["kernel"] for r in rows}):
        rs = [r for r in rows if r["kernel"] == kern]
        print("  %-10s %5.1f %% / %5.1f %%  (%d launches)" % (kern,
              sum(abs(r["err_pct"]) for r in rs) / len(rs),
              sum(abs(r["paper_err_pct"]) for r in rs) / len(rs), len(rs)))
    occ = sum(r["resident_pnsim"] == r["resident_ncu"] for r in rows)
    groups = {}
    for r in rows:
        groups.setdefault((r["kernel"], r["size"]), []).append(r)
    right = right_paper = 0
    print("\nbest block size per kernel and size (measured / pipelined / paper; right: the predicted "
          "best is within 1 % of the measured best)")
    for key, rs in sorted(groups.items()):
        bm = min(rs, key=lambda r: r["measured_us"])
        bp = min(rs, key=lambda r: r["predicted_us"])
        bq = min(rs, key=lambda r: r["paper_us"])
        ok = bp["measured_us"] <= bm["measured_us"] * 1.01
        okq = bq["measured_us"] <= bm["measured_us"] * 1.01
        right += ok
        right_paper += okq
        print("  %-10s %9d  measured %5d  pipelined %5d %-5s  paper %5d %s" % (key[0], key[1],
              bm["threads"], bp["threads"], "right" if ok else "wrong", bq["threads"],
              "right" if okq else "wrong"))
    print("\nfitted configs (pnsim import across block sizes): sweep against the per-launch configs")
    worst = 0.0
    for cfg in fitted:
        sw = subprocess.run([pnsim, "sweep", "-r", "3", "-f", "csv", cfg], check=True,
                            capture_output=True, text=True).stdout
        k = re.search(r"name: (\S+)", open(cfg).read()).group(1)
        n = int(re.search(r"-x(\d+)\.yaml$", cfg).group(1))
        diffs = []
        for r in csv.DictReader(sw.splitlines()):
            t = int(r["threads"])
            per = [x for x in rows if x["kernel"] == k and x["threads"] == t and
                   x["threads"] * x["blocks"] == n]
            if per:
                diffs.append(abs(float(r["time_us_mean"]) - per[0]["predicted_us"]) /
                             per[0]["predicted_us"] * 100)
        worst = max([worst] + diffs)
        print("  %-28s %d sizes, largest difference %.2f %%" % (os.path.basename(cfg), len(diffs),
              max(diffs) if diffs else float("nan")))
    print("\npipelined: MAPE %.1f %% over %d launches, best block size right for %d of %d" %
          (mape, len(rows), right, len(groups)))
    print("paper:     MAPE %.1f %% over %d launches, best block size right for %d of %d" %
          (mape_paper, len(rows), right_paper, len(groups)))
    print("resident blocks equal ncu's for %d of %d launches; fitted configs within %.2f %% of the "
          "per-launch configs" % (occ, len(rows), worst))


if __name__ == "__main__":
    main()
