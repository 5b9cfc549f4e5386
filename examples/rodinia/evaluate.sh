#!/usr/bin/env bash
# evaluate.sh - import what rodinia.sh measured and compare pnsim's predictions with the
# kernel durations (the median of the three timed runs, launch by launch).
#
#   bash examples/rodinia/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/rodinia; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<program>/) and the comparisons (WORKDIR/<program>.compare.*).
# Prints pnsim compare's overall line per program and over all launches. PNSIM (default
# build/pnsim) is the binary; RUNS (default 2) the runs per config.
set -euo pipefail
data=${1:-examples/data/h100/rodinia}
work=${2:-$(mktemp -d)}
pnsim=${PNSIM:-build/pnsim}
runs=${RUNS:-2}
mkdir -p "$work"
for raw in "$data"/*.raw.csv; do
    n=$(basename "$raw" .raw.csv)
    if [ ! -f "$data/$n.t1.csv" ] || [ ! -f "$data/$n.t2.csv" ] || [ ! -f "$data/$n.t3.csv" ]; then
        echo "$n: not three timed runs in $data; skipped" >&2
        continue
    fi
    xz -dc "$data/$n.source.csv.xz" > "$work/$n.source.csv"
    rm -rf "${work:?}/$n"
    "$pnsim" import -O "$work/$n" -S "$work/$n.source.csv" "$raw" > /dev/null 2> "$work/$n.import.log"
    # the median of the three runs, launch by launch
    t=("$data/$n.t1.csv" "$data/$n.t2.csv" "$data/$n.t3.csv")
    "$pnsim" compare -q -r "$runs" --durations -f csv -o "$work/$n.compare.csv" "${t[@]}" "$work/$n"
    "$pnsim" compare -q -r "$runs" --durations "${t[@]}" "$work/$n" > "$work/$n.compare.txt"
    echo "$n: $(tail -1 "$work/$n.compare.txt")"
done
# over all launches: the mean and the median of |error| (compare's CSV: error as a fraction)
cat "$work"/*.compare.csv | awk -F, '$1 != "kernel" && $7 != "" { e = $7 < 0 ? -$7 : $7; print 100 * e }' |
    sort -g | awk '{ a[++n] = $1; s += $1 }
        END { printf "all: %d launches, MAPE %.1f %%, median error %.1f %%\n", n, s / n,
              (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }'
