#!/bin/sh
# tests/golden/regen.sh - rewrite every golden file from the commands the
# tests compare them with (`make golden`). A golden file that changes needs a
# line in tests/golden/CHANGES saying why (tests/golden.sh checks it): run
# `sh tests/golden/regen.sh`, look at `git diff`, then add for each changed
# file a line "<sha256>  <path>  <why>" (the script prints the new lines).
set -e
PNSIM=${PNSIM:-build/pnsim}
G=tests/golden
for fmt in text json csv; do
    $PNSIM run --runs 3 --format $fmt configs/example.yaml >$G/example.$fmt
done
for eng in literal fast; do
    $PNSIM run --runs 3 --engine $eng --format json configs/example.yaml >$G/example-$eng.json
done
$PNSIM sweep -q configs/example.yaml >$G/sweep-example.text
$PNSIM run -q --runs 2 --ops $G/sass-example-ops.csv configs/sass-example.yaml >/dev/null
for fmt in text json csv; do
    $PNSIM regroup --format $fmt tests/regroup/bbv.csv -b tests/regroup/blocks.csv \
        -c tests/regroup/pipelined.yaml >$G/regroup-test.$fmt
    $PNSIM reorder --format $fmt configs/reorder-example.yaml >$G/reorder-example.$fmt
done
$PNSIM bbv -d tests/calib/devices/h100-uncal.yaml --blocks tests/calib/blocks.csv tests/calib/bbv64.csv >tests/calib/bbv64.golden
$PNSIM import tests/ncu/good.csv >tests/ncu/good.yaml.golden
T=$(mktemp -d)
$PNSIM import -O "$T" tests/ncu/two-sizes.csv >/dev/null
cp "$T/pn_hist-x131072.yaml" tests/ncu/two-sizes.yaml.golden
rm -rf "$T"
# the lines CHANGES needs for files whose hash it does not list yet
sh tests/golden.sh --missing
