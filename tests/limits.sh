#!/bin/sh
# tests/limits.sh - inputs that must be refused with one clear line, quickly,
# in bounded memory and without an output file, by every command that reads
# a file: a directory, a device (/dev/zero, also as stdin), a file larger
# than 64 MiB (ncu pages: 1 GiB; sparse, made with truncate) or a pipe that exceeds it, YAML
# aliases (billion laughs), deep nesting, bytes that are not UTF-8.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
. tests/lib/pn_test.sh

# name, exact stderr, command... (run with a 20 s limit; -o $TMP/out must not appear)
refuse() {
    name=$1; want=$2; shift 2
    rm -f "$TMP/out"
    timeout 20 ${PN_VG:-} "$@" >"$TMP/stdout" 2>"$TMP/stderr" </dev/null
    rc=$?
    msg=$(cat "$TMP/stderr")
    if [ "$rc" -eq 124 ]; then bad "$name" "still running after 20 s"; return; fi
    if [ "$rc" -ne 1 ]; then bad "$name" "exit status $rc: $msg"; return; fi
    if [ -e "$TMP/out" ]; then bad "$name" "an output file was written"; return; fi
    if [ "$msg" != "$want" ]; then bad "$name" "got: $msg"; return; fi
    ok "$name"
}

mkdir "$TMP/dir"
truncate -s 65M "$TMP/huge.yaml"
truncate -s 65M "$TMP/huge.csv"
truncate -s 1025M "$TMP/hugencu.csv"
printf 'kernel: {threads: 32}\n' >"$TMP/k.yaml"
printf 'device: dir/\nkernel: {threads: 32}\n' >"$TMP/devdir.yaml"
printf 'device: huge.yaml\nkernel: {threads: 32}\n' >"$TMP/devhuge.yaml"
printf 'device: /dev/zero\nkernel: {threads: 32}\n' >"$TMP/devzero.yaml"

# configs
refuse run-directory "$TMP/dir: cannot open: not a regular file" $PNSIM run -o "$TMP/out" "$TMP/dir"
refuse run-dev-zero "/dev/zero: cannot open: not a regular file" $PNSIM run -o "$TMP/out" /dev/zero
refuse run-huge "$TMP/huge.yaml: cannot open: file larger than the 64 MiB limit" \
    $PNSIM run -o "$TMP/out" "$TMP/huge.yaml"
refuse sweep-huge "$TMP/huge.yaml: cannot open: file larger than the 64 MiB limit" \
    $PNSIM sweep -o "$TMP/out" "$TMP/huge.yaml"
refuse export-dev-zero "/dev/zero: cannot open: not a regular file" $PNSIM export -o "$TMP/out" /dev/zero
# stdin: a device refused, a pipe read up to the limit
name=run-stdin-dev-zero
timeout 20 $PNSIM run -o "$TMP/out" /dev/stdin </dev/zero >/dev/null 2>"$TMP/stderr"
if [ "$(cat "$TMP/stderr")" = "/dev/stdin: cannot open: not a regular file" ] && [ ! -e "$TMP/out" ]; then
    ok $name; else bad $name "$(cat "$TMP/stderr")"; fi
name=run-stdin-endless-pipe
head -c 70000000 /dev/zero | timeout 20 $PNSIM run -o "$TMP/out" /dev/stdin >/dev/null 2>"$TMP/stderr"
if [ "$(cat "$TMP/stderr")" = "/dev/stdin: cannot open: file larger than the 64 MiB limit" ] &&
   [ ! -e "$TMP/out" ]; then ok $name; else bad $name "$(cat "$TMP/stderr")"; fi
name=run-stdin-pipe-works
if printf 'kernel: {threads: 32, counts: {arith: 1}}\nsimulation: {runs: 1}\n' |
   $PNSIM run -o "$TMP/out" /dev/stdin 2>"$TMP/stderr" && [ -s "$TMP/out" ]; then
    ok $name; else bad $name "$(cat "$TMP/stderr")"; fi
rm -f "$TMP/out"

# device profiles named by a config, and by --device
refuse device-directory "$TMP/devdir.yaml:1:9: cannot read device profile $TMP/dir/: not a regular file" \
    $PNSIM run -o "$TMP/out" "$TMP/devdir.yaml"
refuse device-huge "$TMP/devhuge.yaml:1:9: cannot read device profile $TMP/huge.yaml: file larger than the 64 MiB limit" \
    $PNSIM run -o "$TMP/out" "$TMP/devhuge.yaml"
refuse device-dev-zero "$TMP/devzero.yaml:1:9: cannot read device profile /dev/zero: not a regular file" \
    $PNSIM run -o "$TMP/out" "$TMP/devzero.yaml"
refuse device-option-huge "$TMP/huge.yaml: cannot read device profile: file larger than the 64 MiB limit" \
    $PNSIM run -d "$TMP/huge.yaml" -o "$TMP/out" "$TMP/k.yaml"

# CSV readers: measurements, BBV and block table, probe, ncu
refuse calibrate-directory "$TMP/dir: cannot open: not a regular file" \
    $PNSIM calibrate -d h100 -o "$TMP/out" "$TMP/dir"
refuse calibrate-huge "$TMP/huge.csv: cannot open: file larger than the 64 MiB limit" \
    $PNSIM calibrate -d h100 -o "$TMP/out" "$TMP/huge.csv"
refuse bbv-dev-zero "/dev/zero: cannot open: not a regular file" \
    $PNSIM bbv -b tests/calib/blocks.csv -o "$TMP/out" /dev/zero
refuse bbv-blocks-huge "$TMP/huge.csv: cannot open: file larger than the 64 MiB limit" \
    $PNSIM bbv -b "$TMP/huge.csv" -o "$TMP/out" tests/calib/bbv64.csv
refuse probe-huge "$TMP/huge.csv: cannot open: file larger than the 64 MiB limit" \
    $PNSIM probe -d h100 -o "$TMP/out" "$TMP/huge.csv"
refuse import-dev-zero "/dev/zero: cannot open the ncu CSV: not a regular file" \
    $PNSIM import -O "$TMP/dir" /dev/zero
refuse import-huge "$TMP/hugencu.csv: cannot open the ncu CSV: file larger than the 1 GiB limit" \
    $PNSIM import -O "$TMP/dir" "$TMP/hugencu.csv"
refuse import-source-huge "$TMP/hugencu.csv: cannot open the source page: file larger than the 1 GiB limit" \
    $PNSIM import -O "$TMP/dir" -S "$TMP/hugencu.csv" examples/data/h100/deps/deps.raw.csv

# a probe value beyond what a profile accepts (found by fuzz_probe: 6.8e39
# cycles overflowed the conversion to steps)
sed 's/^lat_dram,[^,]*,/lat_dram,6.8e39,/' examples/data/h100/probe.csv >"$TMP/probe.csv"
line=$(grep -n '^lat_dram,' "$TMP/probe.csv" | cut -d: -f1)
refuse probe-latency-huge "$TMP/probe.csv:$line: probe lat_dram: 6.8e+39 is above 1000000, the most a profile accepts" \
    $PNSIM probe -d h100 -o "$TMP/out" "$TMP/probe.csv"

# ncu CSVs whose configs could not be read back or would land elsewhere
# (found by fuzz_ncu, which reads every written config back)
mkdir "$TMP/imp"
sed 's/"pn_hist(const/"..\/..\/pn_hist(const/' tests/ncu/good.csv >"$TMP/slash.csv"
refuse import-kernel-name-path "$TMP/slash.csv:6:33: launch 0: kernel name '../../pn_hist(const unsigned int *, unsigned int *, int)' is not a C++ name (letters, digits, '_', ':', spaces) before its arguments" \
    $PNSIM import -O "$TMP/imp" "$TMP/slash.csv"
sed 's/"smsp__inst_executed.sum","inst","765,952"/"smsp__inst_executed.sum","inst","1e30"/' tests/ncu/good.csv >"$TMP/many.csv"
refuse import-count-huge "$TMP/many.csv:6: launch 0 (pn_hist): 2.44140625e+26 instructions per warp, above the limit 4294967295 of a config" \
    $PNSIM import -O "$TMP/imp" "$TMP/many.csv"
sed 's/"launch__registers_per_thread","register\/thread","16 (0: 16)"/"launch__registers_per_thread","register\/thread","1e10"/' tests/ncu/good.csv >"$TMP/regs.csv"
refuse import-registers-huge "$TMP/regs.csv:6: launch 0 (pn_hist): metric launch__registers_per_thread: 1e+10 is not between 0 and 4294967295" \
    $PNSIM import -O "$TMP/imp" "$TMP/regs.csv"
sed 's/"smsp__inst_executed.sum","inst","765,952"/"smsp__inst_executed.sum","inst","-765,952"/' tests/ncu/good.csv >"$TMP/neg.csv"
refuse import-metric-negative "$TMP/neg.csv:30:197: launch 0: metric smsp__inst_executed.sum: expected a number >= 0, got '-765,952'" \
    $PNSIM import -O "$TMP/imp" "$TMP/neg.csv"
printf '"ID","Kernel Name","Block Size","Grid Size","Metric Name","Metric Value"\n' >"$TMP/bar.csv"
for m in launch__block_size:32 launch__grid_size:1 smsp__inst_executed.sum:100 smsp__sass_inst_executed_op_global_ld.sum:0 \
         smsp__sass_inst_executed_op_global_st.sum:0 smsp__sass_inst_executed_op_shared_ld.sum:0 \
         smsp__sass_inst_executed_op_shared_st.sum:0 "sass__inst_executed_per_opcode:100 (BAR: -9)"; do
    printf '"0","k(int)","(32, 1, 1)","(1, 1, 1)","%s","%s"\n' "${m%%:*}" "${m#*:}" >>"$TMP/bar.csv"
done
refuse import-opcode-negative "$TMP/bar.csv:2: launch 0 (k): -9 barriers instructions in all, expected a count >= 0" \
    $PNSIM import -O "$TMP/imp" "$TMP/bar.csv"
name=import-nothing-written
if [ -z "$(ls "$TMP/imp")" ] && [ ! -e "$TMP/pn_hist-64x2048-0.yaml" ]; then ok $name; else bad $name "$(ls "$TMP/imp")"; fi

# YAML: a billion laughs expanded would be 9^9 strings; deep nesting; Latin-1
refuse yaml-billion-laughs \
    "tests/bad/yaml_alias_billion_laughs.yaml:3:8: YAML aliases are not supported (found '*a'): write the value out" \
    $PNSIM run -o "$TMP/out" tests/bad/yaml_alias_billion_laughs.yaml
python3 -c "print('kernel: {threads: 32}\nparams: ' + '[' * 100000 + ']' * 100000)" >"$TMP/deep.yaml"
refuse yaml-deep-100000 "$TMP/deep.yaml:2:72: YAML nested deeper than 64 levels" \
    $PNSIM run -o "$TMP/out" "$TMP/deep.yaml"
refuse yaml-not-utf8 \
    "tests/bad/yaml_not_utf8.yaml:4:11: invalid YAML: invalid trailing UTF-8 octet (byte #73 at offset 157)" \
    $PNSIM run -o "$TMP/out" tests/bad/yaml_not_utf8.yaml
printf 'device: p.yaml\nkernel: {threads: 32}\n' >"$TMP/devalias.yaml"
printf 'name: x\nsms: &n 4\nschedulers: *n\n' >"$TMP/p.yaml"
refuse device-alias "$TMP/p.yaml:3:13: YAML aliases are not supported (found '*n'): write the value out" \
    $PNSIM run -o "$TMP/out" "$TMP/devalias.yaml"

[ "$fails" -eq 0 ]
