#!/bin/sh
# tests/cli.sh - end-to-end tests of the pnsim command: every bad input in
# tests/bad/ (exit status, one-line file:line:col message, no output file),
# golden reports, determinism across -j, export, help and version.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
. tests/lib/pn_test.sh

# ---- bad inputs: first line "# error: LINE:COL: substring" ----------------
for f in tests/bad/*.yaml; do
    spec=$(head -n 1 "$f" | sed -n 's/^# error: //p')
    if [ -z "$spec" ]; then bad "$f" "no '# error:' line"; continue; fi
    pos=${spec%%: *}
    want=${spec#*: }
    rm -f "$TMP/out.json"
    $RUN run --runs 2 -o "$TMP/out.json" "$f" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    lines=$(wc -l <"$TMP/stderr")
    msg=$(cat "$TMP/stderr")
    if [ "$rc" -eq 0 ]; then bad "$f" "exit status 0"; continue; fi
    if [ "$lines" -ne 1 ]; then bad "$f" "stderr has $lines lines: $msg"; continue; fi
    if [ -e "$TMP/out.json" ] || ls "$TMP" | grep -q 'out.json.tmp'; then
        bad "$f" "an output file was written"; continue
    fi
    if [ -s "$TMP/stdout" ]; then bad "$f" "something was written on stdout"; continue; fi
    if [ "$pos" != "0:0" ]; then
        case "$msg" in
        "$f:$pos: "*) ;;
        *) bad "$f" "message does not start with $f:$pos: -- $msg"; continue ;;
        esac
    fi
    case "$msg" in
    *"$want"*) ok "$f" ;;
    *) bad "$f" "message lacks '$want' -- $msg" ;;
    esac
done

# ---- files that cannot be read ---------------------------------------------
expect_fail() {  # name, expected substring, command...
    name=$1; want=$2; shift 2
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(cat "$TMP/stderr")
    if [ "$rc" -eq 0 ]; then bad "$name" "exit status 0"; return; fi
    # an error is one line; a usage error (exit 2) one line and "Try 'pnsim CMD --help'"
    if [ "$rc" -eq 2 ]; then
        if [ "$(wc -l <"$TMP/stderr")" -ne 2 ] || ! tail -n 1 "$TMP/stderr" | grep -q "^Try 'pnsim .*--help' for more information.$"; then
            bad "$name" "not one line and the try line: $msg"; return
        fi
        msg=$(head -n 1 "$TMP/stderr")
    elif [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then bad "$name" "not one line: $msg"; return; fi
    case "$msg" in *"$want"*) ok "$name" ;; *) bad "$name" "got: $msg" ;; esac
}
expect_fail missing-file "$TMP/nope.yaml: cannot open" $RUN run "$TMP/nope.yaml"
expect_fail directory-as-file "$TMP: " $RUN run "$TMP"
expect_fail bad-runs-option "--runs expects an integer" $RUN run --runs 0 configs/example.yaml
expect_fail bad-format "unknown format 'xml'" $RUN run --format xml configs/example.yaml
expect_fail bad-engine "unknown engine 'quick' (expected auto, sm, fast or literal)" $RUN run --engine quick configs/example.yaml
expect_fail unknown-device-option "unknown device" $RUN run --device nosuch configs/example.yaml
expect_fail export-bad-format "unknown export format 'gml' (expected dot, graphml or pnml)" $RUN export -f gml configs/example.yaml

# max_steps reached: reported at simulation.max_steps, nothing written. Two
# warps share one scheduler: at least 6040 steps (2 x 3020 scheduler steps,
# so not refused before the run), in fact over 6200 with any seed.
cat >"$TMP/loop.yaml" <<'YAML'
model: {schedulers: 1}
kernel:
  threads: 64
  counts: {arith: 1000, global: 10}
simulation:
  runs: 2
  max_steps: 6100
YAML
rm -f "$TMP/o.json"
expect_fail max-steps "$TMP/loop.yaml:7:14: net 'loop' (seed 1) reached no dead marking within max_steps = 6100 steps" \
    $RUN run -o "$TMP/o.json" "$TMP/loop.yaml"
[ -e "$TMP/o.json" ] && bad max-steps-output "output written"
# sweep places it there too (a point's net is named after the point)
expect_fail sweep-max-steps "$TMP/loop.yaml:7:14: net 'loop' (seed 1) reached no dead marking within max_steps = 6100 steps" \
    $RUN sweep -q -o "$TMP/o.json" "$TMP/loop.yaml"
expect_fail sweep-max-steps-option "$TMP/loop.yaml: net 'loop' (seed 1) reached no dead marking within max_steps = 6050 steps" \
    $RUN sweep -q --max-steps 6050 "$TMP/loop.yaml"
[ -e "$TMP/o.json" ] && bad sweep-max-steps-output "output written"

# ---- golden reports --------------------------------------------------------
for fmt in text json csv; do
    if $RUN run --runs 3 --format "$fmt" configs/example.yaml >"$TMP/r.$fmt" 2>"$TMP/err"; then
        if cmp -s "$TMP/r.$fmt" "tests/golden/example.$fmt"; then ok "golden-$fmt"
        else bad "golden-$fmt" "differs: $(diff "tests/golden/example.$fmt" "$TMP/r.$fmt" | head -5)"; fi
    else
        bad "golden-$fmt" "failed: $(cat "$TMP/err")"
    fi
done

# every engine's report is pinned too (same seeds, different random streams)
for eng in literal fast; do
    if $RUN run --runs 3 --engine $eng --format json configs/example.yaml >"$TMP/r.$eng" 2>"$TMP/err" &&
       cmp -s "$TMP/r.$eng" "tests/golden/example-$eng.json"; then ok "golden-$eng"
    else bad "golden-$eng" "differs or failed: $(cat "$TMP/err")"; fi
done

# ---- run --ops: a SASS config's time instruction by instruction ----------------
if $RUN run -q --runs 2 --ops "$TMP/ops.csv" configs/sass-example.yaml >"$TMP/r.ops" 2>"$TMP/err" &&
   cmp -s "$TMP/ops.csv" tests/golden/sass-example-ops.csv; then ok ops-golden
else bad ops-golden "$(cat "$TMP/err") $(diff tests/golden/sass-example-ops.csv "$TMP/ops.csv" | head -3)"; fi
# one row per instruction of the program, shares adding up to 1
rows=$(($(wc -l <"$TMP/ops.csv") - 1))
ops=$(grep -c '^ *0x' configs/sass-example.sass)
share=$(awk -F, 'NR > 1 { s += $NF } END { printf "%.3f", s }' "$TMP/ops.csv")
if [ "$rows" -eq "$ops" ] && [ "$share" = "1.000" ]; then ok ops-rows
else bad ops-rows "$rows rows for $ops instructions, shares $share"; fi
rm -f "$TMP/ops2.csv"
expect ops-needs-sass 1 "configs/example.yaml: --ops needs a config whose warps run their SASS (kernel.sass)" \
    $RUN run -q --ops "$TMP/ops2.csv" configs/example.yaml
if [ ! -e "$TMP/ops2.csv" ]; then ok ops-nothing-written; else bad ops-nothing-written "wrote $TMP/ops2.csv"; fi

# ---- same seed, same output, whatever -j ------------------------------------
$RUN run --runs 6 --seed 11 -j 1 --format json configs/example.yaml >"$TMP/j1" 2>&1
$RUN run --runs 6 --seed 11 -j 4 --format json configs/example.yaml >"$TMP/j4" 2>&1
if cmp -s "$TMP/j1" "$TMP/j4" && grep -q '"seed": 16' "$TMP/j1"; then ok jobs-deterministic
else bad jobs-deterministic "-j 1 and -j 4 differ"; fi

# -o writes the same bytes as stdout, and only that file
$RUN run --runs 3 --format json -o "$TMP/out.json" configs/example.yaml >"$TMP/stdout" 2>&1
if cmp -s "$TMP/out.json" tests/golden/example.json && [ ! -s "$TMP/stdout" ]; then ok output-file
else bad output-file "-o output differs from the golden JSON"; fi

# ---- spec conformance through the command line -----------------------------
cat >"$TMP/one.yaml" <<'YAML'
model: {schedulers: 2, latency: {global: 20, shared: 2}}
kernel:
  name: one-warp
  threads: 32
  counts: {arith: 10, shared: 5, global: 5}
YAML
out=$($RUN run --runs 4 --format csv "$TMP/one.yaml" 2>&1 | cut -d, -f6,7 | sort -u)
if [ "$out" = "$(printf '201,160\nsteps,idle_steps')" ]; then ok cli-conformance
else bad cli-conformance "got $out"; fi

# ---- export ----------------------------------------------------------------
if $RUN export --format graphml -o "$TMP/net.graphml" configs/example.yaml 2>"$TMP/err"; then
    nodes=$(grep -c '<node ' "$TMP/net.graphml")
    edges=$(grep -c '<edge ' "$TMP/net.graphml")
    # 8 warps: 18*8+2 places + 15*8+1 transitions; (26+23+6)*8+4 arcs
    if [ "$nodes" -eq 267 ] && [ "$edges" -eq 444 ]; then ok export-graphml
    else bad export-graphml "nodes=$nodes edges=$edges"; fi
else
    bad export-graphml "$(cat "$TMP/err")"
fi
if $RUN export -f pnml -o "$TMP/net.pnml" configs/example.yaml 2>"$TMP/err" &&
   [ "$(grep -c '<place ' "$TMP/net.pnml")" -eq 146 ] &&
   [ "$(grep -c '<transition ' "$TMP/net.pnml")" -eq 121 ] &&
   [ "$(grep -c '<type value="inhibitor"/>' "$TMP/net.pnml")" -eq 48 ]; then ok export-pnml
else bad export-pnml "$(cat "$TMP/err")"; fi
if $RUN export configs/example.yaml | grep -q '^digraph {$'; then ok export-dot
else bad export-dot "no digraph header"; fi

# ---- sweep -------------------------------------------------------------------
if $RUN sweep -q configs/example.yaml >"$TMP/sw.text" 2>"$TMP/err" &&
   cmp -s "$TMP/sw.text" tests/golden/sweep-example.text; then ok sweep-golden
else bad sweep-golden "$(cat "$TMP/err") $(diff tests/golden/sweep-example.text "$TMP/sw.text" | head -3)"; fi
$RUN sweep -q -f csv configs/example.yaml >"$TMP/sw.csv" 2>&1
head -n 1 "$TMP/sw.csv" | grep -q '^threads,warps,.*steps_mean,steps_sd,.*idle_mean.*,best$' &&
    ok sweep-csv-columns || bad sweep-csv-columns "$(head -n 1 "$TMP/sw.csv")"
# exactly one best row, and it has the smallest steps_mean
best=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
    { if (min == "" || $col["steps_mean"] + 0 < min) { min = $col["steps_mean"] + 0; arg = $1 }
      if ($col["best"] == 1) { nb++; b = $1 } }
    END { print (nb == 1 && b == arg) ? b : "bad" }' "$TMP/sw.csv")
[ "$best" = 256 ] && ok sweep-best-marked || bad sweep-best-marked "best=$best"
# a point of the sweep equals `run` at that point (same seeds)
$RUN sweep -q -r 4 -f json configs/example.yaml >"$TMP/sw.json" 2>&1
$RUN run -r 4 -t 512 -f json configs/example.yaml >"$TMP/run512.json" 2>&1
if python3 - "$TMP/sw.json" "$TMP/run512.json" <<'PY'
import json, sys
sw = json.load(open(sys.argv[1])); run = json.load(open(sys.argv[2]))
p = [q for q in sw["points"] if q["threads"] == 512][0]
assert p["steps"] == run["steps"] and p["idle_steps"] == run["idle_steps"], (p, run)
assert sw["points"][sw["best"]]["best"] is True
assert sum(q["best"] for q in sw["points"]) == 1
PY
then ok sweep-equals-run; else bad sweep-equals-run "point 512 differs from run -t 512"; fi
# -j 1 and -j 3 give the same bytes
$RUN sweep -q -j 1 -f json configs/example.yaml >"$TMP/sw1" 2>&1; rc1=$?
$RUN sweep -q -j 3 -f json configs/example.yaml >"$TMP/sw3" 2>&1; rc3=$?
# both must succeed (two identical failures are no determinism) and agree
if [ "$rc1" -ne 0 ] || [ "$rc3" -ne 0 ]; then
    bad sweep-jobs-deterministic "exit statuses $rc1 and $rc3: $(head -c 300 "$TMP/sw1")"
elif ! grep -q '"best"' "$TMP/sw1"; then
    bad sweep-jobs-deterministic "no sweep report: $(head -c 300 "$TMP/sw1")"
elif cmp -s "$TMP/sw1" "$TMP/sw3"; then ok sweep-jobs-deterministic
else bad sweep-jobs-deterministic "differ"; fi
# several axes, params and schedulers included: counts re-evaluated per point
cat >"$TMP/axes.yaml" <<'YAML'
model: {latency: {global: 20, shared: 2}}
params: {n: 1024}
kernel:
  name: axes
  threads: 64
  counts: {arith: "n / threads", global: 2}
simulation: {runs: 2}
sweep: {n: [1024, 2048], schedulers: [1, 4]}
YAML
$RUN sweep -q -f csv "$TMP/axes.yaml" >"$TMP/axes.csv" 2>&1
# one warp per... 2 warps of 16 or 32 arith + 2 global: 1 scheduler serialises them
if awk -F, 'NR > 1 { print $3 "," $4 "," $8 }' "$TMP/axes.csv" | tr '\n' ' ' |
   grep -q '^1024,1,.* 1024,4,.* 2048,1,.* 2048,4,'; then ok sweep-axes
else bad sweep-axes "$(cat "$TMP/axes.csv")"; fi
# the plot: an SVG from gnuplot, and bad names refused
if $RUN sweep -q -p "$TMP/p.svg" configs/example.yaml >/dev/null 2>"$TMP/err" &&
   grep -q '<svg' "$TMP/p.svg" && grep -q 'best' "$TMP/p.svg"; then ok sweep-plot
else bad sweep-plot "$(cat "$TMP/err")"; fi
expect_fail sweep-plot-name "expected a .svg or .png" $RUN sweep -p "$TMP/p.pdf" configs/example.yaml
# a point outside the device: error at the sweep axis, no output written
cat >"$TMP/big.yaml" <<'YAML'
kernel:
  threads: 64
  counts: {arith: 10}
sweep:
  threads: [64, 2048]
YAML
rm -f "$TMP/big.out"
expect_fail sweep-device-limit "$TMP/big.yaml:5:3: at sweep point threads = 2048: threads must be between 1 and 1024" $RUN sweep -q -o "$TMP/big.out" "$TMP/big.yaml"
[ -e "$TMP/big.out" ] && bad sweep-no-output "output written"

# ---- a program in the config: run, sweep and export use its program-order net
$RUN run -f json configs/reorder-example.yaml >"$TMP/prog.json" 2>&1
$RUN reorder -f json configs/reorder-example.yaml >"$TMP/reord.json" 2>&1
if python3 - "$TMP/prog.json" "$TMP/reord.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1])); reo = json.load(open(sys.argv[2]))
prog = [o for o in reo["orders"] if o["name"] == "program"][0]
assert run["engine"] == "sm" and run["model"]["selection"] == "program", run
assert run["steps"] == prog["steps"] and run["idle_steps"] == prog["idle_steps"], (run, prog)
PY
then ok run-program-order; else bad run-program-order "run differs from reorder's program row"; fi
nodes=$($RUN export -f graphml configs/reorder-example.yaml | grep -c '<node ')
[ "$nodes" -eq 781 ] && ok export-program-net || bad export-program-net "nodes=$nodes"

# ---- help, version, usage errors -----------------------------------------
$RUN --help | grep -q '^usage: pnsim COMMAND' && ok help || bad help "no usage"
$RUN run --help | grep -q -- '--format FMT' && ok run-help || bad run-help "no options"
$RUN help export | grep -q 'graphml' && ok help-export || bad help-export "no text"
$RUN --version | grep -Eq '^pnsim [0-9]+\.[0-9]+\.[0-9]+$' && ok version || bad version "bad version line"
$RUN frobnicate >/dev/null 2>&1; [ $? -eq 2 ] && ok unknown-command || bad unknown-command "exit not 2"
$RUN run >/dev/null 2>&1; [ $? -eq 2 ] && ok run-no-file || bad run-no-file "exit not 2"
$RUN devices | grep -q '^gtx960m ' && ok devices || bad devices "gtx960m not listed"
# devices in every format: the h100's clock, nets and how each net's steps become time
if $RUN devices -f csv | grep -qx 'h100,132,1975.87,paper;pipelined,calibrated,clock,4,400,4,"NVIDIA H100 SXM5 (Hopper GH100, compute capability 9.0)"'; then
    ok devices-csv
else bad devices-csv "$($RUN devices -f csv 2>&1 | tail -1)"; fi
if $RUN devices -f json | python3 -c 'import json, sys
d = {x["name"]: x for x in json.load(sys.stdin)}
h = d["h100"]
assert h["nets"] == ["paper", "pipelined"] and h["pipelined"]["time"] == "clock"
assert h["paper"]["time"] == "calibrated" and h["clock_mhz"] == 1975.87 and h["sms"] == 132
assert d["gtx960m"]["paper"]["time"] == "no"' 2>"$TMP/err"; then ok devices-json
else bad devices-json "$(cat "$TMP/err")"; fi
# init: templates that run as written, on both nets
if $RUN init -o "$TMP/init.yaml" && $RUN run -r 2 -f csv "$TMP/init.yaml" >"$TMP/init.csv" 2>&1 &&
   grep -q '^my-kernel,256,8,1,' "$TMP/init.csv" && grep -q 'net: pipelined' "$TMP/init.yaml"; then
    ok init-pipelined-runs
else bad init-pipelined-runs "$(cat "$TMP/init.csv")"; fi
if $RUN init -n paper -k k1 >"$TMP/init2.yaml" && $RUN sweep -q -f csv "$TMP/init2.yaml" >"$TMP/init2.csv" 2>&1 &&
   [ "$(wc -l <"$TMP/init2.csv")" -eq 6 ]; then ok init-paper-sweeps
else bad init-paper-sweeps "$(cat "$TMP/init2.csv")"; fi
$RUN init -n quantum >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && head -n 1 "$TMP/err" | grep -qx "pnsim init: --net expects pipelined or paper, got 'quantum'"; then
    ok init-bad-net
else bad init-bad-net "rc $rc: $(cat "$TMP/err")"; fi
# a command-line value is blamed on the command line, not on the config
$RUN run -t 2048 configs/example.yaml >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$TMP/err")" = "pnsim run: threads must be between 1 and 1024 for device gtx960m, got 2048 (-t/--threads on the command line)" ]; then
    ok threads-option-blamed
else bad threads-option-blamed "rc $rc: $(cat "$TMP/err")"; fi
# a CSV that is not ncu's says what was expected
printf 'a,b\n1,2\n' >"$TMP/notncu.csv"
$RUN import "$TMP/notncu.csv" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "^$TMP/notncu.csv:1:1: not an Nsight Compute CSV: expected a header row of quoted fields \"ID\",\"Process ID\"" "$TMP/err"; then
    ok import-not-ncu
else bad import-not-ncu "rc $rc: $(cat "$TMP/err")"; fi
# plots in microseconds where the device maps steps to time, from 0
if command -v gnuplot >/dev/null 2>&1; then
    if $RUN sweep -q -r 2 --plot "$TMP/pt.svg" -o /dev/null configs/pipelined-example.yaml &&
       grep -q 'predicted time (µs)' "$TMP/pt.svg" &&
       $RUN sweep -q -r 2 --plot "$TMP/ps.svg" -o /dev/null configs/example.yaml &&
       grep -q 'steps (mean +/- sd)' "$TMP/ps.svg" && ! grep -q 'µs' "$TMP/ps.svg"; then
        ok plot-units
    else bad plot-units "labels: $(grep -o 'predicted time (µs)\|steps (mean' "$TMP/pt.svg" "$TMP/ps.svg" 2>&1 | head -3)"; fi
else
    echo "SKIP plot-units (no gnuplot)"
fi
# import onto a device of another compute capability: one warning line, configs still written
$RUN import -d gtx960m tests/ncu/good.csv >"$TMP/imp.yaml" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$TMP/err")" = "pnsim import: warning: tests/ncu/good.csv was profiled on a GPU of compute capability 9.0, device gtx960m is 5.0: the configs predict gtx960m" ] &&
   grep -q '^device: gtx960m' "$TMP/imp.yaml" && [ -z "$($RUN import tests/ncu/good.csv 2>&1 >/dev/null)" ]; then
    ok import-cc-mismatch-warning
else bad import-cc-mismatch-warning "rc $rc: $(cat "$TMP/err")"; fi
# the same compute capability with another number of SMs (an H100 PCIe): one warning line
sed 's/"device__attribute_multiprocessor_count","","132"/"device__attribute_multiprocessor_count","","114"/' \
    tests/ncu/good.csv >"$TMP/pcie.csv"
$RUN import "$TMP/pcie.csv" >"$TMP/imp.yaml" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$TMP/err")" = "pnsim import: warning: $TMP/pcie.csv was profiled on a GPU of 114 SMs, device h100 has 132: the configs predict h100 (a profile of that GPU: examples/probe/README.md)" ] &&
   grep -q '^device: h100' "$TMP/imp.yaml"; then
    ok import-sms-mismatch-warning
else bad import-sms-mismatch-warning "rc $rc: $(cat "$TMP/err")"; fi
# -t with a threads axis: refused, not ignored
$RUN sweep -t 128 configs/example.yaml >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && head -n 1 "$TMP/err" | grep -qx "pnsim sweep: --threads 128: configs/example.yaml:20 sweeps threads already (drop -t, or the axis)"; then
    ok sweep-threads-and-axis
else bad sweep-threads-and-axis "rc $rc: $(cat "$TMP/err")"; fi
$RUN devices -f yaml >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && head -n 1 "$TMP/err" | grep -q "unknown format 'yaml'"; then ok devices-bad-format
else bad devices-bad-format "rc $rc: $(cat "$TMP/err")"; fi

# the raw page's units row has one unit per column, but ncu scales each value:
# in a "Kbyte/block" column 32 KiB shows as 32.77 (-> 32770 bytes), 128 bytes as
# 128; with --print-units base the column is "byte/block" and 32 KiB "32,768"
for v in 'Kbyte/block|32.77|32770' 'Kbyte/block|128|128' 'byte/block|32,768|32768'; do
python3 - tests/ncu/sass-raw.csv "$TMP/kb.csv" "$v" <<'PYEOF'
import csv, sys
unit, val, _ = sys.argv[3].split("|")
r = list(csv.reader(open(sys.argv[1])))
i = r[0].index("launch__shared_mem_per_block_static")
r[1][i] = unit
r[2][i] = "%s (0: %s)" % (val, val)
csv.writer(open(sys.argv[2], "w"), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(r)
PYEOF
$RUN import "$TMP/kb.csv" >"$TMP/kb.yaml" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "^  shared_bytes: ${v##*|}\$" "$TMP/kb.yaml"; then ok "import-shared-units-${v##*|}"
else bad "import-shared-units-${v##*|}" "rc $rc: $(grep shared_bytes "$TMP/kb.yaml") $(cat "$TMP/err")"; fi
done

# ---- import --source: warps that run their SASS (doc/dependencies.md) ------
rm -rf "$TMP/sass"
$RUN import -O "$TMP/sass" -S tests/ncu/sass-source.csv tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
cfg="$TMP/sass/dp_serial-256x16384-91.yaml"
if [ $rc -eq 0 ] && grep -q '^  sass: dp_serial-256x16384-91.sass$' "$cfg" &&
   grep -q '^warps: 131072$' "$TMP/sass/dp_serial-256x16384-91.sass" &&
   grep -q '^block: 256 1 1$' "$TMP/sass/dp_serial-256x16384-91.sass" &&
   [ "$(grep -c '^ *0x' "$TMP/sass/dp_serial-256x16384-91.sass")" -eq 112 ]; then ok import-source
else bad import-source "rc $rc: $(cat "$TMP/err")"; fi
# the run puts the serial loop (100000 trips, thread 0) on one warp of the busiest SM:
# about 1.8 M steps, its 32 loads a trip waiting for one line (the H100 took 2.35 M cycles;
# counts alone spread it over every warp: 2.7 k steps)
steps=$($RUN run -q -r 2 -f csv "$cfg" 2>"$TMP/err" | awk -F, 'NR == 2 { print $6 }')
if [ -n "$steps" ] && [ "$steps" -gt 1500000 ] && [ "$steps" -lt 2500000 ]; then ok run-sass-serial-tail
else bad run-sass-serial-tail "steps '$steps': $(cat "$TMP/err")"; fi
# a report taken with ncu's application replay (doc/import.md), imported with --flushed:
# PolyBench's gramschmidt at 256 threads. Its first launch reads a column the program's
# copy from the host left partly in DRAM, which this profile measures (the H100 took 133.7 k
# cycles; the kernel-replay profile of the same launch, whose later passes found the column
# in L2, gives 90 k steps)
xz -dc examples/data/h100/polybench_app/gramschmidt_t256.source.csv.xz >"$TMP/gs-src.csv"
rm -rf "$TMP/gs"
$RUN import --flushed -O "$TMP/gs" -S "$TMP/gs-src.csv" \
    examples/data/h100/polybench_app/gramschmidt_t256.raw.csv 2>"$TMP/err"; rc=$?
steps=$($RUN run -q -r 2 -f csv "$TMP/gs/gramschmidt_kernel1-256x1-0.yaml" 2>>"$TMP/err" |
        awk -F, 'NR == 2 { print $6 }')
if [ $rc -eq 0 ] && [ "$(grep -l 'flushed: 1[,}]' "$TMP"/gs/*.yaml | wc -l)" -eq 6 ] &&
   [ -n "$steps" ] && [ "$steps" -gt 100000 ] && [ "$steps" -lt 140000 ]; then ok import-app-replay
else bad import-app-replay "rc $rc, steps '$steps': $(cat "$TMP/err")"; fi
# CUDA samples' quasirandomGenerator (examples/cudasamples): 32 constants a step read at a
# register's index bind it on the SM's constant cache (const_index_busy; the H100 took
# 44.3 k cycles, pnsim 25 k steps without the key)
xz -dc examples/data/h100/cudasamples/quasirandomGenerator.source.csv.xz >"$TMP/qg-src.csv"
rm -rf "$TMP/qg"
$RUN import --flushed -O "$TMP/qg" -S "$TMP/qg-src.csv" \
    examples/data/h100/cudasamples/quasirandomGenerator.raw.csv 2>"$TMP/err"; rc=$?
q="$TMP/qg/quasirandomGeneratorKernel-384x128-1.yaml"
steps=$($RUN run -q -r 2 -f csv "$q" 2>>"$TMP/err" | awk -F, 'NR == 2 { print $6 }')
if [ $rc -eq 0 ] && [ -n "$steps" ] && [ "$steps" -gt 45000 ] && [ "$steps" -lt 55000 ] &&
   $RUN run -r 1 "$q" 2>>"$TMP/err" | grep -q '^        constant-bound, at 9[0-9] % of its peak'; then
    ok import-const-index
else bad import-const-index "rc $rc, steps '$steps': $(cat "$TMP/err")"; fi
# CUDA samples, second set (examples/data/h100/cudasamples2): cuFFT's kernels have no
# Instructions Executed on the source page (ncu collected no SourceCounters for them): those
# launches get counts-only configs and a warning, the others their programs
xz -dc examples/data/h100/cudasamples2/simpleCUFFT.source.csv.xz >"$TMP/fft-src.csv"
rm -rf "$TMP/fft"
$RUN import --flushed -O "$TMP/fft" -S "$TMP/fft-src.csv" \
    examples/data/h100/cudasamples2/simpleCUFFT.raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(ls "$TMP/fft"/*.yaml | wc -l)" -eq 4 ] &&
   [ "$(ls "$TMP/fft"/*.sass | wc -l)" -eq 1 ] &&
   [ "$(grep -c 'has no Instructions Executed (ncu collected no SourceCounters for it): a counts-only config' "$TMP/err")" -eq 3 ] &&
   grep -q "^pnsim import: 4 configs in $TMP/fft (1 with a SASS program)" "$TMP/err" &&
   ! grep -q '^  sass:' "$TMP/fft/regular_fft-64x1-0.yaml" &&
   $RUN run -q -r 1 "$TMP/fft/regular_fft-64x1-0.yaml" >/dev/null 2>>"$TMP/err"; then
    ok import-uncounted-table
else bad import-uncounted-table "rc $rc: $(cat "$TMP/err")"; fi
# wmma's fragment loads from shared memory compile to generic LD.E: the page's Address Space
# (Shared) makes them shared loads, marked `shared` in the program file
xz -dc examples/data/h100/cudasamples2/bf16TensorCoreGemm.source.csv.xz >"$TMP/bf-src.csv"
rm -rf "$TMP/bf"
$RUN import --flushed -O "$TMP/bf" -S "$TMP/bf-src.csv" \
    examples/data/h100/cudasamples2/bf16TensorCoreGemm.raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c ' shared | LD\.E ' "$TMP/bf"/*.sass)" -eq 1536 ] &&
   [ "$(grep -c ' shared | ' "$TMP/bf"/*.sass)" -eq 1536 ]; then ok import-generic-shared
else bad import-generic-shared "rc $rc: $(cat "$TMP/err")"; fi
# convolutionTexture's 17 texture fetches a thread bind it on the SM's texture unit (tex_busy)
xz -dc examples/data/h100/cudasamples2/convolutionTexture.source.csv.xz >"$TMP/ct-src.csv"
rm -rf "$TMP/ct"
$RUN import --flushed -O "$TMP/ct" -S "$TMP/ct-src.csv" \
    examples/data/h100/cudasamples2/convolutionTexture.raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && $RUN run -r 1 "$TMP/ct/convolutionRowsKernel-192x24576-0.yaml" 2>>"$TMP/err" |
   grep -Eq '^        texture-bound, at (9[0-9]|100) % of its peak'; then ok import-texture
else bad import-texture "rc $rc: $(cat "$TMP/err")"; fi
# a kernel.sass config runs on the sass engine without a net (the report says so); the
# literal and fast engines run its net (models/sass/pn_sass_net.c), which export writes
if $RUN run -r 1 "$cfg" 2>"$TMP/err" | grep -q '^net      none: the warps run their SASS program' &&
   $RUN export configs/sass-example.yaml 2>"$TMP/err" | grep -q '"w0.pc0"'; then
    ok sass-net
else bad sass-net "$(cat "$TMP/err")"; fi
# the loads' L2 hit rate is capped by the DRAM sectors they read over the sectors
# the L1 read from L2 (ncu's read hit rate, 45.7 % here, ran up to 81 % on a
# 16 MB stream that read 74 % of its sectors from DRAM): 520408 DRAM sectors over
# 4 (-> 0.437) and over 32 (-> the hit rate) L2 sectors a load of 231072 loads
for v in '924288|0.437' '7394304|0.4571'; do
python3 - tests/ncu/sass-raw.csv "$TMP/l2rd.csv" "${v%|*}" <<'PYEOF'
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
r[0].append("lts__t_sectors_srcunit_tex_op_read.sum"); r[1].append("sector"); r[2].append(sys.argv[3])
csv.writer(open(sys.argv[2], "w"), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(r)
PYEOF
rm -rf "$TMP/l2rd"
$RUN import -O "$TMP/l2rd" -S tests/ncu/sass-source.csv "$TMP/l2rd.csv" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "memory: {.* l2_hit: ${v#*|}, .* l2_ld_sectors: " "$TMP/l2rd/dp_serial-256x16384-91.yaml"; then
    ok "import-l2-hit-cap-${v#*|}"
else bad "import-l2-hit-cap-${v#*|}" "rc $rc: $(grep memory: "$TMP/l2rd/dp_serial-256x16384-91.yaml") $(cat "$TMP/err")"; fi
done

# the loads' L1 wavefronts: the larger of the data stage's reads and the tag stage's
# output over the 231072 loads (both measured, else not written)
for v in '462144,693216|3' '693216,462144|3' '462144,|'; do
python3 - tests/ncu/sass-raw.csv "$TMP/wf.csv" "${v%|*}" <<'PYEOF'
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
names = ["l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum",
         "l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum"]
for name, val in zip(names, sys.argv[3].split(",")):
    if val:
        r[0].append(name); r[1].append(""); r[2].append(val)
csv.writer(open(sys.argv[2], "w"), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(r)
PYEOF
rm -rf "$TMP/wf"
$RUN import -O "$TMP/wf" -S tests/ncu/sass-source.csv "$TMP/wf.csv" 2>"$TMP/err"; rc=$?
got=$(grep -o 'l1_ld_wavefronts: [0-9.]*' "$TMP/wf/dp_serial-256x16384-91.yaml")
want=${v#*|}
[ -z "$want" ] || want="l1_ld_wavefronts: $want"
if [ $rc -eq 0 ] && [ "$got" = "$want" ]; then
    ok "import-l1-ld-wavefronts-${v%|*}"
else bad "import-l1-ld-wavefronts-${v%|*}" "rc $rc: got '$got' $(cat "$TMP/err")"; fi
done

# compare: the imported launch against a measured time, a row without a config
printf '# measured\nkernel,size,threads,blocks,median_us\ndp_serial,4194304,256,16384,1182.16\nnone,1,64,2,3.5\n' >"$TMP/times.csv"
$RUN compare -q -r 1 "$TMP/times.csv" "$TMP/sass" >"$TMP/cmp.txt" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^overall: 1 of 2 launches predicted, MAPE ' "$TMP/cmp.txt" &&
   grep -q '^none .* no config$' "$TMP/cmp.txt" &&
   $RUN compare -q -r 1 -f json "$TMP/times.csv" "$TMP/sass" | python3 -c 'import json, sys
d = json.load(sys.stdin); r = d["launches"][0]
assert d["overall"]["predicted"] == 1 and r["config"].endswith("dp_serial-256x16384-91.yaml")
assert abs(r["error"] - (r["predicted_us"] - 1182.16) / 1182.16) < 1e-6 and d["launches"][1]["predicted_us"] is None' &&
   [ "$($RUN compare -q -r 1 -f csv "$TMP/times.csv" "$TMP/sass" | head -1)" = "kernel,size,threads,blocks,measured_us,predicted_us,error,config" ]; then
    ok compare
else bad compare "rc $rc: $(cat "$TMP/err") $(tail -1 "$TMP/cmp.txt")"; fi
# --roofline: beside pnsim, the largest of the bounds `pnsim run` reports, mapped to time as
# steps are (h100: 1975.87 steps a microsecond), and its name
$RUN run -q -r 1 -f json "$TMP/sass/dp_serial-256x16384-91.yaml" >"$TMP/rl.json" 2>"$TMP/err"
$RUN compare -q -r 1 --roofline -f csv "$TMP/times.csv" "$TMP/sass" >"$TMP/rl.csv" 2>>"$TMP/err"
if python3 - "$TMP/rl.json" "$TMP/rl.csv" <<'PYEOF'
import csv, json, sys
run = json.load(open(sys.argv[1]))
row = [r for r in csv.DictReader(open(sys.argv[2])) if r["kernel"] == "dp_serial"][0]
b = run["bounds"]
bound = b[b["binding"]]
pred, roof = float(row["predicted_us"]), float(row["roofline_us"])
assert row["bound"] == b["binding"], (row["bound"], b["binding"])
assert abs(roof - (pred - (run["steps"]["mean"] - bound) / 1975.87)) < 1e-3, (roof, pred, bound)
assert roof <= pred and abs(float(row["roofline_error"]) - (roof - 1182.16) / 1182.16) < 1e-6
PYEOF
then ok compare-roofline; else bad compare-roofline "$(cat "$TMP/err")"; fi
# the measured spread (p10_us, p90_us) is read with the times: a bad value is an error at
# its file, line and column
printf '# measured\nkernel,size,threads,blocks,median_us,p10_us,p90_us\ndp_serial,4194304,256,16384,1182.16,fast,1190\n' >"$TMP/tsp.csv"
expect compare-bad-spread 1 "$TMP/tsp.csv:3:37: p10_us: expected a number greater than 0, got 'fast'" \
    $RUN compare -q -r 1 "$TMP/tsp.csv" "$TMP/sass"
# --durations: measured times are kernel durations as profilers report them; the launch
# then costs the profile's launch_duration_us (h100: 0.864) in place of launch_us (3.168)
a=$($RUN compare -q -r 1 -f csv "$TMP/times.csv" "$TMP/sass" 2>"$TMP/err" | awk -F, '$1 == "dp_serial" { print $6 }')
b=$($RUN compare -q -r 1 -f csv --durations "$TMP/times.csv" "$TMP/sass" 2>>"$TMP/err" | awk -F, '$1 == "dp_serial" { print $6 }')
if [ -n "$a" ] && [ -n "$b" ] && python3 -c "import sys; assert abs(($a - $b) - (3.168 - 0.864)) < 1e-3"; then
    ok compare-durations
else bad compare-durations "'$a' '$b' $(cat "$TMP/err")"; fi
rm -rf "$TMP/sass200"; mkdir -p "$TMP/sass200"
grep -v '^  launch_duration_us:' models/devices/h200.yaml >"$TMP/sass200/nodur.yaml"
sed 's|^device: h100$|device: '"$TMP"'/sass200/nodur.yaml|; s|^  sass: |  sass: '"$TMP"'/sass/|' "$TMP/sass/dp_serial-256x16384-91.yaml" >"$TMP/sass200/dp_serial-256x16384-91.yaml"
expect compare-durations-missing 1 "$TMP/sass200/dp_serial-256x16384-91.yaml: kernel durations need a pipelined config whose device profile gives launch_duration_us (device h200)" \
    $RUN compare -q -r 1 --durations "$TMP/times.csv" "$TMP/sass200"
printf 'kernel,size,threads,blocks\nx,1,64,2\n' >"$TMP/t2.csv"
$RUN compare "$TMP/t2.csv" "$TMP/sass" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "t2.csv:1:1: missing column 'median_us'" "$TMP/err"; then ok compare-missing-column
else bad compare-missing-column "rc $rc: $(cat "$TMP/err")"; fi
$RUN compare "$TMP/times.csv" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ]; then ok compare-usage; else bad compare-usage "rc $rc"; fi
# several runs of the same launches: the median of each launch's times (1182.16 of
# 1000, 1182.16 and 1500), as measured; rows that differ or count differently: errors
printf 'kernel,size,threads,blocks,median_us\ndp_serial,4194304,256,16384,1000\nnone,1,64,2,3\n' >"$TMP/r2.csv"
printf 'kernel,size,threads,blocks,median_us\ndp_serial,4194304,256,16384,1500\nnone,1,64,2,4\n' >"$TMP/r3.csv"
m=$($RUN compare -q -r 1 -f csv "$TMP/times.csv" "$TMP/r2.csv" "$TMP/r3.csv" "$TMP/sass" 2>"$TMP/err" |
    awk -F, '$1 == "dp_serial" { print $5 } $1 == "none" { print $5 }' | tr '\n' ' ')
if [ "$m" = "1182.16 3.5 " ]; then ok compare-median-of-runs
else bad compare-median-of-runs "'$m' $(cat "$TMP/err")"; fi
printf 'kernel,size,threads,blocks,median_us\ndp_serial,4194304,128,16384,1000\nnone,1,64,2,3\n' >"$TMP/r4.csv"
expect compare-runs-differ 1 "$TMP/r4.csv:2:19: threads '128', but line 3 of $TMP/times.csv has '256': several times files must time the same launches in the same order" \
    $RUN compare -q -r 1 "$TMP/times.csv" "$TMP/r4.csv" "$TMP/sass"
printf 'kernel,size,threads,blocks,median_us\ndp_serial,4194304,256,16384,1000\n' >"$TMP/r5.csv"
expect compare-runs-count 1 "$TMP/r5.csv: 1 launches, $TMP/times.csv has 2: several times files must time the same launches" \
    $RUN compare -q -r 1 "$TMP/times.csv" "$TMP/r5.csv" "$TMP/sass"
# its bounds are the program's own (the serial warp alone issues 221903 instructions, where
# the count-based bound spreads them over every warp), and no run is below the largest
if $RUN run -r 2 -f json "$cfg" | python3 -c 'import json, sys
d = json.load(sys.stdin); b = d["bounds"]
m = max(v for k, v in b.items() if isinstance(v, int))
assert b["latency"] == 221903 and "l2" in b, b
assert d["steps"]["min"] >= m, (d["steps"], m)' 2>"$TMP/err"; then ok run-sass-bounds
else bad run-sass-bounds "$(tail -1 "$TMP/err")"; fi
# examples/library (CUB, Thrust, cuBLAS, cuFFT on an H100): every launch imports (names the
# raw page abbreviates, tables printed once or twice, spinning kernels' counts), and a run
# whose warps leave the plan (cuBLAS's warp-specialised FP16 GEMM at 2048^2) still ends no
# earlier than the plan's largest bound
xz -dc examples/data/h100/library/library.source.csv.xz >"$TMP/lib-src.csv"
rm -rf "$TMP/lib"
$RUN import -O "$TMP/lib" -S "$TMP/lib-src.csv" examples/data/h100/library/library.raw.csv 2>"$TMP/err"; rc=$?
lcfg="$TMP/lib/nvjet_sm90_hss_256x128_64x4_1x2_h_bz_coopA_NNT-384x128-43.yaml"
if [ $rc -eq 0 ] && [ "$(ls "$TMP/lib" | grep -c 'yaml$')" -eq 55 ] && [ -f "$lcfg" ] &&
   $RUN run -r 1 -f json "$lcfg" | python3 -c 'import json, sys
d = json.load(sys.stdin); b = d["bounds"]
m = max(v for k, v in b.items() if isinstance(v, int))
assert m > 40000 and d["steps"]["min"] >= m, (d["steps"], m)' 2>>"$TMP/err"; then ok import-library-floor
else bad import-library-floor "rc $rc: $(tail -3 "$TMP/err")"; fi
# an unknown key in a profile's pipelined section: the required keys, then the optional ones
sed 's/^  lsu_sectors:/  bogus_key: 1\n  lsu_sectors:/' models/devices/h100.yaml >"$TMP/bogus.yaml"
bl=$(grep -n '^  bogus_key:' "$TMP/bogus.yaml" | cut -d: -f1)
expect profile-unknown-key 1 "$TMP/bogus.yaml:$bl:3: unknown key 'bogus_key' in pipelined (expected partitions, issue, clock_mhz, launch_us, sfu_busy, lsu_sectors, shared_wavefronts, dram_sectors, inflight, arith_busy, block_launch, latency, or the optional dram_line_sectors, l2_sectors, l2_line_sectors, l2_store_sectors, l2_store_line_sectors, l2_atomic_sectors, atomic_serial, atomic_serial_float, bank_conflict, atomic_lines, l2_resident_mib, dram_queue, dram_write_delay, l2_sm_read, l2_sm_write, alu_busy, fmaheavy_busy, tensor_busy, tensor_latency, branch_busy, diverge_switch, fp64_busy, fp64_latency, launch_duration_us, line_latency, store_order, bsync_hold, fp64_bank_conflict, branch_pred, branch_taken, code_fetch, store_serial, dram_jitter, block_launch_1024, l2_fill_sectors, scrub_dirty_mib, scrub_writeback_ld, scrub_writeback_st, store_line_cycles, store_narrow, dram_partial_sectors, atomic_cas, atomic_return, const_index_busy, barrier_stagger, tex_busy, tex_latency, block_turn, block_turn_warp, stores_posted, budget_depth, atomic_slice_fill, store_merge)" \
    $RUN run -r 1 -d "$TMP/bogus.yaml" configs/example.yaml
# the bundled example on every engine: the same distribution (tests/test_sass_net.c); here
# their first runs within 1 % of each other. An imported launch too large to unroll is refused
for e in auto literal fast; do
    $RUN run -q -r 1 -e $e -f csv configs/sass-example.yaml | awk -F, 'NR == 2 { print $6 }'
done >"$TMP/means" 2>"$TMP/err"
if [ "$(wc -l <"$TMP/means")" -eq 3 ] && awk 'NR == 1 { a = $1 } { if ($1 < 0.99 * a || $1 > 1.01 * a) bad = 1 } END { exit bad }' "$TMP/means"; then
    ok run-sass-engines
else bad run-sass-engines "$(cat "$TMP/means" "$TMP/err")"; fi
$RUN run -q -e literal "$cfg" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q 'dp_serial-256x16384-91.yaml: the sass net would exceed 4000000 places' "$TMP/err" &&
   [ "$(wc -l <"$TMP/err")" -eq 1 ]; then ok run-sass-literal-too-large
else bad run-sass-literal-too-large "rc $rc: $(cat "$TMP/err")"; fi
# the L2 reads from L1 the raw page measured: per warp-level global load (LDG and ATOMG),
# written as kernel.memory.l2_ld_sectors (examples/data/h100/deps/kernels.raw.csv has them)
rm -rf "$TMP/l2"
if $RUN import -O "$TMP/l2" examples/data/h100/deps/kernels.raw.csv >/dev/null 2>"$TMP/err" &&
   python3 - examples/data/h100/deps/kernels.raw.csv "$TMP/l2" <<'PYEOF' 2>>"$TMP/err"; then
import csv, glob, re, sys
rows = list(csv.reader(open(sys.argv[1])))
h = rows[0]
num = lambda v: float(v.split(' ')[0].replace(',', '')) if v not in ('', 'n/a') else 0.0
col = {n: h.index(n) for n in ('ID', 'Kernel Name', 'lts__t_sectors_srcunit_tex_op_read.sum',
                               'smsp__sass_inst_executed_op_global_ld.sum')}
checked = 0
for r in rows[2:]:
    if not r[col['Kernel Name']].startswith('pn_stencil'):
        continue
    want = num(r[col['lts__t_sectors_srcunit_tex_op_read.sum']]) / num(r[col['smsp__sass_inst_executed_op_global_ld.sum']])
    f = glob.glob('%s/pn_stencil-*-%s.yaml' % (sys.argv[2], r[col['ID']]))[0]
    got = float(re.search(r'l2_ld_sectors: ([0-9.e+-]+)', open(f).read()).group(1))
    assert abs(got - want) <= 1e-3 * want, (f, got, want)
    checked += 1
assert checked == 10, checked
PYEOF
    ok import-l2-reads
else bad import-l2-reads "$(cat "$TMP/err")"; fi
# a template kernel as ncu names it ("void name<args>(params)") in both files: the
# config and its files are named after the kernel alone
# (the raw page abbreviates namespaces and template arguments that the source page prints)
sed 's/"dp_serial(/"void cub::CUB_300001_SM_900::detail::dp_serial<(int)4, cuda::std::__4::plus<void>>(/' \
    tests/ncu/sass-source.csv >"$TMP/tmpl-src.csv"
sed 's/"dp_serial(/"void detail::dp_serial<4, cuda::plus<void>>(/' tests/ncu/sass-raw.csv >"$TMP/tmpl-raw.csv"
rm -rf "$TMP/tmpl"
$RUN import -O "$TMP/tmpl" -S "$TMP/tmpl-src.csv" "$TMP/tmpl-raw.csv" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(ls "$TMP/tmpl" | tr '\n' ' ')" = "dp_serial-256x16384-91.sass dp_serial-256x16384-91.yaml " ] &&
   grep -q '^  name: dp_serial$' "$TMP/tmpl/dp_serial-256x16384-91.yaml"; then ok import-template-name
else bad import-template-name "rc $rc: $(ls "$TMP/tmpl") $(cat "$TMP/err")"; fi
# tables printed once or twice a launch (ncu prints those of kernels without line
# information, as cuBLAS's, once): two launches of the kernel and its table three times
python3 - tests/ncu/sass-raw.csv tests/ncu/sass-source.csv "$TMP/pair" <<'PYEOF'
import csv, sys
r = list(csv.reader(open(sys.argv[1])))
r.append(list(r[2])); r[3][r[0].index("ID")] = "92"
csv.writer(open(sys.argv[3] + "-raw.csv", "w"), quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(r)
lines = open(sys.argv[2]).read().split("\n")
starts = [i for i, l in enumerate(lines) if l.startswith('"Kernel Name"')]
one = lines[starts[0]:starts[1]]
open(sys.argv[3] + "-src3.csv", "w").write("\n".join(one * 3) + "\n")
open(sys.argv[3] + "-src1.csv", "w").write("\n".join(one) + "\n")
PYEOF
rm -rf "$TMP/pair3"
$RUN import -O "$TMP/pair3" -S "$TMP/pair-src3.csv" "$TMP/pair-raw.csv" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(ls "$TMP/pair3" | grep -c 'yaml$')" -eq 2 ] &&
   [ "$(grep '^ *0x' "$TMP/pair3/dp_serial-256x16384-91.sass")" = "$(grep '^ *0x' "$TMP/sass/dp_serial-256x16384-91.sass")" ]; then
    ok import-source-pair-mixed
else bad import-source-pair-mixed "rc $rc: $(ls "$TMP/pair3") $(cat "$TMP/err")"; fi
$RUN import -O "$TMP/pair1" -S "$TMP/pair-src1.csv" "$TMP/pair-raw.csv" 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "pair-src1.csv:1:1: 1 source tables for the 2 launches of $TMP/pair-raw.csv: not the same report?" "$TMP/err" &&
   [ ! -e "$TMP/pair1" ]; then
    ok import-source-pair-short
else bad import-source-pair-short "rc $rc: $(cat "$TMP/err")"; fi
# cp.async (examples/async, measured on an H100): LDGSTS, which ncu counts apart from
# the global loads, and DEPBAR.LE SB0, N, whose count is no branch target; the
# sass engine runs the configs, the net says it does not realise the groups
xz -dc examples/data/h100/async/async.source.csv.xz >"$TMP/async-src.csv"
rm -rf "$TMP/async"
$RUN import -O "$TMP/async" -S "$TMP/async-src.csv" examples/data/h100/async/async.raw.csv 2>"$TMP/err"; rc=$?
a1="$TMP/async/as_pipe-64x132-1.yaml"
if [ $rc -eq 0 ] && grep -q '^pnsim import: 40 configs with their SASS programs' "$TMP/err" &&
   grep -q 'DEPBAR.LE SB0, 0x0' "${a1%.yaml}.sass" && $RUN run -r 1 -q -o "$TMP/a1.txt" "$a1" 2>"$TMP/err"
then ok import-async-copies
else bad import-async-copies "rc $rc: $(cat "$TMP/err")"; fi
expect run-async-net 1 "$a1: the sass net does not realise cp.async's groups (LDGSTS, LDGDEPBAR, DEPBAR SB0): run the program on the sass engine (-e sm)" \
    $RUN run -r 1 -e literal "$a1"
# kernels with what real code brings (examples/robust, measured on an H100): spills (LDL,
# STL), a call, a switch, warp collectives (REDUX, WARPSYNC.COLLECTIVE whose operand is a
# code address, BRA.DIV, ENDCOLLECTIVE), tensor cores (HMMA, MOVM); the source page of the
# collectives leaves out 2 % of ncu's instructions: a warning per launch, imported
xz -dc examples/data/h100/robust/robust.source.csv.xz >"$TMP/robust-src.csv"
rm -rf "$TMP/robust"
$RUN import -O "$TMP/robust" -S "$TMP/robust-src.csv" examples/data/h100/robust/robust.raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q '^pnsim import: 45 configs with their SASS programs' "$TMP/err" &&
   [ "$(grep -c '^pnsim import: warning: the source table of launch [0-9]* (rb_warp) executed 3342336 warp instructions, ncu counted 3407872 (+2.0 %)' "$TMP/err")" -eq 3 ] &&
   ! grep -q 'do not know' "$TMP/err" &&
   grep -q 'WARPSYNC.COLLECTIVE R3, 0x' "$TMP/robust/rb_warp-128x8192-31.sass"
then ok import-robust
else bad import-robust "rc $rc: $(cat "$TMP/err")"; fi
# local memory (rb_spill16: ncu's local metrics): an LDL or STL takes the launch's sectors
# per local request (STL 32: four lanes a line in 8 lines, 524288 requests, 16777216
# sectors), its lines at 4 sectors a line, and the config the local loads' hit rate
s16="$TMP/robust/rb_spill16-128x8192-7"
if grep -q '^ *0x690 *32768 *1048576 *262144 *0 *1048576 | STL \[R23\], R26$' "$s16.sass" &&
   grep -q 'l2_ld_sectors: 2.571, local_l1_hit: 0.6643}' "$s16.yaml"
then ok import-local-sectors
else bad import-local-sectors "$(grep -m1 STL "$s16.sass"; grep memory "$s16.yaml")"; fi
# texture loads (rb_tex: tex1Dfetch, TLD.LZ): ncu's texture sectors over the page's TLD
# executions (14942208 over 524288: 28.5 a TLD, 8 lines), the texture hit rate, and the
# L2 sectors per load of the program (TLDs too: the kernel has no LDG)
tx="$TMP/robust/rb_tex-128x8192-13"
if grep -q '^ *0x100 *32768 *933888 *262144 *0 *1048576 | TLD.LZ RZ, R7, R7, UR4, 0x0, 1D, 0x1$' "$tx.sass" &&
   grep -q 'l2_ld_sectors: 23.35, texture_l1_hit: 0.0258}' "$tx.yaml"
then ok import-texture-sectors
else bad import-texture-sectors "$(grep -m1 TLD "$tx.sass"; grep memory "$tx.yaml")"; fi
# a report without the texture metrics: the texture loads take defaults, and one warning says so
python3 - examples/data/h100/robust/robust.raw.csv "$TMP/notex.raw.csv" <<'PYEOF'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
keep = [i for i, h in enumerate(rows[0]) if 'pipe_tex_mem_texture' not in h]
w = csv.writer(open(sys.argv[2], 'w'), quoting=csv.QUOTE_ALL)
for r in rows:
    w.writerow([r[i] for i in keep])
PYEOF
rm -rf "$TMP/notex"
if $RUN import -O "$TMP/notex" -S "$TMP/robust-src.csv" "$TMP/notex.raw.csv" 2>"$TMP/err" &&
   [ "$(grep -c "^pnsim import: warning: the report lacks ncu's metrics for the texture accesses of some programs, which then take defaults" "$TMP/err")" -eq 1 ] &&
   grep -q '^ *0x100 *32768 *0 *0 *0 *1048576 | TLD.LZ' "$TMP/notex/rb_tex-128x8192-13.sass"
then ok import-missing-metrics-warning
else bad import-missing-metrics-warning "$(cat "$TMP/err")"; fi
# the busiest L2 slice's atomic unit, measured (examples/memory's mm_red on one bin:
# lts__d_atomic_input_cycles_active.max 4194304 cycles of the L2's 5246294 over 3076768 ns,
# 131072 warp-level REDs): 18.77 ns each
xz -dc examples/data/h100/memory/memory.source.csv.xz >"$TMP/memory-src.csv"
rm -rf "$TMP/memory"
if $RUN import -O "$TMP/memory" -S "$TMP/memory-src.csv" examples/data/h100/memory/memory.raw.csv \
       >/dev/null 2>"$TMP/err" &&
   grep -q 'dram_st_sectors: 0.06305, atomic_ns: 18.77}' "$TMP/memory/mm_red-128x32768-180.yaml"
then ok import-atomic-ns
else bad import-atomic-ns "$(cat "$TMP/err"; grep memory "$TMP/memory/mm_red-128x32768-180.yaml")"; fi
# examples/llmc: the launches that check the block sizes, found by the run's period (2 block
# sizes, 2 kernels a call, 3 timed calls each), each with the median of its kernel and shape
{ echo '# pn_ktime'; echo 'kernel,size,threads,blocks,median_us,registers,shared_bytes,start_ns'
  for r in 'A,256,32,8,9' 'B,256,256,1,9' 'A,256,64,4,9' 'B,256,256,1,9' \
           'A,256,32,8,1' 'B,256,256,1,10' 'A,256,32,8,2' 'B,256,256,1,11' 'A,256,32,8,3' 'B,256,256,1,12' \
           'A,256,64,4,4' 'B,256,256,1,13' 'A,256,64,4,5' 'B,256,256,1,14' 'A,256,64,4,6' 'B,256,256,1,15'
  do echo "$r,16,0,0"; done; } >"$TMP/kt.csv"
printf 'Using kernel 1\nblock_size   32 | time 0.1 ms\nblock_size 64 time 0.2 ms\nUsing kernel 1\nblock_size 32 | time 9\n' >"$TMP/kt.log"
if python3 examples/llmc/llmc_calls.py calls "$TMP/kt.csv" "$TMP/kt.log" >"$TMP/calls.csv" &&
   [ "$(tr '\n' ' ' <"$TMP/calls.csv")" = "call,kernel,size,threads,blocks,median_us,timed 0,A,256,32,8,2.000,3 0,B,256,256,1,12.500,6 1,A,256,64,4,5.000,3 1,B,256,256,1,12.500,6 " ] &&
   [ "$(python3 examples/llmc/llmc_calls.py count "$TMP/calls.csv")" = 4 ] &&
   printf '"ID","Kernel Name"\n"",""\n"0","A"\n"1","B"\n"2","A"\n' >"$TMP/calls.raw.csv" &&
   # B follows A in its call: warm; the raw page lacks launch 3
   [ "$(python3 examples/llmc/llmc_calls.py warm "$TMP/calls.csv" "$TMP/calls.raw.csv")" = 1 ]
then ok llmc-calls
else bad llmc-calls "$(cat "$TMP/calls.csv")"; fi
# launches timed with the L2 flushed before each: kernel.memory.flushed 1 (clean, the
# default) or 2 (a scrub that leaves it dirty), else no key
if $RUN import --flushed tests/ncu/good.csv 2>"$TMP/err" | grep -q '^  memory: {.*, flushed: 1}$' &&
   $RUN import --flushed=clean tests/ncu/good.csv 2>>"$TMP/err" | grep -q '^  memory: {.*, flushed: 1}$' &&
   $RUN import --flushed=dirty tests/ncu/good.csv 2>>"$TMP/err" | grep -q '^  memory: {.*, flushed: 2}$' &&
   ! $RUN import tests/ncu/good.csv 2>>"$TMP/err" | grep -q 'flushed'
then ok import-flushed
else bad import-flushed "$(cat "$TMP/err")"; fi
expect_fail import-flushed-bad "pnsim import: --flushed=wet: expected clean or dirty" \
    $RUN import --flushed=wet tests/ncu/good.csv
# --warm IDS: those launches follow another in the timed region, not the flush: no key
if [ "$($RUN import --flushed=dirty --warm 1 tests/ncu/two-sizes.csv 2>"$TMP/err" |
        grep -o 'flushed: [0-9]' | tr '\n' ' ')" = "flushed: 2 " ] &&
   [ "$($RUN import --flushed=dirty --warm 0-1 tests/ncu/two-sizes.csv 2>>"$TMP/err" |
        grep -c 'flushed')" = 0 ]
then ok import-warm
else bad import-warm "$(cat "$TMP/err")"; fi
expect_fail import-warm-needs-flushed "pnsim import: --warm names launches timed after another: give --flushed too" \
    $RUN import --warm 1 tests/ncu/two-sizes.csv
expect_fail import-warm-syntax "pnsim import: --warm '1x': expected launch IDs as 3,5,8-11" \
    $RUN import --flushed --warm 1x tests/ncu/two-sizes.csv
expect_fail import-warm-range "pnsim import: --warm '2-1': expected launch IDs as 3,5,8-11" \
    $RUN import --flushed --warm 2-1 tests/ncu/two-sizes.csv
expect_fail import-warm-missing "tests/ncu/two-sizes.csv: no launch with ID 7 (--warm)" \
    $RUN import --flushed --warm 0,7 tests/ncu/two-sizes.csv
# the run report says when the warps run fewer instructions than the page counts
# (rb_warp's sides running on separately after their BSYNC: 91 %)
if $RUN run -r 1 "$TMP/robust/rb_warp-128x8192-31.yaml" 2>"$TMP/err" |
   grep -q '^plan     the warps run 91 % of the instructions the program counts'
then ok run-plan-covered
else bad run-plan-covered "$(cat "$TMP/err")"; fi
r1="$TMP/robust/rb_call-128x8192-19.yaml"
expect run-call-net 1 "$r1: the sass net does not realise calls (CALL, RET): run the program on the sass engine (-e sm)" \
    $RUN run -r 1 -e literal "$r1"
r2="$TMP/robust/rb_switch-128x8192-25.yaml"
expect run-divergent-net 1 "$r2: the sass net does not realise divergent branches (both sides of a branch in one warp): run the program on the sass engine (-e sm)" \
    $RUN run -r 1 -e fast "$r2"
# a source page of another launch: one line naming both, nothing written
sed 's/"dp_serial(/"dp_other(/' tests/ncu/sass-source.csv >"$TMP/other.csv"
rm -rf "$TMP/sass2"
$RUN import -O "$TMP/sass2" -S "$TMP/other.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
   grep -q "other.csv:1:1: the source table of kernel 'dp_other' is not launch 91 (dp_serial)" "$TMP/err" &&
   [ -z "$(ls "$TMP/sass2" 2>/dev/null)" ]; then ok import-source-other-kernel
else bad import-source-other-kernel "rc $rc: $(cat "$TMP/err")"; fi
sed '$ s/NOP/YIELD/' tests/ncu/sass-source.csv >"$TMP/count.csv"
$RUN import -O "$TMP/sass2" -S "$TMP/count.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "count.csv:115:1: 2 source tables for the 1 launches of tests/ncu/sass-raw.csv, and this one is left over (no repeat of the table before it)" "$TMP/err"; then
    ok import-source-tables-differ
else bad import-source-tables-differ "rc $rc: $(cat "$TMP/err")"; fi
# a table that ran 4 million more instructions than ncu counted: another launch, unless
# it waits for other blocks (a YIELD ran: its polls vary from pass to pass), then a warning
sed '103 s/"      NOP","0","0"/"      IADD3 R0, R0, 0x1, RZ","4000000","128000000"/; 217 s/"      NOP","0","0"/"      IADD3 R0, R0, 0x1, RZ","4000000","128000000"/' \
    tests/ncu/sass-source.csv >"$TMP/more.csv"
rm -rf "$TMP/sass2"
$RUN import -O "$TMP/sass2" -S "$TMP/more.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
   grep -q "more.csv:1:1: the source table of dp_serial executed 7236536 warp instructions, launch 91 of tests/ncu/sass-raw.csv 3236536 (smsp__inst_executed.sum): not the same launch" "$TMP/err" &&
   [ -z "$(ls "$TMP/sass2" 2>/dev/null)" ]; then ok import-source-inst-totals
else bad import-source-inst-totals "rc $rc: $(cat "$TMP/err")"; fi
sed '103 s/"      NOP","0","0"/"      YIELD","4000000","128000000"/; 217 s/"      NOP","0","0"/"      YIELD","4000000","128000000"/' \
    tests/ncu/sass-source.csv >"$TMP/spin.csv"
rm -rf "$TMP/sass2"
$RUN import -O "$TMP/sass2" -S "$TMP/spin.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q "warning: the source table of launch 91 (dp_serial) executed 7236536 warp instructions, ncu counted 3236536 (-55.3 %): simulated as the table has them; it waits for other blocks" "$TMP/err" &&
   [ -f "$TMP/sass2/dp_serial-256x16384-91.sass" ]; then ok import-source-spinning
else bad import-source-spinning "rc $rc: $(cat "$TMP/err")"; fi
# launches of one kernel in a row whose tables the page prints once each, then another
# kernel's printed twice: each launch gets its own kernel's table
head -2 tests/ncu/sass-raw.csv >"$TMP/pair-raw.csv"
for id in 91 92; do sed -n "3 s/^\"91\"/\"$id\"/p" tests/ncu/sass-raw.csv; done >>"$TMP/pair-raw.csv"
sed -n '3 s/^"91"/"93"/; 3 s/"dp_serial(/"dp_other(/p' tests/ncu/sass-raw.csv >>"$TMP/pair-raw.csv"
{ sed -n 1,114p tests/ncu/sass-source.csv; sed -n 1,114p tests/ncu/sass-source.csv
  sed 's/"dp_serial(/"dp_other(/' tests/ncu/sass-source.csv; } >"$TMP/pair-src.csv"
rm -rf "$TMP/sass2"
if $RUN import -O "$TMP/sass2" -S "$TMP/pair-src.csv" "$TMP/pair-raw.csv" 2>"$TMP/err" &&
   [ "$(ls "$TMP/sass2" | tr '\n' ' ')" = "dp_other-256x16384-93.sass dp_other-256x16384-93.yaml dp_serial-256x16384-91.sass dp_serial-256x16384-91.yaml dp_serial-256x16384-92.sass dp_serial-256x16384-92.yaml " ]
then ok import-source-pair-runs
else bad import-source-pair-runs "$(cat "$TMP/err"; ls "$TMP/sass2")"; fi
# a source page whose memory instructions are not ncu's per-kind counts (a global load made a
# shared one): one line naming the kind and both counts, nothing written
sed 's/^"0x7fcb957b3c10","      LDG\.E\.CONSTANT R2, desc\[UR4\]\[R2\.64\]"/"0x7fcb957b3c10","      LDS R2, [R3]"/' \
    tests/ncu/sass-source.csv >"$TMP/kind.csv"
rm -rf "$TMP/sass2"
$RUN import -O "$TMP/sass2" -S "$TMP/kind.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] &&
   grep -q "kind.csv:1:1: the source table of launch 91 (dp_serial) executes 100000 warp-level global loads (0 of them guarded), ncu counted 231072 in tests/ncu/sass-raw.csv" "$TMP/err" &&
   [ -z "$(ls "$TMP/sass2" 2>/dev/null)" ]; then ok import-source-kind-totals
else bad import-source-kind-totals "rc $rc: $(cat "$TMP/err")"; fi
# a compare-and-swap loop (an emulated atomic, ATOMS.CAST.SPIN) retries as long as the other
# threads take, a different number of times in each of ncu's passes: the per-kind counts are
# not held against the page (the load made a shared one above, imported)
sed -e 's/^"0x7fcb957b3c10","      LDG\.E\.CONSTANT R2, desc\[UR4\]\[R2\.64\]"/"0x7fcb957b3c10","      LDS R2, [R3]"/' \
    -e 's/^"0x7fcb957b3cb0","      LDG\.E\.CONSTANT R7, desc\[UR4\]\[R2\.64\]"/"0x7fcb957b3cb0","      ATOMS.CAST.SPIN R7, [R3], R2, R7"/' \
    tests/ncu/sass-source.csv >"$TMP/cas.csv"
rm -rf "$TMP/sass2"
if $RUN import -O "$TMP/sass2" -S "$TMP/cas.csv" tests/ncu/sass-raw.csv 2>"$TMP/err" &&
   grep -q 'ATOMS.CAST.SPIN' "$TMP/sass2/dp_serial-256x16384-91.sass"; then ok import-source-cas-loop
else bad import-source-cas-loop "$(cat "$TMP/err")"; fi
# a generic load the page gives two spaces ("Local,Shared": the address decides at run time),
# which ncu counts among the shared loads (HeCBench's rowwiseMoments): imported
rm -rf "$TMP/sass2"
if $RUN import -O "$TMP/sass2" -S tests/ncu/sass-generic-source.csv tests/ncu/sass-generic-raw.csv \
       2>"$TMP/err" && grep -q 'LD.E R7' "$TMP/sass2/dp_serial-256x16384-91.sass"; then
    ok import-source-generic-spaces
else bad import-source-generic-spaces "$(cat "$TMP/err")"; fi
# the indexed constant cache's requests (idc__requests.sum, in import --metrics since
# 2026-11-28): per warp in kernel.memory.const_requests of each launch's config
xz -dc examples/data/h100/hecbench2_idc/popcount.source.csv.xz >"$TMP/pc.csv"
rm -rf "$TMP/sass2"
if $RUN import -O "$TMP/sass2" -S "$TMP/pc.csv" --flushed \
       examples/data/h100/hecbench2_idc/popcount.raw.csv 2>"$TMP/err" &&
   grep -q 'const_requests: 241.7}' "$TMP/sass2/pc5-256x8192-8.yaml" &&
   grep -q 'const_requests: 4}' "$TMP/sass2/pc1-256x8192-0.yaml"; then ok import-const-requests
else bad import-const-requests "$(cat "$TMP/err")"; fi
# a local load (a spill) in place of a global one: ncu counts it apart (op_local_ld), so the
# global-load count may leave it out; imported, and run as a load
sed 's/^"0x7fcb957b3c10","      LDG\.E\.CONSTANT R2, desc\[UR4\]\[R2\.64\]"/"0x7fcb957b3c10","      LDL R2, [R1+0x10]"/' \
    tests/ncu/sass-source.csv >"$TMP/local.csv"
rm -rf "$TMP/sass4"
$RUN import -O "$TMP/sass4" -S "$TMP/local.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'LDL R2, \[R1+0x10\]' "$TMP/sass4/dp_serial-256x16384-91.sass"; then ok import-source-local-loads
else bad import-source-local-loads "rc $rc: $(cat "$TMP/err")"; fi
# opcodes pnsim does not know: one warning line naming each once, still imported
sed -e 's/"      MOV /"      FOOX /' -e 's/"      ISETP/"      BARX/' tests/ncu/sass-source.csv >"$TMP/unknown.csv"
rm -rf "$TMP/sass3"
$RUN import -O "$TMP/sass3" -S "$TMP/unknown.csv" tests/ncu/sass-raw.csv 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(head -n 1 "$TMP/err")" = "pnsim import: warning: opcodes pnsim does not know, simulated as arithmetic (doc/dependencies.md): FOOX BARX" ] &&
   grep -q '| FOOX R' "$TMP/sass3/dp_serial-256x16384-91.sass"; then ok import-source-unknown-opcodes
else bad import-source-unknown-opcodes "rc $rc: $(cat "$TMP/err")"; fi
$RUN import -S tests/ncu/sass-source.csv tests/ncu/sass-raw.csv >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && head -n 1 "$TMP/err" | grep -q -- "--source writes program files: give -O DIR"; then ok import-source-needs-dir
else bad import-source-needs-dir "rc $rc: $(cat "$TMP/err")"; fi

[ "$fails" -eq 0 ]
