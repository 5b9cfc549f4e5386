#!/bin/sh
# tests/lib/show.sh CMD... - a terminal transcript for the docs: for each CMD,
# a line "$ CMD" and what it prints (stdout and stderr). CMD runs with sh in the
# repository root, build/pnsim being the binary under test ($PNSIM).
PNSIM=${PNSIM:-build/pnsim}
for cmd in "$@"; do
    printf '$ %s\n' "$cmd"
    run=$(printf '%s' "$cmd" | sed "s#build/pnsim#$PNSIM#g")
    sh -c "$run" 2>&1
done
exit 0
