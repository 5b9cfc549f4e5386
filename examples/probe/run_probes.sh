#!/usr/bin/env bash
# run_probes.sh - build the SM probe suite (examples/probe/probe.cu), run it on the local GPU
# and write OUTDIR/probe.csv (+ OUTDIR/probe.log). From the repository root:
#
#   bash examples/probe/run_probes.sh [OUTDIR]
#
# OUTDIR defaults to examples/data/<gpu>, <gpu> a short slug of the GPU name (h100 for any
# H100), as examples/measure/run_all.sh. Environment: PN_BUILD (build folder, default
# /tmp/pn_probe_build; the SASS of the probes goes there as probe.sass and loops.txt),
# PN_QUICK=1 (fewer repetitions: a smoke test), NVCC.
# probe.csv: '#' comment lines (GPU, nvidia-smi clocks before/after/during, driver, CUDA,
# nvcc, device properties, date, command), then `probe,value,unit,detail` and one row per
# probe. The run takes about 10-20 s on an H100. Exit status: the probe program's.
set -euo pipefail

t_start=$SECONDS
root=$(cd "$(dirname "$0")/../.." && pwd)
ex="$root/examples"
build=${PN_BUILD:-/tmp/pn_probe_build}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
NVFLAGS=(-O3 -arch=sm_90 -lineinfo -Xptxas -v)
note() { echo "[run_probes $((SECONDS - t_start))s] $*" >&2; }

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
slug=$(echo "${gpu_name:-unknown}" | tr 'A-Z' 'a-z' | sed -e 's/nvidia//g' -e 's/geforce//g' \
       -e 's/tesla//g' | awk '{ s = $1; if (s !~ /[0-9]/ && NF > 1) s = s $2; print s }')
slug=${slug:-unknown}
case "$slug" in h100*) slug=h100 ;; h200*) slug=h200 ;; esac
out=${1:-"$ex/data/$slug"}
mkdir -p "$out" "$build"
out=$(cd "$out" && pwd)
log="$out/probe.log"
: >"$log"
note "gpu '$gpu_name' -> $out, build in $build"

# ---- build, SASS ---------------------------------------------------------------------------
"$NVCC" "${NVFLAGS[@]}" "$ex/probe/probe.cu" -o "$build/probe" >"$build/build.log" 2>&1 || {
  cat "$build/build.log" >&2; note "BUILD FAILED"; exit 2; }
{ echo "== nvcc ${NVFLAGS[*]} examples/probe/probe.cu"; grep -E "Compiling entry|registers|spill" "$build/build.log"; } >>"$log"
if command -v cuobjdump >/dev/null; then
  cuobjdump -sass "$build/probe" >"$build/probe.sass" 2>&1 || true
  python3 "$ex/measure/sass_loops.py" "$build/probe.sass" >"$build/loops.txt" 2>&1 || true
  note "SASS in $build/probe.sass, loops in $build/loops.txt"
fi

# ---- run ------------------------------------------------------------------------------------
smi_q=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,driver_version
smi_before=$(nvidia-smi --query-gpu=$smi_q --format=csv,noheader 2>/dev/null | head -1 || echo n/a)
nvcc_ver=$("$NVCC" --version | grep -i release | sed 's/^ *//' || echo n/a)
clk=$(mktemp)
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader,nounits \
  -lms 200 >"$clk" 2>/dev/null &
clk_pid=$!
args=()
[[ "${PN_QUICK:-0}" == 1 ]] && args+=(--quick)
body=$(mktemp)
rc=0
note "running $build/probe ${args[*]}"
"$build/probe" "${args[@]}" >"$body" 2>>"$log" || rc=$?
# the probes of their own files, at the clock probe.cu measured: the rate at which an SM
# takes on blocks (block_launch), a sector read alone from DRAM (dram_random), scattered L2
# accesses (l2_access), streams, atomics on few lines and what stays in L2 between launches
# (rw_mix), DRAM latency under load (loaded_latency: examples/probe/fit_loaded.py fits the
# profile's dram_queue and dram_write_delay from its rows), what one SM moves to and from the
# L2 while few SMs are busy (sm_l2), the issue cost of arithmetic opcodes one at a time (alu_pipes),
# how long a block's slot turns over beyond its work (block_turn: measured, not in the profile),
# warp-level matrix multiply-accumulate (tensor), what divergence costs (diverge: measured, not
# in the profile), double-precision arithmetic (fp64), what an L1 miss that allocates costs the
# SM's port (l1_fill: measured, not in the profile), and what the L2 takes for a float4 stored
# a word at a time (store_split: the profile's store_merge, (4 x store_full128 / store_split4
# - 1) / 3, by hand)
clock=$(awk -F, '$1 == "clock_mhz" { print $2 }' "$body")
for p in block_launch dram_random l2_access rw_mix loaded_latency sm_l2 alu_pipes block_turn tensor diverge fp64 l1_fill store_split; do
  "$NVCC" -O3 -arch=sm_90 -std=c++17 "$ex/probe/$p.cu" -o "$build/$p" >>"$build/build.log" 2>&1 ||
    { note "$p BUILD FAILED"; rc=2; continue; }
  note "running $build/$p"
  "$build/$p" "${clock:-1980}" | grep -v '^#' >>"$body" 2>>"$log" || rc=$?
done
kill "$clk_pid" 2>/dev/null || true
wait "$clk_pid" 2>/dev/null || true
smi_after=$(nvidia-smi --query-gpu=$smi_q --format=csv,noheader 2>/dev/null | head -1 || echo n/a)
clk_sum=n/a
if grep -q '^[0-9]' "$clk"; then
  sm_s=$(awk -F', *' '$1 ~ /^[0-9]/ { print $1 }' "$clk" | sort -n)
  mem_s=$(awk -F', *' '$1 ~ /^[0-9]/ { print $2 }' "$clk" | sort -n)
  tmax=$(awk -F', *' '$1 ~ /^[0-9]/ { print $3 }' "$clk" | sort -n | tail -1)
  n=$(echo "$sm_s" | wc -l); mid=$(((n + 1) / 2))
  clk_sum="samples=$n every 200 ms; sm min/median/max $(echo "$sm_s" | head -1)/$(echo "$sm_s" | sed -n "${mid}p")/$(echo "$sm_s" | tail -1) MHz; mem median $(echo "$mem_s" | sed -n "${mid}p") MHz; max temp $tmax C"
fi

{
  echo "# gpu: $gpu_name"
  echo "# nvidia-smi before probes ($smi_q): $smi_before"
  echo "# nvidia-smi after probes ($smi_q): $smi_after"
  echo "# sm_clock_mhz during probes (nvidia-smi): $clk_sum"
  echo "# driver: $(echo "$smi_before" | awk -F', *' '{ print $NF }')"
  echo "# cuda: $(nvidia-smi 2>/dev/null | grep -o 'CUDA Version: *[0-9.]*' | head -1 || echo n/a) (driver); runtime and driver API below"
  echo "# nvcc: $nvcc_ver"
  grep '^#' "$body" || true
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# host: $(uname -srm)"
  echo "# command: bash examples/probe/run_probes.sh ${1:-}"
  echo "# build: nvcc ${NVFLAGS[*]} examples/probe/probe.cu; nvcc -O3 -arch=sm_90 examples/probe/{block_launch,dram_random,l2_access,rw_mix,loaded_latency,sm_l2,alu_pipes,block_turn,tensor,diverge,fp64,l1_fill,store_split}.cu"
  echo "# method: cycles are %clock64 inside the kernel (SM clock); each probe is the slope between two loop"
  echo "#   lengths (median of several launches each), so fixed costs cancel; per SM unless the unit or detail"
  echo "#   says otherwise; details in examples/probe/README.md"
  grep -v '^#' "$body" || true
} >"$out/probe.csv"
rm -f "$body" "$clk"
note "done in $((SECONDS - t_start))s, exit status $rc"
grep -v '^#' "$out/probe.csv" | awk -F, '{ printf "%-34s %12s %s\n", $1, $2, $3 }' >&2 || true
exit "$rc"
