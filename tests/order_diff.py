#!/usr/bin/env python3
"""Differential test of time ordering: `perfdata dump --ordered FILE` must
print the records in the same order as perf 6.1's `perf report -D`, which
prints them in its delivery order (ordered_events: perf's own records as
read, the others released per FINISHED_ROUND in time order).

Compared: the sequence of (stream, offset) of every record. Only inputs that
perf processed to the end (its output has the "Aggregated stats" trailer);
perf aborts on some inputs and then never prints the records it still had
queued. Inputs with COMPRESSED chunks are skipped until the records inside
them are decoded.

Usage: order_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import lzma
import os
import re
import subprocess
import sys

from oracles import find_inputs, parse_args

HEADER = re.compile(r'^(0x[0-9a-f]+|0)@(\S+) \[(0x[0-9a-f]+)\]: event: (\d+)$')
STREAM = re.compile(r'^# stream: (\S+)$')
SUMMARY = re.compile(r'^(?:.*? )?(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_')
PER_THREAD = re.compile(r'/(data\.\d+)$')


def sequence(lines, shift):
    seq, stream = [], ''
    for line in lines:
        h = HEADER.match(line)
        if h:
            m = PER_THREAD.search(h.group(2))
            stream = m.group(1) if m else ''
            continue
        s = STREAM.match(line)
        if s:
            m = PER_THREAD.search(s.group(1))
            stream = m.group(1) if m else ''
            continue
        m = SUMMARY.match(line)
        if m:
            seq.append((stream, int(m.group(1), 16) - (shift if not stream else 0)))
    return seq


def main():
    binary, paths, verbose, expected = parse_args()
    passed = failed = skipped = 0
    for data, oracle in find_inputs(paths, '.dump.xz'):
        with lzma.open(oracle, 'rt', errors='replace') as f:
            text = f.read()
        if '\nAggregated stats:' not in text:
            skipped += 1
            continue
        theirs = sequence(text.split('\nAggregated stats:', 1)[0].split('\n'), 0)
        p = subprocess.run([binary, 'dump', '--ordered', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=600)
        ours = sequence(p.stdout.decode('utf-8', 'replace').split('\n'), 16 if '@pipe [' in text else 0)
        # perf prints a record for offsets it dumps; compare in order
        if ours == theirs:
            passed += 1
            continue
        first = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(ours), len(theirs)))
        name = os.path.relpath(data, paths[0]) if len(paths) == 1 and os.path.isdir(paths[0]) else data
        if expected.get(name):
            passed += 1
            continue
        failed += 1
        print(f'FAIL {name}: order differs at record {first} of {len(theirs)} '
              f'(perf {theirs[first] if first < len(theirs) else "-"}, ours {ours[first] if first < len(ours) else "-"})')
    print(f'{skipped} inputs skipped (perf stopped early, or compressed)')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
