#!/usr/bin/env python3
"""llmc_calls.py - the launches of an llm.c dev/cuda program's run (examples/llmc).

Such a program checks each of its S block sizes with one call (m kernel launches
a call), then times each block size over R calls: launches c_1 .. c_S, then c_1 R
times, ... c_S R times. From every launch of the run, timed by CUPTI
(examples/measure/pn_ktime.c), and the program's output (a "block_size N ...
time" line a block size, as all of them print):

  llmc_calls.py calls KT.csv LOG > NAME.calls.csv   the S x m checking launches
        (S: the log's "block_size N ... time" lines, m: the period of the run):
        call (0 .. S-1), kernel, threads, blocks, median_us (the median of the
        timed launches of the same kernel, threads and blocks)
  llmc_calls.py count NAME.calls.csv               S x m (ncu -c: profile them all)
  llmc_calls.py times NAME.calls.csv > NAME.times.csv   pnsim compare's times file
  llmc_calls.py warm NAME.calls.csv NAME.raw.csv   the launches (ncu's IDs, the rows
        from 0) that are not the first of their call: timed after the call's earlier
        launches, not right after the memset (pnsim import --warm); those the raw
        page has
  llmc_calls.py pick DATADIR WORKDIR               per program, the fastest
        (version, block size) measured and predicted, from WORKDIR/NAME.compare.csv
        (pnsim compare -f csv of NAME.times.csv): a call's time is the sum of its
        launches'
"""
import csv
import glob
import os
import re
import statistics
import sys


def read_kt(path):
    rows = list(csv.reader(l for l in open(path) if not l.startswith('#')))
    return rows[1:]


def calls(kt, log):
    rows = read_kt(kt)
    S, runs = 0, 0
    for l in open(log):
        runs += l.startswith('Using kernel')
        if runs > 1:
            break
        S += re.match(r'block_size\s+\d+\s*\|?\s*time', l) is not None
    key = [(r[0], r[2], r[3]) for r in rows]
    T = len(key)
    m = next((p for p in range(1, 64) if S and T % (S * p) == 0 and T > S * p and
              key[S * p:S * p + p] == key[:p]), 0)
    if S == 0 or m == 0:
        sys.exit('%s: no block sizes timed in %s, or no period found' % (kt, log))
    later = {}
    for k, r in zip(key[S * m:], rows[S * m:]):
        later.setdefault(k, []).append(float(r[4]))
    w = csv.writer(sys.stdout, lineterminator='\n')
    w.writerow(['call', 'kernel', 'size', 'threads', 'blocks', 'median_us', 'timed'])
    for i in range(S * m):
        t = later.get(key[i], [])
        w.writerow([i // m, rows[i][0], rows[i][1], rows[i][2], rows[i][3],
                    '%.3f' % statistics.median(t) if t else '', len(t)])


def load_calls(path):
    return list(csv.DictReader(open(path)))


def times(path):
    w = csv.writer(sys.stdout, lineterminator='\n')
    print('# the launches that check the block sizes, each the median duration (CUPTI) of the '
          'timed launches of its kernel, threads and blocks (examples/llmc)')
    w.writerow(['kernel', 'size', 'threads', 'blocks', 'median_us', 'timed'])
    for r in load_calls(path):
        if r['median_us']:
            w.writerow([r['kernel'], r['size'], r['threads'], r['blocks'], r['median_us'], r['timed']])


def warm(path, raw):
    with open(raw) as f:
        rows = list(csv.reader(f))
    have = {r[0] for r in rows[2:] if r}     # ID column; row 1 holds the units
    ids, seen = [], set()
    for i, r in enumerate(load_calls(path)):
        if r['call'] in seen and str(i) in have:
            ids.append(str(i))
        seen.add(r['call'])
    print(','.join(ids))


def pick_by(data, work, col):
    """Per program its candidates (version, call, threads, measured us, predicted us by
    compare.csv's column col: predicted_us, or roofline_us where compare gave it)."""
    progs = {}
    for cf in sorted(glob.glob(os.path.join(data, '*.calls.csv'))):
        name = os.path.basename(cf)[:-len('.calls.csv')]
        prog, ver = name.rsplit('-', 1)
        cmp_path = os.path.join(work, name + '.compare.csv')
        if not os.path.exists(cmp_path):
            continue
        pred = {}
        for r in csv.DictReader(open(cmp_path)):
            if r.get(col):
                pred.setdefault((r['threads'], r['blocks'], r['kernel']), float(r[col]))
        per_call = {}
        for r in load_calls(cf):
            own = r['kernel'].split('(')[0].split('<')[0].split('::')[-1].replace('void ', '').strip()
            p = pred.get((r['threads'], r['blocks'], own))
            c = per_call.setdefault(int(r['call']), [0.0, 0.0, True, r['threads']])
            if not r['median_us'] or p is None:
                c[2] = False
                continue
            c[0] += float(r['median_us'])
            c[1] += p
        for k, (meas, prd, ok, threads) in per_call.items():
            if ok:
                progs.setdefault(prog, []).append((ver, k, threads, meas, prd))
    return progs


def verdict(progs, show):
    right = near = 0
    regrets = []
    if show:
        print('%-26s %-22s %-22s %s' % ('program', 'fastest measured', 'fastest predicted', 'regret'))
    for prog, cands in sorted(progs.items()):
        best = min(cands, key=lambda c: c[3])
        chosen = min(cands, key=lambda c: c[4])
        regret = chosen[3] / best[3]
        regrets.append(regret)
        right += chosen[:2] == best[:2]
        near += regret <= 1.01
        if show:
            print('%-26s v%s at %-4s %8.2f us    v%s at %-4s %8.2f us    %.3f' %
                  (prog, best[0], best[2], best[3], chosen[0], chosen[2], chosen[3], regret))
    return right, len(progs), near, sum(regrets) / max(len(regrets), 1)


def pick(data, work):
    r = verdict(pick_by(data, work, 'predicted_us'), True)
    print('fastest version and block size right in %d of %d programs (%d within 1 %%), '
          'mean regret %.3f' % r)
    roof = pick_by(data, work, 'roofline_us')
    if roof:
        print('the roofline\'s pick (compare --roofline): right in %d of %d programs '
              '(%d within 1 %%), mean regret %.3f' % verdict(roof, False))


if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'calls' and len(sys.argv) == 4:
        calls(sys.argv[2], sys.argv[3])
    elif cmd == 'count' and len(sys.argv) == 3:
        print(len(load_calls(sys.argv[2])))
    elif cmd == 'times' and len(sys.argv) == 3:
        times(sys.argv[2])
    elif cmd == 'warm' and len(sys.argv) == 4:
        warm(sys.argv[2], sys.argv[3])
    elif cmd == 'pick' and len(sys.argv) == 4:
        pick(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)
