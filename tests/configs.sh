#!/bin/sh
# tests/configs.sh - the bundled kernel configs (configs/radix-*.yaml, matmul.yaml,
# micro-*.yaml): each simulates (`pnsim run --runs 1`) at every thread count of its sweep,
# and its per-warp counts (initial marking of w<i>.p5/p7/p9 in the GraphML export) are the
# counted ones: radix against the numbers derived from the measured BBVs (configs/README.md),
# matmul against its formulas, micro against examples/micro/counts.csv.
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
# Environment: PNSIM (the binary, default build/pnsim), PN_ENGINE (pnsim's --engine, default
# pnsim's own), PN_FULL=1 (with PN_ENGINE=literal, also the points skipped for time: SLOW).
. tests/lib/pn_test.sh
ENGINE=${PN_ENGINE:+--engine $PN_ENGINE}

# Points not simulated with PN_ENGINE=literal unless PN_FULL=1 (their counts are still
# checked): radix-global at 1024 threads takes about 6 s a run with the literal engine
# (32 warps, warp 0's sequential phase two: 6.0 million steps), 0.7 s with the fast one.
SLOW=""
[ "${PN_ENGINE:-}" = literal ] && [ "${PN_FULL:-0}" != 1 ] && SLOW=" radix-global.yaml:1024 "

# counts CONFIG T: one line "warp arith shared global" per warp, from the GraphML export.
counts() {
    "$PNSIM" export --format graphml -t "$2" "$1" | awk '
    /<data key="name">/ { n = $0; sub(/.*<data key="name">/, "", n); sub(/<.*/, "", n) }
    /<data key="marking">/ {
        v = $0; sub(/.*<data key="marking">/, "", v); sub(/<.*/, "", v)
        if (n ~ /^w[0-9]+\.p[579]$/) {
            split(n, a, "."); w = substr(a[1], 2) + 0; m[w, a[2]] = v; if (w + 1 > W) W = w + 1
        }
    }
    END { for (w = 0; w < W; w++) print w, m[w, "p5"], m[w, "p7"], m[w, "p9"] }'
}

# sweep_threads CONFIG: the values of sweep.threads, space-separated.
sweep_threads() {
    awk '/^sweep:/ { s = 1; next } /^[^ #]/ { s = 0 }
         s && /^  threads:/ { sub(/.*\[/, ""); sub(/\].*/, ""); gsub(/,/, " "); print }' "$1"
}

# ---- every config runs at every sweep point --------------------------------
for c in configs/radix-*.yaml configs/matmul.yaml configs/micro-*.yaml; do
    name=$(basename "$c")
    ts=$(sweep_threads "$c")
    if [ -z "$ts" ]; then bad "$name sweep" "no sweep.threads list"; continue; fi
    for t in $ts; do
        case "$SLOW" in
        *" $name:$t "*)
            echo "SKIP $name run T=$t (slow with the literal engine; PN_FULL=1 runs it)"
            continue ;;
        esac
        w=$(( (t + 31) / 32 ))
        if ! "$PNSIM" run --runs 1 --format json $ENGINE --threads "$t" "$c" >"$TMP/out.json" \
            2>"$TMP/err"; then
            bad "$name run T=$t" "exit status non-zero: $(head -c 300 "$TMP/err")"
            continue
        fi
        if ! grep -q "\"threads\": $t," "$TMP/out.json" ||
            ! grep -q "\"warps\": $w," "$TMP/out.json"; then
            bad "$name run T=$t" "report lacks threads $t / warps $w"
            continue
        fi
        steps=$(sed -n 's/.*"steps": {"mean": \([0-9.]*\).*/\1/p' "$TMP/out.json" | head -n 1)
        case "$steps" in
        ""|0|0.*) bad "$name run T=$t" "no positive steps.mean in the report" ;;
        *) ok "$name run T=$t" ;;
        esac
    done
done

# ---- radix: warp 0 and warp 1 against the BBV derivation -----------------------
# check_radix CONFIG T  W0(a s g)  W1(a s g)  B0(a s g)  B1(a s g)
#   W = the config's exact counts: the measured BBVs' block counts, with the three
#       data-dependent blocks (z++ and the two scatter branches) at their expected max
#       over a warp, Z = 16m + 2.0697*sqrt(8m), m = n/T (configs/README.md).
#   B = the counts derived from the measured BBVs themselves (max over the warp's threads
#       of each block's count times its cost): the config must be within 0.5% of them in
#       arith and global (the random keys' deviation from Z) and equal in shared.
check_radix() {
    c=$1; t=$2; shift 2
    name="$(basename "$c") counts T=$t"
    counts "$c" "$t" >"$TMP/counts" 2>"$TMP/err" || {
        bad "$name" "export failed: $(head -c 300 "$TMP/err")"; return; }
    got0=$(awk '$1 == 0 { print $2, $3, $4 }' "$TMP/counts")
    got1=$(awk '$1 == 1 { print $2, $3, $4 }' "$TMP/counts")
    if [ "$got0" != "$1 $2 $3" ]; then bad "$name" "warp 0 is $got0, want $1 $2 $3"; return; fi
    if [ "$got1" != "$4 $5 $6" ]; then bad "$name" "warp 1 is $got1, want $4 $5 $6"; return; fi
    why=$(echo "$got0 $got1 $7 $8 $9 ${10} ${11} ${12}" | awk '{
        for (i = 1; i <= 6; i++) {
            g = $i; b = $(i + 6); d = g - b; if (d < 0) d = -d
            k = (i - 1) % 3; w = int((i - 1) / 3); kn = k == 0 ? "arith" : "global"
            if (k == 1 && d != 0) { printf "warp %d shared %d != BBV %d", w, g, b; exit }
            if (d > 0.005 * b) { printf "warp %d %s %d vs BBV %d (> 0.5%%)", w, kn, g, b; exit }
        } }')
    if [ -n "$why" ]; then bad "$name" "$why"; else ok "$name"; fi
}
#                                        config warp 0       config warp 1      BBV warp 0          BBV warp 1
check_radix configs/radix-global.yaml 256  279989 0 57659   165141 0 24891    279837 0 57627     164969 0 24851
check_radix configs/radix-global.yaml 1024 500799 0 137438  41887 0 6366      500790 0 137436    42007 0 6393
check_radix configs/radix-tree.yaml 256    171290 0 25755   171290 0 25755    171138 0 25723     171118 0 25715
check_radix configs/radix-tree.yaml 1024   49508 0 7422     49508 0 7422      49499 0 7420       49628 0 7449
check_radix configs/radix-shared.yaml 256  171290 992 24763 171290 992 24763  171138 992 24731   171118 992 24723
check_radix configs/radix-shared.yaml 1024 49508 1184 6238  49508 1184 6238   49499 1184 6236    49628 1184 6265

# every warp but warp 0 of radix-global counts the same; radix-tree/shared: all warps
uniform() {  # CONFIG T FIRST: warps FIRST.. all equal
    counts "$1" "$2" | awk -v f="$3" '$1 >= f { k = $2 " " $3 " " $4; if (!(k in s)) { s[k]; n++ } }
        END { exit n == 1 ? 0 : 1 }'
}
for t in 64 1024; do
    if uniform configs/radix-global.yaml "$t" 1; then ok "radix-global.yaml warps 1.. alike T=$t"
    else bad "radix-global.yaml warps 1.. alike T=$t" "warps 1.. differ"; fi
    for k in tree shared; do
        if uniform "configs/radix-$k.yaml" "$t" 0; then ok "radix-$k.yaml warps alike T=$t"
        else bad "radix-$k.yaml warps alike T=$t" "warps differ"; fi
    done
done

# ---- matmul (N = 128): every warp, every sweep point ----------------------------
for spec in "64 281430 73728 8448" "128 128470 35840 3200" "256 60142 17408 1088" \
            "512 28558 8576 416" "1024 13770 4224 144"; do
    set -- $spec
    got=$(counts configs/matmul.yaml "$1" | awk '{ print $2, $3, $4 }' | sort -u)
    if [ "$got" = "$2 $3 $4" ]; then ok "matmul.yaml counts T=$1"
    else bad "matmul.yaml counts T=$1" "got '$got', want '$2 $3 $4' on every warp"; fi
done

# ---- micro: every warp equals counts.csv at the config's K, every sweep point --------
for c in configs/micro-*.yaml; do
    name=$(basename "$c")
    kern=$(sed -n 's/^  name: //p' "$c")
    K=$(sed -n 's/^params: {K: \([0-9]*\)}.*/\1/p' "$c")
    for t in $(sweep_threads "$c"); do
        want=$(awk -F, -v k="$kern" -v t="$t" -v K="$K" \
            '$1 == k && $2 == t && $3 == K { print $4, $5, $6 }' examples/micro/counts.csv)
        got=$(counts "$c" "$t" | awk '{ print $2, $3, $4 }' | sort -u)
        if [ -z "$want" ]; then bad "$name counts T=$t" "no counts.csv row $kern,$t,$K"
        elif [ "$got" = "$want" ]; then ok "$name counts T=$t"
        else bad "$name counts T=$t" "got '$got', counts.csv '$want'"; fi
    done
done

[ "$fails" -eq 0 ]
