#!/bin/sh
# tests/golden.sh - every golden file's content is explained: its sha256 has a
# line "<sha256>  <path>  <why>" in tests/golden/CHANGES. A golden rewritten
# together with a change of the program (make golden) fails here until the
# change's author says why it changed. With --missing: print the lines
# CHANGES lacks (with "WHY?" as the reason) and exit 0.
. tests/lib/pn_test.sh
CH=tests/golden/CHANGES
files="tests/golden/*.text tests/golden/*.json tests/golden/*.csv tests/calib/bbv64.golden tests/ncu/*.golden"
for f in $files; do
    h=$(sha256sum "$f" | cut -d' ' -f1)
    if grep -q "^$h  $f  ." "$CH"; then [ "${1:-}" = --missing ] || ok "golden-explained $f"
    elif [ "${1:-}" = --missing ]; then echo "$h  $f  WHY?"
    else bad "golden-explained $f" "changed without a line '$h  $f  <why>' in $CH (make golden prints it)"; fi
done
# every line of CHANGES names a file that exists and gives a reason
while read -r h f why; do
    case $h in ''|'#'*) continue ;; esac
    if [ ! -e "$f" ] || [ -z "$why" ] || [ "$why" = "WHY?" ]; then
        bad "golden-changes-line" "$h $f: no such file or no reason"
    fi
done <"$CH"
[ "${1:-}" = --missing ] && exit 0
[ "$fails" -eq 0 ]
