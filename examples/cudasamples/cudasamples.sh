#!/usr/bin/env bash
# cudasamples.sh - profile and time 17 programs of NVIDIA's CUDA samples
# (https://github.com/NVIDIA/cuda-samples, Samples/), programs nobody on the project wrote,
# exactly as doc/import.md tells a user: examples/measure/profile_app.sh for each (ncu's
# SourceCounters report with application replay, its raw and source pages, three timed runs
# of the same launches by examples/measure/pn_ktime.c).
#
#   bash examples/cudasamples/cudasamples.sh SAMPLES_DIR OUTDIR     # on the GPU machine
#   bash examples/cudasamples/evaluate.sh OUTDIR WORKDIR            # anywhere: import + compare
#
# PN_SET=2 takes the second set instead: 22 more programs (textures, tensor cores, cp.async,
# cooperative groups, CUDA graphs, cuBLAS, cuFFT, cuRAND, Thrust), into the same OUTDIR layout.
# SAMPLES_DIR is a clone of cuda-samples (its sources are not part of pnsim). Each program is
# built from its own folder with nvcc -O3 for the GPU's architecture (PN_ARCH, default sm_90)
# and the samples' Common/ headers, no edit, and runs with its own defaults (its own random
# inputs). Every program is profiled for its first PN_COUNT launches (default: below per
# program; the samples time a kernel launched again and again, so the first launches show
# each kernel of the program). Writes OUTDIR/<program>.{raw.csv,source.csv.xz,t1.csv,t2.csv,
# t3.csv,log} and OUTDIR/env.txt. The metric list is $PN_METRICS or
# examples/measure/metrics.txt, PN_REPLAY and PN_CACHE as profile_app.sh takes them. Left out: programs that
# need OpenGL, input files the clone does not hold (dwtHaar1D's signal, eigenvalues'
# matrices: eigenvalues fails its assertion without them) or several GPUs.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
. "$here/examples/common/suite.sh"
if [ $# -ne 2 ]; then
    pn_suite_usage "$0"
    exit 2
fi
src=$(cd "$1" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
arch=${PN_ARCH:-sm_90}
pn_suite_begin "$out"

# --- build: each sample's .cu and .cpp files (FDTD3d's in src/, its headers in inc/) ------
B=$work/bin
pn_suite_ktime "$B"
build() { # name folder (under Samples/) [libraries...]
    local n=$1 d=$src/Samples/$2
    shift 2
    if [ -d "$d/src" ]; then
        nvcc -O3 -arch="$arch" -w -I"$src/Common" -I"$d/inc" -o "$B/$n" "$d"/src/*.cu \
            $(ls "$d"/src/*.cpp 2>/dev/null) "$@"
    else
        nvcc -O3 -arch="$arch" -w -I"$src/Common" -I"$d" -o "$B/$n" $(ls "$d"/*.cu "$d"/*.cpp 2>/dev/null) "$@"
    fi
    # input files a sample reads from ./data (dct8x8, dxtc)
    if [ -d "$d/data" ]; then mkdir -p "$work/data" && cp "$d"/data/* "$work/data/"; fi
}
I=0_Introduction C=2_Concepts_and_Techniques F=3_CUDA_Features L=4_CUDA_Libraries
D=5_Domain_Specific P=6_Performance
# name:folder:launches profiled[:library]
if [ "${PN_SET:-1}" = 2 ]; then
progs="vectorAdd:$I:1 fp16ScalarProduct:$I:4 alignedTypes:$P:40 warpAggregatedAtomicsCG:$F:6
binaryPartitionCG:$F:2 reductionMultiBlockCG:$C:4 convolutionTexture:$C:6
globalToShmemAsyncCopy:$F:8 cudaTensorCoreGemm:$F:2 tf32TensorCoreGemm:$F:2
bf16TensorCoreGemm:$F:2 MC_EstimatePiInlineP:$C:4 interval:$C:2 radixSortThrust:$C:12
matrixMulCUBLAS:$L:4:cublas simpleCUFFT:$L:6:cufft lineOfSight:$L:10 dct8x8:$C:20 dxtc:$D:4
MonteCarloMultiGPU:$D:4:curand jacobiCudaGraphs:$F:10 MC_SingleAsianOptionP:$C:4"
else
progs="matrixMul:$I:6 mergeSort:$I:20 convolutionSeparable:$C:20 histogram:$C:40
reduction:$C:20 scan:$C:30 sortingNetworks:$C:40 scalarProd:$C:2 shfl_scan:$C:10
threadFenceReduction:$C:12 BlackScholes:$D:4 binomialOptions:$D:3 fastWalshTransform:$D:20
FDTD3d:$D:6 SobolQRNG:$D:2 quasirandomGenerator:$D:12 transpose:$P:24"
fi
for p in $progs; do
    IFS=: read -r n f c lib <<< "$p"
    echo "cudasamples: building $n" >&2
    build "$n" "$f/$n" ${lib:+-l$lib} &
done
wait

# --- profile and time (examples/measure/profile_app.sh) ------------------------------------
cd "$work"
for p in $progs; do
    IFS=: read -r n f c lib <<< "$p"
    PN_METRICS="$metrics" PN_KTIME="$B/libpn_ktime.so" \
        bash "$here/examples/measure/profile_app.sh" "$out" "$n" "${PN_COUNT:-$c}" "$B/$n" || true
done
echo "cudasamples: done, $out" >&2
