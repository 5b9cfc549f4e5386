#!/bin/sh
# tests/fuzz/run.sh DIR - run every libFuzzer target DIR/fuzz/<target> (built
# by `make fuzz`) for FUZZ_SECONDS seconds on FUZZ_JOBS processes, one target
# after the other, growing DIR/corpus/<target>/ from the seeds in
# tests/fuzz/corpus/<target>/; crashes go to DIR/crashes/<target>/. Prints
# per target the executions and crashes, and fails when any target crashed.
# Inputs reach FUZZ_MAX_LEN bytes (default 4 MiB, -len_control=0: long inputs
# from the start), and each campaign starts from size-growing seeds of 1k to
# 100k keys, rows or columns written into DIR/seeds/<target>/ (the readers'
# costs that are quadratic show only there).
dir=${1:-build/libfuzzer}
maxlen=${FUZZ_MAX_LEN:-4194304}
secs=${FUZZ_SECONDS:-60}
jobs=${FUZZ_JOBS:-1}
PNSIM_DEVICE_DIR=${PNSIM_DEVICE_DIR:-models/devices}
export PNSIM_DEVICE_DIR
status=0
# size-growing seeds
grow() {  # target n: a seed of n keys/rows/columns on stdout
    case $1 in
    fuzz_config) awk -v n=$2 'BEGIN { print "params:"; for (i = 0; i < n; i++) print "  v" i ": " i;
                                      print "kernel: {threads: 64, counts: {arith: v1}}" }' ;;
    fuzz_blocks) awk -v n=$2 'BEGIN { print "block,arith,shared,global";
                                      for (i = 0; i < n; i++) print "b" i "," i % 7 ",1,0" }' ;;
    fuzz_bbv) awk -v n=$2 'BEGIN { printf "thread"; for (i = 0; i < n; i++) printf ",b%d", i;
                                   printf "\n0"; for (i = 0; i < n; i++) printf ",%d", i % 5;
                                   printf "\n" }' ;;
    fuzz_measure) awk -v n=$2 'BEGIN { print "config,threads,params,median_us";
                                       for (i = 0; i < n; i++) print "configs/example.yaml," 32 * (1 + i % 32) ",," i + 1 }' ;;
    esac
}
for bin in "$dir"/fuzz/fuzz_*; do
    t=$(basename "$bin")
    mkdir -p "$dir/seeds/$t"
    for n in 1000 10000 100000; do
        grow "$t" $n >"$dir/seeds/$t/grow-$n"
        [ -s "$dir/seeds/$t/grow-$n" ] || rm -f "$dir/seeds/$t/grow-$n"
    done
done
for bin in "$dir"/fuzz/fuzz_*; do
    t=$(basename "$bin")
    mkdir -p "$dir/corpus/$t" "$dir/crashes/$t" "$dir/log"
    log="$dir/log/$t.log"
    if [ "$jobs" -gt 1 ]; then par="-fork=$jobs -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1"; else par=""; fi
    # shellcheck disable=SC2086
    "$bin" "$dir/corpus/$t" "tests/fuzz/corpus/$t" "$dir/seeds/$t" $par -max_total_time="$secs" \
        -rss_limit_mb=2048 -timeout=10 -max_len="$maxlen" -len_control=0 -print_final_stats=1 \
        -artifact_prefix="$dir/crashes/$t/" >"$log" 2>&1
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | awk '{s += $2} END {print s + 0}')
    [ "$execs" -eq 0 ] && execs=$(grep -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
    crashes=$(find "$dir/crashes/$t" -type f | wc -l)
    echo "$t: ${secs}s x $jobs, ${execs:-?} executions, $crashes crash(es) in $dir/crashes/$t"
    [ "$crashes" -eq 0 ] || status=1
done
exit $status
