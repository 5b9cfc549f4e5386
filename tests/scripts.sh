#!/bin/sh
# tests/scripts.sh - examples/measure/profile_app.sh, the profiling half of doc/import.md's
# workflow, run here without a GPU: stand-ins for ncu, nvcc and the program (on PATH before
# the real ones) record what they were asked and write what the real ones would. Checked:
# the files it writes and their names, the ncu options (application replay unless PN_REPLAY
# says otherwise, the cache control, the launch count, the metric list) and the timed runs'
# environment, a bad launch count refused before anything runs (exit 2), and a program that
# fails under ncu leaving no pages (exit 1), and the fallback to kernel replay when application
# replay fails. Also examples/cudasamples/cudasamples.sh's and examples/hecbench/hecbench.sh's
# builds and calls on stand-in source trees, and examples/common/import_compare.sh --dir
# on one program's files.
. tests/lib/pn_test.sh

S=$TMP/stub
mkdir -p "$S"
# ncu: a report with -o NAME (after running the program, as ncu does), pages with -i
cat >"$S/ncu" <<'EOF'
#!/bin/sh
case "$1" in
-i)
    case " $* " in *" --page raw "*) echo '"ID","Kernel Name"' ;; *) echo '"Address","Source"' ;; esac
    exit 0 ;;
esac
echo "ncu $*" >>"$PN_STUB_LOG"
# the suites' env.txt asks for the version
[ "$1" = --version ] && exit 0
# a program whose passes differ: application replay fails
case " $* " in *" --replay-mode application "*" noapp "*) exit 1 ;; esac
o=
while [ $# -gt 0 ]; do
    if [ "$1" = -o ]; then o=$2; shift 2; break; fi
    shift
done
"$@" || exit 1
: >"$o.ncu-rep"
EOF
# nvcc: only the CUPTI library is built
cat >"$S/nvcc" <<'EOF'
#!/bin/sh
while [ $# -gt 0 ]; do [ "$1" = -o ] && : >"$2"; shift; done
EOF
# the program: fails when asked to, writes a times file when pn_ktime would
cat >"$S/app" <<'EOF'
#!/bin/sh
[ "$1" = fail ] && exit 3
echo "app $* count=${PN_KTIME_COUNT:-} lib=${CUDA_INJECTION64_PATH:+set}" >>"$PN_STUB_LOG"
if [ -n "${PN_KTIME_OUT:-}" ]; then echo "kernel,us" >"$PN_KTIME_OUT"; fi
exit 0
EOF
chmod +x "$S/ncu" "$S/nvcc" "$S/app"
P=examples/measure/profile_app.sh
export PN_STUB_LOG="$TMP/stub.log"

: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m1,m2 bash "$P" "$TMP/out" demo 5 app x y >"$TMP/o" 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ -s "$TMP/out/demo.raw.csv" ] && [ -s "$TMP/out/demo.t1.csv" ] &&
   [ -s "$TMP/out/demo.t2.csv" ] && [ -s "$TMP/out/demo.t3.csv" ] && [ ! -e "$TMP/out/demo.t4.csv" ] &&
   [ "$(xz -dc "$TMP/out/demo.source.csv.xz")" = '"Address","Source"' ] &&
   [ "$(cat "$TMP/out/demo.replay")" = application ] &&
   grep -q '^ncu --section SourceCounters --metrics m1,m2 --replay-mode application --cache-control none --clock-control none -c 5 -f -o .*/demo app x y$' "$PN_STUB_LOG" &&
   [ "$(grep -c '^app x y count=5 lib=set$' "$PN_STUB_LOG")" -eq 3 ]; then ok profile-app
else bad profile-app "rc $rc: $(cat "$TMP/err") $(cat "$PN_STUB_LOG") $(ls "$TMP/out")"; fi

# kernel replay, flushed caches and five runs when asked; the metric list of
# examples/measure/metrics.txt when PN_METRICS is not set
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_REPLAY=kernel PN_CACHE=all PN_RUNS=5 bash "$P" "$TMP/out" k 2 app >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && grep -q -- '--replay-mode kernel --cache-control all .* -c 2 ' "$PN_STUB_LOG" &&
   grep -q -- "--metrics $(cat examples/measure/metrics.txt) --replay-mode" "$PN_STUB_LOG" &&
   [ -s "$TMP/out/k.t5.csv" ] && [ "$(grep -c '^app  count=2' "$PN_STUB_LOG")" -eq 5 ]; then ok profile-app-options
else bad profile-app-options "rc $rc: $(cat "$TMP/err") $(cat "$PN_STUB_LOG")"; fi

# a launch count that is no number: exit 2 before anything runs
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m bash "$P" "$TMP/out" bad x3 app >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && [ "$(cat "$TMP/err")" = "profile_app.sh: COUNT must be a number of launches, not 'x3'" ] &&
   [ ! -s "$PN_STUB_LOG" ] && [ ! -e "$TMP/out/bad.log" ]; then ok profile-app-bad-count
else bad profile-app-bad-count "rc $rc: $(cat "$TMP/err")"; fi
# too few arguments: the usage, exit 2
bash "$P" "$TMP/out" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 2 ] && grep -q '^  bash examples/measure/profile_app.sh OUTDIR NAME COUNT PROGRAM \[ARGS...\]$' "$TMP/err"; then
    ok profile-app-usage
else bad profile-app-usage "rc $rc: $(cat "$TMP/err")"; fi

# application replay fails (a program whose launches differ from run to run): profiled
# again with kernel replay, NAME.replay says so; with PN_REPLAY set, no second try
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m bash "$P" "$TMP/out" na 3 app noapp >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$TMP/out/na.replay")" = kernel ] && [ -s "$TMP/out/na.raw.csv" ] &&
   grep -q "^na: application replay failed (see $TMP/out/na.log); profiling with kernel replay$" "$TMP/err" &&
   [ "$(grep -c '^ncu --section' "$PN_STUB_LOG")" -eq 2 ] &&
   grep -q -- '--replay-mode kernel .* -c 3 .* app noapp$' "$PN_STUB_LOG"; then ok profile-app-fallback
else bad profile-app-fallback "rc $rc: $(cat "$TMP/err") $(cat "$PN_STUB_LOG")"; fi
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m PN_REPLAY=application bash "$P" "$TMP/out" na 3 app noapp >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && [ ! -e "$TMP/out/na.replay" ] && [ "$(grep -c '^ncu --section' "$PN_STUB_LOG")" -eq 1 ]; then
    ok profile-app-no-fallback
else bad profile-app-no-fallback "rc $rc: $(cat "$TMP/err")"; fi

# the program fails under ncu: exit 1, no pages, and an earlier run's pages removed
: >"$TMP/out/demo.t1.csv"
PATH="$S:$PATH" PN_METRICS=m bash "$P" "$TMP/out" demo 5 app fail >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 1 ] && grep -q "^demo: the program failed under ncu (see $TMP/out/demo.log); skipped$" "$TMP/err" &&
   [ ! -e "$TMP/out/demo.raw.csv" ] && [ ! -e "$TMP/out/demo.source.csv.xz" ] &&
   [ ! -e "$TMP/out/demo.t1.csv" ]; then ok profile-app-fails
else bad profile-app-fails "rc $rc: $(cat "$TMP/err") $(ls "$TMP/out")"; fi

# examples/cudasamples/cudasamples.sh on a stand-in samples tree: every program built from
# its folder with the samples' Common headers (FDTD3d from src/ with inc/), then profiled
# through profile_app.sh with its own launch count
F=$TMP/samples
sed -n '/^progs="/,/"$/p' examples/cudasamples/cudasamples.sh | tr -d '"' | sed 's/^progs=//' |
    tr ' ' '\n' | grep : | while IFS=: read -r n d c; do
    case $d in '$I') d=0_Introduction ;; '$C') d=2_Concepts_and_Techniques ;;
                '$D') d=5_Domain_Specific ;; '$P') d=6_Performance ;;
                '$F') d=3_CUDA_Features ;; '$L') d=4_CUDA_Libraries ;; esac
    if [ "$n" = FDTD3d ]; then mkdir -p "$F/Samples/$d/$n/src" "$F/Samples/$d/$n/inc"
        : >"$F/Samples/$d/$n/src/a.cu"; : >"$F/Samples/$d/$n/src/b.cpp"
    else mkdir -p "$F/Samples/$d/$n"; : >"$F/Samples/$d/$n/$n.cu"; fi
done
cat >"$S/nvidia-smi" <<'EOF2'
#!/bin/sh
echo "GPU stand-in"
EOF2
cat >"$S/nvcc" <<'EOF2'
#!/bin/sh
echo "nvcc $*" >>"$PN_STUB_LOG"
while [ $# -gt 0 ]; do [ "$1" = -o ] && cp "$(dirname "$0")/app" "$2"; shift; done
EOF2
chmod +x "$S/nvidia-smi" "$S/nvcc"
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m bash examples/cudasamples/cudasamples.sh "$F" "$TMP/cs" >/dev/null 2>"$TMP/err"; rc=$?
n_build=$(grep -c "^nvcc -O3 -arch=sm_90 -w -I$F/Common -I" "$PN_STUB_LOG")
if [ $rc -eq 0 ] && [ "$n_build" -eq 17 ] &&
   grep -q "^nvcc .*-I$F/Samples/5_Domain_Specific/FDTD3d/inc -o .*/FDTD3d .*/src/a.cu .*/src/b.cpp$" "$PN_STUB_LOG" &&
   [ "$(grep -c '^ncu --section SourceCounters' "$PN_STUB_LOG")" -eq 17 ] &&
   grep -q '^ncu .* -c 12 -f -o .*/quasirandomGenerator .*/bin/quasirandomGenerator$' "$PN_STUB_LOG" &&
   [ -s "$TMP/cs/histogram.t3.csv" ] && [ -s "$TMP/cs/env.txt" ]; then ok cudasamples-script
else bad cudasamples-script "rc $rc, $n_build builds: $(cat "$TMP/err") $(cat "$PN_STUB_LOG")"; fi

# examples/hecbench/hecbench.sh on a stand-in src folder: each program built as its
# Makefile builds it (its sources, from its own folder; softmax_shared from softmax-cuda),
# profiled for its launches with its arguments; NAME... picks programs
H=$TMP/hec
for p in babelstream matrixT convolution1D bsearch softmax heat2d scan stencil1d adam gemv \
         mandelbrot nbody jenkins-hash rmsnorm silu groupnorm histogram entropy perplexity \
         popcount relu laplace3d stencil3d pool layout su3 threadfence attention rowwiseMoments \
         bincount scatterAdd dp4a murmurhash3 hellinger expdist wyllie bscan thomas; do
    mkdir -p "$H/$p-cuda"
done
: >"$PN_STUB_LOG"
PATH="$S:$PATH" PN_METRICS=m bash examples/hecbench/hecbench.sh "$H" "$TMP/hb" >/dev/null 2>"$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(grep -c '^nvcc -std=c++17 -O3 -arch=sm_90 -w -o .*/main ' "$PN_STUB_LOG")" -eq 51 ] &&
   grep -q '^nvcc .* -o .*/nbody/main main.cu GSimulation.cu$' "$PN_STUB_LOG" &&
   grep -q '^nvcc .* -o .*/softmax_shared/main main.cu$' "$PN_STUB_LOG" &&
   [ "$(grep -c '^ncu --section SourceCounters' "$PN_STUB_LOG")" -eq 51 ] &&
   grep -q '^nvcc .* -o .*/su3_t256/main -DMILC_COMPLEX su3_nn_bench.cu$' "$PN_STUB_LOG" &&
   grep -q '^ncu .* -c 8 -f -o .*/thomas_t1024 ./main 128 32768 1024 8$' "$PN_STUB_LOG" &&
   grep -q '^ncu .* -c 8 -f -o .*/histogram ./main --i=2 --width=3840 --height=2160$' "$PN_STUB_LOG" &&
   grep -q '^ncu .* -c 12 -f -o .*/matrixT ./main 4096 4096 2$' "$PN_STUB_LOG" &&
   grep -q '^ncu .* -c 6 -f -o .*/jenkins-hash_t512 ./main 512 1048576 2$' "$PN_STUB_LOG" &&
   grep -q '^nvcc .* -o .*/jenkins-hash_t1024/main main.cu$' "$PN_STUB_LOG" &&
   grep -q '^app 16384 784 1 2 count=6 lib=set$' "$PN_STUB_LOG" &&
   [ -s "$TMP/hb/gemv.t3.csv" ] && [ -s "$TMP/hb/env.txt" ] &&
   : >"$PN_STUB_LOG" &&
   PATH="$S:$PATH" PN_METRICS=m bash examples/hecbench/hecbench.sh "$H" "$TMP/hb2" bsearch nbody >/dev/null 2>>"$TMP/err" &&
   [ "$(grep -c '^ncu --section SourceCounters' "$PN_STUB_LOG")" -eq 2 ] && [ -s "$TMP/hb2/nbody.t1.csv" ]; then
    ok hecbench-script
else bad hecbench-script "rc $rc: $(cat "$TMP/err") $(cat "$PN_STUB_LOG")"; fi

# too few arguments: the suite scripts print their whole leading comment (pn_suite_usage), exit 2
bash examples/hecbench/hecbench.sh "$TMP/x" >/dev/null 2>"$TMP/err"; rc=$?
bash examples/cudasamples/cudasamples.sh "$TMP/x" >/dev/null 2>"$TMP/err2"; rc2=$?
bash examples/rodinia/rodinia.sh >/dev/null 2>"$TMP/err3"; rc3=$?
bash examples/polybench/polybench.sh "$TMP/x" >/dev/null 2>"$TMP/err4"; rc4=$?
if [ $rc -eq 2 ] && [ $rc2 -eq 2 ] && [ $rc3 -eq 2 ] && [ $rc4 -eq 2 ] &&
   [ "$(sed -n 6p "$TMP/err3")" = "  bash examples/rodinia/rodinia.sh RODINIA_DIR OUTDIR     # on a machine with the GPU" ] &&
   grep -q '^  bash examples/polybench/polybench.sh POLYBENCH_ACC_DIR OUTDIR' "$TMP/err4" &&
   ! grep -q 'set -euo' "$TMP/err3" "$TMP/err4" &&
   [ "$(tail -n 1 "$TMP/err")" = "and OUTDIR/env.txt. PN_TIMEOUT (default 150) caps one program's profiling and timing, in seconds." ] &&
   [ "$(head -n 1 "$TMP/err")" = "hecbench.sh - profile and time CUDA programs nobody on the project wrote: 39 programs of" ] &&
   ! grep -q 'set -euo' "$TMP/err2"; then ok suite-usage
else bad suite-usage "rc $rc $rc2 $rc3 $rc4: $(cat "$TMP/err" "$TMP/err2" "$TMP/err3" "$TMP/err4")"; fi

# examples/common/import_compare.sh --dir, the importing half: a folder of what
# profile_app.sh writes (CUDA samples' scalarProd, one launch) into a work folder that does
# not exist yet; the median of the three runs against the prediction, and the roofline's
mkdir -p "$TMP/d"
cp examples/data/h100/cudasamples/scalarProd.* "$TMP/d/"
if PN_FLUSHED=1 bash examples/common/import_compare.sh --dir "$TMP/d" "$TMP/new/work" >"$TMP/o" 2>"$TMP/err" &&
   [ "$(tail -n 2 "$TMP/o" | head -n 1)" = "all: 1 launches, MAPE 3.9 %, median error 3.9 %" ] &&
   [ "$(tail -n 1 "$TMP/o")" = "roofline: 1 launches, MAPE 70.5 %, median error 70.5 %; pnsim nearer in 1" ] &&
   grep -q '^scalarProd: overall: 1 of 1 launches predicted' "$TMP/o" &&
   grep -q 'flushed: 1' "$TMP/new/work/scalarProd/"*.yaml; then ok import-compare-dir
else bad import-compare-dir "$(cat "$TMP/o" "$TMP/err")"; fi
echo kernel >"$TMP/d/scalarProd.replay"
if PN_FLUSHED=1 bash examples/common/import_compare.sh --dir "$TMP/d" "$TMP/new/work2" >"$TMP/o" 2>"$TMP/err" &&
   grep -q '^scalarProd: overall: 1 of 1 launches predicted' "$TMP/o" &&
   ! grep -q 'flushed' "$TMP/new/work2/scalarProd/"*.yaml; then ok import-compare-kernel-replay
else bad import-compare-kernel-replay "$(cat "$TMP/o" "$TMP/err")"; fi

[ "$fails" -eq 0 ]
