#!/bin/sh
# tests/pipelined.sh - end-to-end tests of the pipelined net's commands: `pnsim probe` on
# the committed H100 probe CSV (the h100 profile's section), `pnsim import` of an ncu CSV
# against a golden config that `pnsim run` then simulates, and one-line file:line errors with
# nothing written for bad ncu and probe CSVs; `pnsim run` and `pnsim sweep` print time_us for
# a pipelined config. Prints "ok NAME" or "not ok NAME: why" per case.
. tests/lib/pn_test.sh

expect_fail() {  # name, expected stderr substring, command...
    name=$1; want=$2; shift 2
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(head -n 1 "$TMP/stderr")
    if [ "$rc" -ne 1 ]; then bad "$name" "exit status $rc, expected 1: $msg"; return; fi
    if [ "$(wc -l <"$TMP/stderr")" -ne 1 ]; then bad "$name" "stderr not one line"; return; fi
    case "$msg" in *"$want"*) ok "$name" ;; *) bad "$name" "got: $msg" ;; esac
}
usage_fail() {  # name, expected first stderr line substring, command...: exit 2, try --help
    name=$1; want=$2; shift 2
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(head -n 1 "$TMP/stderr")
    if [ "$rc" -ne 2 ]; then bad "$name" "exit status $rc, expected 2: $msg"; return; fi
    if ! tail -n 1 "$TMP/stderr" | grep -q "^Try 'pnsim .*--help' for more information.$"; then
        bad "$name" "no try line: $(cat "$TMP/stderr")"; return
    fi
    case "$msg" in *"$want"*) ok "$name" ;; *) bad "$name" "got: $msg" ;; esac
}

# ---- probe: the committed CSV gives the h100 profile's pipelined section ----------
if $RUN probe examples/data/h100/probe.csv -d h100 -o "$TMP/h100.yaml" 2>"$TMP/err"; then
    # the whole section: the probes' keys, then the old section's others kept
    sed -n '/^pipelined:/,$p' "$TMP/h100.yaml" | tail -n +2 >"$TMP/got"
    sed -n '/^pipelined:/,$p' models/devices/h100.yaml | tail -n +2 >"$TMP/want"
    if cmp -s "$TMP/got" "$TMP/want"; then ok probe-h100
    else bad probe-h100 "$(diff "$TMP/want" "$TMP/got" | head -5)"; fi
else
    bad probe-h100 "$(cat "$TMP/err")"
fi
# ... and each of its values is what the probe rows say, computed here by awk from
# the CSV alone (not a round trip through pnsim): latencies rounded to whole
# steps, arith the mean of the integer and float probes, barrier one more than
# the one-warp probe, arith_busy the partitions over the mean ALU throughput
awk -F, '
    function rnd(x) { return int(x + 0.5) }
    /^#/ || $1 == "probe" { next }
    { v[$1] = $2 }
    END {
        printf "clock_mhz %.6g\n", v["clock_mhz"]
        printf "arith %d\nsfu %d\nshared_ld %d\nshared_st %d\n", rnd((v["lat_int"] + v["lat_fp"]) / 2),
               rnd(v["lat_sfu"]), rnd(v["lat_shared_ld"]), rnd(v["lat_shared_st"])
        printf "l1 %d\nl2 %d\ndram %d\nglobal_st %d\n", rnd(v["lat_l1"]), rnd(v["lat_l2"]),
               rnd(v["lat_dram"]), rnd(v["lat_global_st"])
        printf "barrier %d\n", rnd(v["barrier_w1"] + 1)
        printf "lsu_sectors %.4g\nshared_wavefronts %.4g\ndram_sectors %.4g\n",
               v["tput_lsu_sectors"], v["tput_shared_wavefronts"], v["tput_dram_sectors"]
        printf "arith_busy %.4g\ninflight %d\n", 4 / ((v["tput_int"] + v["tput_fp"]) / 2),
               rnd(v["inflight_loads"])
    }' examples/data/h100/probe.csv >"$TMP/by-hand"
sed -n 's/^ *\([a-z_0-9]*\): \([0-9.]*\) .*/\1 \2/p' "$TMP/got" |
    grep -E '^(clock_mhz|arith|sfu|shared_ld|shared_st|l1|l2|dram|global_st|barrier|lsu_sectors|shared_wavefronts|dram_sectors|arith_busy|inflight) ' |
    sort >"$TMP/from-probe"
sort "$TMP/by-hand" >"$TMP/by-hand.sorted"
if [ "$(wc -l <"$TMP/from-probe")" -eq 15 ] && cmp -s "$TMP/from-probe" "$TMP/by-hand.sorted"; then
    ok probe-values-by-hand
else bad probe-values-by-hand "$(diff "$TMP/by-hand.sorted" "$TMP/from-probe" | head -6)"; fi
# the L2 and atomic keys: whole lines from the streaming probes (reads: the per-SM probe
# on all 132 SMs times 132 where that is more), atomic_lines the rows [L, atomic_line_L] as
# read, here by awk
awk -F, '
    /^#/ || $1 == "probe" { next }
    { v[$1] = $2 }
    END {
        rd = v["tput_l2_read_sectors"]; all = 132 * v["sm_l2_read_132"]
        printf "l2_line_sectors %.4g\nl2_store_line_sectors %.4g\n", (all > rd ? all : rd), v["tput_l2_write_sectors"]
        n = split("1 2 4 8 16 64 256", L, " "); row = "["
        for (i = 1; i <= n; i++) row = row (i > 1 ? ", " : "") sprintf("[%g, %.4g]", L[i], v["atomic_line_" L[i]])
        printf "atomic_lines %s]\n", row
        n = split("1 4 8 16 24 32 48 64 66 99 116 132", B, " ")
        for (w = 0; w < 2; w++) {
            row = "["
            for (i = 1; i <= n; i++)
                row = row (i > 1 ? ", " : "") sprintf("[%g, %.4g]", B[i], v["sm_l2_" (w ? "write_" : "read_") B[i]])
            printf "l2_sm_%s %s]\n", w ? "write" : "read", row
        }
    }' examples/data/h100/probe.csv >"$TMP/l2-by-hand"
sed -n 's/^ *\(l2_line_sectors\|l2_store_line_sectors\): \([0-9.]*\) .*/\1 \2/p; s/^ *\(atomic_lines\|l2_sm_read\|l2_sm_write\): \(\[.*\]\) *#.*/\1 \2/p' "$TMP/h100.yaml" >"$TMP/l2-from-probe"
if [ "$(wc -l <"$TMP/l2-from-probe")" -eq 5 ] && cmp -s "$TMP/l2-from-probe" "$TMP/l2-by-hand"; then
    ok probe-l2-atomic-by-hand
else bad probe-l2-atomic-by-hand "$(diff "$TMP/l2-by-hand" "$TMP/l2-from-probe" | head -6)"; fi
grep -v '^lat_l2,' examples/data/h100/probe.csv >"$TMP/probe-missing.csv"
expect_fail probe-missing "missing probe 'lat_l2'" \
    $RUN probe "$TMP/probe-missing.csv" -d h100 -o "$TMP/none.yaml"
if [ -e "$TMP/none.yaml" ]; then bad probe-nothing-written "$TMP/none.yaml exists"; else ok probe-nothing-written; fi
# the per-SM L2 rows: a bad busy-SM count, a row twice (file:line:col, nothing written)
sed 's/^sm_l2_read_4,/sm_l2_read_0,/' examples/data/h100/probe.csv >"$TMP/probe-sm0.csv"
line=$(grep -n '^sm_l2_read_0,' "$TMP/probe-sm0.csv" | cut -d: -f1)
expect_fail probe-sm-l2-busy "probe-sm0.csv:$line:1: probe 'sm_l2_read_0': expected sm_l2_read_B with B busy SMs from 1 to 100000" \
    $RUN probe "$TMP/probe-sm0.csv" -d h100 -o "$TMP/none.yaml"
{ cat examples/data/h100/probe.csv; grep '^sm_l2_write_32,' examples/data/h100/probe.csv; } >"$TMP/probe-sm2.csv"
expect_fail probe-sm-l2-twice "probe 'sm_l2_write_32' given twice" \
    $RUN probe "$TMP/probe-sm2.csv" -d h100 -o "$TMP/none.yaml"
if [ -e "$TMP/none.yaml" ]; then bad probe-sm-l2-nothing-written "$TMP/none.yaml exists"; else ok probe-sm-l2-nothing-written; fi
$RUN probe examples/data/h100/probe.csv >"$TMP/stdout" 2>"$TMP/stderr"
if [ $? -eq 2 ] && grep -q -- "--device DEVICE is required" "$TMP/stderr"; then ok probe-needs-device
else bad probe-needs-device "$(cat "$TMP/stderr")"; fi

# ---- import: golden config, then simulated ----------------------------------------
if $RUN import tests/ncu/good.csv >"$TMP/good.yaml" 2>"$TMP/err" &&
   cmp -s "$TMP/good.yaml" tests/ncu/good.yaml.golden; then ok import-golden
else bad import-golden "$(diff tests/ncu/good.yaml.golden "$TMP/good.yaml" | head -5) $(cat "$TMP/err")"; fi
if $RUN run -r 2 -f json "$TMP/good.yaml" >"$TMP/run.json" 2>"$TMP/err" &&
   grep -q '"grid": {"blocks": 2048, "sm_blocks": 16, "resident": 32, "limiter": "warps+blocks", "waves": 1}' "$TMP/run.json" &&
   grep -q '"time_us"' "$TMP/run.json"; then ok import-run
else bad import-run "$(grep grid "$TMP/run.json") $(cat "$TMP/err")"; fi
# sync items in a program: one warp takes as long as the same counts with barriers
sed -e 's/^  program:$/  counts: {arith: 8, global_ld: 2, barriers: 2}/' -e '/repeat: 2/d' \
    tests/good/program_sync.yaml >"$TMP/sync_counts.yaml"
if a=$($RUN run -f json tests/good/program_sync.yaml 2>"$TMP/err") &&
   b=$($RUN run -f json "$TMP/sync_counts.yaml" 2>>"$TMP/err") &&
   python3 -c '
import json, sys
a, b = json.loads(sys.argv[1]), json.loads(sys.argv[2])
assert a["steps"]["mean"] == b["steps"]["mean"] == 625, (a["steps"], b["steps"])
assert a["idle_steps"]["mean"] == b["idle_steps"]["mean"] == 614
' "$a" "$b" 2>>"$TMP/err"; then ok program-sync-pipelined
else bad program-sync-pipelined "$(cat "$TMP/err")"; fi
# a kernel profiled at two block sizes: one config fitted through both, exact at them
mkdir "$TMP/fit"
# every opcode class of the import's mapping, worked by hand (not from pnsim):
# tests/ncu/opcodes.csv is good.csv plus MUFU 12288, F2I, I2F, F2F, FRND,
# ATOMG, ATOM and RED 4096 each, over 2048 blocks x 2 warps = 4096 warps:
#   sfu       = (MUFU + F2I + I2F + F2F + FRND) / 4096 = (12288 + 4 * 4096) / 4096 = 7
#   global_ld = (LDG 32768 + ATOMG 4096 + ATOM 4096) / 4096                   = 10
#   global_st = (STG 0 + REDG 16384 + RED 4096) / 4096                         = 5
#   shared_ld = (LDS 16384 + ATOMS 32768) / 4096 = 12, shared_st = STS 16384 / 4096 = 4
#   barriers  = BAR 8192 / 4096 = 2
#   arith     = 806912 / 4096 - 7 - 10 - 5 - 12 - 4 - 2 = 197 - 40 = 157
want='counts: {arith: 157, sfu: 7, shared_ld: 12, shared_st: 4, global_ld: 10, global_st: 5, barriers: 2}'
got=$($RUN import tests/ncu/opcodes.csv 2>&1 | grep 'counts:' | sed 's/^ *//')
if [ "$got" = "$want" ]; then ok import-opcode-classes
else bad import-opcode-classes "got '$got'"; fi
if $RUN import -O "$TMP/fit" tests/ncu/two-sizes.csv 2>"$TMP/err" &&
   cmp -s "$TMP/fit/pn_hist-x131072.yaml" tests/ncu/two-sizes.yaml.golden &&
   grep -q "2 configs in $TMP/fit, and 1 fitted across block sizes" "$TMP/err"; then ok import-fitted
else bad import-fitted "$(diff tests/ncu/two-sizes.yaml.golden "$TMP/fit/pn_hist-x131072.yaml" | head -5) $(cat "$TMP/err")"; fi
if $RUN sweep -r 2 -f csv "$TMP/fit/pn_hist-x131072.yaml" >"$TMP/fit.csv" 2>"$TMP/err" &&
   a=$($RUN run -r 2 -f json "$TMP/fit/pn_hist-64x2048-0.yaml") &&
   b=$($RUN run -r 2 -f json "$TMP/fit/pn_hist-128x1024-1.yaml") &&
   python3 -c '
import csv, json, sys
rows = {int(r["threads"]): float(r["steps_mean"]) for r in csv.DictReader(open(sys.argv[1]))}
per = {64: json.loads(sys.argv[2])["steps"]["mean"], 128: json.loads(sys.argv[3])["steps"]["mean"]}
assert sorted(rows) == [64, 128], rows
for t in per:
    assert abs(rows[t] - per[t]) <= 0.02 * per[t], (t, rows[t], per[t])
' "$TMP/fit.csv" "$a" "$b" 2>>"$TMP/err"; then ok import-fitted-sweep
else bad import-fitted-sweep "$(cat "$TMP/fit.csv" "$TMP/err")"; fi
# -f csv|json: a table of the launches; -O the folder, -o a file
want='id,kernel,line,cc,threads,blocks,registers,shared_bytes,warp_instructions,global_ld,global_st,shared_ld,shared_st,duration_ns,config
0,pn_hist,6,9.0,64,2048,16,1024,765952,32768,0,16384,16384,13664,
1,pn_hist,39,9.0,128,1024,16,1024,667648,32768,0,8192,8192,9216,'
got=$($RUN import -f csv tests/ncu/two-sizes.csv 2>&1)
[ "$got" = "$want" ] && ok import-table-csv || bad import-table-csv "got: $got"
$RUN import -O "$TMP/tab" -f json -o "$TMP/tab.json" tests/ncu/two-sizes.csv 2>"$TMP/err" &&
    grep -q "{\"id\": 1, \"kernel\": \"pn_hist\", \"line\": 39, \"cc\": \"9.0\", \"threads\": 128, \"blocks\": 1024, .*\"duration_ns\": 9216, \"config\": \"$TMP/tab/pn_hist-128x1024-1.yaml\"}" "$TMP/tab.json" &&
    [ -f "$TMP/tab/pn_hist-128x1024-1.yaml" ] && ok import-table-json-dir ||
    bad import-table-json-dir "$(cat "$TMP/tab.json" "$TMP/err")"
# compare takes the table with ncu's durations, and says what they are
$RUN import -O "$TMP/cmpdir" -f csv -o "$TMP/launches.csv" tests/ncu/two-sizes.csv 2>/dev/null &&
    $RUN compare -q -r 1 "$TMP/launches.csv" "$TMP/cmpdir" >"$TMP/cmp.txt" 2>"$TMP/err" &&
    grep -q '^pn_hist *131072 *64 *2048 *13.664 ' "$TMP/cmp.txt" &&
    grep -q '^overall: 2 of 2 launches predicted' "$TMP/cmp.txt" &&
    grep -q "measured times are ncu's gpu__time_duration" "$TMP/err" && ok compare-ncu-durations ||
    bad compare-ncu-durations "$(cat "$TMP/cmp.txt" "$TMP/err" | head -5)"
$RUN import -o "$TMP/all.yaml" tests/ncu/two-sizes.csv >"$TMP/stdout" 2>"$TMP/err" &&
    [ ! -s "$TMP/stdout" ] && [ "$($RUN import tests/ncu/two-sizes.csv 2>/dev/null)" = "$(cat "$TMP/all.yaml")" ] &&
    ok import-output-file || bad import-output-file "$(cat "$TMP/err")"
usage_fail import-o-is-dir "pnsim import: -o $TMP/tab: a directory; -o takes a file, -O DIR writes the configs into a folder" \
    $RUN import -o "$TMP/tab" tests/ncu/two-sizes.csv
usage_fail import-o-with-dir "with -O the configs go to the folder: -o writes the table of launches, give -f csv or json" \
    $RUN import -O "$TMP/tab" -o "$TMP/x.txt" tests/ncu/two-sizes.csv
usage_fail import-bad-format "pnsim import: unknown format 'xml' (expected yaml, csv or json)" \
    $RUN import -f xml tests/ncu/two-sizes.csv
mkdir "$TMP/out"
expect_fail import-missing-metric "bad-missing-metric.csv:6: launch 0 (pn_hist): missing metric 'smsp__inst_executed.sum'" \
    $RUN import -O "$TMP/out" tests/ncu/bad-missing-metric.csv
expect_fail import-error-row "bad-error-row.csv:5:1: ncu reported an error" \
    $RUN import -O "$TMP/out" tests/ncu/bad-error-row.csv
expect_fail import-no-instructions "bad-no-instructions.csv:6: launch 0 (pn_hist): no instruction executed" \
    $RUN import -O "$TMP/out" tests/ncu/bad-no-instructions.csv
expect_fail import-short-row "bad-short-row.csv:7:1: row has 14 fields" \
    $RUN import -O "$TMP/out" tests/ncu/bad-short-row.csv
expect_fail import-duplicate-launch "bad-duplicate-launch.csv:39:164: launch 0: metric device__attribute_multiprocessor_count appears twice (first at line 6)" \
    $RUN import -O "$TMP/out" tests/ncu/bad-duplicate-launch.csv
expect_fail import-conflicting-row "bad-conflicting-row.csv:31:164: launch 0: metric smsp__inst_executed.sum appears twice (first at line 30) with a different value" \
    $RUN import -O "$TMP/out" tests/ncu/bad-conflicting-row.csv
if [ -z "$(ls "$TMP/out")" ]; then ok import-nothing-written; else bad import-nothing-written "$(ls "$TMP/out")"; fi
if [ "$($RUN import --metrics | tr ',' '\n' | grep -c sass__inst_executed_per_opcode)" = 1 ]; then
    ok import-metrics
else bad import-metrics "no sass__inst_executed_per_opcode in the list"; fi
# the copy the profiling scripts read on a GPU machine without a build of pnsim
if [ "$($RUN import --metrics)" = "$(cat examples/measure/metrics.txt)" ]; then
    ok import-metrics-file
else bad import-metrics-file "examples/measure/metrics.txt differs from import --metrics: rewrite it with build/pnsim import --metrics > examples/measure/metrics.txt"; fi

# ---- run and sweep of a pipelined config print time_us ---------------------------
if $RUN sweep -r 2 -f csv configs/pipelined-example.yaml >"$TMP/sweep.csv" 2>"$TMP/err" &&
   head -1 "$TMP/sweep.csv" | grep -q time_us_mean; then ok sweep-time
else bad sweep-time "$(head -1 "$TMP/sweep.csv") $(cat "$TMP/err")"; fi

# ---- a program on the pipelined net: run and reorder, with time_us -------------
cat >"$TMP/prog.yaml" <<'YAML'
device: h100
model: {net: pipelined}
kernel:
  name: prog
  threads: 128
  memory: {l1_hit: 0.5, l2_hit: 0.5}
  program:
    - {repeat: 20, body: [global, arith*4, shared, arith*2]}
simulation: {runs: 2}
YAML
if $RUN reorder -f csv "$TMP/prog.yaml" >"$TMP/reorder.csv" 2>"$TMP/err" &&
   head -1 "$TMP/reorder.csv" | grep -q ',time_us_mean,time_us_sd$' &&
   [ "$(grep -c '^prog,' "$TMP/reorder.csv")" = 5 ]; then ok reorder-pipelined
else bad reorder-pipelined "$(cat "$TMP/reorder.csv" "$TMP/err" | head -3)"; fi
if $RUN run -f json "$TMP/prog.yaml" >"$TMP/prog.json" 2>"$TMP/err" &&
   grep -q '"engine": "sm"' "$TMP/prog.json" && grep -q '"time_us"' "$TMP/prog.json"; then
    ok run-pipelined-program
else bad run-pipelined-program "$(head -c 300 "$TMP/prog.json") $(cat "$TMP/err")"; fi

# ---- outputs that speak the pipelined net ---------------------------------------------
head=$($RUN sweep -q -r 2 -f csv configs/pipelined-example.yaml 2>/dev/null | head -n 1)
if [ "$head" = "threads,warps,net,runs,steps_mean,steps_sd,steps_min,steps_max,idle_mean,idle_sd,idle_min,idle_max,time_us_mean,time_us_sd,best" ]; then
    ok sweep-csv-pipelined-columns
else bad sweep-csv-pipelined-columns "$head"; fi
if $RUN run -r 2 -f json configs/pipelined-example.yaml | python3 -c 'import json, sys
m = json.load(sys.stdin)["model"]
assert m["net"] == "pipelined" and "selection" not in m and "schedulers" not in m
assert m["latency"]["dram"] == 678 and m["latency"]["arith"] == 5 and m["partitions"] == 4' 2>"$TMP/err"; then
    ok run-json-pipelined-model
else bad run-json-pipelined-model "$(cat "$TMP/err")"; fi

# stores take DRAM bandwidth: 10 blocks x 8 warps x 64 stores x 4 sectors written back on this
# SM at 48.8 / 132 sectors a step is 55 k steps (DRAM-bound); without dram_st_sectors and
# l2_hit 1 the same kernel is LSU-bound at about 5 k
steps=$($RUN run -q -r 1 -f csv tests/good/pipelined-stores-dram.yaml | awk -F, 'NR == 2 { print $6 }')
sed 's/, dram_st_sectors: 4//' tests/good/pipelined-stores-dram.yaml >"$TMP/st0.yaml"
steps0=$($RUN run -q -r 1 -f csv "$TMP/st0.yaml" | awk -F, 'NR == 2 { print $6 }')
if [ "${steps:-0}" -ge 55338 ] && [ "${steps:-0}" -lt 57000 ] && [ "${steps0:-0}" -gt 5134 ] &&
   [ "${steps0:-0}" -lt 6000 ] && $RUN run -r 1 tests/good/pipelined-stores-dram.yaml | grep -q 'dram-bound'; then
    ok stores-take-dram
else bad stores-take-dram "steps $steps (dram_st_sectors 4), $steps0 (none)"; fi

# the busiest SM's share of the DRAM: 133 blocks put 2 on it and 1 on the 131 others, which
# leave it their budget when done (share 132 x 2 / 133): its DRAM bound is that of 264
# blocks (2 on every SM) over 1.985
for n in 264 133; do
    printf 'device: h100\nmodel: {net: pipelined}\nkernel:\n  threads: 256\n  blocks: %s\n  counts: {global_ld: 64}\n  memory: {l1_hit: 0, l2_hit: 0}\nsimulation: {runs: 1, seed: 1}\n' "$n" >"$TMP/share$n.yaml"
done
d264=$($RUN run "$TMP/share264.yaml" 2>&1 | sed -n 's/^bounds .* dram \([0-9]*\) steps.*/\1/p')
d133=$($RUN run "$TMP/share133.yaml" 2>&1 | sed -n 's/^bounds .* dram \([0-9]*\) steps.*/\1/p')
if [ -n "$d264" ] && [ -n "$d133" ] &&
   awk -v a="$d264" -v b="$d133" 'BEGIN { r = a / b; exit !(r > 1.97 && r < 2.0) }'
then ok busiest-sm-dram-share
else bad busiest-sm-dram-share "dram bounds $d264 (264 blocks), $d133 (133)"; fi

[ "$fails" -eq 0 ]
