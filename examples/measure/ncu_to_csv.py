#!/usr/bin/env python3
"""ncu_to_csv.py - label ncu's per-launch metrics with the example's kernel/threads/params.

Usage: ncu_to_csv.py RAWDIR OUT.csv

RAWDIR holds, per profiled program TAG, TAG.csv (ncu --csv --log-file output) and
TAG.launches (the program's --launch-log: one "kernel,threads,params" line per launch, in
launch order). ncu numbers the profiled launches in the same order, so the i-th result is
labelled with the i-th launch line; the block size ncu reports must equal `threads`.
Writes OUT.csv: kernel,threads,params,function,metric,unit,value (one row per metric;
function is the kernel function's name without its parameter list).
Exit status 1 if any TAG could not be labelled consistently (its rows are left out).
"""
import csv
import glob
import os
import sys


def block_threads(s):
    """'(256, 1, 1)' -> 256"""
    n = 1
    for part in s.strip("() ").split(","):
        part = part.strip()
        if part:
            n *= int(part)
    return n


def main():
    rawdir, outpath = sys.argv[1], sys.argv[2]
    rows, bad = [], 0
    for launches_path in sorted(glob.glob(os.path.join(rawdir, "*.launches"))):
        tag = os.path.basename(launches_path)[: -len(".launches")]
        csv_path = os.path.join(rawdir, tag + ".csv")
        if not os.path.exists(csv_path):
            print(f"ncu_to_csv: {tag}: no {csv_path}", file=sys.stderr)
            bad += 1
            continue
        with open(launches_path) as f:
            launches = [line.rstrip("\n").split(",", 2) for line in f if line.strip()]
        with open(csv_path) as f:
            lines = [line for line in f if line.startswith('"')]
        results = {}  # ID -> list of dict rows
        for r in csv.DictReader(lines):
            results.setdefault(int(r["ID"]), []).append(r)
        ids = sorted(results)
        if len(ids) != len(launches):
            print(f"ncu_to_csv: {tag}: {len(ids)} ncu results for {len(launches)} launches",
                  file=sys.stderr)
            bad += 1
            continue
        ok = True
        tagrows = []
        for i, (kernel, threads, params) in zip(ids, launches):
            res = results[i]
            bt = block_threads(res[0].get("Block Size", "(0)"))
            if bt != int(threads):
                print(f"ncu_to_csv: {tag}: result {i} has block {bt}, launch log says "
                      f"{kernel} T={threads}", file=sys.stderr)
                ok = False
                break
            for r in res:
                value = r["Metric Value"].replace(",", "")
                function = r["Kernel Name"].split("(", 1)[0]  # drop the parameter list
                tagrows.append([kernel, threads, params, function, r["Metric Name"],
                                r["Metric Unit"], value])
        if ok:
            rows += tagrows
        else:
            bad += 1
    with open(outpath, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["kernel", "threads", "params", "function", "metric", "unit", "value"])
        w.writerows(rows)
    print(f"ncu_to_csv: {len(rows)} rows -> {outpath}", file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
