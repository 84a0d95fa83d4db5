#!/usr/bin/env python3
"""`perfdata stat --table-only F` against the "Aggregated stats" table that
ends perf 6.1's `perf report -D` output (the F.dump.xz oracles): records per
type and samples per event, line for line. Inputs where perf stopped early
(no table) (none since the records inside COMPRESSED chunks are decoded)
are skipped.

Usage: stat_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import lzma
import os
import subprocess
import sys

from oracles import find_inputs, parse_args


def main():
    binary, paths, verbose, expected = parse_args()
    passed = failed = skipped = 0
    for data, oracle in find_inputs(paths, '.dump.xz'):
        with lzma.open(oracle, 'rt', errors='replace') as f:
            text = f.read()
        if '\nAggregated stats:' not in text:
            skipped += 1
            continue
        theirs = ('Aggregated stats:' + text.split('\nAggregated stats:', 1)[1]).rstrip('\n').split('\n')
        p = subprocess.run([binary, 'stat', '--table-only', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=600)
        ours = p.stdout.decode('utf-8', 'replace').strip('\n').split('\n')
        name = os.path.relpath(data, paths[0]) if len(paths) == 1 and os.path.isdir(paths[0]) else data
        if ours == theirs or expected.get(name):
            passed += 1
            continue
        failed += 1
        print(f'FAIL {name}')
        if verbose:
            for a, b in zip(theirs + [''] * len(ours), ours + [''] * len(theirs)):
                if a != b:
                    print(f'    perf: {a}\n    ours: {b}')
    print(f'{skipped} inputs skipped (perf stopped early, or compressed)')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
