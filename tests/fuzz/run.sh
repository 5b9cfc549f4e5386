#!/bin/sh
# tests/fuzz/run.sh DIR - run every libFuzzer target DIR/fuzz/<target> (built
# by `make fuzz`) for FUZZ_SECONDS seconds on FUZZ_JOBS processes, one target
# after the other, growing DIR/corpus/<target>/ from the seeds in
# tests/fuzz/corpus/<target>/; crashes go to DIR/crashes/<target>/. Prints
# per target the executions and crashes, and fails when any target crashed.
dir=${1:-build/libfuzzer}
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
PNSIM_DEVICE_DIR=${PNSIM_DEVICE_DIR:-models/devices}
export PNSIM_DEVICE_DIR
status=0
for bin in "$dir"/fuzz/fuzz_*; do
    t=$(basename "$bin")
    mkdir -p "$dir/corpus/$t" "$dir/crashes/$t" "$dir/log"
    log="$dir/log/$t.log"
    if [ "$jobs" -gt 1 ]; then par="-fork=$jobs -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"; else par=""; fi
    # shellcheck disable=SC2086
    "$bin" "$dir/corpus/$t" "tests/fuzz/corpus/$t" $par -max_total_time="$secs" \
        -rss_limit_mb=2048 -timeout=10 -max_len=65536 -print_final_stats=1 \
        -artifact_prefix="$dir/crashes/$t/" >"$log" 2>&1
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s += $2} END {print s + 0}')
    [ "$execs" -eq 0 ] && execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    crashes=$(find "$dir/crashes/$t" -type f | wc -l)
    echo "$t: ${secs}s x $jobs, ${execs:-?} executions, $crashes crash(es) in $dir/crashes/$t"
    [ "$crashes" -eq 0 ] || status=1
done
exit $status
