#!/usr/bin/env python3
"""Source lines as perf 6.1 shows them (perf runs binutils' addr2line), on
the C++, Rust and unwinding fixtures, -g and --call-graph dwarf (user
stacks unwound, inlined frames with their own lines)
(tests/data/record-lang.sh makes the oracles):

  F.script-srcline.xz        perf script -F +srcline: a line under every
                             call-chain frame, byte for byte
  F.script-srcline-G.xz      perf script -G -F comm,tid,ip,sym,symoff,dso,srcline:
                             the sample's own line, last on the line
  F.report-srcline.txt       perf report --stdio --sort srcline: every row
  F.report-sym-srcline.txt   ... --sort sym,srcline

and the same report with the workload's DWARF moved to a separate debug
file, found by build id and by .gnu_debuglink (and gone without one).

The C++ workload's lines come from its own DWARF (committed with it); libc's
and ld.so's from libc6-dbg's debug files, which must be the ones of the
libc the fixtures were recorded with: where they are not on this machine,
the comparisons that need them are reported as skipped.

Usage: srcline_diff.py PERFDATA"""
import csv
import lzma
import os
import shutil
import subprocess
import sys

from lang_diff import DATA, FIXTURES, RECORDED, first_diff, symfs_tree
from oracles import run_tool

HERE = os.path.dirname(os.path.abspath(__file__))


def debug_file_of(path):
    """libc6-dbg's debug file of the object at path, or None."""
    p = subprocess.run(['readelf', '-n', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if p.returncode != 0 or 'Build ID: ' not in p.stdout:
        return None
    bid = p.stdout.split('Build ID: ')[1].split()[0]
    debug = f'/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug'
    return debug if os.path.isfile(debug) else None


def recorded_objects_here(data):
    """Whether libc and ld.so here are the ones the fixture recorded (their
    build ids in its header) and have their debug files."""
    header = open(data + '.header.txt', errors='replace').read()
    for obj in ('/usr/lib/x86_64-linux-gnu/libc.so.6', '/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2'):
        if not os.path.exists(obj) or not debug_file_of(obj):
            return f'{obj} or its debug file (libc6-dbg) is not here'
        p = subprocess.run(['readelf', '-n', obj], stdout=subprocess.PIPE, text=True)
        bid = p.stdout.split('Build ID: ')[1].split()[0] if 'Build ID: ' in p.stdout else ''
        if bid and bid not in header and os.path.basename(obj) in header:
            return f'{obj} is not the one the fixture was recorded with'
    return None


def without_tip(text):
    """perf report's random tip line, which perfdata does not print."""
    return ''.join(line for line in text.splitlines(True) if not line.startswith('# (Tip:'))


def cut_column_only(ours, perf):
    """Whether ours differs from perf's report only where perf cut the last
    column (Source:Line) short: perf sizes it by the rows whose source line
    its sorting happened to compute before (a row whose symbol no other row
    shares has none yet), then cuts the others to that width
    (docs/perf-differences.md). perfdata sizes it by every row. Every line
    must then be perf's, or perf's line whose last cell is a prefix of
    ours cut to perf's width."""
    a, b = ours.split('\n'), perf.split('\n')
    if len(a) != len(b):
        return False
    width = None
    for x, y in zip(a, b):
        if x == y:
            continue
        if y.startswith('# ') and set(y[2:]) <= set('. ') and set(x[2:]) <= set('. '):
            gx, gy = x[2:].split(), y[2:].split()
            if len(gx) != len(gy) or gx[:-1] != gy[:-1] or len(gx[-1]) <= len(gy[-1]):
                return False
            width = len(gy[-1])
            continue
        if x.rstrip() == y.rstrip() or x.startswith(y.rstrip()) and y.startswith('#'):
            continue  # the column title, padded to another width
        if width is None or not x.startswith(y) or len(x) - len(y) <= 0:
            return False
        start = len(y) - width  # perf's cell: the last `width` characters, a prefix of ours
        if start < 0 or not x[start:].startswith(y[start:]):
            return False
    return True


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    symfs = symfs_tree(os.path.join('build', 'test', 'lang'))
    passed = failed = skipped = 0
    for base in FIXTURES:
        data = os.path.join(DATA, base)
        missing = recorded_objects_here(data)
        cases = (('.script-srcline.xz', ['script', '-F', '+srcline']),
                 ('.script-srcline-G.xz', ['script', '-G', '-F', 'comm,tid,ip,sym,symoff,dso,srcline']),
                 ('.report-srcline.txt', ['report', '--stdio', '--sort', 'srcline']),
                 ('.report-sym-srcline.txt', ['report', '--stdio', '--sort', 'sym,srcline']))
        for suffix, cmd in cases:
            what = f'{base} {" ".join(cmd)}'
            if missing:
                skipped += 1
                print(f'skip {what}: {missing}')
                continue
            raw = lzma.open(data + suffix).read() if suffix.endswith('.xz') else open(data + suffix, 'rb').read()
            want = without_tip(raw.decode('utf-8', 'replace'))
            run = run_tool([binary] + cmd[:1] + ['--symfs', symfs] + cmd[1:] + [data])
            problems = list(run.problems)
            cut = cmd[0] == 'report' and run.out != want and cut_column_only(run.out, want)
            if run.out != want and not cut:
                problems.append('differs from perf, ' + first_diff(run.out, want))
            if want.count('\n') < 20 or ':' not in want:
                problems.append('the oracle is too short to mean anything')
            if problems:
                failed += 1
                print(f'FAIL {what}: ' + '; '.join(problems))
            else:
                passed += 1
                print(f'ok   {what}: {want.count(chr(10))} lines = perf' +
                      (' (but for the source lines perf cuts short)' if cut else ''))
    # separate debug files: the workload stripped of its DWARF, which is
    # found by its build id under /usr/lib/debug/.build-id, or by its
    # .gnu_debuglink in a .debug directory beside it (both below --symfs):
    # the same source lines; with neither, they are gone
    data = os.path.join(DATA, 'cxx-g.data')
    want = without_tip(open(data + '.report-srcline.txt', errors='replace').read())
    full = os.path.join(symfs + RECORDED, 'cxx-workload')
    base = os.path.abspath(os.path.join('build', 'test', 'srcline-debug'))
    if missing_tools := [t for t in ('objcopy', 'readelf') if not shutil.which(t)]:
        skipped += 1
        print(f'skip separate debug files: {", ".join(missing_tools)} not installed')
    elif recorded_objects_here(data):
        skipped += 1
        print(f'skip separate debug files: {recorded_objects_here(data)}')
    else:
        notes = subprocess.run(['readelf', '-n', full], stdout=subprocess.PIPE, text=True).stdout
        bid = notes.split('Build ID: ')[1].split()[0]
        layouts = {'build id': f'usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug',
                   '.gnu_debuglink': RECORDED.lstrip('/') + '/.debug/cxx-workload.debug', 'none': None}
        for what, where in layouts.items():
            root = os.path.join(base, what.replace(' ', '-').lstrip('.'))
            shutil.rmtree(root, ignore_errors=True)
            os.makedirs(os.path.join(root, RECORDED.lstrip('/')))
            os.makedirs(os.path.join(root, 'usr', 'lib'))
            os.symlink('/usr/lib/x86_64-linux-gnu', os.path.join(root, 'usr', 'lib', 'x86_64-linux-gnu'))
            debug = os.path.join(base, 'cxx-workload.debug')
            stripped = os.path.join(root, RECORDED.lstrip('/'), 'cxx-workload')
            ok = subprocess.run(['objcopy', '--only-keep-debug', full, debug]).returncode == 0
            link = ['--add-gnu-debuglink=' + debug] if what == '.gnu_debuglink' else []
            ok = ok and subprocess.run(['objcopy', '--strip-debug'] + link + [full, stripped]).returncode == 0
            if where:
                os.makedirs(os.path.dirname(os.path.join(root, where)), exist_ok=True)
                shutil.copy(debug, os.path.join(root, where))
            run = run_tool([binary, 'report', '--stdio', '--sort', 'srcline', '--symfs', root, data])
            same = run.out == want
            if not ok or run.problems or same != bool(where) or 'cxx-workload.cpp' in run.out and not where:
                failed += 1
                print(f'FAIL report --sort srcline, debug information by {what}: ' +
                      '; '.join(run.problems + ([] if ok else ['objcopy failed']) +
                                [('differs from perf, ' + first_diff(run.out, want)) if where else 'lines without a debug file']))
            else:
                passed += 1
                print(f'ok   report --sort srcline, debug information by {what}: ' +
                      ('= perf' if where else 'the workload\'s lines are gone'))
    # report --csv: results.csv gives each function of the C++ workload the
    # file and line its first address has, as addr2line gives them (by the
    # address nm gives the function's name, demangled)
    work = os.path.join('build', 'test', 'srcline-csv')
    os.makedirs(work, exist_ok=True)
    binpath = os.path.join(symfs + RECORDED, 'cxx-workload')
    run = run_tool([binary, 'report', '--csv', work, '--symfs', symfs, os.path.join(DATA, 'cxx-g.data')])
    rows = list(csv.DictReader(open(os.path.join(work, 'results.csv')))) if not run.problems else []
    nm = subprocess.run(['nm', '-C', '--defined-only', binpath], stdout=subprocess.PIPE, text=True).stdout
    addr_of = {}
    for line in nm.splitlines():
        parts = line.split(' ', 2)
        if len(parts) == 3 and parts[1] in 'tTwW' and '[clone' not in parts[2]:
            # perf's names have no parameter list
            name = parts[2].replace('(anonymous namespace)', '\0').split('(')[0].replace('\0', '(anonymous namespace)')
            addr_of.setdefault(name, parts[0])
    checked, problems = 0, list(run.problems)
    for r in rows:
        if r['shared_object'] != 'cxx-workload' or not r['line'] or r['function'] not in addr_of:
            continue
        a2l = subprocess.run(['addr2line', '-e', binpath, addr_of[r['function']]], stdout=subprocess.PIPE,
                             text=True).stdout.strip().split(' (discriminator')[0]
        if f"{r['source_file']}:{r['line']}" != a2l:
            problems.append(f"{r['function']}: ours {r['source_file']}:{r['line']}, addr2line {a2l}")
        checked += 1
    if checked < 5:
        problems.append(f'only {checked} functions with a source line')
    if problems:
        failed += 1
        print('FAIL report --csv results.csv source_file,line: ' + '; '.join(problems[:4]))
    else:
        passed += 1
        print(f'ok   report --csv results.csv: {checked} functions at the file:line addr2line gives their address')
    # -F srcline without the address is refused, as perf refuses it
    run = run_tool([binary, 'script', '-F', 'comm,srcline', os.path.join(DATA, "cxx-g.data")], expect_rc=1)
    if run.problems or 'srcline' not in run.err:
        failed += 1
        print('FAIL script -F comm,srcline: ' + '; '.join(run.problems or ['no message naming srcline']))
    else:
        passed += 1
        print('ok   script -F comm,srcline: refused (no address to look up)')
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
