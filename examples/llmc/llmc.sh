#!/usr/bin/env bash
# llmc.sh - profile and time kernels nobody on the project wrote: the versions of
# llm.c's dev/cuda programs (https://github.com/karpathy/llm.c), each run as its
# author runs it (`./layernorm_forward 3`: check every block size, then time each
# one over 1000-2000 launches, the L2 scrubbed by a memset before each), with the
# documented workflow (doc/import.md) and nothing changed in the programs.
#
#   bash examples/llmc/llmc.sh LLMC_DIR OUTDIR [PROGRAM:V1,V2,... ...]
#
# LLMC_DIR is a checkout of llm.c (its dev/cuda); the default programs and versions
# are those below. Per program and version (NAME = PROGRAM-V) OUTDIR gets:
#   NAME.calls.csv  the launches that check the block sizes, call by call, each with
#                 the median duration (CUPTI, examples/measure/pn_ktime.c) of the timed
#                 launches of its kernel, threads and blocks (llmc_calls.py)
#   NAME.raw.csv, NAME.source.csv.xz  ncu's two pages of those launches, profiled with
#                 the caches flushed, as the program times them
#   NAME.times.csv  the same launches as pnsim compare --durations reads them
#   NAME.log      the program's output
# and env.txt (GPU, driver, tools, date, llm.c commit). Needs nvcc, ncu, CUPTI and python3.
set -euo pipefail
src=$(cd "$1/dev/cuda" && pwd)
out=$(mkdir -p "$2" && cd "$2" && pwd)
shift 2
here=$(cd "$(dirname "$0")/../.." && pwd)
arch=${PN_ARCH:-sm_90}
metrics=${PN_METRICS:-$(cat "$here/examples/measure/metrics.txt")}
progs=("$@")
[ ${#progs[@]} -gt 0 ] || progs=(layernorm_forward:1,2,3,4,5,6 gelu_forward:1,2 residual_forward:1,2
    encoder_forward:1,2,3 fused_residual_forward:1,2,3,4,5,6 matmul_backward_bias:1,2,3,4,5,6,7,8
    global_norm:1,2,3,4 gelu_backward:1,2 crossentropy_forward:1 softmax_forward:1,2,3,4,5,6,7,8)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
{ nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv,noheader
  nvcc --version | tail -1; ncu --version | tail -1; date -u +%Y-%m-%dT%H:%MZ
  echo "llm.c $(git -C "$1" rev-parse HEAD 2>/dev/null || echo '(not a git checkout)')"; } > "$out/env.txt"
nvcc -O2 -shared -Xcompiler -fPIC -o "$work/libpn_ktime.so" "$here/examples/measure/pn_ktime.c" \
    -lcupti -lstdc++
# build as llm.c's dev/cuda/Makefile does, for this GPU, with line information
for pv in "${progs[@]}"; do
    p=${pv%%:*}
    nvcc -O3 --use_fast_math -arch="$arch" -lineinfo -std=c++17 -o "$work/$p" "$src/$p.cu" \
        -lcublas -lcublasLt > "$work/$p.build.log" 2>&1 &
done
wait
calls=$here/examples/llmc/llmc_calls.py
for pv in "${progs[@]}"; do
    p=${pv%%:*}
    if [ ! -x "$work/$p" ]; then
        echo "$p: build failed:" >&2; tail -3 "$work/$p.build.log" >&2; continue
    fi
    vers=${pv#*:}
    for k in ${vers//,/ }; do
        n=$p-$k
        if ! (cd "$work" && PN_KTIME_OUT="$work/$n.kt.csv" \
              CUDA_INJECTION64_PATH="$work/libpn_ktime.so" "./$p" "$k") > "$out/$n.log" 2>&1; then
            echo "$n: the program failed (see $out/$n.log); skipped" >&2; continue
        fi
        python3 "$calls" calls "$work/$n.kt.csv" "$out/$n.log" > "$out/$n.calls.csv"
        c=$(python3 "$calls" count "$out/$n.calls.csv")
        echo "$n: profiling $c launches" >&2
        if ! (cd "$work" && ncu --section SourceCounters --metrics "$metrics" --cache-control all \
              --clock-control none -c "$c" -f -o "$work/$n" "./$p" "$k") >> "$out/$n.log" 2>&1; then
            echo "$n: the program failed under ncu (see $out/$n.log); skipped" >&2; continue
        fi
        ncu -i "$work/$n.ncu-rep" --csv --page raw --print-metric-instances details \
            --print-units base --metrics "$metrics" > "$out/$n.raw.csv"
        ncu -i "$work/$n.ncu-rep" --csv --page source --print-source sass | xz -9 > "$out/$n.source.csv.xz"
        python3 "$calls" times "$out/$n.calls.csv" > "$out/$n.times.csv"
    done
done
echo "llmc: done, $out" >&2
