#!/usr/bin/env python3
"""`perfdata collapse` against a reference folding of perf's own output:
F.script-sym.xz is `perf script -i F -F comm,pid,tid,period,ip,sym,dso`
(made by tests/data/record.sh). The reference folds it the way
stackcollapse-perf.pl does: per sample "comm;outermost;...;innermost",
counting samples; a frame is its symbol, else "[object basename]", else
"[unknown]". Kernel frames (object [kernel.kallsyms]) depend on the kernel
the test runs on, so both sides are compared with kernel frames removed
(ours are marked with --kernel).

Usage: collapse_diff.py PERFDATA DIR_OR_FILE...
"""
import collections
import lzma
import os
import re
import subprocess
import sys

from oracles import find_inputs, parse_args
from report_diff import symbol_options

FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*) \((.*)\)$')


def reference(text):
    stacks = collections.Counter()
    comm, frames = None, []

    def flush():
        if comm is not None:
            stacks[';'.join([comm.replace(' ', '_')] + list(reversed(frames)))] += 1

    for line in text.split('\n'):
        if not line.strip():
            continue
        m = FRAME.match(line)
        if m and comm is not None:
            sym, obj = m.group(2), m.group(3)
            if obj == '[kernel.kallsyms]':
                continue  # compared without kernel frames
            if sym == '[unknown]':
                sym = '[%s]' % os.path.basename(obj) if obj != '[unknown]' else '[unknown]'
            frames.append(sym)
            continue
        flush()
        comm, frames = line.split()[0], []
    flush()
    return stacks


def ours(binary, data):
    p = subprocess.run([binary, 'collapse', '--kernel'] + symbol_options(data) + [data], stdout=subprocess.PIPE, timeout=600)
    stacks = collections.Counter()
    for line in p.stdout.decode('utf-8', 'replace').split('\n'):
        if not line:
            continue
        stack, count = line.rsplit(' ', 1)
        parts = [f for f in stack.split(';') if not f.endswith('_[k]')]
        stacks[';'.join(parts)] += int(count)
    return stacks


def main():
    binary, paths, verbose, _ = parse_args()
    passed = failed = 0
    for data, oracle in find_inputs(paths, '.script-sym.xz'):
        with lzma.open(oracle, 'rt', errors='replace') as f:
            want = reference(f.read())
        got = ours(binary, data)
        if want == got:
            passed += 1
            continue
        failed += 1
        print(f'FAIL {data}: {sum(want.values())} samples in the reference, {sum(got.values())} ours')
        for k in sorted(set(want) | set(got)):
            if want[k] != got[k]:
                print(f'    {want[k]:4} ref  {got[k]:4} ours  {k}')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
