#!/usr/bin/env python3
"""Differential test: `perfdata diff OLD NEW` against perf 6.1's `perf diff
OLD NEW`, run live, byte for byte (every line, the column titles' padding
included).

Pairs:
  * every ordered pair of the workload fixtures of tests/data (a profile
    against itself too), both tools given report_diff's --symfs tree;
  * the system-wide fixtures (tests/data/sys-*.data.xz) against each other,
    with their --kallsyms extract and --symfs tree (profile_diff's unpack).
    perf diff refuses pipe-mode files: a pipe is compared through its
    file-mode twin (`perfdata convert --file`), which perf reads;
  * with --corpus DIR, each perf.data of DIR/recorded against the next one
    in name order, both ways.

Without perf every comparison is a skip. Then the command line: one input
(./perf.data.old is the baseline), none, three, both on standard input, a
missing file, standard input as one side, a write error on /dev/full, and
--compute delta, whose order is checked against perf's `-c delta`.

Usage: diff_diff.py PERFDATA [--corpus DIR] [-v]
"""
import itertools
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from oracles import SANITIZER  # noqa: E402
from profile_diff import unpack  # noqa: E402

DATA = os.path.join(HERE, 'data')
# the workload fixtures: one event or several, callchains, kernel only,
# compressed, tracepoints, leader sampling
WORKLOAD = ('plain', 'tasks', 'callchain-fp', 'callchain-dwarf', 'two-events', 'page-faults', 'kernel-a',
            'zstd', 'syscall-write', 'group-read', 'sample-id', 'stat-threads')
SYSTEM = ('sys-g', 'sys-inject', 'sys-pipe')

passed = failed = skipped = 0
verbose = False
BINARY = None


def check(label, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {label}: {detail}'[:3000])


def run(cmd, env=None, stdin=None, stdout=subprocess.PIPE):
    p = subprocess.run(cmd, stdin=stdin if stdin is not None else subprocess.DEVNULL, stdout=stdout,
                       stderr=subprocess.PIPE, env=env, timeout=600)
    out = p.stdout.decode('utf-8', 'replace') if p.stdout is not None else ''
    return p.returncode, out, p.stderr.decode('utf-8', 'replace')


class Pairs:
    def __init__(self, binary):
        self.binary = binary
        self.perf = shutil.which('perf')
        self.tmp = tempfile.mkdtemp(prefix='diff_diff.')
        self.env = dict(os.environ, PERF_BUILDID_DIR=os.path.join(self.tmp, 'buildid'), HOME=self.tmp,
                        PERF_PAGER='cat', PERF_CONFIG_NOSYSTEM='1', LC_ALL='C')
        os.makedirs(self.env['PERF_BUILDID_DIR'])

    def compare(self, label, old, new, opts, ours_opts=()):
        """perfdata diff ours_opts opts old new = perf diff opts old new."""
        global skipped
        if not self.perf:
            skipped += 1
            return
        theirs = opts
        # perf diff takes no pipe-mode records (a pipe, or perf inject's
        # output of one): it gets their file-mode twins
        twins = [file_twin(self.binary, p, self.tmp) if has_pipe_records(p) else p for p in (old, new)]
        if not all(twins):
            return
        rc, want, err = run([self.perf, 'diff'] + theirs + twins, env=self.env)
        if rc != 0:
            skipped += 1
            print(f'skip {label}: perf diff exit {rc}: {err.strip()[:200]}')
            return
        rc, got, err = run([self.binary, 'diff'] + list(ours_opts) + opts + [old, new])
        if rc != 0 or SANITIZER.search(err):
            check(label, False, f'perfdata exit {rc}: {err.strip()[:300]}')
            return
        a, b = got.split('\n'), want.split('\n')
        diffs = [(i, x, y) for i, (x, y) in enumerate(itertools.zip_longest(a, b)) if x != y]
        detail = ''
        if diffs:
            i, x, y = diffs[0]
            detail = f'{len(diffs)} lines differ, first at line {i + 1}: ours {x!r} | perf {y!r}'
            if verbose:
                detail += ''.join(f'\n    {i + 1:5}  ours {x!r}\n           perf {y!r}' for i, x, y in diffs[:30])
        check(label, not diffs, detail)


def has_pipe_records(path):
    """A pipe-mode stream, or a file with pipe-mode records in it (perf
    inject writes a pipe's HEADER_ATTR records into its output file)."""
    if os.path.isdir(path):  # a --threads directory: perf reads those
        return False
    with open(path, 'rb') as f:
        head = f.read(16)
    if head[8:16] == (16).to_bytes(8, 'little') or head[8:16] == (16).to_bytes(8, 'big'):
        return True
    p = subprocess.run([BINARY, 'stat', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return b'HEADER_ATTR' in p.stdout


def file_twin(binary, pipe_data, tmp):
    """A pipe-mode profile's file-mode copy (perf diff reads no pipes)."""
    out = os.path.join(tmp, os.path.abspath(pipe_data).strip('/').replace('/', '_') + '.file')
    if os.path.exists(out):
        return out
    rc, _, err = run([binary, 'convert', '--file', '-o', out, pipe_data])
    check(f'convert --file {os.path.basename(pipe_data)}', rc == 0, err)
    return out if rc == 0 else None


def command_line(binary, tmp):
    plain, tasks = os.path.join(DATA, 'plain.data'), os.path.join(DATA, 'tasks.data')
    pipe = os.path.join(DATA, 'pipe.data')
    rc, ref, err = run([binary, 'diff', plain, tasks])
    check('diff OLD NEW', rc == 0 and ref.startswith("# Event '") and not err, f'rc {rc} {err}')
    # one input: ./perf.data.old is the baseline; none: ./perf.data the new one
    shutil.copy(plain, os.path.join(tmp, 'perf.data.old'))
    shutil.copy(tasks, os.path.join(tmp, 'perf.data'))
    p = subprocess.run([os.path.abspath(binary), 'diff', 'perf.data'], cwd=tmp, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    check('diff NEW: ./perf.data.old is OLD', p.returncode == 0 and p.stdout.decode() == ref, p.stderr.decode())
    p = subprocess.run([os.path.abspath(binary), 'diff'], cwd=tmp, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    check('diff: ./perf.data.old and ./perf.data', p.returncode == 0 and p.stdout.decode() == ref, p.stderr.decode())
    os.unlink(os.path.join(tmp, 'perf.data.old'))
    p = subprocess.run([os.path.abspath(binary), 'diff', 'perf.data'], cwd=tmp, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    err = p.stderr.decode()
    check('diff NEW without ./perf.data.old: exit 1, says so', p.returncode == 1 and 'perf.data.old' in err and
          not p.stdout, f'rc {p.returncode} {err}')
    rc, out, err = run([binary, 'diff', plain, tasks, plain])
    check('three inputs: a usage error', rc == 2 and 'more than 2 inputs' in err and not out, f'rc {rc} {err}')
    rc, out, err = run([binary, 'diff', '-', '-'])
    check('standard input twice: a usage error', rc == 2 and 'standard input' in err and not out, f'rc {rc} {err}')
    rc, out, err = run([binary, 'diff', plain, os.path.join(tmp, 'missing.data')])
    check('a missing NEW: exit 1, named', rc == 1 and 'missing.data' in err and not out, f'rc {rc} {err}')
    rc, out, err = run([binary, 'diff', os.path.join(tmp, 'missing.data'), plain])
    check('a missing OLD: exit 1, named', rc == 1 and 'missing.data' in err and not out, f'rc {rc} {err}')
    with open(tasks, 'rb') as f:
        rc, out, err = run([binary, 'diff', plain, '-'], stdin=f)
    check('NEW from standard input = from the file', rc == 0 and out == ref, f'rc {rc} {err}')
    # a pipe-mode profile (perf diff refuses them) = its file-mode twin
    twin = file_twin(binary, pipe, tmp)
    if twin:
        rc, a, err = run([binary, 'diff', pipe, plain])
        rc2, b, err2 = run([binary, 'diff', twin, plain])
        check('a pipe-mode OLD = its file-mode twin', rc == 0 and rc2 == 0 and a == b and a, err + err2)
    with open('/dev/full', 'wb') as full:
        rc, _, err = run([binary, 'diff', plain, tasks], stdout=full)
    check('a write error: exit 1, said', rc == 1 and 'write error' in err, f'rc {rc} {err}')
    rc, out, err = run([binary, 'diff', '--compute', 'ratio', plain, tasks])
    check('--compute ratio: a usage error', rc == 2 and 'delta' in err, f'rc {rc} {err}')
    rc, out, err = run([binary, 'diff', '-c', 'delta-abs', plain, tasks])
    check('-c delta-abs is the default', rc == 0 and out == ref, err)


def main():
    global verbose
    args = sys.argv[1:]
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    corpus = None
    if '--corpus' in args:
        i = args.index('--corpus')
        corpus = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__.strip().split('\n')[-1], file=sys.stderr)
        return 2
    global BINARY
    binary = BINARY = args[0]
    pairs = Pairs(binary)
    try:
        command_line(binary, pairs.tmp)
        names = [os.path.join(DATA, n + '.data') for n in WORKLOAD]
        found = [n for n in names if os.path.exists(n)]
        check('the workload fixtures are there', len(found) == len(names), f'{len(found)} of {len(names)}')
        # the fixtures' program: in perf's build-id cache for perf, found by
        # its build id below tests/data by ours (a --symfs tree would change
        # how perf reads the kernel's and the vdso's symbols)
        if pairs.perf:
            rc, _, err = run([pairs.perf, 'buildid-cache', '-a', os.path.join(DATA, 'workload')], env=pairs.env)
            check('perf buildid-cache -a tests/data/workload', rc == 0, err)
            # and this kernel's vdso, as perf record leaves it there (ours
            # reads its own process's when the recorded build id is this one)
            rc, _, err = run([pairs.perf, 'record', '-q', '--buildid-all', '-o', os.path.join(pairs.tmp, 'vdso.data'),
                              '--', 'true'], env=pairs.env)
            if rc != 0:
                print(f'note: perf record failed ({err.strip()[:200]}): a fixture whose samples hit the vdso '
                      'may differ')
        for old, new in itertools.product(found, repeat=2):
            label = f'diff {os.path.basename(old)} {os.path.basename(new)}'
            pairs.compare(label, old, new, [], ours_opts=['--symdir', DATA])
        # -c delta: perf spells it the same
        pairs.compare('diff -c delta plain.data tasks.data', names[0], names[1], ['-c', 'delta'],
                      ours_opts=['--symdir', DATA])
        unpacked = {}
        for n in SYSTEM:
            path = os.path.join(DATA, n + '.data.xz')
            if os.path.exists(path):
                unpacked[n] = unpack(path)
        check('the system-wide fixtures are there', len(unpacked) == len(SYSTEM), f'{len(unpacked)} of {len(SYSTEM)}')
        for a, b in itertools.product(sorted(unpacked), repeat=2):
            (da, ka, sa), (db, _, _) = unpacked[a], unpacked[b]
            opts = (['--kallsyms', ka] if ka else []) + (['--symfs', sa] if sa else [])
            pairs.compare(f'diff {a} {b}', da, db, opts)
        if corpus:
            rec = os.path.join(corpus, 'recorded')
            files = sorted(os.path.join(rec, f) for f in os.listdir(rec) if f.endswith('.data')) \
                if os.path.isdir(rec) else []
            check('the corpus has recorded profiles', len(files) > 1, rec)
            # recorded on other kernels: no kernel symbols for either tool
            # (perf would take this host's for a profile that names no host)
            empty = os.path.join(pairs.tmp, 'no-kallsyms')
            open(empty, 'w').close()
            for a, b in zip(files, files[1:]):
                for old, new in ((a, b), (b, a)):
                    pairs.compare(f'diff {os.path.basename(old)} {os.path.basename(new)}', old, new,
                                  ['--kallsyms', empty])
    finally:
        shutil.rmtree(pairs.tmp, ignore_errors=True)
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
