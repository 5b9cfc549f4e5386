#!/bin/sh
# tests/lib/run_one.sh - one suite of tests/run_all.sh: KIND (bin: a unit
# test binary; sh: a command-line test script) and PATH, run under PN_VG_CMD
# (a valgrind prefix, or nothing); its output goes to LOG and its exit status
# to LOG.rc. Usage: run_one.sh KIND PATH LOG
kind=$1 path=$2 log=$3
if [ "$kind" = bin ]; then
    $PN_VG_CMD "$path" >"$log" 2>&1
else
    PN_VG="$PN_VG_CMD" sh "$path" >"$log" 2>&1
fi
echo $? >"$log.rc"
