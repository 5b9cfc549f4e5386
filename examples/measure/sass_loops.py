#!/usr/bin/env python3
"""sass_loops.py - list the loops (backward branches) of each function in a cuobjdump -sass
listing, with the instruction count and opcode histogram of each loop body.

Usage: sass_loops.py FILE.sass [...]   (prints to stdout)
A loop is the address range [target, branch] of a BRA whose target is not after it.
"""
import collections
import re
import sys


def loops(path):
    text = open(path).read()
    for chunk in re.split(r"\n\s*Function : ", text)[1:]:
        name = chunk.split("\n", 1)[0].strip()
        ins = [(int(m.group(1), 16), m.group(2).strip())
               for m in re.finditer(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", chunk)]
        index = {a: i for i, (a, _) in enumerate(ins)}
        print(f"== {name}: {len(ins)} instructions in all")
        for i, (a, s) in enumerate(ins):
            if "BRA" not in s:
                continue
            m = re.search(r"(0x[0-9a-f]+)", s.split("BRA", 1)[1])
            if not m:
                continue
            t = int(m.group(1), 16)
            if t > a or t not in index or t == a:
                continue
            body = ins[index[t]: i + 1]
            ops = collections.Counter(re.sub(r"^@!?U?P\w+\s+", "", x).split()[0] for _, x in body)
            hist = ", ".join(f"{k} {v}" for k, v in sorted(ops.items()))
            print(f"  loop 0x{t:04x}-0x{a:04x}: {len(body)} instructions: {hist}")


for p in sys.argv[1:]:
    print(f"# {p}")
    loops(p)
