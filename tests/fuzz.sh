#!/bin/sh
# tests/fuzz.sh - replay each fuzz target's seed corpus and crash reproducers
# (tests/fuzz/corpus/<target>/, tests/fuzz/crashes/<target>/) through the
# plain driver $BUILD/fuzz-replay/<target> (tests/fuzz/replay.c): one "ok"
# line per target. A reproducer that crashes again fails the suite.
BUILD=${BUILD:-build}
status=0
for src in tests/fuzz/fuzz_*.c; do
    t=$(basename "$src" .c)
    set -- "tests/fuzz/corpus/$t"
    [ -d "tests/fuzz/crashes/$t" ] && set -- "$@" "tests/fuzz/crashes/$t"
    if out=$($PN_VG "$BUILD/fuzz-replay/$t" "$@" 2>&1); then
        echo "ok $t: $out replayed"
    else
        echo "FAIL $t: $*"
        echo "$out" | tail -20
        status=1
    fi
done
exit $status
