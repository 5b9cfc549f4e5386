#!/bin/sh
# tests/regroup.sh - end-to-end tests of `pnsim regroup`: golden reports of
# tests/regroup/ (12 blocks on 5 SMs, dynamic assignment), output independent
# of -j, the JSON keys, the permutation file (-o), one algorithm, the paper
# net, and errors: one line naming file:line:col, exit 1, no output file.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
# Environment: PNSIM (the binary, default build/pnsim), PN_VG (a valgrind prefix).
. tests/lib/pn_test.sh
D=tests/regroup
ARGS="$D/bbv.csv -b $D/blocks.csv -c $D/pipelined.yaml"

# ---- golden reports --------------------------------------------------------
golden_formats regroup regroup-test $ARGS

# ---- same seeds, same output, whatever -j -----------------------------------
$RUN regroup -r 4 -s 9 -j 1 -f json $ARGS >"$TMP/j1" 2>&1
$RUN regroup -r 4 -s 9 -j 2 -f json $ARGS >"$TMP/j2" 2>&1
$RUN regroup -r 4 -s 9 -j 7 -f json $ARGS >"$TMP/j7" 2>&1
if cmp -s "$TMP/j1" "$TMP/j2" && cmp -s "$TMP/j1" "$TMP/j7" && grep -q '"seed": 9' "$TMP/j1"; then ok jobs-deterministic
else bad jobs-deterministic "-j 1 and -j 2 differ: $(diff "$TMP/j1" "$TMP/j2" | head -3)"; fi

# ---- JSON: the best kernel has the fewest steps, speed-ups are ratios ---------
if command -v python3 >/dev/null 2>&1; then
    if python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
k = d["kernels"]
assert [x["name"] for x in k] == ["original", "sorting", "greedy", "greedy-max"]
b = min(k, key=lambda x: x["steps"]["mean"])
assert b["best"] and d["best"] == b["name"]
o = k[0]["steps"]["mean"]
for x in k:
    assert abs(x["speedup"] - o / x["steps"]["mean"]) < 1e-6
    assert 0 < x["activity_factor"] <= 1 and x["warps"] == 24
assert k[3]["activity_factor"] > k[0]["activity_factor"]
' "$TMP/r.json" 2>"$TMP/err"; then ok json-parse; else bad json-parse "$(tail -1 "$TMP/err")"; fi
else
    echo "SKIP json-parse (no python3)"
fi

# ---- the permutation file ------------------------------------------------------
if $RUN regroup -o "$TMP/perm.csv" $ARGS >"$TMP/out" 2>"$TMP/err" &&
   [ "$(head -n 1 "$TMP/perm.csv")" = "thread,sorting,greedy,greedy-max" ] &&
   [ "$(wc -l <"$TMP/perm.csv")" -eq 769 ] &&
   awk -F, 'NR > 1 { if ($1 != NR - 2) bad = 1; for (c = 2; c <= 4; c++) { if (seen[c, $c]++ || $c < 0 || $c > 767) bad = 1 } }
            END { exit bad }' "$TMP/perm.csv" &&
   cmp -s "$TMP/out" tests/golden/regroup-test.text; then ok permutation-file
else bad permutation-file "$(head -2 "$TMP/perm.csv" 2>/dev/null) $(cat "$TMP/err")"; fi

# ---- one algorithm, group size, static assignment, the paper net -------------
if $RUN regroup -a greedy-max -G 64 -o "$TMP/gm.csv" $ARGS >"$TMP/out" 2>&1 &&
   [ "$(head -n 1 "$TMP/gm.csv")" = "thread,greedy-max" ] &&
   grep -q 'groups of 64 threads' "$TMP/out" && ! grep -q '^  sorting' "$TMP/out"; then ok one-algorithm
else bad one-algorithm "$(head -3 "$TMP/out")"; fi
if $RUN regroup --assign static $ARGS >"$TMP/out" 2>&1 && grep -q 'assigned statically' "$TMP/out"; then
    ok assign-static
else bad assign-static "$(head -3 "$TMP/out")"; fi
head -n 257 $D/bbv.csv >"$TMP/bbv256.csv"
if $RUN regroup "$TMP/bbv256.csv" -b $D/blocks.csv -c $D/paper.yaml >"$TMP/out" 2>&1 &&
   grep -q 'one block per SM' "$TMP/out" && grep -q '^\* greedy-max' "$TMP/out"; then ok paper-net
else bad paper-net "$(cat "$TMP/out" | head -3)"; fi

sed 's/blocks: 4/blocks: 12/' $D/paper.yaml >"$TMP/paper12.yaml"
# more blocks than SMs on the paper net: its grid net (models/paper/GRID.md), each SM's blocks
# with their own counts
if $RUN regroup $D/bbv.csv -b $D/blocks.csv -c "$TMP/paper12.yaml" >"$TMP/out" 2>"$TMP/err" &&
   grep -q '^\* ' "$TMP/out" && [ ! -s "$TMP/err" ]; then
    ok paper-grid
else bad paper-grid "$(cat "$TMP/err" "$TMP/out" | head -5)"; fi

# ---- identical threads: the original kernel is `pnsim run` of the same counts ------
# (every SM simulated with the run's seeds; the busiest one is the run's SM)
printf 'block,arith,shared,global\nbb0,100,0,2\nbb1,0,2,0\n' >"$TMP/ub.csv"
awk 'BEGIN { print "thread,bb0,bb1"; for (t = 0; t < 1248; t++) print t ",3,2" }' >"$TMP/ubbv.csv"
for net in pipelined paper; do
    if [ $net = pipelined ]; then model='model: {net: pipelined}'; else model=''; fi
    blocks=13
    cat >"$TMP/u.yaml" <<EOC
device: gtx960m
$model
kernel:
  threads: 96
  blocks: $blocks
  shared_bytes: 20000
  counts: {arith: 300, global: 6, shared: 4}
  memory: {l1_hit: 0.2, l2_hit: 0.5}
simulation: {runs: 4, seed: 3}
EOC
    head -n $((blocks * 96 + 1)) "$TMP/ubbv.csv" >"$TMP/ubbv-$net.csv"
    want=$($RUN run -f csv "$TMP/u.yaml" | awk -F, 'NR > 1 { s += $6; n++ } END { printf "%.10g", s / n }')
    got=$($RUN regroup -f csv "$TMP/ubbv-$net.csv" -b "$TMP/ub.csv" -c "$TMP/u.yaml" |
          awk -F, '$2 == "original" { print $10 }')
    if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "same-as-run-$net"
    else bad "same-as-run-$net" "run $want, regroup original $got"; fi
done

# ---- errors: file:line:col, exit 1, no output file --------------------------------
expect_err() {   # name, expected message (grep -F), bbv file, extra args...
    name=$1; msg=$2; bbv=$3; shift 3
    rm -f "$TMP/o.csv"
    $RUN regroup -o "$TMP/o.csv" "$bbv" -b $D/blocks.csv -c $D/pipelined.yaml "$@" >"$TMP/out" 2>"$TMP/err"
    rc=$?
    # a bad file is an error (exit 1, one line); a bad option value a usage
    # error (exit 2, one line and the try line)
    lines=1; [ $rc -eq 2 ] && lines=2
    if { [ $rc -eq 1 ] || [ $rc -eq 2 ]; } && grep -qF -- "$msg" "$TMP/err" && [ "$(wc -l <"$TMP/err")" -eq $lines ] &&
       [ ! -e "$TMP/o.csv" ] && [ ! -s "$TMP/out" ] && [ -z "$(ls "$TMP" | grep 'o.csv')" ]; then ok "$name"
    else bad "$name" "rc $rc: $(cat "$TMP/err")"; fi
}
sed '1s/^thread,/tid,/' $D/bbv.csv >"$TMP/nothread.csv"
expect_err missing-column "$TMP/nothread.csv:1:1: missing column 'thread'" "$TMP/nothread.csv"
head -n 101 $D/bbv.csv >"$TMP/short.csv"
expect_err grid-coverage "$TMP/short.csv:1:1: 100 threads (rows 0..99), but the grid of $D/pipelined.yaml is 12 blocks x 64 threads = 768" "$TMP/short.csv"
sed '6s/^4,/7,/' $D/bbv.csv >"$TMP/order.csv"
expect_err thread-order "$TMP/order.csv:6:1: expected thread 4, got 7" "$TMP/order.csv"
sed '3s/^1,1,\([0-9]*\),/1,1,x\1,/' $D/bbv.csv >"$TMP/nonnum.csv"
expect_err non-numeric "$TMP/nonnum.csv:3:5:" "$TMP/nonnum.csv"
sed '4s/^2,1,/2,-1,/' $D/bbv.csv >"$TMP/neg.csv"
expect_err negative "$TMP/neg.csv:4:3:" "$TMP/neg.csv"
sed '1s/bb3/bb9/' $D/bbv.csv >"$TMP/unknown.csv"
expect_err unknown-block "$TMP/unknown.csv:1:20: block 'bb9' is not in $D/blocks.csv" "$TMP/unknown.csv"
expect_err group-size "--group-size expects a multiple of 32 (whole warps), got 48" $D/bbv.csv -G 48
expect_err algorithm "--algorithm expects sorting, greedy, greedy-max or all, got 'best'" $D/bbv.csv -a best

# ---- usage ---------------------------------------------------------------------
if $RUN regroup --help >"$TMP/out" 2>&1 && grep -q '^usage: pnsim regroup' "$TMP/out"; then ok help
else bad help "$(head -2 "$TMP/out")"; fi
$RUN regroup $D/bbv.csv -c $D/pipelined.yaml >"$TMP/out" 2>&1
rc1=$?
$RUN regroup $D/bbv.csv -b $D/blocks.csv >"$TMP/out2" 2>&1
rc2=$?
$RUN regroup -t 64 $ARGS >"$TMP/out3" 2>&1
rc3=$?
if [ $rc1 -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && grep -q 'blocks BLOCKS.csv is required' "$TMP/out" &&
   grep -q 'config CONFIG.yaml is required' "$TMP/out2"; then ok usage-errors
else bad usage-errors "rc $rc1 $rc2 $rc3"; fi
# the group size is -G (-g is bbv's --grid); --group-size stays
$RUN regroup -g 64 $ARGS >"$TMP/out" 2>&1
rc1=$?
if [ $rc1 -eq 2 ] && grep -q "unknown option '-g'" "$TMP/out" &&
   $RUN regroup -a sorting --group-size 64 $ARGS >"$TMP/out2" 2>&1 &&
   grep -q 'groups of 64 threads' "$TMP/out2"; then ok group-size-letter
else bad group-size-letter "rc $rc1: $(head -1 "$TMP/out")"; fi

# ---- progress: a line on a terminal (block runs of every kernel, an ETA), none
# with -q, none when stderr is not a terminal -----------------------------------
if command -v script >/dev/null 2>&1 && [ -z "${PN_VG:-}" ]; then
    PNSIM_PROGRESS_AFTER=0.1
    export PNSIM_PROGRESS_AFTER
    # 4 kernels x 2 x 12 blocks x 40 runs = 3840 block runs, about 1 s
    tty=$(script -qc "$RUN regroup -r 40 -j 1 -o $TMP/p.csv $ARGS" /dev/null | tr '\r' '\n')
    if echo "$tty" | grep -aq 'pnsim regroup: [0-9]*/3840 block runs done, a run at step .*, [0-9]* s, ETA '; then
        ok progress-on-terminal
    elif ! echo "$tty" | grep -aq 'pnsim regroup:'; then
        echo "SKIP progress-on-terminal (the job ended before its first line)"
    else bad progress-on-terminal "$tty"; fi
    tty=$(script -qc "$RUN regroup -q -r 40 -j 1 -o $TMP/p.csv $ARGS >/dev/null" /dev/null)
    if [ -z "$tty" ]; then ok progress-quiet; else bad progress-quiet "$tty"; fi
    err=$($RUN regroup -r 40 -j 1 $ARGS 2>&1 >/dev/null)
    if [ -z "$err" ]; then ok progress-not-piped; else bad progress-not-piped "$err"; fi
    unset PNSIM_PROGRESS_AFTER
else
    echo "SKIP progress-on-terminal (no script(1), or under valgrind)"
fi

[ $fails -eq 0 ]
