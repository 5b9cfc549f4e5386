#!/usr/bin/env bash
# evaluate.sh - predicted against measured times for imported configs.
#
#   bash examples/deps/evaluate.sh TIMES.csv CONFIG_DIR [RUNS]
#
# TIMES.csv: rows "kernel,size,threads,blocks,...,median_us,..." (the header names the
# columns; '#' lines skipped), as examples/deps/measure.sh writes. CONFIG_DIR: the configs
# of `pnsim import -o` (<kernel>-<threads>x<blocks>-<id>.yaml). A config matches a row by
# kernel, threads and blocks; rows with the same three (template instances, sizes with the
# same grid) take those configs in the order of their launch IDs. Prints one line per row
# (kernel, threads, blocks, measured, predicted, error %), then per kernel the MAPE and
# whether the fastest block size was picked, then the overall MAPE, median and the share of
# sweeps whose best block size is right. PNSIM (default build/pnsim) is the binary.
set -euo pipefail
times=$1 dir=$2 runs=${3:-3}
pnsim=${PNSIM:-build/pnsim}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
declare -A used
awk -F, '/^#/ || NF < 5 { next }
  !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  { print $c["kernel"], $c["threads"], $c["blocks"], $c["median_us"] }' "$times" >"$tmp.rows"
while read -r k t b us; do
  key="$k-${t}x$b"
  n=${used[$key]:-0}
  used[$key]=$((n + 1))
  cfg=$(ls "$dir/$key-"*.yaml "$dir/void $key-"*.yaml 2>/dev/null |
        sed 's/^\(.*-\([0-9]*\)\.yaml\)$/\2\t\1/' | sort -n |
        awk -F'\t' -v n=$((n + 1)) 'NR == n { print $2 }' || true)
  [[ -z "$cfg" ]] && { echo "$k $t $b $us nan" >>"$tmp"; continue; }
  p=$("$pnsim" run -q -r "$runs" -f json "$cfg" | sed -n 's/.*"time_us": {"mean": \([0-9.e+-]*\).*/\1/p')
  echo "$k $t $b $us ${p:-nan}" >>"$tmp"
done <"$tmp.rows"
rm -f "$tmp.rows"
awk '{ e = ($5 == "nan") ? "nan" : sprintf("%.1f", 100 * ($5 - $4) / $4);
       printf "%-12s %5d %7d %10.2f %10.2f %7s\n", $1, $2, $3, $4, $5, e }' "$tmp"
awk '$5 != "nan" {
       a = ($5 - $4) / $4; if (a < 0) a = -a; n++; s += a; err[n] = a; ks[$1] += a; kn[$1]++
       if (!($1 in bm) || $4 < bm[$1]) { bm[$1] = $4; bt[$1] = $2 }
       if (!($1 in bp) || $5 < bp[$1]) { bp[$1] = $5; pt[$1] = $2 } }
     END {
       for (k in ks) { printf "%-12s MAPE %5.1f %%  best T measured %4d predicted %4d%s\n", k,
                         100 * ks[k] / kn[k], bt[k], pt[k], kn[k] > 1 ? (bt[k] == pt[k] ? "  right" : "  WRONG") : "";
                       if (kn[k] > 1) { sw++; if (bt[k] == pt[k]) ok++ } if (ks[k] / kn[k] > mx) mx = ks[k] / kn[k] }
       printf "overall: %d launches, MAPE %.1f %%, worst kernel %.1f %%, best block size right %d/%d\n",
              n, 100 * s / n, 100 * mx, ok, sw }' "$tmp"
awk '$5 != "nan" { a = ($5 - $4) / $4; print a < 0 ? -a : a }' "$tmp" | sort -g |
  awk '{ v[NR] = $1 } END { if (NR) printf "median error %.1f %%\n", 100 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
