#!/usr/bin/env bash
# warm_vs_flushed.sh - the same launches profiled with the L2 flushed and warm: ncu's
# duration and DRAM traffic of three llm.c dev/cuda programs at each block size, with
# --cache-control all and none (examples/data/h100/llmc/warm_vs_flushed.log).
#
#   bash examples/llmc/warm_vs_flushed.sh LLMC_DIR OUTDIR
set -euo pipefail
src=$(cd "$1/dev/cuda" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for p in gelu_forward residual_forward layernorm_forward; do
    nvcc -O3 --use_fast_math -arch="${PN_ARCH:-sm_90}" -std=c++17 -o "$work/$p" "$src/$p.cu" \
        -lcublas -lcublasLt &
done
wait
M=gpu__time_duration.sum,dram__sectors_read.sum,dram__sectors_write.sum,sm__cycles_elapsed.max
for p in "gelu_forward 2" "residual_forward 2" "layernorm_forward 3"; do
    for cc in all none; do
        (cd "$work" && ncu --metrics $M --cache-control $cc --clock-control none -c 6 --csv \
            --page raw --print-units base ./$p) > "$out/${p// /-}-$cc.csv" 2>/dev/null
    done
done
