#!/usr/bin/env bash
# import_compare.sh - the evaluation step examples/rodinia, polybench and llmc share: import
# one program's report and compare its configs with the measured kernel durations.
#
#   bash examples/common/import_compare.sh WORKDIR NAME RAW.csv SOURCE.csv.xz TIMES.csv...
#   bash examples/common/import_compare.sh --all WORKDIR
#   bash examples/common/import_compare.sh --dir DATADIR WORKDIR
#
# The first form writes WORKDIR/NAME/ (the configs), WORKDIR/NAME.compare.csv and .txt, and
# prints compare's overall line; several times files (runs of the same launches) give each
# launch its median; SOURCE.csv.xz `-` imports counts-only configs (no SASS programs). The
# second prints the MAPE and the median error over every launch of WORKDIR/*.compare.csv, and
# the same of the roofline (`pnsim compare --roofline`, which the first form asks for). The
# third runs the first for every DATADIR/NAME.raw.csv with three timed runs beside it
# (NAME.source.csv.xz, NAME.t1.csv, .t2.csv and .t3.csv: what examples/measure/profile_app.sh
# writes, for examples/rodinia/rodinia.sh and examples/polybench/polybench.sh too), then the
# second; a program whose NAME.replay says kernel (profile_app.sh fell back to kernel
# replay) is imported without --flushed whatever PN_FLUSHED says. A program whose import or
# compare fails is named at the end (exit status 1) and the others are still compared.
# PNSIM (default build/pnsim) is the binary, RUNS (default 2) the runs per config;
# PN_FLUSHED=1 imports with --flushed (launches timed with the L2 flushed, or profiled with
# ncu's application replay), PN_FLUSHED=dirty
# with --flushed=dirty (flushed by a memset that leaves the L2 dirty); PN_WARM=IDS adds
# --warm IDS (launches timed after others of their timed region, not after the flush).
set -euo pipefail
pnsim=${PNSIM:-build/pnsim}
runs=${RUNS:-2}
if [ "${1:-}" = --dir ]; then
    for raw in "$2"/*.raw.csv; do
        n=$(basename "$raw" .raw.csv)
        if [ ! -f "$2/$n.t1.csv" ] || [ ! -f "$2/$n.t2.csv" ] || [ ! -f "$2/$n.t3.csv" ]; then
            echo "$n: not three timed runs in $2; skipped" >&2
            continue
        fi
        # a report profile_app.sh had to take with kernel replay: not --flushed
        flushed=${PN_FLUSHED:-}
        [ "$(cat "$2/$n.replay" 2>/dev/null)" != kernel ] || flushed=
        # the median of the three runs, launch by launch; a program that fails is named
        # and the others go on
        PN_FLUSHED=$flushed bash "$0" "$3" "$n" "$raw" "$2/$n.source.csv.xz" "$2/$n.t1.csv" \
            "$2/$n.t2.csv" "$2/$n.t3.csv" || failed="${failed:-} $n"
    done
    bash "$0" --all "$3"
    if [ -n "${failed:-}" ]; then
        echo "import_compare: failed:$failed (their WORKDIR/NAME.import.log)" >&2
        exit 1
    fi
    exit 0
fi
if [ "${1:-}" = --all ]; then
    # compare's CSV: the error as a fraction, and the roofline's (column 10) where compare
    # gave it
    cat "$2"/*.compare.csv | awk -F, '$1 != "kernel" && $7 != "" { e = $7 < 0 ? -$7 : $7; print 100 * e }' |
        sort -g | awk '{ a[++n] = $1; s += $1 }
            END { printf "all: %d launches, MAPE %.1f %%, median error %.1f %%\n", n, s / n,
                  (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) }'
    cat "$2"/*.compare.csv | awk -F, '$1 != "kernel" && $7 != "" && $10 != "" {
            e = $7 < 0 ? -$7 : $7; r = $10 < 0 ? -$10 : $10; print 100 * r, (e < r) }' |
        sort -g | awk '{ a[++n] = $1; s += $1; near += $2 }
            END { if (n) printf "roofline: %d launches, MAPE %.1f %%, median error %.1f %%; " \
                  "pnsim nearer in %d\n", n, s / n,
                  (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2), near }'
    exit 0
fi
work=$1 n=$2 raw=$3 src=$4
shift 4
mkdir -p "$work"
rm -rf "${work:?}/$n" "$work/$n.compare.csv" "$work/$n.compare.txt"
prog=()
if [ "$src" != - ]; then
    xz -dc "$src" > "$work/$n.source.csv"
    prog=(-S "$work/$n.source.csv")
fi
"$pnsim" import ${PN_FLUSHED:+--flushed$([ "$PN_FLUSHED" = dirty ] && echo =dirty)} \
    ${PN_WARM:+--warm "$PN_WARM"} -O "$work/$n" "${prog[@]}" "$raw" > /dev/null \
    2> "$work/$n.import.log"
"$pnsim" compare -q -r "$runs" --durations --roofline -f csv -o "$work/$n.compare.csv" "$@" \
    "$work/$n"
"$pnsim" compare -q -r "$runs" --durations --roofline "$@" "$work/$n" > "$work/$n.compare.txt"
echo "$n: $(tail -1 "$work/$n.compare.txt")"
