#!/usr/bin/env bash
# evaluate.sh - import and compare what cudasamples.sh measured (anywhere, pnsim alone):
# every program of DATA (default examples/data/h100/cudasamples) imported with --flushed
# (application replay) and compared with the median of its three timed runs, launch by
# launch; then the MAPE over all launches.
#
#   bash examples/cudasamples/evaluate.sh [DATA [WORKDIR]]
set -euo pipefail
data=${1:-examples/data/h100/cudasamples}
work=${2:-$(mktemp -d)}
here=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$work"
PN_FLUSHED=1 bash "$here/examples/common/import_compare.sh" --dir "$data" "$work"
