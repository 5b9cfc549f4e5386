#!/usr/bin/env bash
# cold_stream.sh - run examples/probe/cold_stream.cu on the GPU, as
# examples/data/h100/cold_stream/ holds it: under ncu with --cache-control none
# (the program's own L2 states, one pass) and all (ncu's flush), then timed by
# CUPTI (examples/measure/pn_ktime.c), then the block stamps.
#
#   bash examples/probe/cold_stream.sh OUTDIR
#
# Summarise with `python3 examples/probe/cold_stream.py OUTDIR`. Needs nvcc, ncu and
# CUPTI; about 40 s on an H100.
set -euo pipefail
out=$(mkdir -p "$1" && cd "$1" && pwd)
here=$(cd "$(dirname "$0")/../.." && pwd)
b=${PN_BUILD:-/tmp/pn_cold_stream}
mkdir -p "$b"
nvcc -O3 -arch="${PN_ARCH:-sm_90}" -o "$b/cold_stream" "$here/examples/probe/cold_stream.cu"
nvcc -O2 -shared -Xcompiler -fPIC -o "$b/libpn_ktime.so" "$here/examples/measure/pn_ktime.c" \
    -lcupti -lstdc++
{ echo "# cold_stream.cu on $(hostname), $(date -u +%Y-%m-%dT%H:%MZ)"
  nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version \
      --format=csv,noheader
  ncu --version | tail -1; nvcc --version | tail -1; } > "$out/env.txt"
m=gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,sm__cycles_elapsed.max
m=$m,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
for cc in none all; do
    states="clean dirty dirtyall warm"
    [ $cc = all ] && states=none
    # shellcheck disable=SC2086
    ncu --metrics $m --cache-control $cc --clock-control none -k regex:^k_ --csv --page raw \
        --print-units base "$b/cold_stream" $states > "$out/ncu_$cc.csv"
    xz -f -9 "$out/ncu_$cc.csv"
done
PN_KTIME_OUT="$out/cupti.csv" CUDA_INJECTION64_PATH="$b/libpn_ktime.so" \
    "$b/cold_stream" clean dirty dirtyall warm > "$out/cupti.order"
"$b/cold_stream" stamps > "$out/stamps.txt"
