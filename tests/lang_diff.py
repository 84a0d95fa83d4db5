#!/usr/bin/env python3
"""C++ and Rust names and unwound stacks as perf 6.1 shows them: the
fixtures cxx-g.data, rust-g.data, their --call-graph dwarf twins
cxx-dwarf.data and rust-dwarf.data, and unwind-c-dwarf.data and
unwind-cxx-dwarf.data (C with threads, a shared library of ours and
qsort's callbacks; C++ throwing exceptions; both -O2 without frame
pointers) (tests/data/record-lang.sh; their workloads are committed
beside them, xz-compressed) against perf's own outputs:

  F.script-lang.xz          perf script: demangled names, unwound stacks with
                            their inlined frames, byte for byte
  F.script-lang-mangled.xz  perf script --no-demangle
  F.script-noinline.xz      perf script --no-inline (the dwarf fixtures: unwound
                            stacks without their inlined frames)
  F.report-lang.txt         perf report --stdio --no-children --sort dso,sym:
                            every entry's overhead, to 0.01%, and the same
                            set of entries
  and, where ../shared/tools/flamegraph/stackcollapse-perf.pl is, `collapse`
  (and --no-inline) against that script folding perf's script output
  (skipped without it).

The workloads are put back at their recorded path under a --symfs tree
(the system's own directories linked in, as perf found them).

Usage: lang_diff.py PERFDATA"""
import lzma
import os
import subprocess
import sys

from oracles import run_tool
from report_diff import LANG_WORKLOADS, parse

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
RECORDED = '/tmp/perfdata-lang'
STACKCOLLAPSE = os.environ.get('STACKCOLLAPSE', os.path.join(HERE, '..', '..', 'shared', 'tools', 'flamegraph',
                                                              'stackcollapse-perf.pl'))


# the fixtures (and, in report_diff, the objects record-lang.sh runs them from)
FIXTURES = ('cxx-g.data', 'rust-g.data', 'cxx-dwarf.data', 'rust-dwarf.data', 'unwind-c-dwarf.data',
            'unwind-cxx-dwarf.data')
WORKLOADS = LANG_WORKLOADS


def symfs_tree(work):
    root = os.path.join(work, 'symfs')
    dst_dir = root + RECORDED
    os.makedirs(dst_dir, exist_ok=True)
    for w in WORKLOADS:
        with lzma.open(os.path.join(DATA, w + '.xz')) as f, open(os.path.join(dst_dir, w), 'wb') as o:
            o.write(f.read())
    for d in ('usr', 'lib', 'lib64', 'bin', 'sbin'):
        if os.path.exists('/' + d) and not os.path.lexists(os.path.join(root, d)):
            os.symlink('/' + d, os.path.join(root, d))
    return root


def first_diff(got, want):
    a, b = got.split('\n'), want.split('\n')
    for i in range(max(len(a), len(b))):
        x = a[i] if i < len(a) else '<end>'
        y = b[i] if i < len(b) else '<end>'
        if x != y:
            return f'line {i + 1}: perf {y[:160]!r}, ours {x[:160]!r}'
    return ''


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    work = os.path.join('build', 'test', 'lang')
    symfs = symfs_tree(work)
    passed = failed = skipped = 0
    for base in FIXTURES:
        data = os.path.join(DATA, base)
        variants = [('.script-lang.xz', []), ('.script-lang-mangled.xz', ['--no-demangle'])]
        if '-dwarf' in base:  # unwound stacks without their inlined frames
            variants.append(('.script-noinline.xz', ['--no-inline']))
        for suffix, extra in variants:
            want = lzma.open(data + suffix).read().decode('utf-8', 'replace')
            run = run_tool([binary, 'script', '--symfs', symfs] + extra + [data])
            problems = run.problems + ([] if run.out == want else ['differs from perf script, ' + first_diff(run.out, want)])
            if not want.strip():
                problems.append('empty oracle')
            if problems:
                failed += 1
                print(f'FAIL {base} script {" ".join(extra)}: ' + '; '.join(problems))
            else:
                passed += 1
                print(f'ok   {base} script {" ".join(extra)}: {want.count(chr(10))} lines = perf script')
        theirs = parse(open(data + '.report-lang.txt', errors='replace').read())
        run = run_tool([binary, 'report', '--stdio', '--sort', 'dso,sym', '--symfs', symfs, data])
        ours = parse(run.out)
        problems = list(run.problems)
        if len(ours) != len(theirs) or not theirs:
            problems.append(f'{len(ours)} event tables, perf has {len(theirs)}')
        for t, o in zip(theirs, ours):
            if set(t['entries']) != set(o['entries']):
                problems.append(f"entries perf only: {sorted(set(t['entries']) - set(o['entries']))[:3]}, "
                                f"ours only: {sorted(set(o['entries']) - set(t['entries']))[:3]}")
            for key, pct in t['entries'].items():
                mine = o['entries'].get(key)
                if mine is not None and abs(mine - pct) > 0.01 + 1e-9:
                    problems.append(f'{key}: perf {pct:.2f}%, ours {mine:.2f}%')
        if problems:
            failed += 1
            print(f'FAIL {base} report: ' + '; '.join(problems[:4]))
        else:
            passed += 1
            print(f'ok   {base} report: {sum(len(t["entries"]) for t in theirs)} entries = perf report')
        if not os.path.exists(STACKCOLLAPSE):
            skipped += 1
            print(f'skip {base} collapse: {STACKCOLLAPSE} not found')
            continue
        for suffix, extra in variants:
            if extra == ['--no-demangle']:
                continue
            script = lzma.open(data + suffix).read()
            folded = subprocess.run(['perl', STACKCOLLAPSE], input=script, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE)
            # perf script's default lines carry the period, which stackcollapse-perf.pl adds up
            run = run_tool([binary, 'collapse', '--period', '--symfs', symfs] + extra + [data])
            a = sorted(folded.stdout.decode('utf-8', 'replace').splitlines())
            b = sorted(run.out.splitlines())
            if folded.returncode != 0 or run.problems or a != b or not a:
                failed += 1
                d = sorted(set(a) ^ set(b))
                print(f'FAIL {base} collapse {" ".join(extra)}: ' + '; '.join(
                    run.problems + [f'{len(d)} stacks differ from stackcollapse-perf.pl' + (f': {d[0][:160]!r}' if d else '')]))
            else:
                passed += 1
                print(f'ok   {base} collapse {" ".join(extra)}: {len(a)} stacks = stackcollapse-perf.pl of perf script '
                      f'{" ".join(extra)}')
    # perf's build-id cache, where PERF_BUILDID_DIR says it is: the workload
    # laid out there as perf lays it out is found without --symfs, and an
    # empty cache finds nothing (this machine's own ~/.debug is not read)
    data = os.path.join(DATA, 'cxx-g.data')
    want = lzma.open(data + '.script-lang.xz').read().decode('utf-8', 'replace')
    cache = os.path.abspath(os.path.join(work, 'buildid-cache'))
    bid = subprocess.run(['readelf', '-n', os.path.join(symfs + RECORDED, 'cxx-workload')], stdout=subprocess.PIPE,
                         text=True).stdout.split('Build ID: ')[-1].split()[0]
    entry = os.path.join(cache, '.build-id', bid[:2], bid[2:])
    os.makedirs(entry, exist_ok=True)
    with lzma.open(os.path.join(DATA, 'cxx-workload.xz')) as f, open(os.path.join(entry, 'elf'), 'wb') as o:
        o.write(f.read())
    empty = os.path.abspath(os.path.join(work, 'empty-cache'))
    os.makedirs(empty, exist_ok=True)
    for env_dir, should_match in ((cache, True), (empty, False)):
        if not should_match and os.path.exists(os.path.join(RECORDED, 'cxx-workload')):
            skipped += 1
            print(f'skip cxx-g.data script with an empty PERF_BUILDID_DIR: the workload is at its recorded path, '
                  f'{RECORDED}, on this machine (record-lang.sh puts it there)')
            continue
        p = subprocess.run([binary, 'script', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=dict(os.environ, PERF_BUILDID_DIR=env_dir))
        out = p.stdout.decode('utf-8', 'replace')
        ok = p.returncode == 0 and (out == want) == should_match and 'cxx-workload' in out
        if ok:
            passed += 1
            print(f'ok   cxx-g.data script, PERF_BUILDID_DIR={"a cache with the workload" if should_match else "empty"}: '
                  f'{"= perf script" if should_match else "its symbols unresolved"}')
        else:
            failed += 1
            print(f'FAIL cxx-g.data script with PERF_BUILDID_DIR={env_dir}: exit {p.returncode}, '
                  f'{"differs from" if should_match else "equals"} perf script')
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
