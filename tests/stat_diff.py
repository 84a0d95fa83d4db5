#!/usr/bin/env python3
"""`perfdata stat --table-only F` against the "Aggregated stats" table that
ends perf 6.1's `perf report -D` output (the F.dump.xz oracles): records per
type and samples per event, line for line. An input's differences are the
table lines that differ (difflib); they, and the exit status of
`perfdata stat`, must be exactly what the expectations file lists
(tests/expected/stat.txt for the corpus; none for tests/data: no
difference, exit 0). A run that dies, or writes sanitizer text to stderr,
fails its input. Inputs where perf printed no table (it stopped early) have
no oracle and are counted as skipped.

Usage: stat_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import difflib
import lzma
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool


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
        theirs = ('Aggregated stats:' + text.split('\nAggregated stats:', 1)[1]).rstrip('\n').split('\n')
        run = run_tool([binary, 'stat', '--table-only', data], expected.exit_status(name))
        ours = run.out.strip('\n').split('\n')
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
        print(f'FAIL {name}: ' + '; '.join(problems))
        if verbose:
            for l in list(difflib.unified_diff(theirs, ours, 'perf', 'perfdata', n=0, lineterm=''))[2:14]:
                print('   ', l[:200])
    if skipped:
        print(f'{skipped} inputs skipped: perf printed no stats table (it stopped early)')
    return finish(passed, failed, skipped, expected, 'an "Aggregated stats" table in a .dump.xz oracle',
                  passed + failed)


if __name__ == '__main__':
    sys.exit(main())
