#!/bin/bash
cd "$(dirname "$0")/.."
B=/tmp/pb; mkdir -p $B
NV=nvcc; command -v nvcc >/dev/null || NV=/usr/local/cuda/bin/nvcc
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
$NV -O3 -arch=sm_90 -lineinfo -o $B/cas examples/probe/cas.cu || exit 2
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader; } > $OUT/env.txt
for r in 1 2; do $B/cas 1975.9; done > $OUT/cas.csv 2>&1
$NCU --cache-control none -k regex:pn_spread --metrics lts__d_atomic_input_cycles_active.max,lts__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_requests_op_atom.sum,lts__t_sectors_op_atom.sum,lts__t_requests_op_red.sum,lts__t_sectors_op_red.sum,lts__t_sectors.sum,lts__t_requests.sum --csv $B/cas 1975.9 1 > $OUT/cas_ncu.csv 2>&1
cat $OUT/cas.csv | cut -c1-60
