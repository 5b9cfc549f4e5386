#!/usr/bin/env python3
"""fit_loaded.py - the DRAM queue of a device profile from examples/probe/loaded_latency.cu's rows.

    python3 examples/probe/fit_loaded.py LOG PEAK

LOG: the probe's output (rows "loaded_read_S<n>,<cycles>,..." and "loaded_copy_S<n>,...", whose
detail names the streams' "<x> sectors a cycle"); PEAK: the profile's dram_sectors. A DRAM load
waits L - L0 = dram_queue u / (1 - u) + dram_write_delay w more than alone (L0: the S0 row),
u = traffic / PEAK, w = the sectors written a cycle (half a copy's traffic). Least squares of
both through the origin over the rows with u <= 0.95 (past that the queue is a saturated one).
Prints the two values, then per row the measured and the fitted wait.
"""
import re
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    peak = float(sys.argv[2])
    rows = []
    with open(sys.argv[1]) as f:
        for line in f:
            m = re.match(r'loaded_(read|copy)_S(\d+),([\d.]+),.*streams ([\d.]+) sectors', line)
            if m:
                rows.append((m[1], int(m[2]), float(m[3]), float(m[4])))
    base = [r[2] for r in rows if r[1] == 0]
    if not base:
        sys.exit("fit_loaded.py: no S0 row in " + sys.argv[1])
    L0 = base[0]
    pts = []
    for mode, S, L, t in rows:
        u = t / peak
        if S == 0 or u > 0.95:
            continue
        pts.append((u / (1 - u), t / 2 if mode == 'copy' else 0.0, L - L0, mode, S, t))
    sxx = sum(p[0] * p[0] for p in pts)
    sww = sum(p[1] * p[1] for p in pts)
    sxw = sum(p[0] * p[1] for p in pts)
    sxy = sum(p[0] * p[2] for p in pts)
    swy = sum(p[1] * p[2] for p in pts)
    det = sxx * sww - sxw * sxw
    q = (sxy * sww - swy * sxw) / det
    a = (swy * sxx - sxy * sxw) / det
    print("dram_queue %.1f dram_write_delay %.1f (L0 %.1f, peak %.2f, %d rows)" % (q, a, L0, peak, len(pts)))
    for x, w, y, mode, S, t in pts:
        print("  %s S%-2d %5.1f sectors a cycle, u %.2f: waits %+7.1f, fitted %+7.1f" %
              (mode, S, t, t / peak, y, q * x + a * w))


if __name__ == '__main__':
    main()
