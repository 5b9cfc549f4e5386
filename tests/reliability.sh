#!/bin/sh
# tests/reliability.sh - readers that stay linear in their input (a 100k
# case against a 1k one: a ratio, not an absolute time), a signal honoured
# while a large config loads, outputs checked for a complete write, and the
# small hostile inputs of issue 21 (a byte-order mark, a path that names some
# other file, values the net cannot represent, seeds that would wrap).
. tests/lib/pn_test.sh

# best of three wall times of a command, in milliseconds
best_ms() {
    best=""
    for i in 1 2 3; do
        t0=$(date +%s%N)
        "$@" >/dev/null 2>&1
        t=$((($(date +%s%N) - t0) / 1000000))
        [ -z "$best" ] || [ "$t" -lt "$best" ] && best=$t
    done
    echo "$best"
}

# linear: 100 times the input may take at most 300 times as long (a linear
# reader takes ~100x, the start-up of the process included less; a quadratic
# one took 10000x: 8k keys 0.32 s, 32k keys 7.7 s)
ratio_ok() {  # name small_ms large_ms
    small=$2; [ "$small" -lt 1 ] && small=1
    if [ "$3" -le $((300 * small)) ]; then ok "$1 ($2 ms -> $3 ms)"
    else bad "$1" "1k: $2 ms, 100k: $3 ms (more than 300x)"; fi
}

# ---- config keys ---------------------------------------------------------------
for n in 1000 100000; do
    awk -v n=$n 'BEGIN { print "params:"; for (i = 0; i < n; i++) print "  v" i ": " i;
                         print "kernel: {threads: 32, counts: {arith: 10}}" }' >"$TMP/keys$n.yaml"
done
if [ -z "${PN_VG:-}" ]; then
    ratio_ok linear-config-keys "$(best_ms $PNSIM run -r 1 "$TMP/keys1000.yaml")" \
        "$(best_ms $PNSIM run -r 1 "$TMP/keys100000.yaml")"
fi
# a duplicate far apart is still found, and named at its second occurrence
printf '  v5: 1\n' >>"$TMP/keys1000.yaml"
sed -i '$!{/^kernel/d}' "$TMP/keys1000.yaml"
expect duplicate-key-far 1 "$TMP/keys1000.yaml:1002:3: duplicate key 'v5' in params (first at line 7, column 3)" \
    $RUN run "$TMP/keys1000.yaml"

# ---- block tables and BBVs -----------------------------------------------------
for n in 1000 100000; do
    awk -v n=$n 'BEGIN { print "block,arith,shared,global"; for (i = 0; i < n; i++) print "b" i ",1,0,0" }' \
        >"$TMP/bt$n.csv"
    awk -v n=$n 'BEGIN { printf "thread"; for (i = 0; i < n; i++) printf ",b%d", i; printf "\n0";
                         for (i = 0; i < n; i++) printf ",1"; printf "\n" }' >"$TMP/bbv$n.csv"
done
if [ -z "${PN_VG:-}" ]; then
    ratio_ok linear-block-table "$(best_ms $PNSIM bbv -b "$TMP/bt1000.csv" "$TMP/bbv1000.csv")" \
        "$(best_ms $PNSIM bbv -b "$TMP/bt100000.csv" "$TMP/bbv100000.csv")"
fi
printf 'b7,1,0,0\n' >>"$TMP/bt1000.csv"
expect duplicate-block-far 1 "$TMP/bt1000.csv:1002:1: block 'b7' is listed twice (first on line 9)" \
    $RUN bbv -b "$TMP/bt1000.csv" "$TMP/bbv1000.csv"
printf 'thread,b1,b2,b1\n0,1,1,1\n' >"$TMP/dupcol.csv"
expect duplicate-column 1 "$TMP/dupcol.csv:1:14: duplicate header column 'b1'" \
    $RUN bbv -b "$TMP/bt100000.csv" "$TMP/dupcol.csv"

# ---- memory flat in the number of runs and of sweep points ----------------------------
maxrss() {  # the peak resident memory (KB) of a command
    python3 -c 'import os, sys
null = [(os.POSIX_SPAWN_OPEN, fd, "/dev/null", os.O_WRONLY, 0) for fd in (1, 2)]
pid = os.posix_spawn(sys.argv[1], sys.argv[1:], os.environ, file_actions=null)
print(os.wait4(pid, 0)[2].ru_maxrss)' "$@"
}
printf 'kernel: {name: tiny, threads: 32, counts: {arith: 2}}\n' >"$TMP/tiny.yaml"
# (not under valgrind or a sanitizer: ASan's quarantine keeps freed memory, so
# its resident size grows with what a run frees, not with what it holds)
if [ -n "${SANITIZE:-}" ] || [ -n "${PN_VG:-}" ]; then
    echo "SKIP memory-flat-* (measured on the plain build only: ${SANITIZE:-valgrind})"
fi
if [ -z "${PN_VG:-}" ] && [ -z "${SANITIZE:-}" ] && command -v python3 >/dev/null 2>&1; then
    for f in text json; do
        a=$(maxrss $PNSIM run -q -r 1000 -f $f -o "$TMP/r.out" "$TMP/tiny.yaml")
        b=$(maxrss $PNSIM run -q -r 500000 -f $f -o "$TMP/r.out" "$TMP/tiny.yaml")
        # 500 times the runs: less than twice the memory (runs go in chunks of 65536
        # to a streamed report; holding them all took 62 MB for 10^6, 30 MB more here)
        if [ "$b" -lt $((2 * a)) ]; then ok "memory-flat-runs-$f ($a KB -> $b KB)"
        else bad "memory-flat-runs-$f" "1000 runs: $a KB, 10^6 runs: $b KB"; fi
    done
    for n in 100 10000; do
        awk -v n=$n 'BEGIN { print "params: {n: 1}"; print "kernel: {name: sw, threads: 32, counts: {arith: \"n / 1000 + 1\"}}";
                             print "simulation: {runs: 1}"; printf "sweep:\n  n: [1"; for (i = 2; i <= n; i++) printf ", %d", i; print "]" }' \
            >"$TMP/sw$n.yaml"
    done
    a=$(maxrss $PNSIM sweep -q -f csv -o "$TMP/sw.csv" "$TMP/sw100.yaml")
    b=$(maxrss $PNSIM sweep -q -f csv -o "$TMP/sw.csv" "$TMP/sw10000.yaml")
    if [ "$b" -lt $((2 * a)) ] && [ "$(wc -l <"$TMP/sw.csv")" -eq 10001 ]; then ok "memory-flat-sweep ($a KB -> $b KB)"
    else bad memory-flat-sweep "100 points: $a KB, 10000 points: $b KB"; fi
fi

# calibrate: memory per measurement row independent of the block size and of
# the number of rows' nets (10x the rows: less than 3x the memory)
if [ -z "${PN_VG:-}" ] && [ -z "${SANITIZE:-}" ] && command -v python3 >/dev/null 2>&1; then
    printf 'kernel: {name: tiny, threads: 32, counts: {arith: "threads / 16", global: 1}}\nsimulation: {runs: 2}\n' >"$TMP/cal.yaml"
    for n in 500 5000; do
        awk -v n=$n -v c="$TMP/cal.yaml" 'BEGIN { print "config,threads,params,median_us";
            for (i = 0; i < n; i++) print c "," 32 * (1 + i % 32) ",," 10 + i % 50 }' >"$TMP/meas$n.csv"
    done
    a=$(maxrss $PNSIM calibrate -d h100 -j 2 -o "$TMP/cal-out.yaml" "$TMP/meas500.csv")
    b=$(maxrss $PNSIM calibrate -d h100 -j 2 -o "$TMP/cal-out.yaml" "$TMP/meas5000.csv")
    if [ "$b" -lt $((3 * a)) ]; then ok "memory-calibrate-rows ($a KB -> $b KB)"
    else bad memory-calibrate-rows "500 rows: $a KB, 5000 rows: $b KB"; fi
fi

# ---- a signal while a large config loads -------------------------------------------
if [ -z "${PN_VG:-}" ]; then
    awk 'BEGIN { print "params:"; for (i = 0; i < 600000; i++) print "  variable_" i ": " i;
                 print "kernel: {threads: 32, counts: {arith: 10}}" }' >"$TMP/big.yaml"
    $PNSIM run -r 1 "$TMP/big.yaml" >/dev/null 2>"$TMP/sig.err" &
    pid=$!
    sleep 0.3
    t0=$(date +%s%N)
    kill -TERM $pid
    wait $pid
    rc=$?
    ms=$((($(date +%s%N) - t0) / 1000000))
    if [ "$rc" -eq 143 ] && [ "$ms" -lt 1000 ] && grep -q 'interrupted' "$TMP/sig.err"; then
        ok "signal-while-loading ($ms ms)"
    else bad signal-while-loading "exit $rc after $ms ms: $(cat "$TMP/sig.err")"; fi
    rm -f "$TMP/big.yaml"
fi

# ---- a plot onto a full file system: an error, and no file ------------------------
if command -v gnuplot >/dev/null 2>&1 && mkdir "$TMP/tiny" &&
   mount -t tmpfs -o size=12k tmpfs "$TMP/tiny" 2>/dev/null; then
    expect plot-full-disk 1 "$TMP/tiny/p.svg: gnuplot did not write the whole plot (is the disk full?)" \
        $RUN sweep -q --plot "$TMP/tiny/p.svg" -o /dev/null configs/example.yaml
    if [ -z "$(ls "$TMP/tiny")" ]; then ok plot-full-disk-no-file
    else bad plot-full-disk-no-file "$(ls -la "$TMP/tiny")"; fi
    umount "$TMP/tiny"
else
    echo "SKIP plot-full-disk (needs gnuplot and a tmpfs mount, i.e. root)"
fi

# ---- small hostile inputs ---------------------------------------------------------
# a byte-order mark before the header is not part of the first column's name
printf '\357\273\277block,arith,shared,global\nb0,3,0,0\n' >"$TMP/bom.csv"
printf '\357\273\277thread,b0\n0,1\n' >"$TMP/bombbv.csv"
if $RUN bbv -b "$TMP/bom.csv" "$TMP/bombbv.csv" 2>&1 | grep -q 'arith: 3,'; then ok csv-bom
else bad csv-bom "$($RUN bbv -b "$TMP/bom.csv" "$TMP/bombbv.csv" 2>&1)"; fi
# a device path naming some other file says what it is, never what it says
printf 'secret line\n' >"$TMP/notaprofile"
printf 'device: ./notaprofile\nkernel: {threads: 32, counts: {arith: 1}}\n' >"$TMP/dev.yaml"
expect device-not-echoed 1 "$TMP/./notaprofile:1:1: a device profile must be a mapping (name, sms, ...), got a scalar: is this a pnsim device profile?" \
    $RUN run "$TMP/dev.yaml"
# values the net cannot represent are errors, not clamped
printf 'device: h100\nmodel: {net: pipelined, sfu_busy: 1e300}\nkernel: {threads: 32, counts: {arith: 1}}\n' >"$TMP/sfu.yaml"
expect sfu-busy-huge 1 "$TMP/sfu.yaml:2:35: model.sfu_busy must be at most 1000, got 1e+300" \
    $RUN run "$TMP/sfu.yaml"
printf 'device: h100\nmodel: {net: pipelined, clock_mhz: 1e308}\nkernel: {threads: 32, counts: {arith: 1}}\n' >"$TMP/clk.yaml"
expect clock-huge 1 "$TMP/clk.yaml:2:36: model.clock_mhz must be at most 100000, got 1e+308" \
    $RUN run "$TMP/clk.yaml"
# seeds that would wrap past 2^64 - 1
expect seed-wrap-option 1 "pnsim run: --seed 18446744073709551615 with 2 runs passes 2^64 - 1 (run i uses seed + i): choose a seed of at most 18446744073709551614" \
    $RUN run -s 18446744073709551615 -r 2 configs/example.yaml
printf 'kernel: {threads: 32, counts: {arith: 1}}\nsimulation: {seed: 18446744073709551610}\n' >"$TMP/seed.yaml"
expect seed-wrap-config 1 "$TMP/seed.yaml:2:20: seed 18446744073709551610 with 10 runs passes 2^64 - 1 (run i uses seed + i): choose a seed of at most 18446744073709551606" \
    $RUN run "$TMP/seed.yaml"
if $RUN run -r 6 -f csv "$TMP/seed.yaml" 2>/dev/null | grep -q ',18446744073709551615,'; then
    ok seed-at-the-top
else bad seed-at-the-top "$($RUN run -r 6 -f csv "$TMP/seed.yaml" 2>&1 | tail -1)"; fi
# write errors name the file and the cause
if [ -w /dev/full ] && [ -c /dev/full ]; then
    cp models/devices/h100.yaml "$TMP/h100.yaml"
    $RUN probe -d "$TMP/h100.yaml" examples/data/h100/probe.csv >/dev/full 2>"$TMP/err"
    if grep -q 'No space left on device' "$TMP/err"; then ok probe-write-error-cause
    else bad probe-write-error-cause "$(cat "$TMP/err")"; fi
fi

[ "$fails" -eq 0 ]
