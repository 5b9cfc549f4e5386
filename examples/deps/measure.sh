#!/usr/bin/env bash
# measure.sh - time and profile a CUDA program the way `pnsim import --source` reads it:
# Nsight Compute's SourceCounters section plus pnsim's metric list into one report, then
# the report's raw page (metrics) and source page (SASS with per-instruction counts).
#
#   bash examples/deps/measure.sh OUTDIR NAME BINARY [ARGS...]
#
# Writes OUTDIR/NAME.times.csv (BINARY ARGS --launches 40: the program's own timing rows,
# '#' header facts first), OUTDIR/NAME.ncu-rep, NAME.raw.csv, NAME.source.csv,
# NAME.launches.csv (the program's --launch-log in profiling mode, --launches 0) and
# NAME.log. The metric list is $PN_METRICS or the output of `pnsim import --metrics`.
# BINARY must accept --launches N and --launch-log FILE as examples/deps/deps.cu does.
set -uo pipefail
out=$1 name=$2 bin=$3
shift 3
mkdir -p "$out"
log="$out/$name.log"
metrics=${PN_METRICS:-$(pnsim import --metrics)}
q=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version
{
  echo "# gpu, sm clock, max sm clock, mem clock, driver: $(nvidia-smi --query-gpu=$q --format=csv,noheader | head -1)"
  echo "# cuda: $(nvcc --version | grep -i release | sed 's/^ *//')"
  echo "# ncu: $(ncu --version | tail -1)"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# command: $bin $* --launches 40 (median of 40 launches after 5 warm-up, CUDA events, L2 not flushed)"
  "$bin" --info
  echo "kernel,size,threads,blocks,registers,shared_bytes,median_us,p10_us,p90_us,launches"
  "$bin" "$@" --launches 40
} >"$out/$name.times.csv" 2>"$log" || echo "timing failed" >>"$log"
echo "kernel,size,threads,blocks" >"$out/$name.launches.csv"
# The documented workflow (doc/import.md): one report with both, then its two pages.
ncu --section SourceCounters --metrics "$metrics" --cache-control none --clock-control none \
    -f -o "$out/$name" "$bin" "$@" --launches 0 --launch-log "$out/$name.launches.csv" >>"$log" 2>&1 ||
  echo "ncu failed" >>"$log"
ncu -i "$out/$name.ncu-rep" --csv --page raw --print-metric-instances details --print-units base \
    --metrics "$metrics" >"$out/$name.raw.csv" 2>>"$log"
ncu -i "$out/$name.ncu-rep" --csv --page source --print-source sass >"$out/$name.source.csv" 2>>"$log"
echo "done: $(grep -c . "$out/$name.times.csv") timing lines, $(($(wc -l <"$out/$name.launches.csv") - 1)) launches" >>"$log"
