#!/usr/bin/env python3
"""Differential test: `perfdata script` against perf 6.1's `perf script`.

Inputs, each compared line for line (the output must be byte-identical):
- a corpus (a directory with manifest.json, ../shared/corpus): every input
  whose manifest entry has a `script` or `script_trace` oracle, run with the
  very options perf was run with (the manifest's command);
- tests/data fixtures, with the oracles record.sh and record-tracepoints.sh
  made beside them:
    F.script.xz          --show-task-events --show-mmap-events -F LIST, LIST
                         comm,tid,pid,time,cpu,event,ip,period,addr less the
                         fields the samples lack (perf refuses them and so do
                         we: the field our refusal names is dropped, as
                         record.sh dropped the one perf named)
    F.script-trace.xz    -F comm,tid,pid,time,cpu,event,trace
    F.script-default.xz  no options: perf's default fields, kernel symbols
                         from tp-kallsyms.xz (--kallsyms)
  with the workloads at their recorded paths (report_diff's --symfs tree),
  the trace and default runs with the recording's kernel symbols; and
  every fixture with tracepoints (a .script-trace.xz oracle) again in
  the other byte order (tests/swap_endian.py): the output must be the same
  as the original's.

DIFFS, for the expectations file, is the number of lines in one output and
not the other (as multisets). With --collapse, the test also checks, for
every fixture with call chains, that folding `perfdata script`'s output with
stackcollapse-perf.pl (STACKCOLLAPSE, ../shared/tools/flamegraph/) gives
what `perfdata collapse` gives; without that script those checks are
skipped.

Usage: script_diff.py PERFDATA [-v] [--expect FILE] [--collapse] DIR_OR_FILE...
"""
import collections
import json
import lzma
import os
import shlex
import subprocess
import sys
import tempfile

from oracles import Expectations, finish, run_tool
from report_diff import symbol_options

HERE = os.path.dirname(os.path.abspath(__file__))
FULL = ['comm', 'tid', 'pid', 'time', 'cpu', 'event', 'ip', 'period', 'addr']
STACKCOLLAPSE = os.environ.get('STACKCOLLAPSE', os.path.join(HERE, '..', '..', 'shared', 'tools', 'flamegraph',
                                                              'stackcollapse-perf.pl'))


def diff_count(got, want):
    if got == want:
        return 0, ''
    a, b = got.split('\n'), want.split('\n')
    ca, cb = collections.Counter(a), collections.Counter(b)
    n = sum(((ca - cb) + (cb - ca)).values())
    i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))
    first = (f'line {i + 1}:\n       perf:     {b[i][:200] if i < len(b) else "<end>"!r}\n'
             f'       perfdata: {a[i][:200] if i < len(a) else "<end>"!r}')
    return max(n, 1), first


class Tally:
    def __init__(self, binary, verbose, expected):
        self.binary, self.verbose, self.expected = binary, verbose, expected
        self.passed = self.failed = self.skipped = self.inputs = 0

    def compare(self, name, args, cwd, want):
        """Runs `perfdata script ARGS` in cwd; compares with want."""
        self.inputs += 1
        run = run_tool_in([self.binary, 'script'] + args, cwd, self.expected.exit_status(name))
        n, first = diff_count(run.out, want)
        why = self.expected.check(name, n)
        if run.problems or why:
            self.failed += 1
            print(f'FAIL {name}: ' + '; '.join(run.problems + ([why] if why else [])))
            if first:
                print('     first difference at ' + first)
        else:
            self.passed += 1
            if self.verbose:
                print(f'ok   {name}: {n} differences')
        return run


class Run:
    def __init__(self, out, err, rc, problems):
        self.out, self.err, self.rc, self.problems = out, err, rc, problems


def run_tool_in(cmd, cwd, expect_rc):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return run_tool(cmd, expect_rc)
    finally:
        os.chdir(old)


def corpus_inputs(t, top):
    man = json.load(open(os.path.join(top, 'manifest.json')))
    for name in sorted(man):
        for key, label in (('script', ''), ('script_trace', ':trace')):
            sc = man[name].get(key)
            if not sc or not sc.get('output'):
                continue
            d = os.path.dirname(os.path.join(top, name))
            oracle = os.path.join(d, sc['output'])
            if not os.path.exists(oracle):
                continue
            args = shlex.split(sc['command'])[2:]  # after "perf script"
            t.compare(name + label, args, d, lzma.open(oracle).read().decode('utf-8', 'replace'))


def fixture_fields(t, data):
    """The -F list record.sh gave perf: the full list less what is refused."""
    fields = list(FULL)
    while True:
        p = subprocess.run([t.binary, 'script', '-i', data, '--show-task-events', '--show-mmap-events',
                            '-F', ','.join(fields)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        err = p.stderr.decode('utf-8', 'replace')
        drop = next((f for f in fields if f"cannot print '{f}' field" in err), None)
        if p.returncode == 0 or drop is None:
            return fields
        fields.remove(drop)


def unpacked(path, work):
    """F.data, or F.data.xz unpacked into work."""
    if not path.endswith('.xz'):
        return path
    out = os.path.join(work, os.path.basename(path)[:-3])
    with lzma.open(path) as src, open(out, 'wb') as dst:
        dst.write(src.read())
    return out


def swapped(data, work):
    out = os.path.join(work, os.path.basename(data) + '.be')
    p = subprocess.run([sys.executable, os.path.join(HERE, 'swap_endian.py'), data, out],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0:
        return None, p.stderr.decode('utf-8', 'replace').strip()[:300]
    return out, ''


def fixture_inputs(t, top, work, collapse):
    kallsyms = os.path.join(top, 'tp-kallsyms.xz')
    ks = unpacked(kallsyms, work) if os.path.exists(kallsyms) else None
    # the recordings' own kernel symbols, so that the result does not hang
    # on the kernel of the machine the test runs on; and
    # the workloads at their recorded paths (report_diff's --symfs tree;
    # absolute: the runs are made in top)
    syms = [os.path.abspath(x) if i % 2 else x for i, x in enumerate(symbol_options(os.path.join(top, 'workload')))]
    here = (['--kallsyms', ks] if ks else []) + syms
    names = sorted(n for n in os.listdir(top) if n.endswith('.data') or n.endswith('.data.xz'))
    for n in names:
        path = os.path.join(top, n)
        if not os.path.isfile(path):
            continue
        base = n[:-3] if n.endswith('.xz') else n
        oracles = {k: os.path.join(top, base + k) for k in ('.script.xz', '.script-trace.xz', '.script-default.xz')}
        if not any(os.path.exists(o) for o in oracles.values()):
            continue
        data = unpacked(path, work)
        if os.path.exists(oracles['.script.xz']):
            args = ['--show-task-events', '--show-mmap-events'] + syms + ['-F', ','.join(fixture_fields(t, data))]
            t.compare(base, args + [data], top, lzma.open(oracles['.script.xz']).read().decode('utf-8', 'replace'))
        trace_args = here + ['-F', 'comm,tid,pid,time,cpu,event,trace']
        if os.path.exists(oracles['.script-trace.xz']):
            want = lzma.open(oracles['.script-trace.xz']).read().decode('utf-8', 'replace')
            run = t.compare(base + ' (trace)', trace_args + [data], top, want)
            twin, why = swapped(data, work)
            t.inputs += 1
            if not twin:
                t.failed += 1
                print(f'FAIL {base} (big-endian twin): swap_endian.py failed: {why}')
            else:
                other = run_tool_in([t.binary, 'script'] + trace_args + [twin], top, run.rc or 0)
                n, first = diff_count(other.out, run.out)
                if other.problems or n:
                    t.failed += 1
                    print(f'FAIL {base} (big-endian twin): ' + '; '.join(other.problems + ([f'{n} lines differ from the original'] if n else [])))
                    if first:
                        print('     first difference at ' + first.replace('perf:', 'little:').replace('perfdata:', 'big:'))
                else:
                    t.passed += 1
        if os.path.exists(oracles['.script-default.xz']):
            want = lzma.open(oracles['.script-default.xz']).read().decode('utf-8', 'replace')
            t.compare(base + ' (default)', here + [data], top, want)
        if collapse:
            check_collapse(t, base, data, ks, top)


def check_collapse(t, base, data, ks, top):
    """stackcollapse-perf.pl over our script output = our collapse."""
    sym = ['--kallsyms', ks] if ks else []
    p = subprocess.run([t.binary, 'script', '-F', 'comm,pid,tid,time,event,ip,sym,dso'] + sym + [data], cwd=top,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if p.returncode != 0 or b'\n\t' not in p.stdout:
        return  # no call chains (or a refusal the comparison above reports)
    if not os.path.exists(STACKCOLLAPSE):
        t.skipped += 1
        print(f'skip {base} (collapse of script): {STACKCOLLAPSE} not found')
        return
    ours = subprocess.run([t.binary, 'collapse'] + sym + [data], cwd=top, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if b'user stack dump' in ours.stderr:
        # --call-graph dwarf: collapse folds the sampled ip where perf (and
        # so script) would unwind the stack; they differ by design
        t.skipped += 1
        print(f'skip {base} (collapse of script): --call-graph dwarf stacks are not unwound')
        return
    t.inputs += 1
    folded = subprocess.run(['perl', STACKCOLLAPSE], input=p.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    a = sorted(folded.stdout.decode('utf-8', 'replace').splitlines())
    b = sorted(ours.stdout.decode('utf-8', 'replace').splitlines())
    if folded.returncode != 0 or ours.returncode != 0 or a != b or not a:
        t.failed += 1
        diff = sorted(set(a) ^ set(b))
        print(f'FAIL {base} (collapse of script): stackcollapse-perf.pl rc {folded.returncode}, collapse rc '
              f'{ours.returncode}, {len(diff)} stacks differ' + (f': {diff[0][:200]!r}' if diff else ''))
    else:
        t.passed += 1
        if t.verbose:
            print(f'ok   {base} (collapse of script): {len(a)} stacks')


def main():
    args = sys.argv[1:]
    verbose = '-v' in args
    collapse = '--collapse' in args
    args = [a for a in args if a not in ('-v', '--collapse')]
    expect = None
    if '--expect' in args:
        i = args.index('--expect')
        expect = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    t = Tally(os.path.abspath(args[0]), verbose, Expectations(expect))
    with tempfile.TemporaryDirectory() as work:
        for top in args[1:]:
            top = os.path.abspath(top)
            if os.path.exists(os.path.join(top, 'manifest.json')):
                corpus_inputs(t, top)
            else:
                fixture_inputs(t, top, work, collapse)
    return finish(t.passed, t.failed, t.skipped, t.expected, 'a perf script oracle', t.inputs)


if __name__ == '__main__':
    sys.exit(main())
