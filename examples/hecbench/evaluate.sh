#!/usr/bin/env bash
# evaluate.sh - import what hecbench.sh measured and compare pnsim's predictions with the
# kernel durations (the median of the three timed runs, launch by launch).
#
#   bash examples/hecbench/evaluate.sh [DATADIR [WORKDIR]]
#
# DATADIR defaults to examples/data/h100/hecbench; WORKDIR (default a temporary folder)
# receives the configs (WORKDIR/<program>/) and the comparisons (WORKDIR/<program>.compare.*).
# The profiles were taken with application replay, so the import is --flushed (doc/import.md's
# table; a program profile_app.sh had to profile with kernel replay is imported without it).
# Then the block size pnsim picks for the programs run at several (examples/polybench/picks.py).
# PNSIM (default build/pnsim) is the binary, RUNS (default 2) the runs per config. Needs python3.
set -euo pipefail
data=${1:-examples/data/h100/hecbench}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
# a program whose report does not import (listed by import_compare.sh) leaves the others'
# figures and picks standing; the exit status is still its failure
rc=0
PN_FLUSHED=${PN_FLUSHED-1} bash "$here/examples/common/import_compare.sh" --dir "$data" "$work" || rc=$?
# the block sizes of programs run at several (<name>_t<threads>)
python3 "$here/examples/polybench/picks.py" "$work"
exit $rc
