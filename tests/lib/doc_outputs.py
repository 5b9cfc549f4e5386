#!/usr/bin/env python3
"""doc_outputs.py - the outputs README.md and doc/*.md show as real.

A block shown as real output is a fenced block right after a line
    <!-- output: COMMAND -->
(<!-- output-slow: COMMAND --> for commands of more than a few seconds:
checked by make check-full, PN_FULL=1, and rewritten by make docs)
(a transcript with the commands shown: COMMAND = sh tests/lib/show.sh 'CMD' ...)
COMMAND runs with sh in the repository root, `build/pnsim` replaced by the
binary under test ($PNSIM, default build/pnsim); its standard output (and
standard error, which commands that show an error message print) must be the
block's text exactly.

    doc_outputs.py --check FILE...   list every block that drifted; exit 1 if any
    doc_outputs.py --write FILE...   rewrite the blocks from the commands
"""
import os
import re
import subprocess
import sys

SLOW = os.environ.get('PN_FULL') == '1' or '--write' in sys.argv

MARK = re.compile(r'^<!-- output(-slow)?: (.*) -->$')


def run(cmd):
    pnsim = os.environ.get('PNSIM', 'build/pnsim')
    if not cmd.startswith('sh tests/lib/show.sh'):   # show.sh echoes, then substitutes
        cmd = cmd.replace('build/pnsim', pnsim)
    p = subprocess.run(['sh', '-c', cmd], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=dict(os.environ, LC_ALL='C'))
    return p.stdout


def blocks(lines):
    """(command, first line of the block's text, end line) for each marked block."""
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i].rstrip('\n'))
        if m and m.group(1) and not SLOW:
            m = None                  # output-slow: checked by make check-full only
        if m and i + 1 < len(lines) and lines[i + 1].startswith('```'):
            j = i + 2
            while j < len(lines) and not lines[j].startswith('```'):
                j += 1
            if j == len(lines):
                sys.exit('%d: output block not closed' % (i + 1))
            yield m.group(2), i + 2, j
            i = j
        i += 1


def main():
    if len(sys.argv) < 3 or sys.argv[1] not in ('--check', '--write'):
        sys.exit(__doc__)
    write = sys.argv[1] == '--write'
    bad = 0
    n = 0
    for path in sys.argv[2:]:
        with open(path) as f:
            lines = f.readlines()
        out = []
        last = 0
        for cmd, a, b in blocks(lines):
            n += 1
            got = run(cmd)
            if got and not got.endswith('\n'):
                got += '\n'
            shown = ''.join(lines[a:b])
            out += lines[last:a]
            out.append(got)
            last = b
            if got != shown:
                bad += 1
                if not write:
                    print('%s:%d: output of `%s` drifted (make docs rewrites it)' % (path, a, cmd))
        out += lines[last:]
        if write:
            with open(path, 'w') as f:
                f.write(''.join(out))
    print('%d output blocks, %d drifted%s' % (n, bad, ', rewritten' if write and bad else ''))
    sys.exit(1 if bad and not write else 0)


if __name__ == '__main__':
    main()
