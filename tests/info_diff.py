#!/usr/bin/env python3
"""Differential test: `perfdata info FILE` against perf 6.1's
`perf report --header-only -I -i FILE` (the F.header.txt oracles).

Normalised, because perf computes them from the local machine or clock, not
the file: the `# captured on` line (the input's mtime as ctime() prints it
in the local time zone). Compared line by line in order; the table gives
per file the oracle's lines, matching lines, and differing lines.

An input's differences (differing lines) and the exit status of
`perfdata info` must be exactly what the expectations file lists
(tests/expected/info.txt for the corpus; none for tests/data: no
difference, exit 0). A run that dies, or writes sanitizer text to stderr,
fails its input.

Usage: info_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import difflib
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool

CAPTURED = '# captured on'


def norm(lines):
    return [l for l in lines if not l.startswith(CAPTURED)]


def main():
    binary, paths, verbose, expected = parse_args()
    rows, bad = [], []
    for data, oracle in find_inputs(paths, '.header.txt'):
        theirs = norm(open(oracle, errors='replace').read().split('\n'))
        name = display_name(data, paths)
        run = run_tool([binary, 'info', data], expected.exit_status(name), timeout=300)
        ours = norm(run.out.split('\n'))
        sm = difflib.SequenceMatcher(a=theirs, b=ours, autojunk=False)
        same = sum(b.size for b in sm.get_matching_blocks())
        differ = max(len(theirs), len(ours)) - same
        rows.append((name, len(theirs), same, differ))
        problems = list(run.problems)
        why = expected.check(name, differ)
        if why:
            problems.append(why)
        if problems:
            bad.append(name)
            print(f'FAIL {name}: ' + '; '.join(problems))
        if verbose and differ:
            print(f'--- {name}')
            for l in list(difflib.unified_diff(theirs, ours, 'perf', 'perfdata', n=0, lineterm=''))[2:14]:
                print('   ', l[:200])
    w = max([len(r[0]) for r in rows] + [4])
    print(f'{"file":<{w}} {"lines":>6} {"matched":>7} {"differ":>6}')
    for r in rows:
        print(f'{r[0]:<{w}} {r[1]:>6} {r[2]:>7} {r[3]:>6}')
    print(f'{"TOTAL":<{w}} {sum(r[1] for r in rows):>6} {sum(r[2] for r in rows):>7} {sum(r[3] for r in rows):>6}')
    return finish(len(rows) - len(bad), len(bad), 0, expected, 'a .header.txt oracle', len(rows))


if __name__ == '__main__':
    sys.exit(main())
