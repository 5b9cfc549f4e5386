# suite.sh - what the scripts that profile programs on the GPU machine share
# (examples/measure/profile_app.sh and the suites that call it, examples/rodinia/rodinia.sh,
# examples/polybench/polybench.sh, examples/cudasamples/cudasamples.sh); sourced with
# `here` set to the repository root.
#   pn_suite_usage SCRIPT   print SCRIPT's leading comment block (from its second line, the
#                           '# ' taken off) to stderr: its usage
#   pn_suite_scratch        set `work` to a scratch folder removed on exit and `metrics` to
#                           $PN_METRICS or examples/measure/metrics.txt (what `pnsim import
#                           --metrics` prints)
#   pn_suite_begin OUTDIR   pn_suite_scratch, then pn_suite_env OUTDIR
#   pn_suite_env OUTDIR     write OUTDIR/env.txt: the GPU, its driver and clocks, nvcc's and
#                           ncu's versions, the date
#   pn_suite_ktime BINDIR   build BINDIR/libpn_ktime.so from examples/measure/pn_ktime.c
#                           (CUPTI), the launch timer profile_app.sh injects

pn_suite_usage() {
    awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$1" >&2
}

pn_suite_scratch() {
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    metrics=${PN_METRICS:-$(cat "$here/examples/measure/metrics.txt")}
}

pn_suite_begin() {
    pn_suite_scratch
    pn_suite_env "$1"
}

pn_suite_env() {
    { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.mem --format=csv,noheader
      nvcc --version | tail -1; ncu --version | tail -1; date -u +%Y-%m-%dT%H:%MZ; } > "$1/env.txt"
}

pn_suite_ktime() {
    mkdir -p "$1"
    nvcc -O2 -shared -Xcompiler -fPIC -o "$1/libpn_ktime.so" "$here/examples/measure/pn_ktime.c" \
        -lcupti -lstdc++
}
