#!/bin/sh
# tests/install.sh - `make install` into a temporary PREFIX (and a DESTDIR):
# exactly the binary, the device profiles and pnsim(1); the installed pnsim
# finds its profiles from any directory; `make uninstall` removes exactly
# that. Also the manual page: lint (when groff is there), every command and
# every long option of every command's --help in it, and `pnsim --help`
# listing every command.
# Environment: BUILD and SANITIZE of the build under test (as `make check`).
# Prints "ok NAME" or "not ok NAME: why" per case; exits non-zero on a failure.
. tests/lib/pn_test.sh
BUILD=${BUILD:-build}
TOP=$(pwd)
MAKE_ARGS="--no-print-directory -s BUILD=$BUILD SANITIZE=${SANITIZE:-}"

# ---- install into PREFIX --------------------------------------------------------
P=$TMP/prefix
if make $MAKE_ARGS install PREFIX="$P" >"$TMP/log" 2>&1; then ok install
else bad install "$(cat "$TMP/log")"; fi
want="bin/pnsim
share/man/man1/pnsim.1
$(cd models/devices && ls *.yaml | sed 's|^|share/pnsim/devices/|')"
got=$(cd "$P" && find . -type f | sed 's|^\./||' | sort)
if [ "$got" = "$(echo "$want" | sort)" ]; then ok install-files
else bad install-files "$got"; fi
[ -x "$P/bin/pnsim" ] && ok install-executable || bad install-executable "$(ls -l "$P/bin")"

# from another directory: the profiles are the installed ones
mkdir "$TMP/elsewhere"
cp configs/pipelined-example.yaml "$TMP/elsewhere/k.yaml"
cd "$TMP/elsewhere" || exit 1
if "$P/bin/pnsim" devices >"$TMP/dev" 2>&1 && grep -q '^h100 ' "$TMP/dev" && grep -q '^gtx960m ' "$TMP/dev"
then ok installed-devices; else bad installed-devices "$(cat "$TMP/dev")"; fi
if "$P/bin/pnsim" run -r 2 -f csv k.yaml >"$TMP/run" 2>&1 && [ "$(wc -l <"$TMP/run")" -eq 3 ]
then ok installed-run; else bad installed-run "$(cat "$TMP/run")"; fi
# a profile added to the installed folder is seen by the installed binary only
sed 's/^name: .*/name: extra/' "$P/share/pnsim/devices/gtx960m.yaml" >"$P/share/pnsim/devices/extra.yaml"
if "$P/bin/pnsim" devices 2>&1 | grep -q '^extra ' && ! "$TOP/$PNSIM" devices 2>&1 | grep -q '^extra '
then ok installed-profile-folder; else bad installed-profile-folder "$("$P/bin/pnsim" devices 2>&1)"; fi
rm "$P/share/pnsim/devices/extra.yaml"
mkdir "$TMP/devs"
cp "$TOP/models/devices/h100.yaml" "$TMP/devs/"
if PNSIM_DEVICE_DIR=$TMP/devs "$P/bin/pnsim" devices 2>&1 | grep -c '^[a-z]' | grep -qx 2
then ok installed-device-dir-env; else bad installed-device-dir-env "PNSIM_DEVICE_DIR ignored"; fi
cd "$TOP" || exit 1
if [ "$("$P/bin/pnsim" --version)" = "pnsim $(cat VERSION)" ]; then ok installed-version
else bad installed-version "$("$P/bin/pnsim" --version)"; fi
if make $MAKE_ARGS uninstall PREFIX="$P" >"$TMP/log" 2>&1 && [ -z "$(find "$P" -type f)" ] &&
   [ ! -e "$P/share/pnsim" ]; then ok uninstall
else bad uninstall "$(find "$P") $(cat "$TMP/log")"; fi

# ---- DESTDIR: staged under DESTDIR, built for PREFIX -------------------------------
D=$TMP/stage
if make $MAKE_ARGS install DESTDIR="$D" PREFIX=/opt/pnsim-test >"$TMP/log" 2>&1 &&
   [ -x "$D/opt/pnsim-test/bin/pnsim" ] && [ -f "$D/opt/pnsim-test/share/man/man1/pnsim.1" ] &&
   grep -q /opt/pnsim-test/share/pnsim/devices "$D/opt/pnsim-test/bin/pnsim" &&
   ! grep -q "$D" "$D/opt/pnsim-test/bin/pnsim"; then ok install-destdir
else bad install-destdir "$(find "$D") $(cat "$TMP/log")"; fi
if make $MAKE_ARGS uninstall DESTDIR="$D" PREFIX=/opt/pnsim-test >"$TMP/log" 2>&1 &&
   [ -z "$(find "$D" -type f)" ]; then ok uninstall-destdir
else bad uninstall-destdir "$(find "$D" -type f)"; fi
# the tree's binary still reads the tree's profiles
if $PNSIM devices | grep -q '^h100 '; then ok tree-binary-devices; else bad tree-binary-devices "no h100"; fi

# ---- the manual page ---------------------------------------------------------------
M=doc/pnsim.1
if command -v groff >/dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$M" >"$TMP/lint" 2>&1
    if [ ! -s "$TMP/lint" ]; then ok man-lint; else bad man-lint "$(cat "$TMP/lint")"; fi
else
    echo "SKIP man-lint (no groff: install groff-base)"
fi
grep -q "^\.TH PNSIM 1 .*\"pnsim $(cat VERSION)\"" "$M" && ok man-version || bad man-version "$(grep '^\.TH' "$M")"
# the page's text with troff's \- as -
sed 's/\\-/-/g' "$M" >"$TMP/man.txt"
cmds=$($PNSIM --help | sed -n '/^commands:/,/^$/p' | awk 'NF && $1 != "commands:" && $1 != "help" { print $1 }')
[ "$(echo "$cmds" | wc -l)" -eq 12 ] && ok usage-lists-12-commands || bad usage-lists-12-commands "$cmds"
for c in run sweep reorder export devices calibrate bbv probe import compare; do
    echo "$cmds" | grep -qx "$c" || bad "usage-$c" "pnsim --help does not list $c"
    if grep -qx "\.B $c" "$TMP/man.txt"; then ok "man-command-$c"; else bad "man-command-$c" "no .B $c"; fi
    for opt in $($PNSIM $c --help | grep -o -- '--[a-z][a-z0-9-]*' | sort -u); do
        grep -q -- "$opt" "$TMP/man.txt" || bad "man-$c$opt" "$opt is not in $M"
    done
done
# every config key the reader accepts is in CONFIGURATION (the installed reference)
sed -n '/^\.SH CONFIGURATION/,/^\.SH EXIT/p' "$TMP/man.txt" >"$TMP/conf.txt"
keys=$(sed -n '/^static const char \*const \(top\|model\|kernel\|override\|segment\)_keys\[\]/,/NULL};/p' \
           models/config/pn_config.c models/config/pn_config_keys.c |
       grep -o '"[a-z_0-9]*"' | tr -d '"'
       sed -n '/pn_\(count\|memory\)_keys\[.*\] = {/,/NULL/p' models/config/pn_config_keys.c |
       grep -o '"[a-z_0-9]*"' | tr -d '"')
missing=""
for k in $keys; do grep -qw -- "$k" "$TMP/conf.txt" || missing="$missing $k"; done
[ "$(echo "$keys" | wc -w)" -ge 60 ] && [ -z "$missing" ] && ok man-config-keys ||
    bad man-config-keys "$(echo "$keys" | wc -w) keys; not in CONFIGURATION:$missing"
for s in "EXIT STATUS" ENVIRONMENT FILES EXAMPLES; do
    grep -q "^\.SH $s" "$M" && ok "man-section-$s" || bad "man-section-$s" "missing"
done

[ "$fails" -eq 0 ]
