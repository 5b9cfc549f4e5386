#!/usr/bin/env bash
# measure.sh - build, check, time and profile (Nsight Compute) the multi-block validation
# kernels of examples/kernels/kernels.cu on the local GPU.
#
#   bash examples/kernels/measure.sh [OUTDIR]        (from the repository root)
#
# OUTDIR defaults to examples/data/<gpu>/kernels (<gpu> = h100 for any H100). Writes there
# (8 files, no folders):
#   times.csv         '#' header facts, then kernel,size,threads,blocks,registers,shared_bytes,
#                     median_us,p10_us,p90_us,launches
#   ncu_import.csv    ncu's --csv output (its stdout), unedited: the input of `pnsim import`
#   ncu.log           ncu's stderr (==PROF== lines, errors) and the program's check messages
#   ncu_launches.csv  kernel,size,threads,blocks of each profiled launch, in launch order
#   ncu_metrics.txt   '#' comments (ncu version, command), then the metric list, one a line
#   ncu_extra.csv     a second ncu call (launch metrics only, no replay): the shared-memory
#                     carve-out the driver chose and the allocated registers/shared memory, which
#                     launch__occupancy_limit_shared_mem/_registers depend on
#   build.log         nvcc -Xptxas -v output, then cuobjdump -sass of the binary
#   run.log           this script's notes and the program's check messages
# Environment: PN_BUILD (build folder, default /tmp/pn_kernels_build), PN_BUDGET_S (seconds
# the whole run may take, default 480: ncu is cut off when it runs short), PN_NCU=0 skips
# ncu, PN_QUICK=1 is a smoke test (small sizes, 5 launches; ncu on T=256 only),
# PN_NCU_METRICS overrides the metric list (comma-separated).
# Exit status 1 if a build, a check or ncu failed (the other rows are still written).
set -uo pipefail

t_start=$SECONDS
budget=${PN_BUDGET_S:-480}
root=$(cd "$(dirname "$0")/../.." && pwd)
src="$root/examples/kernels/kernels.cu"
build=${PN_BUILD:-/tmp/pn_kernels_build}
NVCC=${NVCC:-nvcc}
command -v "$NVCC" >/dev/null || NVCC=/usr/local/cuda/bin/nvcc
NVFLAGS=(-O3 -arch=sm_90 -lineinfo -Xptxas -v)
fails=0

# The metric list of issue 9 (pnsim import --metrics); see README.md for any respelling.
METRICS=${PN_NCU_METRICS:-launch__grid_size,launch__block_size,launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__waves_per_multiprocessor,launch__occupancy_per_block_size,device__attribute_multiprocessor_count,gpu__time_duration.sum,sm__cycles_elapsed.max,smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_shared_atom.sum,sass__inst_executed_per_opcode,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sector_op_read_hit_rate.pct,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,dram__sectors_read.sum,sm__warps_active.avg.pct_of_peak_sustained_active}
EXTRA=launch__grid_size,launch__block_size,launch__registers_per_thread,launch__registers_per_thread_allocated,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_driver,launch__shared_mem_per_block_allocated,launch__shared_mem_config_size,launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps
KFILTER='regex:^pn_(hist|stencil|scan|matmul|gather|reduce|lut)$'

gpu_name=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
slug=$(echo "${gpu_name:-unknown}" | tr 'A-Z' 'a-z' | sed -e 's/nvidia//g' -e 's/geforce//g' \
       -e 's/tesla//g' | awk '{ s = $1; if (s !~ /[0-9]/ && NF > 1) s = s $2; print s }')
slug=${slug:-unknown}
case "$slug" in h100*) slug=h100 ;; h200*) slug=h200 ;; esac
out=${1:-"$root/examples/data/$slug/kernels"}
mkdir -p "$out" "$build"
out=$(cd "$out" && pwd)
log="$out/run.log"
: >"$log"
exec 2> >(tee -a "$log" >&2)
note() { echo "[measure $((SECONDS - t_start))s] $*" >&2; }
left() { echo $((budget - (SECONDS - t_start))); }
note "gpu '$gpu_name' -> $out, build in $build, budget ${budget}s"

# ---- build -----------------------------------------------------------------------------------
bin="$build/kernels"
rm -f "$bin"
{ echo "== nvcc ${NVFLAGS[*]} examples/kernels/kernels.cu"; "$NVCC" "${NVFLAGS[@]}" "$src" -o "$bin" 2>&1; } >"$out/build.log"
if [[ ! -x "$bin" ]]; then note "BUILD FAILED (build.log)"; cat "$out/build.log" >&2; exit 1; fi
note "built $bin"
if command -v cuobjdump >/dev/null; then
  { echo; echo "== cuobjdump -sass kernels"; cuobjdump -sass "$bin" 2>&1; } >>"$out/build.log" || true
fi

# ---- timing ----------------------------------------------------------------------------------
if [[ "${PN_QUICK:-0}" == 1 ]]; then
  targs=(--size-index 0 --launches 5 --warmup 2)
  pargs=(--size-index 0 --threads 256)
else
  targs=(--launches 60 --warmup 5)
  pargs=()
fi
smi_q=name,clocks.sm,clocks.max.sm,clocks.mem,clocks.max.mem,driver_version
smi_before=$(nvidia-smi --query-gpu=$smi_q --format=csv,noheader 2>/dev/null | head -1 || echo n/a)
nvcc_ver=$("$NVCC" --version | grep -i release | sed 's/^ *//' || echo n/a)
devinfo=$("$bin" --info || true)
clk=$(mktemp)
nvidia-smi --query-gpu=clocks.sm,clocks.mem,temperature.gpu,power.draw --format=csv,noheader,nounits \
  -lms 200 >"$clk" 2>/dev/null &
clk_pid=$!
body=$(mktemp)
note "timing: kernels ${targs[*]}"
t0=$SECONDS
"$bin" "${targs[@]}" >"$body" || { note "TIMING RUN FAILED or a check failed (rows of failed configurations are missing)"; fails=$((fails + 1)); }
note "timing took $((SECONDS - t0))s"
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
  echo "# command: bash examples/kernels/measure.sh ${1:-}"
  echo "# run: kernels ${targs[*]}"
  echo "# build: nvcc ${NVFLAGS[*]} examples/kernels/kernels.cu"
  echo "# timing: per configuration one checked launch, then warm-up launches and timed launches;"
  echo "#   each timed launch bracketed by its own CUDA events on the default stream, a 20 us spin"
  echo "#   kernel enqueued before the start event (host launch latency stays out); untimed before"
  echo "#   each launch: pn_hist/pn_reduce zero their result (cudaMemsetAsync); L2 is NOT flushed"
  echo "#   (small sizes run L2-resident); p10/median/p90 over the timed launches; result checked"
  echo "#   against the CPU reference after the first and after the last launch."
  echo "# size: elements (pn_hist, pn_scan, pn_gather, pn_reduce, pn_lut), cells W*W (pn_stencil), N (pn_matmul)"
  echo "# registers: cudaFuncAttributes.numRegs; shared_bytes: static + dynamic shared memory per block"
  echo "kernel,size,threads,blocks,registers,shared_bytes,median_us,p10_us,p90_us,launches"
  cat "$body"
} >"$out/times.csv"
note "times.csv: $(grep -c '^pn_' "$out/times.csv") rows"

# ---- ncu -------------------------------------------------------------------------------------
ncu_ver=$(ncu --version 2>/dev/null | tail -1 || echo n/a)
ncu_cmd="ncu --csv --cache-control none --clock-control none --print-metric-instances details --metrics LIST -k '$KFILTER' kernels --launches 0 ${pargs[*]} --launch-log ncu_launches.csv > ncu_import.csv 2> ncu.log"
{
  echo "# ncu: $ncu_ver"
  echo "# command: $ncu_cmd"
  echo "# LIST is the comma-joined list below, in this order"
  echo "$METRICS" | tr ',' '\n'
} >"$out/ncu_metrics.txt"
if [[ "${PN_NCU:-1}" != 0 ]] && command -v ncu >/dev/null; then
  echo "kernel,size,threads,blocks" >"$out/ncu_launches.csv"
  lim=$(($(left) - 15))
  ((lim < 30)) && lim=30
  note "ncu ($ncu_ver), time limit ${lim}s"
  t0=$SECONDS
  timeout "$lim" ncu --csv --cache-control none --clock-control none --print-metric-instances details \
      --metrics "$METRICS" -k "$KFILTER" "$bin" --launches 0 "${pargs[@]}" \
      --launch-log "$out/ncu_launches.csv" >"$out/ncu_import.csv" 2>"$out/ncu.log"
  rc=$?
  note "ncu exit $rc after $((SECONDS - t0))s; $(grep -c '^"' "$out/ncu_import.csv") quoted CSV lines, $(($(wc -l <"$out/ncu_launches.csv") - 1)) launches"
  ((rc != 0)) && { fails=$((fails + 1)); grep -E '==ERROR==|==WARNING==|WRONG' "$out/ncu.log" | head -20 >&2; }
  if (($(left) > 60)); then
    note "ncu (launch metrics: ncu_extra.csv)"
    { echo "== ncu --csv --cache-control none --clock-control none --metrics $EXTRA -k '$KFILTER' kernels --launches 0 ${pargs[*]} > ncu_extra.csv"; } >>"$out/ncu.log"
    timeout $(($(left) - 10)) ncu --csv --cache-control none --clock-control none --metrics "$EXTRA" \
        -k "$KFILTER" "$bin" --launches 0 "${pargs[@]}" >"$out/ncu_extra.csv" 2>>"$out/ncu.log" ||
      { note "ncu (extra) failed"; fails=$((fails + 1)); }
  else
    note "ncu (extra) skipped: budget"
  fi
else
  note "ncu skipped"
fi

rm -f "$body" "$clk"
note "done in $((SECONDS - t_start))s with $fails failure(s)"
grep '^pn_' "$out/times.csv" | awk -F, '{ printf "%-11s %9s %5s %7s %4s %6s %10s %10s %10s\n", $1, $2, $3, $4, $5, $6, $7, $8, $9 }' >&2
exit $((fails > 0))
