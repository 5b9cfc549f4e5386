#!/bin/sh
# tests/run_all.sh - run the unit test binaries given as arguments, then the
# command-line test scripts (tests/*.sh); print "N passed, N failed" at the end.
# Environment: PNSIM (the binary), PN_VALGRIND=1 (run under valgrind memcheck),
# PN_FULL=1 (longer statistical suites).
passed=0
failed=0
failures=""
VG=""
if [ "${PN_VALGRIND:-0}" = 1 ]; then
    VG="valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
fi
for t in "$@"; do
    name=$(basename "$t")
    if $VG "$t" >"$t.log" 2>&1; then
        passed=$((passed + 1))
        echo "PASS $name"
    else
        failed=$((failed + 1))
        failures="$failures $name"
        echo "FAIL $name"
        cat "$t.log"
    fi
done
# every command-line test script: tests/*.sh but this one
for script in tests/*.sh; do
    name=$(basename "$script" .sh)
    [ "$name" = run_all ] && continue
    log="${BUILD:-build}/$name.log"
    if PN_VG="$VG" sh "$script" >"$log" 2>&1; then
        passed=$((passed + 1))
        skips=$(grep -c '^SKIP ' "$log")
        if [ "$skips" -gt 0 ]; then
            echo "PASS $name ($(grep -c '^ok ' "$log") cases, $skips skipped:"
            grep '^SKIP ' "$log" | sed 's/^/    /'
            echo "  )"
        else
            echo "PASS $name ($(grep -c '^ok ' "$log") cases)"
        fi
    else
        failed=$((failed + 1))
        failures="$failures $name"
        echo "FAIL $name"
        grep -v '^ok \|^SKIP ' "$log"
    fi
done
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
