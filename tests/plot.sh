#!/bin/sh
# tests/plot.sh - the plots of `pnsim compare -p` and `pnsim sweep -p`: the
# compare scatter of tests/compare/ (its title carries the MAPE the text
# report prints, its axes microseconds, its key the kernel families and the
# y = x and +-20 % lines), the sweep of a pipelined config in microseconds
# from 0, names refused before any work, a missing gnuplot named in one line
# with exit 1 and no file. Without gnuplot the drawing cases are skipped, as
# tests/cli.sh's plot-units is.
. tests/lib/pn_test.sh

T=tests/compare/times.csv
D=tests/compare

# a name that is no picture: a usage error (exit 2) before anything runs
$RUN compare -q -p "$TMP/c.pdf" "$T" "$D" >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && grep -q '^pnsim compare: --plot .*c.pdf: expected a .svg or .png file name' "$TMP/err" &&
   [ ! -s "$TMP/out" ] && [ ! -e "$TMP/c.pdf" ]; then ok compare-plot-name
else bad compare-plot-name "rc $rc: $(cat "$TMP/err")"; fi
# --help and the short option agree
if $RUN compare --help | grep -q '^  -p, --plot FILE '; then ok compare-plot-help
else bad compare-plot-help "no -p, --plot FILE in compare --help"; fi

# no gnuplot on PATH (the shell that runs it is /bin/sh): one line, exit 1, no
# file, no report (the valgrind prefix needs PATH, so the bare binary runs)
env PATH=/nonexistent "$PNSIM" compare -q -r 1 -p "$TMP/none.svg" "$T" "$D" >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$TMP/err")" = "$TMP/none.svg: cannot draw the plot: gnuplot is not installed (no gnuplot on PATH)" ] &&
   [ -z "$(ls "$TMP" | grep none)" ] && [ ! -s "$TMP/out" ]; then ok compare-plot-no-gnuplot
else bad compare-plot-no-gnuplot "rc $rc: $(cat "$TMP/err") $(ls "$TMP")"; fi
env PATH=/nonexistent "$PNSIM" sweep -q -r 1 -p "$TMP/nones.svg" configs/pipelined-example.yaml >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l <"$TMP/err")" -eq 1 ] && grep -q 'gnuplot is not installed' "$TMP/err" &&
   [ -z "$(ls "$TMP" | grep nones)" ]; then ok sweep-plot-no-gnuplot
else bad sweep-plot-no-gnuplot "rc $rc: $(cat "$TMP/err")"; fi

if ! command -v gnuplot >/dev/null 2>&1; then
    echo "SKIP compare-plot, compare-plot-png, compare-plot-nothing, sweep-plot-us (no gnuplot)"
    [ "$fails" -eq 0 ]; exit
fi

# the scatter: the MAPE of the text report's overall line in the title
$RUN compare -q -r 2 -p "$TMP/c.svg" -o "$TMP/c.txt" "$T" "$D" 2>"$TMP/err"; rc=$?
mape=$(sed -n 's/^overall: .* MAPE \([0-9.]*\) %.*/\1/p' "$TMP/c.txt" 2>/dev/null)
if [ $rc -eq 0 ] && [ -n "$mape" ] && grep -q '<svg' "$TMP/c.svg" && grep -q '</svg>' "$TMP/c.svg" &&
   grep -q "predicted against measured: MAPE $mape % over 4 launches" "$TMP/c.svg" &&
   grep -q 'measured time (µs)' "$TMP/c.svg" && grep -q 'predicted time (µs)' "$TMP/c.svg" &&
   grep -q '>y = x<' "$TMP/c.svg" && grep -q '>+20 %<' "$TMP/c.svg" && grep -q '>-20 %<' "$TMP/c.svg" &&
   grep -q '>axpy<' "$TMP/c.svg" && grep -q '>scan<' "$TMP/c.svg" &&
   [ -z "$(ls "$TMP" | grep 'tmp')" ]; then ok compare-plot
else bad compare-plot "rc $rc, MAPE '$mape': $(cat "$TMP/err") $(grep -o 'MAPE[^<]*' "$TMP/c.svg" 2>&1)"; fi
# PNG too
if $RUN compare -q -r 1 -p "$TMP/c.png" -o /dev/null "$T" "$D" 2>"$TMP/err" &&
   [ "$(head -c 4 "$TMP/c.png" | tail -c 3)" = PNG ]; then ok compare-plot-png
else bad compare-plot-png "$(cat "$TMP/err")"; fi
# nothing predicted: an error, no picture, no report
printf 'kernel,size,threads,blocks,median_us\nmissing,1,64,2,3.5\n' >"$TMP/none.csv"
$RUN compare -q -r 1 -p "$TMP/n.svg" "$TMP/none.csv" "$D" >"$TMP/out" 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ "$(cat "$TMP/err")" = "$TMP/n.svg: no launch has a prediction to plot" ] &&
   [ ! -e "$TMP/n.svg" ] && [ ! -s "$TMP/out" ]; then ok compare-plot-nothing
else bad compare-plot-nothing "rc $rc: $(cat "$TMP/err")"; fi

# a pipelined sweep: time in microseconds, the y axis from 0, x named by its axis
$RUN sweep -q -r 2 -p "$TMP/s.svg" -o /dev/null configs/pipelined-example.yaml 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q 'predicted time (µs)' "$TMP/s.svg" && grep -q 'threads (per block)' "$TMP/s.svg" &&
   grep -q '>0<' "$TMP/s.svg"; then ok sweep-plot-us
else bad sweep-plot-us "rc $rc: $(cat "$TMP/err") $(grep -o 'predicted time[^<]*\|steps (mean[^<]*' "$TMP/s.svg" 2>&1)"; fi

[ "$fails" -eq 0 ]
