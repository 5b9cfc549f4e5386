#!/usr/bin/env bash
# evaluate.sh - import what llmc.sh measured and compare pnsim's predictions with the
# kernel durations: per program version, over all launches, and per program the fastest
# (version, block size) measured and predicted (llmc_calls.py pick).
#
#   bash examples/llmc/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/llmc; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<program>-<version>/) and the comparisons
# (WORKDIR/<program>-<version>.compare.*). PNSIM (default build/pnsim) is the binary;
# RUNS (default 2) the runs per config; PN_COUNTS=1 imports counts-only configs (no SASS
# programs) for a comparison. Needs python3.
set -euo pipefail
data=${1:-examples/data/h100/llmc}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
for raw in "$data"/*.raw.csv; do
    n=$(basename "$raw" .raw.csv)
    # each call timed after a memset that scrubs the L2 and leaves it dirty; a call's
    # launches after its first find what the first left in L2
    src=$data/$n.source.csv.xz
    [ -z "${PN_COUNTS:-}" ] || src=-
    warm=$(python3 "$here/llmc_calls.py" warm "$data/$n.calls.csv" "$raw")
    PN_FLUSHED=dirty PN_WARM=$warm bash "$here/../common/import_compare.sh" "$work" "$n" "$raw" \
        "$src" "$data/$n.times.csv"
done
bash "$here/../common/import_compare.sh" --all "$work"
python3 "$here/llmc_calls.py" pick "$data" "$work"
