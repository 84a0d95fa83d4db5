#!/usr/bin/env python3
"""`perfdata collapse` against two foldings of perf's own output.

1. The reference: F.script-sym.xz is `perf script -i F -F
   comm,pid,tid,period,ip,sym,dso` (made by tests/data/record.sh), folded
   here the way stackcollapse-perf.pl does: per sample
   "comm;outermost;...;innermost", counting samples; a frame is its symbol,
   else "[object basename]", else "[unknown]".
2. stackcollapse-perf.pl itself (STACKCOLLAPSE, by default
   ../shared/tools/flamegraph/stackcollapse-perf.pl) over `perf script -F
   comm,pid,tid,time,ip,sym,dso` of every input whose events sample call
   chains (the script folds only perf script's multi-line call chains),
   perf run now with the symbol options we are given, so that neither side
   uses a build-id cache (ours: PERF_BUILDID_DIR at an empty directory;
   perf: --symfs makes it look in SYMFS/.debug only).
   --symdir has no perf equivalent; the --symfs tree holds the same binary.
   Both look only under D (perfdata as perf): perf gets a copy of our tree
   that also links this machine's file at the path of every other object
   perf script names, and /usr/lib/debug (separate debug files, found by
   build id), so both sides read the same files. Without perf or the script this step is skipped; inputs
   without call chains are skipped.

Kernel frames depend on the kernel the test runs on (perf resolves them
from this machine's kallsyms, not the recording's), so both are compared
without them: ours are marked with --kernel ("_[k]") and dropped; perf's
kernel frames (object [kernel.kallsyms] or another "[kernel..." object, or
an address in the upper half of a 64-bit address space) are removed from
perf script's output before it is folded. The stacks that remain are
merged and compared with their counts. The exit status of `perfdata
collapse` must be 0 (or what --expect lists, with the number of stacks
whose count differs); a run that dies, or writes sanitizer text to stderr,
fails its input.

Usage: collapse_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import collections
import lzma
import os
import re
import shutil
import subprocess
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool
from report_diff import symbol_options

FRAME = re.compile(r'^\s+([0-9a-f]+)\s+(.*) \((.*)\)$')
STACKCOLLAPSE = os.environ.get('STACKCOLLAPSE', '../shared/tools/flamegraph/stackcollapse-perf.pl')
CALLCHAIN = re.compile(r'sample_type = [A-Z0-9_|]*\bCALLCHAIN\b')


def is_kernel_frame(ip, obj):
    return obj.startswith('[kernel') or obj.startswith('[guest.kernel') or int(ip, 16) >= 0xffff800000000000


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


def folded(text):
    """Folded "stack count" lines, without "_[k]" frames, merged."""
    stacks = collections.Counter()
    for line in text.split('\n'):
        if not line:
            continue
        stack, count = line.rsplit(' ', 1)
        parts = [f for f in stack.split(';') if not f.endswith('_[k]')]
        stacks[';'.join(parts)] += int(count)
    return stacks


def ours(binary, data, expect_rc, symopts):
    run = run_tool([binary, 'collapse', '--kernel'] + symopts + [data], expect_rc)
    return folded(run.out), run


EMPTY_BUILDID_DIR = os.path.abspath(os.path.join('build', 'test', 'empty-buildid-dir'))


def perf_script(data, symfs):
    empty = EMPTY_BUILDID_DIR
    shutil.rmtree(empty, ignore_errors=True)
    os.makedirs(empty)
    env = dict(os.environ, PERF_BUILDID_DIR=empty)
    # with the event: stackcollapse-perf.pl folds the first one's samples, as collapse does
    cmd = ['perf', 'script', '-f', '-i', data, '-F', 'comm,pid,tid,time,event,ip,sym,dso', '--symfs', symfs]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=600)
    if p.returncode != 0:
        return None, f'perf script exited {p.returncode}: {p.stderr.decode("utf-8", "replace")[:200]}'
    return p.stdout.decode('utf-8', 'replace'), None


def perf_symfs(data, symopts):
    """perf's --symfs tree: ours (or none) plus this machine's file for
    every other absolute object path perf script names."""
    tree = os.path.join('build', 'test', 'symfs-perf', os.path.abspath(data).strip('/').replace('/', '_'))
    shutil.rmtree(tree, ignore_errors=True)
    os.makedirs(tree)
    ours_tree = symopts[symopts.index('--symfs') + 1] if '--symfs' in symopts else None
    for root, _, files in os.walk(ours_tree) if ours_tree else ():
        for f in files:
            src = os.path.join(root, f)
            dst = os.path.join(tree, os.path.relpath(src, ours_tree))
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(os.path.realpath(src), dst)
    text, why = perf_script(data, tree)
    if text is None:
        return None, why
    objects = {m.group(3) for m in map(FRAME.match, text.split('\n')) if m and m.group(3).startswith('/')}
    for obj in sorted(objects):
        dst = tree + obj
        src = ours_tree + obj if ours_tree and os.path.exists(ours_tree + obj) else obj
        if os.path.exists(src) and not os.path.exists(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(os.path.abspath(src), dst)
    # separate debug files, which both look for by build id
    if os.path.isdir('/usr/lib/debug') and not os.path.exists(tree + '/usr/lib/debug'):
        os.makedirs(tree + '/usr/lib', exist_ok=True)
        os.symlink('/usr/lib/debug', tree + '/usr/lib/debug')
    return tree, None


def perf_folded(data, symopts):
    """stackcollapse-perf.pl over perf script's output, kernel frames
    removed first; (Counter, None) or (None, why it failed)."""
    tree, why = perf_symfs(data, symopts)
    if tree is None:
        return None, why
    text, why = perf_script(data, tree)
    if text is None:
        return None, why
    kept = []
    for line in text.split('\n'):
        m = FRAME.match(line)
        if m and is_kernel_frame(m.group(1), m.group(3)):
            continue
        kept.append(line)
    p = subprocess.run(['perl', STACKCOLLAPSE], input='\n'.join(kept).encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=600)
    if p.returncode != 0:
        return None, f'stackcollapse-perf.pl exited {p.returncode}: {p.stderr.decode("utf-8", "replace")[:200]}'
    return folded(p.stdout.decode('utf-8', 'replace')), None


def compare(what, name, want, got, run, expected, verbose):
    """Prints a FAIL line when the run or the stacks are not as expected;
    returns True when they are."""
    differ = sum(1 for k in set(want) | set(got) if want[k] != got[k])
    problems = list(run.problems)
    why = expected.check(name, differ)
    if why:
        problems.append(why)
    if not problems:
        return True
    print(f'FAIL {name} ({what}): {sum(want.values())} samples in {what}, {sum(got.values())} ours; '
          + '; '.join(problems))
    shown = 0
    for k in sorted(set(want) | set(got)):
        if want[k] != got[k] and (verbose or shown < 10):
            print(f'    {want[k]:4} {what}  {got[k]:4} ours  {k}')
            shown += 1
    return False


def main():
    binary, paths, verbose, expected = parse_args()
    passed = failed = skipped = 0
    # ours reads a build-id cache from PERF_BUILDID_DIR: an empty one, so
    # that it finds no binaries there (perf, given --symfs, looks only in
    # SYMFS/.debug)
    os.makedirs(EMPTY_BUILDID_DIR, exist_ok=True)
    os.environ['PERF_BUILDID_DIR'] = EMPTY_BUILDID_DIR
    for data, oracle in find_inputs(paths, '.script-sym.xz'):
        name = display_name(data, paths)
        with lzma.open(oracle, 'rt', errors='replace') as f:
            want = reference(f.read())
        got, run = ours(binary, data, expected.exit_status(name), symbol_options(data))
        if compare('reference', name, want, got, run, expected, verbose):
            passed += 1
        else:
            failed += 1
    reference_inputs = passed + failed

    missing = [w for w, ok in (('perf', shutil.which('perf')), ('perl', shutil.which('perl')),
                               (STACKCOLLAPSE, os.path.exists(STACKCOLLAPSE))) if not ok]
    pl_inputs = pl_skipped = 0
    if missing:
        print(f'skip stackcollapse-perf.pl oracle: {", ".join(missing)} not found')
        skipped += 1
        for data, _ in find_inputs(paths, '.header.txt'):  # what it lists for them is not stale, only unchecked
            expected.seen.add(display_name(data, paths))
    else:
        for data, header in find_inputs(paths, '.header.txt'):
            name = display_name(data, paths)
            if not CALLCHAIN.search(open(header, errors='replace').read()):
                pl_skipped += 1
                continue
            symopts = symbol_options(data)
            want, why = perf_folded(data, symopts)
            pl_inputs += 1
            if want is None:
                print(f'FAIL {name} (stackcollapse-perf.pl): {why}')
                failed += 1
                continue
            got, run = ours(binary, data, expected.exit_status(name), symopts)
            if compare('stackcollapse-perf.pl', name, want, got, run, expected, verbose):
                passed += 1
            else:
                failed += 1
        if pl_skipped:
            print(f'{pl_skipped} inputs skipped by the stackcollapse-perf.pl oracle: no call chains sampled')
            skipped += pl_skipped
        if pl_inputs == 0:
            print('FAIL stackcollapse-perf.pl oracle: no input with call chains found')
            failed += 1
    return finish(passed, failed, skipped, expected, 'a .script-sym.xz oracle', reference_inputs)


if __name__ == '__main__':
    sys.exit(main())
