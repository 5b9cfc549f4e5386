#!/bin/sh
# tests/reorder.sh - end-to-end tests of `pnsim reorder`: golden reports of
# configs/reorder-example.yaml, output independent of -j, the JSON and CSV keys,
# -o, a config without a program, one-warp conformance of every order, errors.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
# Environment: PNSIM (the binary, default build/pnsim), PN_VG (a valgrind prefix).
. tests/lib/pn_test.sh
EX=configs/reorder-example.yaml

# ---- golden reports --------------------------------------------------------
golden_formats reorder reorder-example $EX

# ---- same seeds, same output, whatever -j -----------------------------------
for fmt in text json; do
    $RUN reorder -r 6 -s 11 -j 1 -f $fmt $EX >"$TMP/j1" 2>&1
    $RUN reorder -r 6 -s 11 -j 2 -f $fmt $EX >"$TMP/j2" 2>&1
    if cmp -s "$TMP/j1" "$TMP/j2" && grep -q 'seeds 11..16\|"seed": 11' "$TMP/j1"; then ok "jobs-deterministic-$fmt"
    else bad "jobs-deterministic-$fmt" "-j 1 and -j 2 differ: $(diff "$TMP/j1" "$TMP/j2" | head -3)"; fi
done

# ---- JSON and CSV keys -------------------------------------------------------
J="$TMP/r.json"
missing=""
for key in '"kernel": "tiled-clustered"' '"threads": 512' '"warps": 16' '"orders": \[' \
           '"band": {"best": [0-9.]*, "worst": [0-9.]*' '"baseline": "program"' '"gain_pct": [0-9.]*$'; do
    grep -q "$key" "$J" || missing="$missing $key"
done
for name in program random memory-first memory-last memory-spread; do
    grep -q "{\"name\": \"$name\", .*\"steps\": {\"mean\": [0-9.]*, \"sd\": [0-9.]*, \"min\": [0-9]*, \"max\": [0-9]*}, \"idle_steps\": {\"mean\": [0-9.]*, \"sd\": [0-9.]*, \"min\": [0-9]*, \"max\": [0-9]*}, \"best\": \(true\|false\)}" "$J" ||
        missing="$missing order:$name"
done
[ "$(grep -c '"best": true' "$J")" -eq 1 ] || missing="$missing one-best"
if [ -z "$missing" ]; then ok json-keys; else bad json-keys "missing$missing"; fi
if command -v python3 >/dev/null 2>&1; then
    if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert [o["name"] for o in d["orders"]] == ["program","random","memory-first","memory-last","memory-spread"]; b=min(d["orders"], key=lambda o: o["steps"]["mean"]); assert b["best"] and d["band"]["best"] == b["steps"]["mean"]; base=d["orders"][0]["steps"]["mean"]; assert abs(d["gain_pct"] - 100*(base-b["steps"]["mean"])/base) < 1e-6' "$J" 2>"$TMP/err"
    then ok json-parse; else bad json-parse "$(tail -1 "$TMP/err")"; fi
else
    echo "SKIP json-parse (no python3)"
fi
head -n 1 "$TMP/r.csv" >"$TMP/h"
if [ "$(cat "$TMP/h")" = "kernel,threads,warps,order,engine,places,transitions,runs,steps_mean,steps_sd,steps_min,steps_max,idle_mean,idle_sd,idle_min,idle_max,best,baseline,gain_pct" ] &&
   [ "$(wc -l <"$TMP/r.csv")" -eq 6 ]; then ok csv-header
else bad csv-header "$(cat "$TMP/h")"; fi

# -o writes the same bytes as stdout, and only that file
$RUN reorder -f json -o "$TMP/out.json" $EX >"$TMP/stdout" 2>&1
if cmp -s "$TMP/out.json" tests/golden/reorder-example.json && [ ! -s "$TMP/stdout" ] &&
   [ "$(ls "$TMP" | grep -c 'out.json')" -eq 1 ]; then ok output-file
else bad output-file "-o output differs from the golden JSON"; fi

# ---- a config without a program: random is the baseline ----------------------
if $RUN reorder -r 3 -f csv configs/example.yaml >"$TMP/c.csv" 2>"$TMP/err"; then
    orders=$(tail -n +2 "$TMP/c.csv" | cut -d, -f4 | tr '\n' ' ')
    base=$(tail -n +2 "$TMP/c.csv" | awk -F, '$18 == 1 { print $4 }')
    if [ "$orders" = "random memory-first memory-last memory-spread " ] && [ "$base" = random ]; then
        ok counts-config
    else bad counts-config "orders '$orders', baseline '$base'"; fi
else
    bad counts-config "failed: $(cat "$TMP/err")"
fi

# ---- one warp: every order takes 4 x_a + (5+l1) x_g + (5+l2) x_s + 1 steps ----
cat >"$TMP/one.yaml" <<'YAML'
model: {schedulers: 2, latency: {global: 20, shared: 2}}
kernel:
  name: one-warp
  threads: 32
  program:
    - {repeat: 5, body: [global, shared, arith*2]}
YAML
# x_a = 10, x_s = 5, x_g = 5: 40 + 125 + 35 + 1 = 201 steps
got=$($RUN reorder -r 4 -f csv "$TMP/one.yaml" 2>&1 | tail -n +2 | cut -d, -f4,9,10,11,12 | tr '\n' ' ')
want="program,201,0,201,201 random,201,0,201,201 memory-first,201,0,201,201 memory-last,201,0,201,201 memory-spread,201,0,201,201 "
if [ "$got" = "$want" ]; then ok one-warp-conformance; else bad one-warp-conformance "got $got"; fi

# ---- errors: one line on stderr, exit 1, nothing written ---------------------
expect_fail() {  # name, expected substring, command...
    name=$1; want=$2; shift 2
    rm -f "$TMP/o.txt"
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(cat "$TMP/stderr")
    if [ "$rc" -ne 1 ] && [ "$rc" -ne 2 ]; then bad "$name" "exit status $rc"; return; fi
    # a usage error (2) is one line and "Try 'pnsim reorder --help' ..."
    lines=1; [ "$rc" -eq 2 ] && lines=2
    if [ "$(wc -l <"$TMP/stderr")" -ne $lines ]; then bad "$name" "not one line: $msg"; return; fi
    if [ -s "$TMP/stdout" ] || [ -e "$TMP/o.txt" ] || ls "$TMP" | grep -q 'o.txt.tmp'; then
        bad "$name" "output written"; return
    fi
    case "$msg" in *"$want"*) ok "$name" ;; *) bad "$name" "got: $msg" ;; esac
}
expect_fail missing-file "$TMP/nope.yaml: cannot open" $RUN reorder -o "$TMP/o.txt" "$TMP/nope.yaml"
expect_fail bad-format "unknown format 'xml'" $RUN reorder -f xml $EX
expect_fail bad-runs "pnsim reorder: --runs expects an integer between 1 and 1000000, got '0'" $RUN reorder -r 0 $EX
expect_fail bad-jobs "--jobs expects an integer" $RUN reorder -j x $EX
expect_fail unknown-device "unknown device" $RUN reorder -d nosuch $EX
expect_fail too-many-threads "threads must be between 1 and 1024 for device gtx960m, got 2048" \
    $RUN reorder -t 2048 -o "$TMP/o.txt" $EX
expect_fail bad-program "tests/bad/program_unknown_kind.yaml:5:34: kernel.program[0].body[1]: unknown instruction kind 'fma'" \
    $RUN reorder -o "$TMP/o.txt" tests/bad/program_unknown_kind.yaml
expect_fail program-and-counts "tests/bad/program_and_counts.yaml:5:3: kernel.program cannot be given together with kernel.counts" \
    $RUN reorder tests/bad/program_and_counts.yaml
# two warps on one scheduler: at least 6040 steps (not refused before the
# run), over 6100 in fact
cat >"$TMP/loop.yaml" <<'YAML'
model: {schedulers: 1}
kernel:
  threads: 64
  program: [{repeat: 1000, body: [arith]}, {repeat: 10, body: [global]}]
simulation:
  runs: 2
  max_steps: 6100
YAML
expect_fail max-steps "$TMP/loop.yaml:7:14: order program: net 'loop' (seed 1) reached no dead marking within max_steps = 6100 steps" \
    $RUN reorder -o "$TMP/o.txt" "$TMP/loop.yaml"
expect_fail max-steps-option "$TMP/loop.yaml: order program: net 'loop' (seed 1) reached no dead marking within max_steps = 6050 steps" \
    $RUN reorder --max-steps 6050 "$TMP/loop.yaml"

# ---- help and usage ----------------------------------------------------------
$RUN reorder --help | grep -q 'memory-spread' && ok help || bad help "no order list"
# the pipelined net: sync items, every kind, grids (barriers bound the phases)
$RUN reorder -r 2 -f csv tests/good/program_sync.yaml >"$TMP/sync.csv" 2>"$TMP/err" &&
    [ "$(cut -d, -f4 "$TMP/sync.csv" | tr '\n' ' ')" = "order program random memory-first memory-last memory-spread " ] &&
    [ "$(tail -n +3 "$TMP/sync.csv" | cut -d, -f9,10 | sort -u | wc -l)" -eq 1 ] &&
    ok reorder-sync || bad reorder-sync "one warp with barriers: every order should take the same steps: $(cat "$TMP/sync.csv" "$TMP/err" | head -6)"
# one warp: every order takes what the counts take (sum x L + 3 + k (L_bar - 1))
cat >"$TMP/kinds.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  threads: 32
  counts: {arith: 9, sfu: 3, global_ld: 2, shared_ld: 2, shared_st: 1, global_st: 1, barriers: 2}
  memory: {l1_hit: 1}
simulation: {runs: 2}
YAML
want=$($RUN run -f csv "$TMP/kinds.yaml" | tail -1 | cut -d, -f6)
$RUN reorder -f csv "$TMP/kinds.yaml" >"$TMP/kinds.csv" 2>"$TMP/err" &&
    [ "$(tail -n +2 "$TMP/kinds.csv" | cut -d, -f9,10 | sort -u)" = "$want,0" ] &&
    ok reorder-kinds || bad reorder-kinds "want $want steps in every order: $(cat "$TMP/kinds.csv" "$TMP/err" | head -6)"
$RUN reorder -r 2 -f csv configs/pipelined-example.yaml >"$TMP/grid.csv" 2>"$TMP/err" &&
    [ "$(wc -l <"$TMP/grid.csv")" -eq 5 ] && ok reorder-pipelined-grid ||
    bad reorder-pipelined-grid "$(cat "$TMP/err")"
printf 'kernel:\n  threads: 64\n  blocks: 1000\n  counts: {arith: 8}\n' >"$TMP/grid.yaml"
expect_fail reorder-grid "grid.yaml:1:1: reorder on the paper net compares orders of one block without barriers: the kernel has several blocks on the SM (the pipelined net takes both)" \
    $RUN reorder -o "$TMP/o.txt" "$TMP/grid.yaml"
$RUN help reorder | grep -q -- '--runs N' && ok help-reorder || bad help-reorder "no options"
$RUN reorder >/dev/null 2>&1; [ $? -eq 2 ] && ok no-file || bad no-file "exit not 2"
$RUN reorder $EX $EX >/dev/null 2>&1; [ $? -eq 2 ] && ok two-files || bad two-files "exit not 2"

[ "$fails" -eq 0 ]
