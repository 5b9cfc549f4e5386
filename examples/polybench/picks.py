#!/usr/bin/env python3
"""picks.py - the block size pnsim picks for each PolyBench launch against the measured best.

    python3 examples/polybench/picks.py WORKDIR

WORKDIR holds what examples/common/import_compare.sh --dir wrote: <bench>_t<threads>.compare.csv
per program. A launch is a sweep when its benchmark has it at two or more block sizes (the
same kernel and launch number, the config name's last field). Prints per sweep the measured
and predicted times by block size, whether the fastest predicted is the fastest measured (or
within 1 % of it) and its regret (measured time of the pick over the best); then the totals,
and the roofline's right and near picks where compare gave its times (--roofline).
"""
import csv
import glob
import os
import re
import sys


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    sweeps = {}
    for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_t*.compare.csv"))):
        m = re.match(r"(.+)_t(\d+)\.compare\.csv$", os.path.basename(path))
        if not m:
            continue
        bench, threads = m.group(1), int(m.group(2))
        with open(path, newline="") as f:
            for row in csv.DictReader(f):
                if not row["predicted_us"] or not row["measured_us"]:
                    continue
                launch = re.search(r"-(\d+)\.yaml$", row["config"]).group(1)
                key = (bench, row["kernel"], int(launch))
                roof = row.get("roofline_us") or ""
                sweeps.setdefault(key, {})[threads] = (float(row["measured_us"]),
                                                       float(row["predicted_us"]),
                                                       float(roof) if roof else None)
    n = right = near = 0
    rn = rright = rnear = 0
    regret = 0.0
    print("%-12s %-22s %6s  %-40s %5s %5s %7s" % ("benchmark", "kernel", "launch",
                                                   "threads: measured / predicted us",
                                                   "best", "pick", "regret"))
    for key in sorted(sweeps):
        s = sweeps[key]
        if len(s) < 2:
            continue
        best = min(s, key=lambda t: s[t][0])
        pick = min(s, key=lambda t: s[t][1])
        r = s[pick][0] / s[best][0]
        if all(s[t][2] is not None for t in s):
            # the roofline's pick (compare --roofline), the smallest block size on ties
            rpick = min(sorted(s), key=lambda t: s[t][2])
            rn += 1
            rright += rpick == best
            rnear += s[rpick][0] / s[best][0] <= 1.01
        n += 1
        right += pick == best
        near += r <= 1.01
        regret += r
        times = " ".join("%d: %.4g/%.4g" % (t, s[t][0], s[t][1]) for t in sorted(s))
        print("%-12s %-22s %6d  %-40s %5d %5d %7.3f%s" % (key[0], key[1][:22], key[2], times,
                                                         best, pick, r,
                                                         "" if pick == best else "  (wrong)"))
    if n:
        print("best block size right in %d of %d sweeps (%d within 1 %% of the best measured "
              "time), mean regret %.3f" % (right, n, near, regret / n))
        if rn:
            print("the roofline's pick (compare --roofline): right in %d of %d sweeps (%d within "
                  "1 %%)" % (rright, rn, rnear))
    else:
        print("no sweeps: no launch was measured at two block sizes or more")


if __name__ == "__main__":
    main()
