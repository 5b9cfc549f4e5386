#!/usr/bin/env bash
# evaluate.sh - import what polybench.sh measured and compare pnsim's predictions with the
# kernel durations (the median of the three timed runs, launch by launch), then the block
# size pnsim picks for each launch against the measured best (picks.py).
#
#   bash examples/polybench/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/polybench; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<bench>_t<threads>/) and the comparisons
# (WORKDIR/<bench>_t<threads>.compare.*). PNSIM (default build/pnsim) is the binary, RUNS
# (default 2) the runs per config; PN_FLUSHED=1 imports with --flushed (profiles taken with
# PN_REPLAY=application: their DRAM traffic is each launch's own). Needs python3.
set -euo pipefail
data=${1:-examples/data/h100/polybench}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$work"
bash "$here/../common/import_compare.sh" --dir "$data" "$work"
python3 "$here/picks.py" "$work"
