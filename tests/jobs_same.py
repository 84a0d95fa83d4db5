#!/usr/bin/env python3
"""The commands that walk records in time order read ahead in a second
thread (-j 2, the default on two CPUs or more), and so does `dump` on
compressed input: their output, messages and exit status must be what one
thread gives (-j 1), on every input.

For each input and each of `script`, `report`, `collapse`, `dump --ordered`,
`dump` (and `script --show-task-events --show-mmap-events`, which prints the
side band), runs -j 1 and -j 2 and compares stdout, stderr and the exit
status.
Inputs: the files and directories given (a `perf record --threads`
directory is one input), files up to 32 MiB. Run under ThreadSanitizer
(a build with -fsanitize=thread), any report of it fails the input.

Usage: jobs_same.py PERFDATA INPUT...
"""
import os
import subprocess
import sys

from oracles import SANITIZER

COMMANDS = [['script'], ['script', '--show-task-events', '--show-mmap-events'], ['report'], ['collapse'],
            ['dump', '--ordered'], ['dump']]
LIMIT = 32 << 20

passed = failed = 0


def check(what, ok, detail=''):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {what}' + (f': {detail}' if detail else ''))


def run(cmd):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    except subprocess.TimeoutExpired:
        return None, b'', b'timed out'
    return p.returncode, p.stdout, p.stderr


def inputs(paths):
    for p in paths:
        if os.path.isdir(p) and not os.path.exists(os.path.join(p, 'data')):
            for root, dirs, files in os.walk(p):
                dirs.sort()
                for d in list(dirs):
                    if d.endswith('.data') and os.path.exists(os.path.join(root, d, 'data')):
                        dirs.remove(d)
                        yield os.path.join(root, d)
                for name in sorted(files):
                    path = os.path.join(root, name)
                    if (name.endswith('.data') or name.endswith('.perf')) and os.path.getsize(path) <= LIMIT:
                        yield path
        elif os.path.exists(p):
            yield p


def main():
    tool, paths = sys.argv[1], sys.argv[2:]
    n = 0
    for path in inputs(paths):
        n += 1
        for cmd in COMMANDS:
            what = f'{" ".join(cmd)} {path}'
            one = run([tool] + cmd + ['-j', '1', path])
            two = run([tool] + cmd + ['-j', '2', path])
            err = two[2].decode('utf-8', 'replace')
            check(f'{what}: no sanitizer report', not SANITIZER.search(err), err[:2000])
            check(f'{what}: -j 2 exits as -j 1', one[0] == two[0], f'{one[0]} vs {two[0]}')
            check(f'{what}: -j 2 prints what -j 1 prints', one[1] == two[1],
                  f'{len(one[1])} vs {len(two[1])} bytes')
            check(f'{what}: -j 2 says what -j 1 says', one[2] == two[2],
                  f'{one[2][:300]!r} vs {two[2][:300]!r}')
    if not n:
        check('inputs found', False, 'no input: nothing was compared')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
