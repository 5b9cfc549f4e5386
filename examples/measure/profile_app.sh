#!/usr/bin/env bash
# profile_app.sh - the profiling half of doc/import.md's workflow for any CUDA program, on
# the machine with the GPU: one Nsight Compute report of its first COUNT launches (the
# SourceCounters section and `pnsim import --metrics`), the report's raw and source pages,
# and the same launches' kernel durations by CUPTI (examples/measure/pn_ktime.c), RUNS runs.
#
#   bash examples/measure/profile_app.sh OUTDIR NAME COUNT PROGRAM [ARGS...]
#
# writes OUTDIR/NAME.raw.csv, NAME.source.csv.xz, NAME.t1.csv ... NAME.t<RUNS>.csv,
# NAME.replay (the replay mode the report was taken with) and NAME.log (ncu's and the
# program's output), which is what examples/common/import_compare.sh --dir imports and
# compares (anywhere, pnsim alone):
#
#   PN_FLUSHED=1 bash examples/common/import_compare.sh --dir OUTDIR WORKDIR
#
# Environment:
#   PN_REPLAY   ncu's --replay-mode (default application: every pass runs the whole
#               program, so each finds the caches as the program's earlier launches left
#               them; import with --flushed). kernel for a kernel timed launched again and
#               again (import without --flushed). When application replay fails and
#               PN_REPLAY is not set (a program that launches other kernels or grids from
#               run to run), the program is profiled again with kernel replay and
#               NAME.replay says so: import_compare.sh then imports it without --flushed.
#   PN_CACHE    ncu's --cache-control (default none; all when the times are of launches
#               after a flush, doc/import.md's table)
#   PN_METRICS  the metric list (default: examples/measure/metrics.txt, what `pnsim import
#               --metrics` prints; a test keeps them equal, so no pnsim build is needed here)
#   PN_RUNS     timed runs (default 3)
#   PN_KTIME    a built libpn_ktime.so (default: built here from pn_ktime.c, with nvcc)
# The program runs in the current folder, once a replay pass with application replay (some
# 40 times) and once a timed run. A program that fails under ncu leaves no pages; a timed run
# that fails leaves no times file of its own. Exit status 1 when ncu failed.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/examples/common/suite.sh"
if [ $# -lt 4 ]; then
    pn_suite_usage "$0"
    exit 2
fi
out=$(mkdir -p "$1" && cd "$1" && pwd)
name=$2
count=$3
shift 3
case $count in *[!0-9]* | '') echo "profile_app.sh: COUNT must be a number of launches, not '$count'" >&2; exit 2;; esac
pn_suite_scratch
ktime=${PN_KTIME:-}
if [ -z "$ktime" ]; then
    pn_suite_ktime "$work"
    ktime=$work/libpn_ktime.so
fi
rm -f "$out/$name".raw.csv "$out/$name".source.csv.xz "$out/$name".t*.csv "$out/$name".replay
echo "$name: profiling $count launches (ncu's output: $out/$name.log)" >&2
profile() { # replay mode, then the program
    local mode=$1
    shift
    ncu --section SourceCounters --metrics "$metrics" --replay-mode "$mode" \
        --cache-control "${PN_CACHE:-none}" --clock-control none -c "$count" -f -o "$work/$name" "$@"
}
replay=${PN_REPLAY:-application}
if ! profile "$replay" "$@" > "$out/$name.log" 2>&1; then
    # a program whose passes differ (other kernels or grids from run to run) fails
    # application replay: kernel replay still profiles it, for an import without --flushed
    profiled=0
    if [ -z "${PN_REPLAY:-}" ]; then
        echo "$name: application replay failed (see $out/$name.log); profiling with kernel replay" >&2
        replay=kernel
        profile kernel "$@" >> "$out/$name.log" 2>&1 && profiled=1
    fi
    if [ $profiled = 0 ]; then
        echo "$name: the program failed under ncu (see $out/$name.log); skipped" >&2
        exit 1
    fi
fi
echo "$replay" > "$out/$name.replay"
ncu -i "$work/$name.ncu-rep" --csv --page raw --print-metric-instances details \
    --print-units base --metrics "$metrics" > "$out/$name.raw.csv"
ncu -i "$work/$name.ncu-rep" --csv --page source --print-source sass > "$work/$name.source.csv"
xz -9 -c "$work/$name.source.csv" > "$out/$name.source.csv.xz"
for i in $(seq 1 "${PN_RUNS:-3}"); do
    echo "$name: timed run $i of ${PN_RUNS:-3}" >&2
    if ! PN_KTIME_COUNT=$count PN_KTIME_OUT="$out/$name.t$i.csv" CUDA_INJECTION64_PATH="$ktime" \
        "$@" >> "$out/$name.log" 2>&1; then
        echo "$name: timed run $i failed (see $out/$name.log); its profile is kept" >&2
        rm -f "$out/$name.t$i.csv"
    fi
done
