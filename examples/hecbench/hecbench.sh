#!/usr/bin/env bash
# hecbench.sh - profile and time CUDA programs nobody on the project wrote: fourteen programs
# of HeCBench (https://github.com/zjin-lcf/HeCBench, src/<name>-cuda; their sources are not
# part of pnsim), exactly as doc/import.md tells a user to (ncu's SourceCounters report with
# application replay, its raw and source pages; kernel durations by
# examples/measure/pn_ktime.c, three runs).
#
#   bash examples/hecbench/hecbench.sh HECBENCH_SRC OUTDIR [NAME...]   # on the GPU machine
#   bash examples/hecbench/evaluate.sh OUTDIR                          # anywhere
#
# HECBENCH_SRC is HeCBench's src folder (or a folder holding the <name>-cuda folders below);
# jenkins-hash takes the block size as an argument and is run at 64, 128, 256, 512 and 1024
# threads a block (jenkins-hash_t<threads>).
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
if [ $# -lt 2 ]; then
    sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
src=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
arch=${PN_ARCH:-sm_90}
. "$here/examples/common/suite.sh"
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
)
# programs whose block size is an argument (BS): each run at 64 to 1024 threads a block as
# <name>_t<threads>, for the block size pnsim picks (examples/polybench/picks.py)
sweeps=(
    "jenkins-hash|6|main.cu|BS 1048576 2"
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
