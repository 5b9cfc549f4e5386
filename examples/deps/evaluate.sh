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
# (kernel, threads, blocks, measured, predicted, error %), then per kernel the MAPE, per
# sweep (a kernel at one size, several block sizes) the best block size measured and
# predicted, then the overall MAPE, the worst kernel's, the sweeps whose best block size is
# right and the median error. With PN_VERSIONS=1, kernels named FAMILY_VERSION (several
# versions of one computation, as examples/ml/ml.cu) at one size are also ranked together: the fastest
# (version, block size) measured and predicted, and the regret (the measured time of the
# predicted pair over the best). PNSIM (default build/pnsim) is the binary.
set -euo pipefail
times=$1 dir=$2 runs=${3:-3}
pnsim=${PNSIM:-build/pnsim}
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
declare -A used
awk -F, '/^#/ || NF < 5 { next }
  !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
  { print $c["kernel"], $c["threads"], $c["blocks"], $c["median_us"], $c["size"] }' "$times" >"$tmp.rows"
while read -r k t b us size; do
  key="$k-${t}x$b"
  n=${used[$key]:-0}
  used[$key]=$((n + 1))
  cfg=$(ls "$dir/$key-"*.yaml "$dir/void $key-"*.yaml 2>/dev/null |
        sed 's/^\(.*-\([0-9]*\)\.yaml\)$/\2\t\1/' | sort -n |
        awk -F'\t' -v n=$((n + 1)) 'NR == n { print $2 }' || true)
  [[ -z "$cfg" ]] && { echo "$k $t $b $us nan $size" >>"$tmp"; continue; }
  p=$("$pnsim" run -q -r "$runs" -f json "$cfg" | sed -n 's/.*"time_us": {"mean": \([0-9.e+-]*\).*/\1/p')
  echo "$k $t $b $us ${p:-nan} $size" >>"$tmp"
done <"$tmp.rows"
rm -f "$tmp.rows"
awk '{ e = ($5 == "nan") ? "nan" : sprintf("%.1f", 100 * ($5 - $4) / $4);
       printf "%-12s %5d %7d %10.2f %10.2f %7s\n", $1, $2, $3, $4, $5, e }' "$tmp"
awk '$5 != "nan" {
       a = ($5 - $4) / $4; if (a < 0) a = -a; n++; s += a; ks[$1] += a; kn[$1]++
       w = $1 "/" $6; if (!((w, $2) in seen)) { seen[w, $2] = 1; nt[w]++ }
       if (!(w in bm) || $4 < bm[w]) { bm[w] = $4; bt[w] = $2 }
       if (!(w in bp) || $5 < bp[w]) { bp[w] = $5; pt[w] = $2 } }
     END {
       for (k in ks) { printf "%-12s MAPE %5.1f %%\n", k, 100 * ks[k] / kn[k]
                       if (ks[k] / kn[k] > mx) mx = ks[k] / kn[k] }
       for (w in nt) if (nt[w] > 1) { sw++; ok += (bt[w] == pt[w])
                       printf "sweep %-20s best block size measured %4d predicted %4d%s\n", w, bt[w], pt[w], (bt[w] == pt[w]) ? "" : "  (wrong)" }
       printf "overall: %d launches, MAPE %.1f %%, worst kernel %.1f %%, best block size right in %d of %d sweeps\n",
              n, 100 * s / n, 100 * mx, ok, sw }' "$tmp"
# versions: kernels named FAMILY_VERSION (examples/ml) at one size compete; the verdict is
# the (version, block size) pair, and the regret the measured time of the predicted pair
# over the measured best
[[ "${PN_VERSIONS:-0}" == 1 ]] &&
awk '$5 != "nan" { f = $1; sub(/_.*/, "", f); w = f "/" $6
       if (!(w in bm) || $4 < bm[w]) { bm[w] = $4; bk[w] = $1 "@" $2 }
       if (!(w in bp) || $5 < bp[w]) { bp[w] = $5; pk[w] = $1 "@" $2; pm[w] = $4 }
       ver[w, $1] = 1 }
     END { for (w in bm) { nv = 0; for (k in ver) { split(k, q, SUBSEP); if (q[1] == w) nv++ }
             if (nv < 2) continue
             nw++; ok += bk[w] == pk[w]; rg = pm[w] / bm[w]; sr += rg
             split(bk[w], mb, "@"); split(pk[w], pb, "@"); okv += mb[1] == pb[1]
             printf "versions %-14s fastest measured %-18s predicted %-18s%s regret %.2f\n", w, bk[w], pk[w], bk[w] == pk[w] ? "" : " (wrong)", rg }
           if (nw) printf "versions: fastest version right in %d of %d, with its block size in %d, mean regret %.2f\n", okv, nw, ok, sr / nw }' "$tmp"
awk '$5 != "nan" { a = ($5 - $4) / $4; print a < 0 ? -a : a }' "$tmp" | sort -g |
  awk '{ v[NR] = $1 } END { if (NR) printf "median error %.1f %%\n", 100 * (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'
