#!/usr/bin/env bash
# evaluate.sh - import what rodinia.sh measured and compare pnsim's predictions with the
# kernel durations (the median of the three timed runs, launch by launch).
#
#   bash examples/rodinia/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/rodinia; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<program>/) and the comparisons (WORKDIR/<program>.compare.*).
# Prints pnsim compare's overall line per program and over all launches. PNSIM (default
# build/pnsim) is the binary; RUNS (default 2) the runs per config; PN_FLUSHED=1 imports
# with --flushed (launches whose measured DRAM traffic is their own: profiled with
# PN_REPLAY=application, or with PN_CACHE=all and timed with the L2 flushed before each).
set -euo pipefail
data=${1:-examples/data/h100/rodinia}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
bash "$here/examples/common/import_compare.sh" --dir "$data" "$work"
