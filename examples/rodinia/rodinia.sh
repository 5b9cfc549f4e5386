#!/usr/bin/env bash
# rodinia.sh - profile, time and import CUDA applications nobody on the project wrote: ten
# programs of the Rodinia benchmark suite (https://github.com/yuhc/gpu-rodinia, CUDA
# folder), exactly as doc/import.md tells a user to (ncu's SourceCounters report, its raw
# and source pages; kernel durations by examples/measure/pn_ktime.c, three runs).
#
#   bash examples/rodinia/rodinia.sh RODINIA_DIR OUTDIR     # on a machine with the GPU
#   bash examples/rodinia/evaluate.sh OUTDIR                 # anywhere: import + compare
#
# RODINIA_DIR is a clone of gpu-rodinia (its sources are not part of pnsim). The programs
# are built with nvcc -O3 for the GPU's own architecture (PN_ARCH, default sm_90), after
# three edits CUDA 12 and later need (cudaThreadSynchronize and two cudaDeviceProp fields
# are gone); kmeans (texture references, also gone) and srad_v2 (its launch fails under
# ncu) are left out. Inputs: the programs' own generators and random files written here
# (hotspot's temperature and power grids, a random graph of 1M nodes for bfs). Every
# program is profiled for its first PN_COUNT launches (default: below per program) and
# timed for the same launches. Writes OUTDIR/<program>.{raw.csv,source.csv.xz,
# t1.csv,t2.csv,t3.csv,log} and OUTDIR/env.txt. The metric list is $PN_METRICS or
# examples/measure/metrics.txt (`pnsim import --metrics`). PN_CACHE (default none) is ncu's --cache-control: all
# flushes the caches before every pass (each launch then reads its data as the first time).
# PN_REPLAY (default application) is ncu's --replay-mode: application runs the whole program
# once a pass, so every pass finds the caches as the program's own flow leaves them
# (examples/data/h100/rodinia and rodinia_flush were taken with kernel replay, before it was
# the default; rodinia_app with application replay). The profiling and timing are
# examples/measure/profile_app.sh's.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/examples/common/suite.sh"
if [ $# -lt 2 ]; then
    pn_suite_usage "$0"
    exit 2
fi
src=$(cd "$1" && pwd)/cuda
out=$(mkdir -p "$2" && cd "$2" && pwd)
arch=${PN_ARCH:-sm_90}
pn_suite_begin "$out"

# --- build ---------------------------------------------------------------------------------
cp -r "$src" "$work/src"
cd "$work/src"
sed -i '/deviceProp.clockRate\|deviceProp. deviceOverlap/d' gaussian/gaussian.cu
N="nvcc -O3 -arch=$arch -w -DcudaThreadSynchronize=cudaDeviceSynchronize"
B=$work/bin
pn_suite_ktime "$B"
$N -o "$B/backprop" backprop/backprop.c backprop/facetrain.c backprop/imagenet.c \
    backprop/backprop_cuda.cu -lm
$N -o "$B/gaussian" gaussian/gaussian.cu
(cd lud/cuda && $N -use_fast_math -I../common -o "$B/lud" lud.cu lud_kernel.cu ../common/common.c)
$N -o "$B/needle" nw/needle.cu
$N -o "$B/pathfinder" pathfinder/pathfinder.cu
$N -o "$B/hotspot" hotspot/hotspot.cu
(cd lavaMD && $N -Xcompiler -fopenmp -o "$B/lavaMD" main.c kernel/kernel_gpu_cuda_wrapper.cu \
    util/num/num.c util/timer/timer.c util/device/device.cu -lgomp)
$N -use_fast_math -o "$B/particlefilter" particlefilter/ex_particle_CUDA_float_seq.cu
$N -o "$B/bfs" bfs/bfs.cu
$N -o "$B/sc_gpu" streamcluster/streamcluster_cuda_cpu.cpp streamcluster/streamcluster_cuda.cu \
    streamcluster/streamcluster_header.cu

# --- inputs --------------------------------------------------------------------------------
cd "$work"
awk 'BEGIN{srand(1); for(i=0;i<1024*1024;i++) printf "%.4f\n", 320+20*rand()}' > temp_1024
awk 'BEGIN{srand(2); for(i=0;i<1024*1024;i++) printf "%.6f\n", 0.001*rand()}' > power_1024
awk 'BEGIN{srand(3); n=1000000; e=6; print n; for(i=0;i<n;i++) print i*e, e; print 0;
     print n*e; for(i=0;i<n*e;i++) print int(rand()*n), int(1+rand()*10)}' > graph1M

# --- profile (doc/import.md) and time (pn_ktime, three runs) -------------------------------
app() { # name launches command...: examples/measure/profile_app.sh
    local n=$1 c=${PN_COUNT:-$2}
    shift 2
    PN_METRICS="$metrics" PN_KTIME="$B/libpn_ktime.so" PN_REPLAY="${PN_REPLAY:-application}" \
        bash "$here/examples/measure/profile_app.sh" "$out" "$n" "$c" "$@" || true
}
app backprop 10 "$B/backprop" 65536
app gaussian 30 "$B/gaussian" -s 2048
app lud 30 "$B/lud" -s 2048
app nw 30 "$B/needle" 4096 10
app pathfinder 10 "$B/pathfinder" 100000 100 20
app hotspot 10 "$B/hotspot" 1024 2 20 temp_1024 power_1024 hotspot.out
app lavaMD 4 "$B/lavaMD" -boxes1d 10
app particlefilter 30 "$B/particlefilter" -x 128 -y 128 -z 10 -np 100000
app bfs 30 "$B/bfs" graph1M
app streamcluster 30 "$B/sc_gpu" 10 20 256 65536 65536 1000 none streamcluster.out 1
echo "rodinia: done, $out" >&2
