#!/bin/sh
# tests/calib.sh - end-to-end tests of `pnsim calibrate` and `pnsim bbv`: exact fits of
# synthetic times, the written profile (loaded back by `pnsim run`), the latency search,
# BBV fragments against a golden file, --check passing and failing, the measured radix
# BBVs against configs/radix-*.yaml, and one-line file:line:col errors with no output.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
. tests/lib/pn_test.sh
C=tests/calib
D=tests/calib/devices/h100-uncal.yaml   # h100's facts, uncalibrated: tests do not follow recalibrations

expect_fail() {  # name, exit status, expected stderr substring, command...
    name=$1; want_rc=$2; want=$3; shift 3
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(head -n 1 "$TMP/stderr")
    if [ "$rc" -ne "$want_rc" ]; then bad "$name" "exit status $rc, expected $want_rc: $msg"; return; fi
    if [ "$want_rc" -eq 1 ] && [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then
        bad "$name" "stderr is not one line: $(cat "$TMP/stderr")"; return
    fi
    if [ "$want_rc" -eq 2 ] && ! tail -n 1 "$TMP/stderr" | grep -q "^Try 'pnsim .*--help' for more information.$"; then
        bad "$name" "a usage error without the try line: $(cat "$TMP/stderr")"; return
    fi
    case "$msg" in *"$want"*) ok "$name" ;; *) bad "$name" "got: $msg" ;; esac
}

# ---- calibrate: exact fit of synthetic times (0.01 us/step + 2 us) ----------------
if $RUN calibrate -q -d $D -j 2 -o "$TMP/h100.yaml" -P "$TMP/points.csv" $C/meas-good.csv \
        >"$TMP/report" 2>"$TMP/err"; then
    if grep -q '^fit        time_us = 0.01 \* steps + 2$' "$TMP/report" &&
       grep -q 'R2 1.00000  RMSE .* us  MAPE 0.00%  geo-mean error 0.00%' "$TMP/report"; then
        ok calibrate-exact-fit
    else
        bad calibrate-exact-fit "$(grep -A2 '^fit' "$TMP/report")"
    fi
    # leave-one-kernel-out of an exact line is exact too
    if grep -q 'leave-one-kernel-out: MAPE 0.00%' "$TMP/report"; then ok calibrate-loo
    else bad calibrate-loo "$(grep leave-one "$TMP/report")"; fi
    if grep -q '^k_global  *2 .* 1.0000 ' "$TMP/report"; then ok calibrate-per-kernel
    else bad calibrate-per-kernel "$(grep '^k_global' "$TMP/report")"; fi
    # the profile: h100's text plus the calibration, loadable, used by `run`
    if grep -q '^  us_per_step: 0.01$' "$TMP/h100.yaml" && grep -q '^  us_offset: 2$' "$TMP/h100.yaml" &&
       grep -q '^sms: 132 ' "$TMP/h100.yaml" && grep -q '^# h100-uncal.yaml' "$TMP/h100.yaml"; then
        ok calibrate-profile
    else
        bad calibrate-profile "$(tail -5 "$TMP/h100.yaml")"
    fi
    out=$($RUN run -d "$TMP/h100.yaml" --runs 1 --format csv $C/k-arith.yaml 2>&1 | tail -n 1)
    # 100 arith -> 401 steps -> 0.01 * 401 + 2 = 6.01 us
    case "$out" in *,401,*,6.01) ok calibrate-profile-run ;; *) bad calibrate-profile-run "$out" ;; esac
    if [ "$(wc -l <"$TMP/points.csv")" -eq 7 ] &&
       grep -q '^8,k_global,k-global.yaml,32,K=100,27.01,20,2,2,2501,0,' "$TMP/points.csv"; then
        ok calibrate-points-csv
    else
        bad calibrate-points-csv "$(sed -n 6p "$TMP/points.csv")"
    fi
else
    bad calibrate-exact-fit "failed: $(cat "$TMP/err")"
fi

# the same with relative weights, the literal engine and one job
if $RUN calibrate -d $D -j 1 -e literal --weight relative $C/meas-good.csv >"$TMP/report" 2>"$TMP/err" &&
   grep -q '^fit        time_us = 0.01 \* steps + 2$' "$TMP/report" &&
   grep -q 'weighted least squares' "$TMP/report"; then ok calibrate-weighted
else bad calibrate-weighted "$(cat "$TMP/err") $(grep '^fit' "$TMP/report")"; fi

# ---- calibrate -f json and -f csv: the same fit, keyed; the points as --points writes
$RUN calibrate -q -d $D -j 2 -f json $C/meas-good.csv >"$TMP/cal.json" 2>"$TMP/err" &&
    grep -q '"n_points": 6,' "$TMP/cal.json" &&
    grep -q '{"model": "pnsim steps", "a": 0.01, "b": 2, "all": {"n": 6, "r2": 1, "rmse_us": 0, "mape_pct": 0,' "$TMP/cal.json" &&
    grep -q '{"line": 9, "kernel": "k_global", "config": "k-global.yaml", "threads": 32, "params": "K=400", "measured_us": 102.01,' "$TMP/cal.json" &&
    [ "$(tail -n 1 "$TMP/cal.json")" = "}" ] && ok calibrate-json ||
    bad calibrate-json "$(head -12 "$TMP/cal.json") $(cat "$TMP/err")"
$RUN calibrate -q -d $D -j 2 -f csv $C/meas-good.csv >"$TMP/cal.csv" 2>"$TMP/err" &&
    [ -s "$TMP/points.csv" ] && cmp -s "$TMP/cal.csv" "$TMP/points.csv" && ok calibrate-csv ||
    bad calibrate-csv "differs from --points: $(diff "$TMP/cal.csv" "$TMP/points.csv" | head -3) $(cat "$TMP/err")"
expect_fail calibrate-bad-format 2 "pnsim calibrate: unknown format 'yaml'" $RUN calibrate -d $D -f yaml $C/meas-good.csv

# ---- calibrate simulates exactly the net `run` simulates, also for a program config ---
if $RUN calibrate -d gtx960m -P "$TMP/prog.csv" $C/meas-program.csv >/dev/null 2>"$TMP/err"; then
    for t in 512 256; do
        want=$($RUN run -t $t -f json configs/reorder-example.yaml 2>&1 |
               python3 -c 'import json, sys; print(float(json.load(sys.stdin)["steps"]["mean"]))')
        got=$(python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])):
    if r["threads"] == sys.argv[2]: print(float(r["steps_mean"]))' "$TMP/prog.csv" $t)
        # compared as numbers (both through float(): JSON's 3613 is calibrate's 3613.0)
        if [ -n "$want" ] && [ "$want" = "$got" ]; then ok "calibrate-program-net-$t"
        else bad "calibrate-program-net-$t" "run $want steps, calibrate's points $got"; fi
    done
else
    bad calibrate-program-net "failed: $(cat "$TMP/err")"
fi

# ---- latency search: the global times are those of l1 = 40 -----------------------
if $RUN calibrate -d $D --search-latency --l1 20,40 --l2 2,3 -o "$TMP/h100s.yaml" \
        $C/meas-l1-40.csv >"$TMP/report" 2>"$TMP/err"; then
    if grep -q '^kept       l1 40, l2 2$' "$TMP/report" &&
       grep -q '^fit        time_us = 0.01 \* steps + 2$' "$TMP/report" &&
       grep -q '^  global: 40$' "$TMP/h100s.yaml" && grep -q '^  shared: 2$' "$TMP/h100s.yaml" &&
       [ "$(grep -c '^latency:' "$TMP/h100s.yaml")" -eq 1 ]; then
        ok calibrate-search-latency
    else
        bad calibrate-search-latency "$(grep -A6 '^latency search' "$TMP/report")"
    fi
else
    bad calibrate-search-latency "failed: $(cat "$TMP/err")"
fi

# ---- calibrate: errors, nothing written ------------------------------------------
rm -f "$TMP/o.yaml" "$TMP/p.csv"
expect_fail calibrate-bad-csv 1 "$C/meas-bad-threads.csv:4:14: threads: expected an integer" \
    $RUN calibrate -d $D -o "$TMP/o.yaml" -P "$TMP/p.csv" $C/meas-bad-threads.csv
if [ -e "$TMP/o.yaml" ] || [ -e "$TMP/p.csv" ] || ls "$TMP" | grep -q '\.tmp'; then
    bad calibrate-bad-csv-output "an output file was written"
else ok calibrate-bad-csv-output; fi
expect_fail calibrate-bad-param 1 "$C/points-bad-param.csv:3:17: params: config k-arith.yaml defines no parameter 'N'" \
    $RUN calibrate -d $D $C/points-bad-param.csv
expect_fail calibrate-max-steps 1 "$C/meas-good.csv:" \
    $RUN calibrate -d $D --max-steps 100 -o "$TMP/o.yaml" $C/meas-good.csv
[ -e "$TMP/o.yaml" ] && bad calibrate-max-steps-output "profile written"
expect_fail calibrate-one-kernel 1 "need at least 2 points with different x" \
    $RUN calibrate -d $D $C/meas-one.csv
expect_fail calibrate-unknown-kernel 1 "--kernels: no point of $C/meas-good.csv has kernel 'k_nope'" \
    $RUN calibrate -d $D -k k_arith,k_nope $C/meas-good.csv
expect_fail calibrate-unknown-device 1 "unknown device 'nosuch'" \
    $RUN calibrate -d nosuch $C/meas-good.csv
expect_fail calibrate-missing-file 1 "$TMP/none.csv: cannot open" \
    $RUN calibrate -d $D "$TMP/none.csv"
expect_fail calibrate-bad-weight 2 "unknown --weight 'abs'" \
    $RUN calibrate -d $D --weight abs $C/meas-good.csv
expect_fail calibrate-bad-l1 2 "--l1 expects a list of integers" \
    $RUN calibrate -d $D --search-latency --l1 20,x $C/meas-good.csv
expect_fail calibrate-no-device 2 "--device NAME is required" $RUN calibrate $C/meas-good.csv
expect_fail calibrate-l1-no-search 2 "--l1 and --l2 need --search-latency" \
    $RUN calibrate -d $D --l1 20 $C/meas-good.csv

# ---- bbv: fragment, metrics, --check ---------------------------------------------
if $RUN bbv -d $D --blocks $C/blocks.csv $C/bbv64.csv >"$TMP/frag" 2>"$TMP/err"; then
    if cmp -s "$TMP/frag" $C/bbv64.golden; then ok bbv-golden
    else bad bbv-golden "differs: $(diff $C/bbv64.golden "$TMP/frag" | head -5)"; fi
else
    bad bbv-golden "failed: $(cat "$TMP/err")"
fi
# the fragment is a valid config once a device is put in front of it
{ echo "device: $(pwd)/$D"; cat "$TMP/frag"; } >"$TMP/frag.yaml"
out=$($RUN run --runs 1 --format csv "$TMP/frag.yaml" 2>&1 | tail -n 1)
case "$out" in frag,64,2,0,1,*) ok bbv-fragment-runs ;; *) bad bbv-fragment-runs "$out" ;; esac
if $RUN bbv -o "$TMP/f.yaml" -d $D --blocks $C/blocks.csv $C/bbv64.csv >"$TMP/stdout" 2>&1 &&
   [ ! -s "$TMP/stdout" ] && cmp -s "$TMP/f.yaml" $C/bbv64.golden; then ok bbv-output-file
else bad bbv-output-file "-o differs from stdout"; fi

# -f json and -f csv: the same counts, keyed or one row per warp
$RUN bbv -d $D -f json --blocks $C/blocks.csv $C/bbv64.csv >"$TMP/b.json" 2>"$TMP/err" &&
    grep -q '"activity_factor": 0.4065061475,' "$TMP/b.json" &&
    grep -q '{"warp": 1, "arith": 13, "shared": 2, "global": 7}' "$TMP/b.json" &&
    [ "$(tail -n 1 "$TMP/b.json")" = "}" ] && ok bbv-json || bad bbv-json "$(cat "$TMP/b.json" "$TMP/err")"
$RUN bbv -d $D -f csv --blocks $C/blocks.csv $C/bbv64.csv >"$TMP/b.csv" 2>"$TMP/err" &&
    [ "$(tr '\n' ' ' <"$TMP/b.csv")" = "warp,arith,shared,global 0,54,31,15 1,13,2,7 " ] &&
    ok bbv-csv || bad bbv-csv "$(cat "$TMP/b.csv" "$TMP/err")"
expect_fail bbv-bad-format 2 "pnsim bbv: unknown format 'xml' (expected yaml, json or csv)" \
    $RUN bbv -f xml --blocks $C/blocks.csv $C/bbv64.csv
if $RUN bbv --blocks $C/blocks.csv --check $C/bbv64-ok.yaml $C/bbv64.csv >"$TMP/chk" 2>"$TMP/err" &&
   [ ! -s "$TMP/err" ] && grep -q 'all 6 counts within 5% of the BBV' "$TMP/chk" &&
   grep -q '^    0  arith             54            56      3.704$' "$TMP/chk"; then
    ok bbv-check-pass
else
    bad bbv-check-pass "$(cat "$TMP/err" "$TMP/chk" | tail -3)"
fi
expect_fail bbv-check-fail 1 "$C/bbv64-off.yaml: 1 of 6 counts differ from the BBV's by more than 5% (largest: warp 0 arith, 7.407%)" \
    $RUN bbv --blocks $C/blocks.csv --check $C/bbv64-off.yaml $C/bbv64.csv
if grep -q '^    0  arith             54            58      7.407  > tolerance$' "$TMP/stdout"; then
    ok bbv-check-fail-table
else bad bbv-check-fail-table "$(grep arith "$TMP/stdout" | head -2)"; fi
if $RUN bbv --blocks $C/blocks.csv --tolerance 10 --check $C/bbv64-off.yaml -t 64 $C/bbv64.csv >/dev/null 2>&1; then
    ok bbv-check-tolerance
else bad bbv-check-tolerance "--tolerance 10 did not pass"; fi
expect_fail bbv-check-threads 1 "--threads 128: the BBV $C/bbv64.csv has 64 threads" \
    $RUN bbv --blocks $C/blocks.csv --check $C/bbv64-ok.yaml -t 128 $C/bbv64.csv
expect_fail bbv-bad-count 1 "$C/bbv-bad-count.csv:4:5: bb1: expected an integer" \
    $RUN bbv --blocks $C/blocks.csv $C/bbv-bad-count.csv
expect_fail bbv-bad-block 1 "$C/bbv-bad-block.csv:2:12: block 'bb9' is not in $C/blocks.csv" \
    $RUN bbv --blocks $C/blocks.csv $C/bbv-bad-block.csv
expect_fail bbv-bad-table 1 "$C/blocks-bad-cost.csv:3:5: arith: expected an integer" \
    $RUN bbv --blocks $C/blocks-bad-cost.csv $C/bbv64.csv
expect_fail bbv-bad-tolerance 2 "--tolerance expects a percentage" \
    $RUN bbv --blocks $C/blocks.csv --tolerance -1 $C/bbv64.csv
expect_fail bbv-no-blocks 2 "--blocks BLOCKS.csv is required" $RUN bbv $C/bbv64.csv

# ---- the measured radix BBVs agree with the counted configs ----------------------
for k in global tree shared; do
    for T in 64 128 256 512 1024; do
        b=examples/data/h100/bbv/radix_$k-$T.csv
        [ -f "$b" ] && [ -f configs/radix-$k.yaml ] || continue
        if $RUN bbv --blocks examples/radix/radix_$k.blocks.csv --check configs/radix-$k.yaml \
                "$b" >"$TMP/chk" 2>"$TMP/err"; then ok "bbv-check-radix_$k-$T"
        else bad "bbv-check-radix_$k-$T" "$(cat "$TMP/err")"; fi
    done
done

# ---- help ------------------------------------------------------------------------
$RUN calibrate --help | grep -q -- '--search-latency' && ok calibrate-help || bad calibrate-help "no options"
$RUN help bbv | grep -q -- '--check CONFIG' && ok bbv-help || bad bbv-help "no options"

[ "$fails" -eq 0 ]
