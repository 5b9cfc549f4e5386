#!/usr/bin/env bash
# measure.sh - build and run the regroup example on the local GPU.
#   bash examples/regroup/measure.sh bbv OUTDIR            BBV of the identity order + its time
#   bash examples/regroup/measure.sh time OUTDIR PERM.csv  time identity and every column of PERM.csv
# Writes OUTDIR/nvidia-smi.txt (GPU, clocks, driver, date), build.log, and bbv.csv or times.csv.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1; out=$2; mkdir -p "$out"
NVCC=${NVCC:-nvcc}; command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
build=${PN_BUILD:-/tmp/pn_regroup_build}; mkdir -p "$build"
smi() { { date -u '+# date %Y-%m-%dT%H:%M:%SZ'; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,driver_version,temperature.gpu --format=csv; } >>"$out/nvidia-smi.txt"; }
smi
"$NVCC" -O3 -arch=sm_90 -lineinfo -Xptxas -v "$here/regroup.cu" -o "$build/regroup" >"$out/build.log" 2>&1
if [[ $mode == bbv ]]; then
  "$NVCC" -O3 -arch=sm_90 -lineinfo -DPN_BBV "$here/regroup.cu" -o "$build/regroup_bbv" >>"$out/build.log" 2>&1
  "$build/regroup_bbv" --bbv "$out/bbv.csv" | tee "$out/bbv.log"
  "$build/regroup" | tee "$out/times.csv"
else
  "$build/regroup" --perm "$3" | tee "$out/times.csv"
fi
smi
nvidia-smi >>"$out/nvidia-smi.txt"
