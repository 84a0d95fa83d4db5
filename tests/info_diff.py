#!/usr/bin/env python3
"""Differential test: `perfdata info FILE` against perf 6.1's
`perf report --header-only -I -i FILE` (the F.header.txt oracles).

Normalised, because perf computes them from the local machine or clock, not
the file: the `# captured on` line (the input's mtime as ctime() prints it
in the local time zone). Compared line by line in order; the table gives
per file the oracle's lines, matching lines, and differing lines.

Usage: info_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import difflib
import os
import subprocess
import sys

from oracles import find_inputs, parse_args

CAPTURED = '# captured on'


def norm(lines):
    return [l for l in lines if not l.startswith(CAPTURED)]


def main():
    binary, paths, verbose, expected = parse_args()
    rows, bad = [], []
    base = paths[0] if len(paths) == 1 and os.path.isdir(paths[0]) else None
    for data, oracle in find_inputs(paths, '.header.txt'):
        theirs = norm(open(oracle, errors='replace').read().split('\n'))
        p = subprocess.run([binary, 'info', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        ours = norm(p.stdout.decode('utf-8', 'replace').split('\n'))
        sm = difflib.SequenceMatcher(a=theirs, b=ours, autojunk=False)
        same = sum(b.size for b in sm.get_matching_blocks())
        differ = max(len(theirs), len(ours)) - same
        name = os.path.relpath(data, base) if base else data
        rows.append((name, len(theirs), same, differ))
        if differ > expected.get(name, 0):
            bad.append(name)
        if verbose and differ:
            print(f'--- {name}')
            for l in list(difflib.unified_diff(theirs, ours, 'perf', 'perfdata', n=0, lineterm=''))[2:14]:
                print('   ', l[:200])
    w = max([len(r[0]) for r in rows] + [4])
    print(f'{"file":<{w}} {"lines":>6} {"matched":>7} {"differ":>6}')
    for r in rows:
        print(f'{r[0]:<{w}} {r[1]:>6} {r[2]:>7} {r[3]:>6}')
    print(f'{"TOTAL":<{w}} {sum(r[1] for r in rows):>6} {sum(r[2] for r in rows):>7} {sum(r[3] for r in rows):>6}')
    if bad:
        print('unexplained differences in: ' + ', '.join(bad))
    print(f'{len(rows) - len(bad)} passed, {len(bad)} failed')
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
