#!/usr/bin/env bash
# evaluate.sh - import what rodinia.sh measured and compare pnsim's predictions with the
# kernel durations (the median of the three timed runs, launch by launch).
#
#   bash examples/rodinia/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/rodinia; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<program>/) and the times (WORKDIR/<program>.times.csv).
# Prints pnsim compare's overall line per program and over all launches. PNSIM (default
# build/pnsim) is the binary; RUNS (default 2) the runs per config.
set -euo pipefail
data=${1:-examples/data/h100/rodinia}
work=${2:-$(mktemp -d)}
pnsim=${PNSIM:-build/pnsim}
runs=${RUNS:-2}
mkdir -p "$work"
all=$work/all.times.csv
: > "$all"
for raw in "$data"/*.raw.csv; do
    n=$(basename "$raw" .raw.csv)
    if [ ! -f "$data/$n.t1.csv" ] || [ ! -f "$data/$n.t2.csv" ] || [ ! -f "$data/$n.t3.csv" ]; then
        echo "$n: not three timed runs in $data; skipped" >&2
        continue
    fi
    xz -dc "$data/$n.source.csv.xz" > "$work/$n.source.csv"
    rm -rf "${work:?}/$n"
    "$pnsim" import -O "$work/$n" -S "$work/$n.source.csv" "$raw" > /dev/null 2> "$work/$n.import.log"
    # the median of the runs, launch by launch (the runs launch the same kernels in order)
    awk -F, -v OFS=, '
        FNR == 1 { f++ }
        /^#/ || /^kernel,/ { if (f == 1 && /^kernel,/) print "kernel,size,threads,blocks,median_us"; next }
        { # the signature is quoted and holds commas: the last seven fields are the numbers
          k = $0; sub(/,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*,[^,]*$/, "", k)
          i = FNR; key[i] = k; sz[i] = $(NF-6); th[i] = $(NF-5); bl[i] = $(NF-4)
          v[i, f] = $(NF-3); if (i > n) n = i }
        END { for (i = 1; i <= n; i++) {
                  a = v[i,1]; b = v[i,2]; c = v[i,3]
                  m = (a <= b) ? ((b <= c) ? b : ((a <= c) ? c : a)) : ((a <= c) ? a : ((b <= c) ? c : b))
                  if (key[i] != "") print key[i], sz[i], th[i], bl[i], m } }' \
        "$data/$n.t1.csv" "$data/$n.t2.csv" "$data/$n.t3.csv" > "$work/$n.times.csv"
    "$pnsim" compare -q -r "$runs" --durations -f csv -o "$work/$n.compare.csv" \
        "$work/$n.times.csv" "$work/$n"
    "$pnsim" compare -q -r "$runs" --durations "$work/$n.times.csv" "$work/$n" > "$work/$n.compare.txt"
    echo "$n: $(tail -1 "$work/$n.compare.txt")"
done
# over all launches: the mean and the median of |error| (compare's CSV: error as a fraction)
cat "$work"/*.compare.csv | awk -F, '$1 != "kernel" && $7 != "" { e = $7 < 0 ? -$7 : $7; print 100 * e }' |
    sort -g | awk '{ a[++n] = $1; s += $1 }
        END { printf "all: %d launches, MAPE %.1f %%, median error %.1f %%\n", n, s / n,
              (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }'
