# tests/lib/pn_test.sh - what the command-line test scripts (tests/*.sh) share;
# each sources it from the repository root: `. tests/lib/pn_test.sh`.
# Sets PNSIM (the binary, default build/pnsim), RUN (PNSIM behind PN_VG, a
# valgrind prefix, or nothing), TMP (a scratch folder removed on exit) and
# fails (the count of failed cases); defines
#   ok NAME                      print "ok NAME"
#   bad NAME WHY                 print "not ok NAME: WHY" and count it
#   expect NAME STATUS STDERR CMD...
#                                run CMD: its exit status is STATUS, its stderr
#                                exactly STDERR, nothing on stdout
#   golden_formats CMD GOLDEN ARGS...
#                                `pnsim CMD --format F ARGS` for F = text, json,
#                                csv against tests/golden/GOLDEN.F
PNSIM=${PNSIM:-build/pnsim}
RUN="${PN_VG:-} $PNSIM"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fails=0
ok()  { echo "ok $1"; }
bad() { echo "not ok $1: $2"; fails=$((fails + 1)); }
expect() {
    name=$1; want_rc=$2; want=$3; shift 3
    "$@" >"$TMP/stdout" 2>"$TMP/stderr"
    rc=$?
    msg=$(cat "$TMP/stderr")
    if [ "$rc" -ne "$want_rc" ]; then bad "$name" "exit status $rc, not $want_rc: $msg"
    elif [ "$msg" != "$want" ]; then bad "$name" "stderr: '$msg', not '$want'"
    elif [ -s "$TMP/stdout" ]; then bad "$name" "wrote on stdout"
    else ok "$name"; fi
}

golden_formats() {
    cmd=$1; gold=$2; shift 2
    for fmt in text json csv; do
        if $RUN "$cmd" --format "$fmt" "$@" >"$TMP/r.$fmt" 2>"$TMP/err"; then
            if cmp -s "$TMP/r.$fmt" "tests/golden/$gold.$fmt"; then ok "golden-$fmt"
            else bad "golden-$fmt" "differs: $(diff "tests/golden/$gold.$fmt" "$TMP/r.$fmt" | head -5)"; fi
        else
            bad "golden-$fmt" "failed: $(cat "$TMP/err")"
        fi
    done
}
