#!/bin/sh
# tests/docs.sh - every output README.md and doc/*.md show as real is what the
# command beside it prints now (tests/lib/doc_outputs.py; `make docs`
# rewrites them after a deliberate change).
PNSIM=${PNSIM:-build/pnsim}
export PNSIM
status=0
for f in README.md doc/*.md; do
    if python3 tests/lib/doc_outputs.py --check "$f" >"${BUILD:-build}/docs-check.out" 2>&1; then
        echo "ok docs $f ($(tail -n 1 "${BUILD:-build}/docs-check.out"))"
    else
        echo "not ok docs $f"
        cat "${BUILD:-build}/docs-check.out"
        status=1
    fi
done
# no file of the repository sends a reader outside it
if git grep -q '\.\./shared' -- ':!tests/fuzz' 2>/dev/null; then
    echo "not ok docs: files send the reader to a folder outside the repository:"
    git grep -l '\.\./shared' -- ':!tests/fuzz'
    status=1
else
    echo "ok docs: no file points outside the repository"
fi
exit $status
