#!/bin/sh
# tests/faults.sh - faults at the command line: SIGINT/SIGTERM during run, sweep,
# reorder and calibrate (exit 130/143 promptly, no output or temporary file
# left), writes that fail (a full device, a missing directory, a directory,
# the input file itself), out-of-range --jobs and --runs, and runs refused
# before they start because they cannot end within max_steps.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
. tests/lib/pn_test.sh


C=configs/example.yaml
cp "$C" "$TMP/in.yaml"

# ---- option ranges, for every command that takes them ------------------------
# a bad option value is a usage error: one line, the try line, exit status 2
NL='
'
TRY="Try 'pnsim"
for cmd in run sweep reorder; do
    for j in 0 -3 1025 100000 x; do
        expect "$cmd-jobs-$j" 2 "pnsim $cmd: --jobs expects an integer between 1 and 1024, got '$j'$NL$TRY $cmd --help' for more information." \
            $RUN $cmd -j "$j" "$C"
    done
    for r in 0 1000001 99999999999999999999; do
        expect "$cmd-runs-$r" 2 "pnsim $cmd: --runs expects an integer between 1 and 1000000, got '$r'$NL$TRY $cmd --help' for more information." \
            $RUN $cmd --runs "$r" "$C"
    done
done
for j in 0 -3 1025; do
    expect "calibrate-jobs-$j" 2 "pnsim calibrate: --jobs expects an integer between 1 and 1024, got '$j'$NL${TRY} calibrate --help' for more information." \
        $RUN calibrate -d h100 -j "$j" tests/calib/meas-one.csv
done
expect calibrate-runs-0 2 "pnsim calibrate: --runs expects an integer between 1 and 1000000, got '0'$NL${TRY} calibrate --help' for more information." \
    $RUN calibrate -d h100 --runs 0 tests/calib/meas-one.csv
expect jobs-1024-accepted 0 "" $RUN run --runs 1 -j 1024 -o "$TMP/j.txt" "$C"

# ---- writes that fail: one line, exit 1, nothing replaced ----------------------
# a private /dev/full where we may create one, so that a regression (writing
# beside the device and renaming over it) cannot replace the system's
# (root without that right skips -o to it: no risk to the system's /dev/full)
FULL=/dev/full
if mknod "$TMP/full" c 1 7 2>/dev/null; then FULL=$TMP/full; fi
if [ "$FULL" != /dev/full ] || [ "$(id -u)" -ne 0 ]; then
    expect run-o-full 1 "$FULL: cannot write: No space left on device" \
        $RUN run --runs 2 -o "$FULL" "$C"
    [ -c "$FULL" ] && ok full-still-a-device || bad full-still-a-device "$(ls -l "$FULL")"
    expect sweep-o-full 1 "$FULL: cannot write: No space left on device" \
        $RUN sweep -q --runs 2 -o "$FULL" "$C"
else
    echo "SKIP run-o-full (root, cannot make a private full device)"
fi
for cmd in "run --runs 2" "sweep -q --runs 2" "reorder --runs 2"; do
    expect "${cmd%% *}-stdout-full" 1 "pnsim ${cmd%% *}: write error on standard output: No space left on device" \
        sh -c "$RUN $cmd $C >$FULL"
done
# libigraph leaks 11 bytes when its DOT writer fails: not under leak checkers
expect export-stdout-full 1 "pnsim export: write error on standard output: No space left on device" \
    sh -c "ASAN_OPTIONS=detect_leaks=0 $PNSIM export $C >$FULL"
for cmd in devices --help --version "run --help"; do
    expect "stdout-full-$cmd" 1 "pnsim: write error on standard output: No space left on device" \
        sh -c "$RUN $cmd >$FULL"
done
expect run-o-null 0 "" $RUN run --runs 2 -o /dev/null "$C"
expect run-o-no-dir 1 "$TMP/nodir/r.txt: cannot write: No such file or directory" \
    $RUN run --runs 2 -o "$TMP/nodir/r.txt" "$C"
expect run-o-dir 1 "$TMP: cannot write: it is a directory" $RUN run --runs 2 -o "$TMP" "$C"
# a read-only directory stops only users other than root
mkdir "$TMP/ro"
chmod 555 "$TMP/ro"
if [ "$(id -u)" -ne 0 ]; then
    expect run-o-readonly-dir 1 "$TMP/ro/r.txt: cannot write: Permission denied" \
        $RUN run --runs 2 -o "$TMP/ro/r.txt" "$C"
elif command -v setpriv >/dev/null 2>&1; then
    # root writes anywhere: the case runs as nobody (setpriv, util-linux)
    chmod 755 "$TMP"
    expect run-o-readonly-dir 1 "$TMP/ro/r.txt: cannot write: Permission denied" \
        setpriv --reuid=65534 --regid=65534 --clear-groups $RUN run --runs 2 -o "$TMP/ro/r.txt" "$C"
else
    echo "SKIP run-o-readonly-dir (root, and no setpriv to run it as another user)"
fi
chmod 755 "$TMP/ro"
expect export-o-dir 1 "$TMP: cannot write: it is a directory" $RUN export -o "$TMP" "$C"

# -o onto the input, by any name: refused, the input untouched
ln -s in.yaml "$TMP/link.yaml"
ln "$TMP/in.yaml" "$TMP/hard.yaml"
for cmd in "run --runs 2" "sweep --runs 2" "reorder --runs 2" export; do
    expect "${cmd%% *}-o-input" 1 "$TMP/in.yaml: cannot write: it is the input file $TMP/in.yaml (refusing to overwrite it)" \
        $RUN $cmd -o "$TMP/in.yaml" "$TMP/in.yaml"
done
expect run-o-input-dot 1 "$TMP/./in.yaml: cannot write: it is the input file $TMP/in.yaml (refusing to overwrite it)" \
    $RUN run --runs 2 -o "$TMP/./in.yaml" "$TMP/in.yaml"
expect run-o-input-symlink 1 "$TMP/link.yaml: cannot write: it is the input file $TMP/in.yaml (refusing to overwrite it)" \
    $RUN run --runs 2 -o "$TMP/link.yaml" "$TMP/in.yaml"
expect run-o-input-via-symlink 1 "$TMP/in.yaml: cannot write: it is the input file $TMP/link.yaml (refusing to overwrite it)" \
    $RUN run --runs 2 -o "$TMP/in.yaml" "$TMP/link.yaml"
expect run-o-input-hardlink 1 "$TMP/hard.yaml: cannot write: it is the input file $TMP/in.yaml (refusing to overwrite it)" \
    $RUN run --runs 2 -o "$TMP/hard.yaml" "$TMP/in.yaml"
cp tests/calib/meas-one.csv "$TMP/"
expect calibrate-o-input 1 "$TMP/meas-one.csv: cannot write: it is the input file $TMP/meas-one.csv (refusing to overwrite it)" \
    $RUN calibrate -d h100 -o "$TMP/meas-one.csv" "$TMP/meas-one.csv"
expect calibrate-p-input 1 "$TMP/meas-one.csv: cannot write: it is the input file $TMP/meas-one.csv (refusing to overwrite it)" \
    $RUN calibrate -d h100 -P "$TMP/meas-one.csv" "$TMP/meas-one.csv"
cp tests/calib/k-arith.yaml "$TMP/"
printf 'config,threads,params,median_us\nk-arith.yaml,32,K=100,6.01\nk-arith.yaml,32,K=200,10.01\n' >"$TMP/meas-two.csv"
expect calibrate-p-config 1 "$TMP/k-arith.yaml: cannot write: it is the input file $TMP/k-arith.yaml (refusing to overwrite it)" \
    $RUN calibrate -d h100 -P "$TMP/k-arith.yaml" "$TMP/meas-two.csv"
expect probe-o-input 1 "$TMP/probe.csv: cannot write: it is the input file $TMP/probe.csv (refusing to overwrite it)" \
    sh -c "cp examples/data/h100/probe.csv $TMP/ && $RUN probe -d h100 -o $TMP/probe.csv $TMP/probe.csv"
# the device profile may be updated in place
cp models/devices/h100.yaml "$TMP/h100.yaml"
expect probe-profile-in-place 0 "" \
    $RUN probe -d "$TMP/h100.yaml" -o "$TMP/h100.yaml" examples/data/h100/probe.csv
if cmp -s "$TMP/in.yaml" "$C" && [ -L "$TMP/link.yaml" ] && cmp -s "$TMP/meas-one.csv" tests/calib/meas-one.csv &&
   cmp -s "$TMP/probe.csv" examples/data/h100/probe.csv; then ok inputs-untouched
else bad inputs-untouched "an input changed"; fi
# a symbolic link as output stays a link; its target gets the report
$RUN run --runs 2 -o "$TMP/r1.txt" "$C" 2>/dev/null
ln -s r1.txt "$TMP/rlink"
$RUN run --runs 3 -o "$TMP/rlink" "$C" 2>/dev/null
if [ -L "$TMP/rlink" ] && grep -q '^runs     3 ' "$TMP/r1.txt"; then ok output-symlink-kept
else bad output-symlink-kept "$(ls -l "$TMP")"; fi

# ---- runs that cannot end within max_steps: refused before they start ---------
G=$TMP/guard
mkdir "$G"
cat >"$G/huge.yaml" <<'YAML'
kernel:
  name: huge
  threads: 1024
  counts: {arith: 4000000000}
simulation: {max_steps: 100000000}
YAML
cat >"$G/hugepipe.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  name: hugepipe
  threads: 1024
  blocks: 264
  counts: {arith: 4000000000}
simulation: {max_steps: 100000000}
YAML
# name, exit status, exact stderr, command...: and within a second
fast() {
    name=$1; t0=$(date +%s%N)
    expect "$@"
    ms=$((($(date +%s%N) - t0) / 1000000))
    [ "$ms" -lt 1000 ] || [ -n "${PN_VG:-}" ] || bad "$name-time" "took $ms ms"
}
refused() {  # file:line:col or file, net, estimate, max_steps
    echo "$1: net '$2' needs at least $3 steps (a lower bound from its counts and latencies), more than max_steps = $4: refused before it runs; raise simulation.max_steps or --max-steps to run it, or leave both out and the limit follows the kernel"
}
# 32 warps x 4e9 instructions on 4 schedulers: 32 * 3 * 4e9 / 4 scheduler steps
fast guard-run 1 "$(refused "$G/huge.yaml:5:25" huge 96000000000 100000000)" \
    $RUN run -o "$G/out" "$G/huge.yaml"
fast guard-run-option 1 "$(refused "$G/huge.yaml" huge 96000000000 95999999999)" \
    $RUN run --max-steps 95999999999 "$G/huge.yaml"
fast guard-sweep 1 "$(refused "$G/huge.yaml:5:25" huge 96000000000 100000000)" \
    $RUN sweep -q -o "$G/out" "$G/huge.yaml"
fast guard-reorder 1 "$(refused "$G/huge.yaml:5:25" huge 96000000000 100000000)" \
    $RUN reorder -o "$G/out" "$G/huge.yaml"
# 64 warps (2 blocks of 32 on the busiest SM) x 4e9: 64 * 4e9 / 4 partitions
fast guard-pipelined 1 "$(refused "$G/hugepipe.yaml:8:25" hugepipe 64000000000 100000000)" \
    $RUN run "$G/hugepipe.yaml"
printf 'config,threads,params,median_us\nhuge.yaml,1024,,100\nhuge.yaml,512,,90\n' >"$G/meas.csv"
fast guard-calibrate 1 "$G/meas.csv:2: $(refused "$G/huge.yaml:5:25" huge 96000000000 100000000)" \
    $RUN calibrate -d h100 -o "$G/prof.yaml" "$G/meas.csv"
if [ -z "$(ls "$G" | grep -v -x -e huge.yaml -e hugepipe.yaml -e meas.csv)" ]; then ok guard-nothing-written
else bad guard-nothing-written "$(ls "$G")"; fi
# at the limit exactly: one warp alone takes exactly the bound, so it runs at
# max_steps = bound and is refused one below, at simulation.max_steps
cat >"$G/one.yaml" <<'YAML'
kernel:
  name: one
  threads: 32
  counts: {arith: 1000, shared: 100, global: 100}
simulation:
  max_steps: 7100
YAML
# 4 * 1000 + (5 + 20) * 100 + (5 + 2) * 100 + 1 = 7201
fast guard-below 1 "$(refused "$G/one.yaml:6:14" one 7201 7100)" $RUN run -r 1 "$G/one.yaml"
if $RUN run -r 2 --max-steps 7201 -f csv "$G/one.yaml" 2>&1 | grep -q ',7201,'; then ok guard-at-bound-runs
else bad guard-at-bound-runs "$($RUN run -r 2 --max-steps 7201 "$G/one.yaml" 2>&1)"; fi
# the bound holds: never above the fewest steps any bundled config took
for f in configs/*.yaml; do
    need=$($RUN run --max-steps 1 "$f" 2>&1 | sed -n 's/.*needs at least \([0-9]*\) steps.*/\1/p')
    min=$($RUN run -r 2 -f csv "$f" 2>/dev/null | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "steps") c = i; next }
        { if (m == "" || $c < m) m = $c } END { print m }')
    if [ -n "$need" ] && [ -n "$min" ] && [ "$need" -le "$min" ]; then ok "guard-bound-$(basename "$f")"
    else bad "guard-bound-$(basename "$f")" "bound '$need', fewest steps '$min'"; fi
done

# ---- long kernels: without a cap the step limit follows the kernel (issue 23) ---
# one warp of 200000 DRAM loads on the h100's pipelined net: about 1.4e8 steps,
# above the old fixed default of 1e8, run by default in a few events
cat >"$G/long.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  name: long
  threads: 32
  counts: {global_ld: 200000}
  memory: {l2_hit: 0}
simulation: {runs: 1}
YAML
out=$($RUN run -f csv "$G/long.yaml" 2>&1)
steps=$(echo "$out" | awk -F, 'NR == 2 { print $6 }')
if [ -n "$steps" ] && [ "$steps" -gt 100000000 ]; then ok long-runs-by-default
else bad long-runs-by-default "$out"; fi
# the same with a cap above the lower bound (135600000) but below the run
# (135600003): the run reaches it, and the message says it was the user's cap
# and how to lift it
printf 'simulation: {runs: 1, max_steps: 135600002}\n' >>"$G/long.yaml"
sed -i '/^simulation: {runs: 1}$/d' "$G/long.yaml"
expect long-capped 1 "$G/long.yaml:8:34: net 'long' (seed 1) reached no dead marking within max_steps = 135600002 steps (a cap you set: raise it, or leave it out and the limit follows the kernel)" \
    $RUN run "$G/long.yaml"

# pnsim import writes no step limit: a long kernel imported as the help says
# runs as written. tests/ncu/good.csv made one block long: its instruction
# counts times 10 on a grid of 1 block, every load from DRAM (L2 hit rate 0):
# 163840 DRAM loads per warp, above 1e8 steps
python3 - tests/ncu/good.csv "$G/longprof.csv" <<'PY'
import csv, re, sys
src, dst = sys.argv[1], sys.argv[2]
scale = ("smsp__inst_executed.sum", "sass__inst_executed_per_opcode")
def times10(v):
    return re.sub(r"[0-9][0-9,]*", lambda m: "{:,}".format(int(m.group().replace(",", "")) * 10), v)
with open(src) as f, open(dst, "w", newline="") as g:
    w = csv.writer(g, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for line in f:
        if not line.startswith('"'):
            g.write(line)
            continue
        row = next(csv.reader([line]))
        if row[0] != "ID":
            row[8] = "(1, 1, 1)"
            name, value = row[12], row[14]
            if name == "launch__grid_size":
                row[14] = "1 (0: 1)"
            elif name in scale or name.startswith("smsp__sass_inst_executed_op_") or \
                    name.startswith("l1tex__"):
                row[14] = times10(value)
            elif name == "lts__t_sector_op_read_hit_rate.pct":
                row[14] = "0"
        w.writerow(row)
PY
if $RUN import -O "$G/imp" "$G/longprof.csv" >/dev/null 2>"$G/imp.err"; then
    cfg=$(ls "$G"/imp/*.yaml | head -n 1)
    out=$($RUN run -r 1 -f csv "$cfg" 2>&1)
    steps=$(echo "$out" | awk -F, 'NR == 2 { print $6 }')
    if [ -n "$steps" ] && [ "$steps" -gt 100000000 ] && ! grep -q max_steps "$cfg"; then
        ok import-long-runs
    else bad import-long-runs "$out"; fi
else bad import-long-runs "$(cat "$G/imp.err")"; fi

# progress: a line on a terminal from 2 s on (runs done, the step a run
# reached, the time, an ETA), none with -q, none when stderr is not a terminal
if command -v script >/dev/null 2>&1 && [ -z "${PN_VG:-}" ]; then
    # a job of about 1 s, its line shown from 0.1 s on (PNSIM_PROGRESS_AFTER)
    PNSIM_PROGRESS_AFTER=0.1
    export PNSIM_PROGRESS_AFTER
    cat >"$G/slow.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  name: slow
  threads: 64
  counts: {arith: 3000000, global_ld: 200000}
  memory: {l2_hit: 0}
simulation: {runs: 5}
YAML
    tty=$(script -qc "$RUN run -j 1 -o $G/slow.out $G/slow.yaml" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq 'pnsim run: [0-9]/5 runs done, a run at step .*, [0-9]* s, ETA '; then
        ok progress-on-terminal
    else bad progress-on-terminal "$tty"; fi
    tty=$(script -qc "$RUN run -q -j 1 -o $G/slow.out $G/slow.yaml" /dev/null)
    if [ -z "$tty" ]; then ok progress-quiet; else bad progress-quiet "$tty"; fi
    err=$($RUN run -j 1 -o "$G/slow.out" "$G/slow.yaml" 2>&1 >/dev/null)
    if [ -z "$err" ]; then ok progress-not-piped; else bad progress-not-piped "$err"; fi
    # run --ops: its extra run has a line of its own (a warp's loop of 2M trips)
    cat >"$G/loop.sass" <<'SASS'
kernel: loop
warps: 1
         0x0      2000000            0            0            0     64000000 | IADD3 R1, R1, 0x1, RZ
        0x10      2000000            0            0            0     64000000 | ISETP.GE.AND P0, PT, R1, R2, PT
        0x20      2000000            0            0            0     64000000 | @!P0 BRA 0x0
        0x30            1            0            0            0           32 | EXIT
SASS
    printf 'device: h100\nmodel: {net: pipelined}\nkernel: {name: loop, threads: 32, sass: loop.sass}\nsimulation: {runs: 1}\n' >"$G/loop.yaml"
    tty=$(script -qc "$RUN run -j 1 -o $G/loop.out --ops $G/loop.csv $G/loop.yaml" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq 'pnsim run: 0/1 --ops runs done, a run at step '; then ok progress-ops
    else bad progress-ops "$tty"; fi
    # reorder counts the runs of every order: 200 x 5 orders of reorder-example
    tty=$(script -qc "$RUN reorder -j 1 -r 200 -o $G/ro.out configs/reorder-example.yaml" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq "pnsim reorder: [0-9]*/1000 runs done"; then ok progress-reorder
    elif [ -z "$tty" ]; then echo "SKIP progress-reorder (the run ended before its first line)"
    else bad progress-reorder "$tty"; fi
    # calibrate: one line with the runs of every point and an ETA; -v a line per point
    sed 's/1200000/600000/; s/name: slow/name: slow2/' "$G/slow.yaml" >"$G/slow2.yaml"
    printf 'kernel,config,threads,params,median_us\nslow,slow.yaml,64,,1000\nslow2,slow2.yaml,64,,600\n' >"$G/meas.csv"
    tty=$(script -qc "$RUN calibrate -j 1 -d h100 $G/meas.csv" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq "pnsim calibrate: [0-9]*/10 runs done, [0-9]* s"; then ok progress-calibrate
    elif ! echo "$tty" | grep -q 'runs done'; then echo "SKIP progress-calibrate (the runs ended before its first line)"
    else bad progress-calibrate "$tty"; fi
    err=$($RUN calibrate -v -j 1 -d h100 "$G/meas.csv" 2>&1 >/dev/null)
    if echo "$err" | grep -q '^\[2/2\] slow2* threads 64 (line [23])'; then ok progress-calibrate-verbose
    else bad progress-calibrate-verbose "$err"; fi
    # export: the net built, then written
    printf 'device: h100\nmodel: {net: pipelined}\nkernel:\n  name: big\n  threads: 256\n  blocks: 40000\n  counts: {arith: 4, global_ld: 1}\n' >"$G/bigx.yaml"
    tty=$(script -qc "$RUN export -o $G/bigx.dot $G/bigx.yaml" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq "pnsim export: [0-2]/2 stages (build, write) done"; then ok progress-export
    elif [ -z "$tty" ]; then echo "SKIP progress-export (it ended before its first line)"
    else bad progress-export "$tty"; fi
    rm -f "$G/bigx.dot"
    unset PNSIM_PROGRESS_AFTER
else
    echo "SKIP progress-on-terminal (no script(1), or under valgrind)"
fi

# ---- signals ------------------------------------------------------------------
# A config whose runs take minutes; killed after 0.5 s it must stop within a
# few seconds with 128 + signal and leave nothing in its directory. Not under
# valgrind, whose start takes longer than that.
if [ -n "${PN_VG:-}" ]; then
    [ "$fails" -eq 0 ]
    exit
fi
S=$TMP/sig
mkdir "$S"
cat >"$S/long.yaml" <<'YAML'
kernel:
  threads: 1024
  counts: {arith: 20000000, global: 1000000}
simulation:
  runs: 4
  max_steps: 100000000000
YAML
cat >"$S/longpipe.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  threads: 1024
  counts: {arith: 20000000, global_ld: 1000000}
simulation:
  runs: 4
  max_steps: 100000000000
YAML
printf 'config,threads,params,median_us\nlong.yaml,1024,,100\nlong.yaml,512,,90\n' >"$S/meas.csv"
now() { date +%s%N; }
# name, signal, exit status, command name, command...
interrupt() {
    name=$1; sig=$2; want_rc=$3; cmd=$4; shift 4
    t0=$(now)
    "$@" >"$S/stdout" 2>"$S/stderr" &
    pid=$!
    sleep 0.5
    kill -"$sig" "$pid"
    wait "$pid"
    rc=$?
    ms=$((($(now) - t0) / 1000000))
    left=$(ls "$S" | grep -v -x -e long.yaml -e longpipe.yaml -e meas.csv -e stdout -e stderr)
    if [ "$rc" -ne "$want_rc" ]; then bad "$name" "exit status $rc, not $want_rc: $(cat "$S/stderr")"
    elif [ "$ms" -gt 4000 ]; then bad "$name" "took $ms ms after the signal"
    elif [ "$(cat "$S/stderr")" != "pnsim $cmd: interrupted" ]; then bad "$name" "stderr: $(cat "$S/stderr")"
    elif [ -n "$left" ]; then bad "$name" "left $left"
    else ok "$name"; fi
    rm -f "$S/stdout" "$S/stderr"
}
interrupt run-sigint INT 130 run $RUN run -j 2 -o "$S/out.txt" "$S/long.yaml"
interrupt run-sigterm TERM 143 run $RUN run -j 2 -o "$S/out.txt" "$S/long.yaml"
interrupt run-fast-sigint INT 130 run $RUN run -e fast -j 1 -o "$S/out.txt" "$S/long.yaml"
interrupt run-literal-sigterm TERM 143 run $RUN run -e literal -j 1 -o "$S/out.txt" "$S/long.yaml"
interrupt run-pipelined-sigint INT 130 run $RUN run -j 2 -o "$S/out.txt" "$S/longpipe.yaml"
interrupt sweep-sigterm TERM 143 sweep $RUN sweep -q -j 2 -o "$S/out.txt" --plot "$S/p.svg" "$S/long.yaml"
interrupt reorder-sigint INT 130 reorder $RUN reorder -j 2 -o "$S/out.txt" "$S/long.yaml"
interrupt calibrate-sigint INT 130 calibrate \
    $RUN calibrate -d tests/calib/devices/h100-uncal.yaml -j 2 -o "$S/prof.yaml" -P "$S/pts.csv" "$S/meas.csv"
interrupt calibrate-search-sigterm TERM 143 calibrate \
    $RUN calibrate -d tests/calib/devices/h100-uncal.yaml -j 2 --search-latency -o "$S/prof.yaml" "$S/meas.csv"
# a second signal while the first is handled: out at once, with its own status
t0=$(now)
$RUN run -j 2 -o "$S/out.txt" "$S/long.yaml" >"$S/stdout" 2>"$S/stderr" &
pid=$!
sleep 0.3
kill -STOP "$pid"; kill -INT "$pid"; kill -TERM "$pid"; kill -CONT "$pid"
wait "$pid"
rc=$?
ms=$((($(now) - t0) / 1000000))
left=$(ls "$S" | grep -v -x -e long.yaml -e longpipe.yaml -e meas.csv -e stdout -e stderr)
if { [ "$rc" -eq 130 ] || [ "$rc" -eq 143 ]; } && [ "$ms" -lt 4000 ] && [ -z "$left" ] &&
   [ "$(cat "$S/stderr")" = "pnsim run: interrupted" ]; then ok second-signal
else bad second-signal "exit status $rc after $ms ms, left '$left', stderr $(cat "$S/stderr")"; fi

[ "$fails" -eq 0 ]
