#!/bin/sh
# tests/run_all.sh - run the unit test binaries given as arguments, then the
# command-line test scripts (tests/*.sh); print "N passed, N failed" at the end.
# The suites run PN_TEST_JOBS at a time (default: the machine's processors,
# at most 4), each on its own (tests/lib/run_one.sh); their results print in
# the order above.
# Environment: PNSIM (the binary), PN_VALGRIND=1 (run under valgrind memcheck),
# PN_FULL=1 (longer statistical suites), PN_TEST_JOBS.
passed=0
failed=0
failures=""
VG=""
if [ "${PN_VALGRIND:-0}" = 1 ]; then
    VG="valgrind --quiet --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=definite,indirect --error-exitcode=99"
fi
jobs=${PN_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -gt 4 ] 2>/dev/null && jobs=4
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
PN_VG_CMD=$VG
export PN_VG_CMD
# the suites, a line each: KIND PATH LOG
list=$(mktemp)
trap 'rm -f "$list"' EXIT
for t in "$@"; do
    echo "bin $t $t.log" >>"$list"
done
for script in tests/*.sh; do
    name=$(basename "$script" .sh)
    [ "$name" = run_all ] && continue
    echo "sh $script ${BUILD:-build}/$name.log" >>"$list"
done
xargs -P "$jobs" -L 1 sh tests/lib/run_one.sh <"$list"
while read -r kind path log; do
    rc=$(cat "$log.rc" 2>/dev/null || echo 1)
    rm -f "$log.rc"
    if [ "$kind" = bin ]; then
        name=$(basename "$path")
        if [ "$rc" -eq 0 ]; then
            passed=$((passed + 1))
            echo "PASS $name"
        else
            failed=$((failed + 1))
            failures="$failures $name"
            echo "FAIL $name"
            cat "$log"
        fi
        continue
    fi
    name=$(basename "$path" .sh)
    if [ "$rc" -eq 0 ]; then
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
done <"$list"
[ -n "$failures" ] && echo "failed:$failures"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
