#!/usr/bin/env bash
# evaluate.sh - predicted against measured times for imported configs, with pnsim compare.
#
#   bash examples/deps/evaluate.sh TIMES.csv CONFIG_DIR [RUNS]
#
# TIMES.csv: rows "kernel,size,threads,blocks,...,median_us,..." (the header names the
# columns; '#' lines skipped), as examples/deps/measure.sh writes. CONFIG_DIR: the configs
# of `pnsim import -O` (<kernel>-<threads>x<blocks>-<id>.yaml). Prints pnsim compare's
# table: per launch the error, per kernel the MAPE, per sweep (a kernel at one size over
# several block sizes) the best block size measured and predicted, the worst launches and
# the overall line (MAPE, median error, worst kernel, sweeps right). With PN_VERSIONS=1,
# kernels named FAMILY_VERSION (several versions of one computation, as examples/ml/ml.cu)
# at one size are also ranked together: the fastest (version, block size) measured and
# predicted, and the regret (the measured time of the predicted pair over the best).
# RUNS (default 2) runs per config; PNSIM (default build/pnsim) is the binary.
set -euo pipefail
times=$1 dir=$2 runs=${3:-2}
pnsim=${PNSIM:-build/pnsim}
versions=()
[[ "${PN_VERSIONS:-0}" == 1 ]] && versions=(--versions)
exec "$pnsim" compare -q -r "$runs" "${versions[@]}" "$times" "$dir"
