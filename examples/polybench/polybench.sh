#!/usr/bin/env bash
# polybench.sh - profile, time and import CUDA kernels nobody on the project wrote: the
# PolyBench/GPU benchmarks of PolyBench-ACC (https://github.com/cavazos-lab/PolyBench-ACC,
# CUDA folder), each built at three block sizes (128, 256 and 512 threads), exactly as
# doc/import.md tells a user to (ncu's SourceCounters report, its raw and source pages;
# kernel durations by examples/measure/pn_ktime.c, three runs).
#
#   bash examples/polybench/polybench.sh POLYBENCH_ACC_DIR OUTDIR [BENCH...]   # GPU machine
#   bash examples/polybench/evaluate.sh OUTDIR                                 # import + compare
#
# POLYBENCH_ACC_DIR is a clone of PolyBench-ACC (its sources are not part of pnsim). Every
# benchmark is built with nvcc -O3 for the GPU's architecture (PN_ARCH, default sm_90) at
# the dataset sizes listed below, without its CPU reference run (RUN_ON_CPU), and with each of its
# DIM_THREAD_BLOCK_* shapes scaled to 128, 256 and 512 threads (a block of 32 x 8 becomes
# 32 x 4, 32 x 8 and 32 x 16; one of 256 x 1 becomes 128, 256 and 512 x 1): program
# <bench>_t<threads>. Each program's first PN_COUNT (default 6) launches are profiled and
# timed. Writes OUTDIR/<program>.{raw.csv,source.csv.xz,t1.csv,t2.csv,t3.csv,log} and
# OUTDIR/env.txt. BENCH names a subset (default: all below), PN_THREADS the block sizes
# (default "128 256 512"). The metric list is
# $PN_METRICS or examples/measure/metrics.txt (`pnsim import --metrics`); PN_CACHE (default none) is ncu's
# --cache-control, PN_REPLAY (default application) its --replay-mode; the profiling and
# timing are examples/measure/profile_app.sh's. (examples/data/h100/polybench was taken with
# kernel replay, before it was the default; polybench_app with application replay.)
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/examples/common/suite.sh"
if [ $# -lt 2 ]; then
    pn_suite_usage "$0"
    exit 2
fi
src=$(cd "$1" && pwd)/CUDA
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
arch=${PN_ARCH:-sm_90}
# benchmark:dataset, at sizes that keep a launch within about 20 ms (ncu replays each
# launch some 40 times); the first come first, as a time limit may stop the run
all="linear-algebra/kernels/atax:STANDARD linear-algebra/kernels/bicg:STANDARD
     linear-algebra/kernels/mvt:STANDARD linear-algebra/kernels/gesummv:STANDARD
     linear-algebra/kernels/gemver:STANDARD linear-algebra/kernels/gemm:STANDARD
     linear-algebra/kernels/2mm:STANDARD linear-algebra/kernels/syrk:STANDARD
     stencils/convolution-2d:STANDARD stencils/convolution-3d:STANDARD
     stencils/fdtd-2d:STANDARD stencils/jacobi-2d-imper:STANDARD
     datamining/correlation:SMALL linear-algebra/solvers/gramschmidt:SMALL
     linear-algebra/solvers/lu:STANDARD stencils/adi:STANDARD stencils/jacobi-1d-imper:STANDARD
     linear-algebra/kernels/doitgen:STANDARD datamining/covariance:SMALL
     linear-algebra/kernels/syr2k:STANDARD linear-algebra/kernels/3mm:STANDARD"
want=" $* "
pn_suite_begin "$out"

# --- build: three block sizes a benchmark, in parallel -------------------------------------
B=$work/bin
pn_suite_ktime "$B"
progs=()
for e in $all; do
    d=${e%:*}
    b=$(basename "$d")
    [ $# -eq 0 ] || [[ "$want" == *" $b "* ]] || continue
    for t in ${PN_THREADS:-128 256 512}; do
        v=$work/src/${b}_t$t
        mkdir -p "$v"
        cp -r "$src/$d/." "$v/"
        # scale each block shape to t threads: its y when above 1, else its x
        for h in "$v"/*.cuh; do
            awk -v t=$t '
                $1 == "#define" && $2 ~ /^DIM_THREAD_BLOCK_([A-Z0-9_]*_)?X$/ { x[$2] = $3 }
                $1 == "#define" && $2 ~ /^DIM_THREAD_BLOCK_([A-Z0-9_]*_)?Y$/ { y[$2] = $3 }
                { line[NR] = $0 }
                END {
                    for (i = 1; i <= NR; i++) {
                        $0 = line[i]
                        if ($1 == "#define" && $2 ~ /^DIM_THREAD_BLOCK_([A-Z0-9_]*_)?[XY]$/) {
                            k = substr($2, 1, length($2) - 1)
                            bx = x[k "X"]; by = y[k "Y"]
                            if (by > 1) by = by * t / (bx * by); else bx = bx * t / (bx * by)
                            print "#define " $2 " " ($2 ~ /X$/ ? bx : by)
                        } else
                            print
                    }
                }' "$h" > "$h.new"
            mv "$h.new" "$h"
        done
        sed -i 's/^#define RUN_ON_CPU/\/\/ (no CPU reference)/' "$v"/*.cu
        echo "${e#*:}" > "$v/dataset"
        progs+=("${b}_t$t")
    done
done
cp -r "$src/utilities" "$work/utilities"
printf '%s\n' "${progs[@]}" | xargs -P 16 -I{} sh -c \
    "cd '$work/src/{}' && nvcc -O3 -arch=$arch -w -D\$(cat dataset)_DATASET -DcudaThreadSynchronize=cudaDeviceSynchronize -I'$work/utilities' \
        -o '$B/{}' *.cu > '$work/{}.build.log' 2>&1 || echo '{}: build failed' >&2"

# --- profile (doc/import.md) and time (pn_ktime, three runs) -------------------------------
c=${PN_COUNT:-6}
for n in "${progs[@]}"; do
    [ -x "$B/$n" ] || continue
    PN_METRICS="$metrics" PN_KTIME="$B/libpn_ktime.so" PN_REPLAY="${PN_REPLAY:-application}" \
        bash "$here/examples/measure/profile_app.sh" "$out" "$n" "$c" "$B/$n" || true
done
echo "polybench: done, $out" >&2
