#!/usr/bin/env bash
# hecbench.sh - profile and time CUDA programs nobody on the project wrote: 39 programs of
# HeCBench in three batches (https://github.com/zjin-lcf/HeCBench, src/<name>-cuda; their sources are not
# part of pnsim), exactly as doc/import.md tells a user to (ncu's SourceCounters report with
# application replay, its raw and source pages; kernel durations by
# examples/measure/pn_ktime.c, three runs).
#
#   bash examples/hecbench/hecbench.sh HECBENCH_SRC OUTDIR [NAME...]   # on the GPU machine
#   bash examples/hecbench/evaluate.sh OUTDIR                          # anywhere
#
# HECBENCH_SRC is HeCBench's src folder (or a folder holding the <name>-cuda folders below);
# jenkins-hash, su3 and thomas take the block size as an argument and are run at 64, 128,
# 256, 512 and 1024 threads a block (<name>_t<threads>). The first batch (adam .. nbody,
# jenkins-hash) is examples/data/h100/hecbench, the second (rmsnorm .. layout, su3)
# examples/data/h100/hecbench2, the third (threadfence .. bscan, thomas)
# examples/data/h100/hecbench3.
# Each program is built as its Makefile builds it (nvcc -std=c++17 -O3), for the GPU's own
# architecture (PN_ARCH, default sm_90), with no edit; inputs are the programs' own
# generators at sizes that keep a run short (ncu runs the whole program once a pass). Each
# is profiled for its first PN_COUNT launches (default: below per program) and timed for
# the same launches. NAME... profiles only those programs (default: all). Left out: md and
# black-scholes (their CPU checks take seconds a run, some 40 runs under application
# replay), and filter and gamma-correction, whose block size is an argument too (past 45 s a
# run under ncu). Writes OUTDIR/<name>.{raw.csv,source.csv.xz,t1.csv,t2.csv,t3.csv,replay,log}
# and OUTDIR/env.txt. PN_TIMEOUT (default 150) caps one program's profiling and timing, in seconds.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/examples/common/suite.sh"
if [ $# -lt 2 ]; then
    pn_suite_usage "$0"
    exit 2
fi
src=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
arch=${PN_ARCH:-sm_90}
pn_suite_begin "$out"
B=$work/bin
pn_suite_ktime "$B"

# name, launches, source files, arguments (the program's own, smaller than its Makefile's
# `run` target where that would take minutes under ncu)
programs=(
    "babelstream|10|main.cu|--arraysize 16777216 --numtimes 2"
    "matrixT|12|main.cu|4096 4096 2"
    "convolution1D|12|main.cu|4194304 2"
    "bsearch|12|main.cu|4194304 2"
    "softmax|6|main.cu|16384 784 0 2"
    "softmax_shared|6|main.cu|16384 784 1 2"
    "heat2d|10|main.cu|2048 2048 5"
    "scan|12|main.cu|16777216 2"
    "stencil1d|6|stencil_1d.cu|16777216 2"
    "adam|10|main.cu|1048576 10 1"
    "gemv|12|main.cu gemv.cu|-s 4096 -i 2 -x 128 -y 8"
    "mandelbrot|6|main.cu|2"
    "nbody|6|main.cu GSimulation.cu|8192 3"
    # the second batch (examples/data/h100/hecbench2), chosen 2026-11-28 from a survey of
    # 41 programs' sources for their build, arguments and CPU checks, before any was run
    "rmsnorm|6|main.cu|512 12288 1"
    "silu|10|main.cu|8 32 128 128 1"
    "groupnorm|6|main.cu|16 128 64 64 32 3"
    "histogram|8|histogram_compare.cu|--i=2 --width=3840 --height=2160"
    "entropy|6|main.cu|2048 1024 6"
    "perplexity|6|main.cu|32768 16 6"
    "popcount|12|main.cu|2097152 2"
    "relu|6|main.cu|8388608 3"
    "laplace3d|6|main.cu|256 256 256 11 0"
    "stencil3d|6|main.cu|128 12"
    "pool|6|main.cu|4 48 224 224 54 54 6"
    "layout|6|main.cu|3"
    # the third batch (examples/data/h100/hecbench3), chosen the same way from 56 more
    "threadfence|10|main.cu|10 4000000"
    "attention|10|main.cu|16384 1024 2 5"
    "rowwiseMoments|10|main.cu|64 64 64 64 8 10"
    "bincount|10|main.cu|1000000 5"
    "scatterAdd|12|main.cu|2000000 32 8 10"
    "dp4a|12|main.cu|4194304 10"
    "murmurhash3|10|murmurhash3.cu|20000 10"
    "hellinger|8|main.cu|8"
    "expdist|10|main.cu|4096 5"
    "wyllie|10|main.cu|500000 1 9"
    "bscan|12|main.cu|2"
)
# programs whose block size is an argument (BS): each run at 64 to 1024 threads a block as
# <name>_t<threads>, for the block size pnsim picks (examples/polybench/picks.py)
sweeps=(
    "jenkins-hash|6|main.cu|BS 1048576 2"
    "su3|4|-DMILC_COMPLEX su3_nn_bench.cu|-i 3 -w 1 -l 16 -t BS -v 1"
    "thomas|8|main.cu cuThomasBatch.cu|128 32768 BS 8"
)
for row in "${sweeps[@]}"; do
    IFS='|' read -r name count files args <<< "$row"
    for bs in 64 128 256 512 1024; do
        programs+=("${name}_t$bs|$count|$files|${args/BS/$bs}")
    done
done
want=" $* "
for row in "${programs[@]}"; do
    IFS='|' read -r name count files args <<< "$row"
    [ $# -eq 0 ] || [[ $want == *" $name "* ]] || continue
    base=${name%_shared}
    dir=$src/${base%_t*}-cuda
    mkdir -p "$work/$name"
    # shellcheck disable=SC2086
    if ! (cd "$dir" && nvcc -std=c++17 -O3 -arch="$arch" -w -o "$work/$name/main" $files) \
        > "$out/$name.build.log" 2>&1; then
        echo "$name: does not build (see $out/$name.build.log); skipped" >&2
        continue
    fi
    echo "$name: $args" >&2
    # shellcheck disable=SC2086
    (cd "$work/$name" && PN_METRICS="$metrics" PN_KTIME="$B/libpn_ktime.so" \
        timeout "${PN_TIMEOUT:-150}" bash "$here/examples/measure/profile_app.sh" \
        "$out" "$name" "${PN_COUNT:-$count}" ./main $args) || echo "$name: failed or timed out" >&2
done
echo "hecbench: done, $out" >&2
