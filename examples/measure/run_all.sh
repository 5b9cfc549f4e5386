#!/usr/bin/env bash
# run_all.sh - build, check and time every pnsim example kernel on the local GPU; also the
# BBV build of the radix sorts, ncu instruction counts and the SASS of every binary.
#
#   bash examples/measure/run_all.sh [OUTDIR]        (from the repository root)
#
# OUTDIR defaults to examples/data/<gpu>, <gpu> a short slug of the GPU name (h100 for any
# H100). Writes there: times.csv, bbv/<kernel>-<T>.csv, ncu.csv (+ ncu_raw/), sass/*.sass,
# sass/loops.txt (each loop's SASS instruction mix), build.log, run.log.
# Environment: PN_BUILD (build folder, default /tmp/pn_examples_build), PN_BUDGET_S (seconds
# the whole run may take, default 540; ncu stages are skipped once it runs short),
# PN_NCU=0 to skip ncu, PN_QUICK=1 for few launches (a smoke test).
# One failing kernel does not stop the others; the exit status is 1 if any step failed.
set -euo pipefail

t_start=$SECONDS
budget=${PN_BUDGET_S:-540}
root=$(cd "$(dirname "$0")/../.." && pwd)
ex="$root/examples"
build=${PN_BUILD:-/tmp/pn_examples_build}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
NVFLAGS=(-O3 -arch=sm_90 -lineinfo -Xptxas -v)
fails=0
note() { echo "[run_all $((SECONDS - t_start))s] $*" >&2; }
left() { echo $((budget - (SECONDS - t_start))); }

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
slug=$(echo "${gpu_name:-unknown}" | tr 'A-Z' 'a-z' | sed -e 's/nvidia//g' -e 's/geforce//g' \
       -e 's/tesla//g' | awk '{ s = $1; if (s !~ /[0-9]/ && NF > 1) s = s $2; print s }')
slug=${slug:-unknown}
case "$slug" in h100*) slug=h100 ;; h200*) slug=h200 ;; esac
out=${1:-"$ex/data/$slug"}
mkdir -p "$out" "$out/bbv" "$out/sass" "$build"
out=$(cd "$out" && pwd)
log="$out/run.log"
: >"$log"
exec 2> >(tee -a "$log" >&2)
note "gpu '$gpu_name' -> $out, build in $build, budget ${budget}s"

# ---- build (in parallel) -----------------------------------------------------------------
: >"$out/build.log"
declare -A srcs=(
  [radix_global]="radix/radix_global.cu" [radix_tree]="radix/radix_tree.cu"
  [radix_shared]="radix/radix_shared.cu" [radix_global_bbv]="radix/radix_global.cu -DPN_BBV"
  [radix_tree_bbv]="radix/radix_tree.cu -DPN_BBV" [radix_shared_bbv]="radix/radix_shared.cu -DPN_BBV"
  [matmul]="matmul/matmul.cu" [micro]="micro/micro.cu")
pids=()
for b in "${!srcs[@]}"; do
  read -r -a s <<<"${srcs[$b]}"
  ( "$NVCC" "${NVFLAGS[@]}" "$ex/${s[0]}" "${s[@]:1}" -o "$build/$b" >"$build/$b.log" 2>&1 ) &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
for b in $(printf '%s\n' "${!srcs[@]}" | sort); do
  { echo "== $b: nvcc ${NVFLAGS[*]} ${srcs[$b]}"; cat "$build/$b.log"; } >>"$out/build.log"
  if [[ -x "$build/$b" ]]; then note "built $b"; else note "BUILD FAILED: $b"; fails=$((fails + 1)); fi
done

# ---- static tables must match the code ---------------------------------------------------
for k in radix_global radix_tree radix_shared; do
  [[ -x "$build/$k" ]] || continue
  if ! "$build/$k" --blocks | cmp -s - "$ex/radix/$k.blocks.csv"; then
    note "WARNING: examples/radix/$k.blocks.csv differs from '$k --blocks'"
  fi
done
if [[ -x "$build/micro" ]] && ! "$build/micro" --counts | cmp -s - "$ex/micro/counts.csv"; then
  note "WARNING: examples/micro/counts.csv differs from 'micro --counts'"
fi

# ---- SASS ----------------------------------------------------------------------------------
if command -v cuobjdump >/dev/null; then
  for b in radix_global radix_tree radix_shared matmul micro; do
    [[ -x "$build/$b" ]] && cuobjdump -sass "$build/$b" >"$out/sass/$b.sass" 2>&1 || true
  done
  python3 "$ex/measure/sass_loops.py" "$out"/sass/*.sass >"$out/sass/loops.txt" 2>&1 || true
  note "SASS written"
else
  note "no cuobjdump: SASS not dumped"
fi

# ---- header facts --------------------------------------------------------------------------
smi_q=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,driver_version
smi_before=$(nvidia-smi --query-gpu=$smi_q --format=csv,noheader 2>/dev/null | head -1 || echo n/a)
nvcc_ver=$("$NVCC" --version | grep -i release | sed 's/^ *//' || echo n/a)
devinfo=$([[ -x "$build/radix_global" ]] && "$build/radix_global" --info || true)

# ---- timing --------------------------------------------------------------------------------
if [[ "${PN_QUICK:-0}" == 1 ]]; then L_RADIX=5; L_MM=10; L_MICRO=20; else L_RADIX=50; L_MM=100; L_MICRO=200; fi
body=$(mktemp)
runs=()
run_timed() { # name, command...: rows to $body, a failure is counted, never fatal
  local name=$1; shift
  [[ -x "$1" ]] || { note "skip $name (not built)"; fails=$((fails + 1)); return; }
  runs+=("$*")
  note "timing $name: $*"
  if ! "$@" >>"$body"; then note "FAILED (some rows missing): $name"; fails=$((fails + 1)); fi
}
clk=$(mktemp)
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader,nounits \
  -lms 200 >"$clk" 2>/dev/null &
clk_pid=$!
for k in radix_global radix_tree radix_shared; do
  run_timed "$k" "$build/$k" --launches $L_RADIX --warmup 5
done
run_timed matmul "$build/matmul" --launches $L_MM --warmup 5
run_timed micro "$build/micro" --launches $L_MICRO --warmup 10
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
  echo "# nvidia-smi before timing ($smi_q): $smi_before"
  echo "# nvidia-smi after timing ($smi_q): $smi_after"
  echo "# sm_clock_mhz during timing (nvidia-smi): $clk_sum"
  echo "# driver: $(echo "$smi_before" | awk -F', *' '{ print $NF }')"
  echo "# cuda: $nvcc_ver"
  echo "$devinfo"
  echo "# date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "# host: $(uname -srm)"
  echo "# command: bash examples/measure/run_all.sh ${1:-}"
  for r in "${runs[@]}"; do echo "# run: ${r//$build\//}"; done
  echo "# build: nvcc ${NVFLAGS[*]}"
  echo "# timing: one <<<1,T>>> launch per sample, CUDA events around each launch on the default stream,"
  echo "#   a 20 us spin kernel enqueued before the start event (so host launch latency stays out);"
  echo "#   radix: input re-copied (untimed) before each launch; global_ld_dram: L2 flushed by a memset of"
  echo "#   max(3 x L2, 64 MiB) (untimed) before each launch; p10/median/p90 over the timed launches after warm-up"
  echo "kernel,threads,params,median_us,p10_us,p90_us,launches"
  cat "$body"
} >"$out/times.csv"
note "times.csv: $(grep -vc '^#' "$out/times.csv") lines"

# ---- BBV build -----------------------------------------------------------------------------
for k in radix_global radix_tree radix_shared; do
  if [[ -x "$build/${k}_bbv" ]]; then
    note "BBV $k"
    "$build/${k}_bbv" --launches 0 --bbv-dir "$out/bbv" || { note "BBV FAILED: $k"; fails=$((fails + 1)); }
  fi
done

# ---- ncu -----------------------------------------------------------------------------------
if [[ "${PN_NCU:-1}" != 0 ]] && command -v ncu >/dev/null && command -v python3 >/dev/null; then
  raw="$out/ncu_raw"; mkdir -p "$raw"
  ncu --version >"$raw/ncu_version.txt" 2>&1 || true
  ncu --query-metrics >"$raw/query_metrics.txt" 2>&1 || true
  wish=(gpu__time_duration.sum sm__cycles_elapsed.max sm__cycles_active.max
    smsp__cycles_active.sum smsp__warps_launched.sum
    smsp__inst_executed.sum smsp__thread_inst_executed.sum
    smsp__sass_inst_executed_op_global_ld.sum smsp__sass_inst_executed_op_global_st.sum
    smsp__sass_inst_executed_op_shared_ld.sum smsp__sass_inst_executed_op_shared_st.sum
    smsp__sass_inst_executed_op_local_ld.sum smsp__sass_inst_executed_op_local_st.sum
    smsp__sass_thread_inst_executed_op_integer_pred_on.sum
    smsp__sass_thread_inst_executed_op_fp32_pred_on.sum
    smsp__sass_thread_inst_executed_op_memory_pred_on.sum
    smsp__sass_thread_inst_executed_op_control_pred_on.sum
    smsp__sass_thread_inst_executed_op_conversion_pred_on.sum
    smsp__sass_thread_inst_executed_op_bit_pred_on.sum
    smsp__sass_thread_inst_executed_op_misc_pred_on.sum
    smsp__sass_thread_inst_executed_op_inter_thread_communication_pred_on.sum
    smsp__sass_thread_inst_executed_op_uniform_pred_on.sum
    smsp__inst_executed_pipe_alu.sum smsp__inst_executed_pipe_fma.sum
    smsp__inst_executed_pipe_lsu.sum smsp__inst_executed_pipe_uniform.sum
    smsp__inst_executed_pipe_cbu.sum smsp__inst_executed_pipe_adu.sum
    smsp__inst_executed_op_branch.sum
    l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
    l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
    l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
    lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum
    dram__bytes_read.sum launch__registers_per_thread
    l1tex__t_requests_pipe_lsu_mem_global_op_st.sum smsp__sass_inst_executed_op_shared_atom.sum
    smsp__sass_inst_executed_op_global_atom.sum smsp__sass_inst_executed_op_global_red.sum
    l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum)
  have=()
  for m in "${wish[@]}"; do
    base=${m%.*}; [[ "$m" == launch__* ]] && base=$m
    grep -qE "(^|[[:space:]])${base}([[:space:]]|$)" "$raw/query_metrics.txt" && have+=("$m")
  done
  printf '%s\n' "${have[@]}" >"$raw/metrics_used.txt"
  if ((${#have[@]} < 3)); then
    note "ncu --query-metrics gave too few known names (${#have[@]}); using a minimal set"
    have=(smsp__inst_executed.sum gpu__time_duration.sum sm__cycles_elapsed.max)
  fi
  metrics=$(IFS=,; echo "${have[*]}")
  note "ncu with ${#have[@]} metrics"
  ncu_run() { # tag, binary, args...
    local tag=$1; shift
    if (($(left) < 60)); then note "skip ncu $tag: budget"; return; fi
    [[ -x "$1" ]] || return
    : >"$raw/$tag.launches"
    note "ncu $tag"
    if ! timeout "$(($(left) - 30))" ncu --csv --print-units base --clock-control none --cache-control none \
        --metrics "$metrics" -k regex:'^pn_(radix|matmul|micro)' --log-file "$raw/$tag.csv" \
        "$@" --launches 0 --launch-log "$raw/$tag.launches" >"$raw/$tag.stdout" 2>&1; then
      note "ncu $tag FAILED or timed out (see ncu_raw/$tag.*)"; fails=$((fails + 1))
    fi
  }
  for k in radix_global radix_tree radix_shared; do ncu_run "$k" "$build/$k"; done
  ncu_run matmul "$build/matmul"
  ncu_run micro "$build/micro"
  python3 "$ex/measure/ncu_to_csv.py" "$raw" "$out/ncu.csv" || { note "ncu_to_csv FAILED"; fails=$((fails + 1)); }
else
  note "ncu skipped (PN_NCU=0, or ncu/python3 missing)"
fi

rm -f "$body" "$clk"
note "done in $((SECONDS - t_start))s with $fails failure(s)"
# Print the times table last (the caller sees the end of the output).
grep -v '^#' "$out/times.csv" | awk -F, '{ printf "%-15s %5s %-24s %11s %11s %11s %5s\n", $1, $2, $3, $4, $5, $6, $7 }' >&2 || true
exit $((fails > 0))
