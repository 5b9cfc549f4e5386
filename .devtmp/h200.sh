#!/bin/bash
cd "$(dirname "$0")/.."
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
echo "gpu: $name"
case "$name" in *H200*) ;; *) echo "not an H200: stop"; exit 3;; esac
B=/tmp/pb; mkdir -p $B
NV=nvcc; command -v nvcc >/dev/null || NV=/usr/local/cuda/bin/nvcc
NCU=ncu; command -v ncu >/dev/null || NCU=/usr/local/cuda/bin/ncu
MHZ=$1
for p in unaligned cas row_store; do $NV -O3 -arch=sm_90 -lineinfo -o $B/$p examples/probe/$p.cu || exit 2; done
{ date -u; nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm,clocks.mem,driver_version --format=csv,noheader; $NV --version | tail -1; $NCU --version | tail -1; } > $OUT/env.txt
for r in 1 2; do $B/row_store $MHZ; done > $OUT/row_store.txt 2>&1
for r in 1 2; do $B/unaligned $MHZ; done > $OUT/unaligned.csv 2>&1
for r in 1 2; do $B/cas $MHZ; done > $OUT/cas.csv 2>&1
$NCU --cache-control none -k regex:pn_unaligned --metrics lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_write.sum,dram__sectors_read.sum,dram__sectors_write.sum,gpu__time_duration.sum,lts__cycles_elapsed.avg --csv $B/unaligned $MHZ 1 > $OUT/unaligned_ncu.csv 2>&1
$NCU --cache-control none -k regex:pn_cas --metrics lts__d_atomic_input_cycles_active.max,lts__cycles_elapsed.avg,gpu__time_duration.sum,lts__t_requests_op_atom.sum,lts__t_sectors_op_atom.sum,smsp__inst_executed_op_global_red.sum --csv $B/cas $MHZ 1 > $OUT/cas_ncu.csv 2>&1
echo done
