#!/usr/bin/env python3
"""Call chains with a context marker perf 6.1 does not know.

perf 6.1 (machine.c, add_callchain_ip) knows three context markers in a
call chain: PERF_CONTEXT_HV, _KERNEL and _USER. Any other value from
PERF_CONTEXT_MAX up (the guest markers, or a stray -1 a broken unwinder
left) makes it call the chain corrupted and drop all of it: `perf script`
prints the sample with no frames, and stackcollapse-perf.pl folds it to
its command alone. System-wide profiles have such samples (a few in a
million here).

The test takes tests/data/callchain-fp.data, puts such a marker in place of
the USER marker of a few samples, and checks:
- `perfdata script`: the same text as for the original file, less the
  frames of exactly those samples;
- `perfdata collapse`: those samples folded to the command alone, the rest
  as for the original;
- with perf installed, `perf script` prints the patched file as we do.

Usage: callchain_contexts.py PERFDATA
"""
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join(HERE, 'data', 'callchain-fp.data')
USER = 0xfffffffffffffe00
MARKERS = {'guest kernel': 0xfffffffffffff780, 'guest user': 0xfffffffffffff600, 'guest': 0xfffffffffffff800,
           '-1': 0xffffffffffffffff, '-72 (between HV and MAX)': 0xffffffffffffffb8}
SAMPLES = [0, 2, 5, 7, 11]   # which samples (counting those with a USER marker) get one

passed = failed = 0


def check(what, ok, detail=''):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {what}' + (f': {detail}' if detail else ''))


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def patch(data, marker):
    """The file with `marker` in place of the USER marker of the SAMPLES-th
    samples that have one; and how many were patched."""
    b = bytearray(data)
    at, n, done = 0, 0, 0
    packed = struct.pack('<Q', USER)
    while True:
        at = b.find(packed, at)
        if at < 0:
            break
        if n in SAMPLES:
            b[at:at + 8] = struct.pack('<Q', marker)
            done += 1
        n += 1
        at += 8
    return bytes(b), done


def samples(text):
    """script's output as samples: (header line, frame lines)."""
    out = []
    for block in text.split('\n\n'):
        lines = [l for l in block.split('\n') if l]
        if lines:
            out.append((lines[0], lines[1:]))
    return out


def main():
    tool = sys.argv[1]
    data = open(SOURCE, 'rb').read()
    symfs = ['--symfs', os.path.join(HERE, 'data', 'symfs')] if os.path.isdir(os.path.join(HERE, 'data', 'symfs')) else []
    rc, base, err = run([tool, 'script'] + symfs + [SOURCE])
    check('script of the original: exit 0', rc == 0, err)
    base_samples = samples(base)
    chained = [i for i, (_, frames) in enumerate(base_samples) if frames]
    check('the original has samples with call chains', len(chained) > max(SAMPLES), len(chained))
    rc, base_folded, err = run([tool, 'collapse'] + symfs + [SOURCE])
    check('collapse of the original: exit 0', rc == 0, err)
    with tempfile.TemporaryDirectory(prefix='pd-contexts-') as work:
        for name, marker in MARKERS.items():
            patched, n = patch(data, marker)
            check(f'{name}: markers put in place', n == len(SAMPLES), n)
            path = os.path.join(work, 'patched.data')
            open(path, 'wb').write(patched)
            rc, out, err = run([tool, 'script'] + symfs + [path])
            check(f'{name}: script exits 0, says nothing', rc == 0 and not err, err)
            got = samples(out)
            # the patched samples are the SAMPLES-th of those whose chain has a USER marker:
            # in this file every chained sample has one, in file order = output order
            dropped = {chained[i] for i in SAMPLES if i < len(chained)}
            want = [(h, [] if i in dropped else f) for i, (h, f) in enumerate(base_samples)]
            check(f'{name}: script drops exactly those chains', got == want,
                  next((f'sample {i}: {g} != {w}' for i, (g, w) in enumerate(zip(got, want)) if g != w),
                       f'{len(got)} samples, {len(want)} wanted'))
            rc, folded, err = run([tool, 'collapse'] + symfs + [path])
            check(f'{name}: collapse exits 0', rc == 0, err)

            def counts(text):
                c = {}
                for line in text.split('\n'):
                    if line:
                        stack, k = line.rsplit(' ', 1)
                        c[stack] = c.get(stack, 0) + int(k)
                return c
            a, b = counts(folded), counts(base_folded)
            comm = base_samples[0][0].split()[0]
            moved = {k: b.get(k, 0) - a.get(k, 0) for k in set(a) | set(b) if a.get(k, 0) != b.get(k, 0)}
            check(f'{name}: collapse folds those samples to the command alone',
                  moved.get(comm, 0) == -len(SAMPLES) and sum(moved.values()) == 0, moved)
            if shutil.which('perf') and os.geteuid() == 0:
                prc, pout, perr = run(['perf', 'script'] + symfs + ['-i', path])
                check(f'{name}: perf script prints the same', prc == 0 and pout == out,
                      perr if prc else 'outputs differ')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
