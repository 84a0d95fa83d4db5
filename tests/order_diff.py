#!/usr/bin/env python3
"""Differential test of time ordering: `perfdata dump --ordered FILE` must
print the records in the same order as perf 6.1's `perf report -D`, which
prints them in its delivery order (ordered_events: perf's own records as
read, the others released per FINISHED_ROUND in time order).

Compared: the sequence of (stream, offset) of every record. Only inputs that
perf processed to the end (its output has the "Aggregated stats" trailer);
perf aborts on some inputs and then never prints the records it still had
queued; the others have no oracle and are counted as skipped. An input's
differences are the records left out of the longest matching blocks of
the two sequences (difflib); they, and the exit status of `perfdata dump
--ordered`, must be exactly what the expectations file lists
(tests/expected/order.txt for the corpus; none for tests/data: no
difference, exit 0). A run that dies, or writes sanitizer text to stderr,
fails its input.

Usage: order_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import difflib
import lzma
import re
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool

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
        name = display_name(data, paths)
        theirs = sequence(text.split('\nAggregated stats:', 1)[0].split('\n'), 0)
        run = run_tool([binary, 'dump', '--ordered', data], expected.exit_status(name))
        ours = sequence(run.out.split('\n'), 16 if '@pipe [' in text else 0)
        differ = 0
        if ours != theirs:
            sm = difflib.SequenceMatcher(a=theirs, b=ours, autojunk=False)
            differ = max(len(theirs), len(ours)) - sum(b.size for b in sm.get_matching_blocks())
        problems = list(run.problems)
        why = expected.check(name, differ)
        if why:
            problems.append(why)
        if not problems:
            passed += 1
            continue
        failed += 1
        first = next((i for i, (a, b) in enumerate(zip(theirs, ours)) if a != b), min(len(ours), len(theirs)))
        if differ:
            problems.append(f'order differs first at record {first} of {len(theirs)} '
                            f'(perf {theirs[first] if first < len(theirs) else "-"}, '
                            f'ours {ours[first] if first < len(ours) else "-"})')
        print(f'FAIL {name}: ' + '; '.join(problems))
    if skipped:
        print(f'{skipped} inputs skipped: perf did not process them to the end (no stats table)')
    return finish(passed, failed, skipped, expected, 'an "Aggregated stats" table in a .dump.xz oracle',
                  passed + failed)


if __name__ == '__main__':
    sys.exit(main())
