#!/usr/bin/env python3
"""Differential test on realistic profiles: `perfdata report` and
`perfdata collapse` against perf itself, run live, line for line.

Each FIXTURE is a perf.data file, or NAME.data.xz (unpacked into
build/test/profile/). Beside it, PREFIX-kallsyms.xz and PREFIX-bins.tar.xz
(PREFIX = the fixture name up to its first '-', e.g. sys-g.data.xz ->
sys-kallsyms.xz, sys-bins.tar.xz; see tests/data/record-system.sh) give the
kernel symbols and the recorded programs; both tools get the same
--kallsyms FILE and --symfs DIR. The --symfs tree holds the unpacked
programs at the path they ran from plus links to this machine's /usr, /bin,
/lib, /lib64, /sbin and /root (system libraries and interpreters); objects
anywhere else (other users' builds, memfd) are not in it, so neither tool
can read their symbols.

Comparisons, per fixture:
  * `perfdata report -n --sort KEYS` = `perf report --stdio --no-children
    -g none -n --sort KEYS` for every order of every non-empty subset of
    comm, pid, dso, sym (64); -g none because perf would print each row's
    call graph under it for these -g recordings, and perfdata report is the
    flat profile;
  * with --sort comm,dso,sym, each filter: --comm, --pid, --tid, --cpu 0,
    --dso libc.so.6, --sym (a user and a kernel symbol), --percent-limit 1,
    --time START,END (values taken from the fixture through perf);
  * for pipe-mode fixtures, report and collapse reading standard input ('-');
  * `perfdata collapse [--kernel|--with-pid|--period]` = `perf script -F ... |
    stackcollapse-perf.pl [--kernel|--pid]`, kernel frames included, and on
    a profile with several events `perfdata collapse --event NAME` =
    `stackcollapse-perf.pl --event-filter=NAME` for each event.
The program under test must exit 0 and write no sanitizer report. perf runs
with an empty PERF_BUILDID_DIR and HOME (no build-id cache, no
~/.perfconfig). Without perf every comparison is skipped, never passed.

Usage: profile_diff.py PERFDATA [-v] FIXTURE...
  -v  print the whole diff of each failing comparison, not only its first line
"""
import itertools
import lzma
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORK = os.path.join(ROOT, 'build', 'test', 'profile')
STACKCOLLAPSE = os.path.join(ROOT, '..', 'shared', 'tools', 'flamegraph', 'stackcollapse-perf.pl')
KEYS = ('comm', 'pid', 'dso', 'sym')
SYSTEM_DIRS = ('usr', 'bin', 'lib', 'lib64', 'sbin', 'root')
SANITIZER = re.compile(r'AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|MemorySanitizer')


def sort_orders():
    """Every ordering of every non-empty subset of KEYS (64)."""
    for n in range(1, len(KEYS) + 1):
        for combo in itertools.permutations(KEYS, n):
            yield ','.join(combo)


def unpack(path):
    """-> (data file, kallsyms file or None, symfs dir or None)"""
    here, name = os.path.split(os.path.abspath(path))
    base = name[:-3] if name.endswith('.xz') else name
    os.makedirs(WORK, exist_ok=True)
    data = path
    if name.endswith('.xz'):
        data = os.path.join(WORK, base)
        with lzma.open(path) as src, open(data + '.tmp', 'wb') as dst:
            shutil.copyfileobj(src, dst)
        os.replace(data + '.tmp', data)
    prefix = base.split('-', 1)[0]
    kallsyms = symfs = None
    ksrc = os.path.join(here, prefix + '-kallsyms.xz')
    if os.path.exists(ksrc):
        kallsyms = os.path.join(WORK, prefix + '-kallsyms')
        with lzma.open(ksrc) as src, open(kallsyms, 'wb') as dst:
            shutil.copyfileobj(src, dst)
    bins = os.path.join(here, prefix + '-bins.tar.xz')
    if os.path.exists(bins):
        symfs = os.path.join(WORK, prefix + '-symfs')
        if os.path.isdir(symfs):
            shutil.rmtree(symfs)
        os.makedirs(symfs)
        with tarfile.open(bins) as t:
            t.extractall(symfs)
        for d in SYSTEM_DIRS:
            if os.path.exists('/' + d) and not os.path.lexists(os.path.join(symfs, d)):
                os.symlink('/' + d, os.path.join(symfs, d))
    return data, kallsyms, symfs


class Runner:
    def __init__(self, binary, verbose):
        self.binary = binary
        self.verbose = verbose
        self.perf = shutil.which('perf')
        self.perl = shutil.which('perl') if os.path.exists(STACKCOLLAPSE) else None
        self.tmp = tempfile.mkdtemp(prefix='profile_diff.')
        self.env = dict(os.environ, PERF_BUILDID_DIR=os.path.join(self.tmp, 'buildid'),
                        HOME=self.tmp, PERF_PAGER='cat', PERF_CONFIG_NOSYSTEM='1', LC_ALL='C')
        os.makedirs(self.env['PERF_BUILDID_DIR'])
        self.passed = self.failed = self.skipped = 0

    def ours(self, args, stdin=None):
        """(stdout of the program under test, None) or (None, why not)."""
        p = subprocess.run([self.binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600,
                           input=stdin)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != 0 or SANITIZER.search(err):
            first = next((l for l in err.split('\n') if l.strip()), '')
            return None, f'perfdata exit {p.returncode}: {first[:200]}'
        return p.stdout.decode('utf-8', 'replace'), None

    def run(self, cmd, stdin=None):
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.env,
                           input=stdin, timeout=600)
        self.last_stderr = p.stderr.decode('utf-8', 'replace')
        return p.returncode, p.stdout.decode('utf-8', 'replace')

    def compare(self, label, ours_args, theirs, clean=lambda text: text, stdin=None):
        """theirs: a function returning perf's text, or None when perf cannot
        run; clean: applied to our output before the comparison; stdin: bytes
        for our standard input."""
        if theirs is None:
            self.skipped += 1
            return
        want = theirs()
        if want is None:
            self.skipped += 1
            print(f'skip {label}: perf refused it')
            return
        got, why = self.ours(ours_args, stdin)
        if got is None:
            self.failed += 1
            print(f'FAIL {label}: {why}')
            return
        a, b = clean(got).split('\n'), want.split('\n')
        if a == b:
            self.passed += 1
            return
        self.failed += 1
        diff = [(i, x, y) for i, (x, y) in enumerate(itertools.zip_longest(a, b)) if x != y]
        i, x, y = diff[0]
        note = ''
        if sorted(a) == sorted(b):
            note = ' (same lines, other order)'
        print(f'FAIL {label}: {len(diff)} lines differ{note}, first at line {i + 1}: ours {x!r} | perf {y!r}')
        if self.verbose:
            for i, x, y in diff[:40]:
                print(f'    {i + 1:5}  ours {x!r}\n           perf {y!r}')


# perf report --stdio lines left out of the comparison:
#  * '# (Tip: ...)' closes every report with a tip picked at random.
# Every other line, the header comments included, is compared. Trailing
# blanks are removed on both sides: perf pads the last column of each row
# and of the column titles to the column's width, which is invisible.
def clean_report(text):
    return '\n'.join(l.rstrip() for l in text.split('\n') if not l.startswith('# (Tip:'))


def main():
    args = sys.argv[1:]
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    if len(args) < 2:
        print(__doc__.strip().split('\n')[-2], file=sys.stderr)
        return 2
    r = Runner(args[0], verbose)
    try:
        for fixture in args[1:]:
            check_fixture(r, fixture)
    finally:
        shutil.rmtree(r.tmp, ignore_errors=True)
    print(f'{r.passed} passed, {r.failed} failed, {r.skipped} skipped')
    return 1 if r.failed else 0


def check_fixture(r, fixture):
    data, kallsyms, symfs = unpack(fixture)
    name = os.path.basename(fixture)
    common = (['--kallsyms', kallsyms] if kallsyms else []) + (['--symfs', symfs] if symfs else [])

    def perf_report(extra):
        if not r.perf:
            return None

        def run():
            rc, out = r.run([r.perf, 'report', '-i', data, '--stdio', '--no-children', '-g', 'none', '-n'] + common + extra)
            # perf reports some refusals with exit 0 (a pipe has no CPU count
            # when --cpu is checked: "Requested CPU 0 too large")
            return clean_report(out) if rc == 0 and '\nError:' not in '\n' + r.last_stderr else None
        return run

    for keys in sort_orders():
        r.compare(f'{name}: report -n --sort {keys}', ['report', '-n', '--sort', keys] + common + [data],
                  perf_report(['--sort', keys]), clean_report)

    # filter values, taken from the fixture through perf. perf spells the
    # symbol filter --symbols (its --sym is an ambiguous abbreviation);
    # --comm, --dso are perf's --comms, --dsos abbreviated.
    pick = filter_values(r, data, common) if r.perf else {}
    filters = [['--cpu', '0'], ['--dso', 'libc.so.6'], ['--percent-limit', '1']]
    for opt, key in (('--comm', 'comm'), ('--pid', 'pid'), ('--tid', 'tid'), ('--sym', 'sym'),
                     ('--sym', 'ksym'), ('--time', 'time')):
        filters.append([opt, pick.get(key, '?')])
    for f in filters:
        theirs = ['--symbols' if f[0] == '--sym' else f[0], f[1]]
        r.compare(f'{name}: report -n --sort comm,dso,sym {" ".join(f)}',
                  ['report', '-n', '--sort', 'comm,dso,sym'] + f + common + [data],
                  perf_report(['--sort', 'comm,dso,sym'] + theirs) if r.perf and f[1] != '?' else None,
                  clean_report)

    # collapse against stackcollapse-perf.pl over perf script. Fields as the
    # script's own usage text asks (comm,pid,tid,...: 'comm pid/tid' on each
    # sample line, which --pid needs; without pid the tid is taken for it),
    # less trace (no tracepoints here) and without period: given a period
    # the script adds periods, given none it counts samples, which is what
    # `perfdata collapse` counts; `--period` is compared with period shown.
    can_fold = r.perf and r.perl
    events = event_names(r, data, common) if can_fold else []
    fields = 'comm,pid,tid,cpu,time,event,ip,sym,dso'
    cases = [([], [], fields), (['--kernel'], ['--kernel'], fields), (['--with-pid'], ['--pid'], fields),
             (['--period'], [], fields.replace('event,', 'event,period,'))]
    if len(events) > 1:
        cases += [(['--event', e], ['--event-filter=' + e], fields) for e in events]
    for ours_opts, pl_opts, script_fields in cases:
        def fold(pl_opts=pl_opts, script_fields=script_fields):
            rc, script = r.run([r.perf, 'script', '-i', data, '-F', script_fields] + common)
            if rc != 0:
                return None
            rc, out = r.run([r.perl, STACKCOLLAPSE] + pl_opts, stdin=script.encode())
            return out if rc == 0 else None
        r.compare(f'{name}: collapse {" ".join(ours_opts)}'.rstrip(), ['collapse'] + ours_opts + common + [data],
                  fold if can_fold else None)

    # the kernel's build-id entry naming a vmlinux (as when perf recorded
    # with one at hand): perf then calls the kernel's dso [kernel.vmlinux].
    # A copy of the fixture with that entry's name overwritten in place
    # (same length, NUL-padded), reported by dso and by dso,sym.
    if not is_pipe(data):
        raw = bytearray(open(data, 'rb').read())
        at = raw.find(b'[kernel.kallsyms]\x00')
        if at < 0 or raw.find(b'[kernel.kallsyms]\x00', at + 1) >= 0:
            r.skipped += 1
            print(f'skip {name}: vmlinux variant: no single [kernel.kallsyms] build-id entry')
        else:
            new = b'/boot/vmlinux-pd'
            raw[at:at + 17] = new + b'\0' * (17 - len(new))
            variant = os.path.join(r.tmp, 'vmlinux-' + os.path.basename(data))
            open(variant, 'wb').write(raw)
            for keys in ('dso', 'dso,sym'):
                def perf_variant(keys=keys):
                    rc, out = r.run([r.perf, 'report', '-i', variant, '--stdio', '--no-children', '-g', 'none', '-n',
                                     '--sort', keys] + common)
                    return clean_report(out) if rc == 0 else None
                r.compare(f'{name}: build-id table naming a vmlinux: report -n --sort {keys}',
                          ['report', '-n', '--sort', keys] + common + [variant],
                          perf_variant if r.perf else None, clean_report)

    # guest samples: every 7th user-mode sample of a file-mode fixture turned
    # into a guest-user one (cpumode 5, header misc bits 0-2). perf keeps no
    # guest machine by default: those samples count in the totals, their
    # rows are filtered out, and perf script leaves them out.
    if not is_pipe(data):
        raw = bytearray(open(data, 'rb').read())
        off, size = int.from_bytes(raw[40:48], 'little'), int.from_bytes(raw[48:56], 'little')
        pos, k = off, 0
        while pos + 8 <= off + size:
            rtype = int.from_bytes(raw[pos:pos + 4], 'little')
            misc = int.from_bytes(raw[pos + 4:pos + 6], 'little')
            rsize = int.from_bytes(raw[pos + 6:pos + 8], 'little')
            if rsize < 8:
                break
            if rtype == 9 and misc & 7 == 2:
                k += 1
                if k % 7 == 0:
                    raw[pos + 4:pos + 6] = ((misc & ~7) | 5).to_bytes(2, 'little')
            pos += rsize
        guest = os.path.join(r.tmp, 'guest-' + os.path.basename(data))
        open(guest, 'wb').write(raw)
        for keys in ('comm,dso,sym', 'dso', 'sym'):
            def perf_guest(keys=keys):
                rc, out = r.run([r.perf, 'report', '-i', guest, '--stdio', '--no-children', '-g', 'none', '-n',
                                 '--sort', keys] + common)
                return clean_report(out) if rc == 0 else None
            r.compare(f'{name}: guest samples: report -n --sort {keys}', ['report', '-n', '--sort', keys] + common + [guest],
                      perf_guest if r.perf else None, clean_report)
        if r.perf and r.perl:
            def fold_guest():
                rc, script = r.run([r.perf, 'script', '-i', guest, '-F', fields] + common)
                if rc != 0:
                    return None
                rc, out = r.run([r.perl, STACKCOLLAPSE], stdin=script.encode())
                return out if rc == 0 else None
        r.compare(f'{name}: guest samples: collapse', ['collapse'] + common + [guest], fold_guest if can_fold else None)

    # a pipe-mode stream read from standard input, as `perf record -o - |
    # perfdata report -` would; perf reads the same bytes with -i -
    if is_pipe(data):
        stream = open(data, 'rb').read()

        def perf_stdin(args):
            def run():
                rc, out = r.run([r.perf] + args, stdin=stream)
                return clean_report(out) if rc == 0 else None
            return run if r.perf else None
        r.compare(f'{name}: report -n --sort comm,dso,sym - (standard input)',
                  ['report', '-n', '--sort', 'comm,dso,sym'] + common + ['-'],
                  perf_stdin(['report', '-i', '-', '--stdio', '--no-children', '-g', 'none', '-n',
                              '--sort', 'comm,dso,sym'] + common),
                  clean_report, stream)
        if r.perf and r.perl:
            def fold_stdin():
                rc, script = r.run([r.perf, 'script', '-i', '-', '-F', fields] + common, stdin=stream)
                if rc != 0:
                    return None
                rc, out = r.run([r.perl, STACKCOLLAPSE], stdin=script.encode())
                return out if rc == 0 else None
        r.compare(f'{name}: collapse - (standard input)', ['collapse'] + common + ['-'],
                  fold_stdin if can_fold else None, stdin=stream)


def is_pipe(data):
    """perf.data in pipe mode: a 16-byte header (magic, size) only."""
    with open(data, 'rb') as f:
        head = f.read(16)
    return len(head) == 16 and head[:8] in (b'PERFILE2', b'2ELIFREP') and \
        int.from_bytes(head[8:], 'little' if head[:8] == b'PERFILE2' else 'big') == 16


def filter_values(r, data, common):
    """A comm, pid, tid, user and kernel symbol and a time range of the fixture."""
    pick = {}
    rc, out = r.run([r.perf, 'report', '-i', data, '--stdio', '--no-children', '-g', 'none', '-n',
                     '--sort', 'pid,dso,sym'] + common)
    for line in out.split('\n'):
        m = re.match(r'^\s+\S+%\s+\d+\s+(\d+):(\S.*?)\s{2,}(\S+)\s+\[(.)\] (.*?)\s*$', line)
        if not m or m.group(1) == '0':
            continue
        pid, comm, dso, kind, sym = m.groups()
        if 'pid' not in pick and kind == '.':
            pick.update(pid=pid, tid=pid, comm=comm)
        if 'sym' not in pick and kind == '.' and not sym.startswith('0x'):
            pick['sym'] = sym
        if 'ksym' not in pick and kind == 'k' and not sym.startswith('0x'):
            pick['ksym'] = sym
    # --tid: a thread of a multi-threaded process when there is one
    rc, out = r.run([r.perf, 'script', '-i', data, '-F', 'pid,tid,time'] + common)
    times, tids = [], []
    for line in out.split('\n'):
        m = re.match(r'^\s*(\d+)/(\d+)\s+(\d+\.\d+):', line)
        if m:
            times.append(m.group(3))
            if m.group(1) != m.group(2) and m.group(1) != '0':
                tids.append(m.group(2))
    if tids:
        pick['tid'] = tids[len(tids) // 2]
    if times:
        times.sort(key=float)
        pick['time'] = f'{times[len(times) // 4]},{times[3 * len(times) // 4]}'
    return pick


def event_names(r, data, common):
    """The events with samples, as perf report names them in its headers."""
    rc, out = r.run([r.perf, 'report', '-i', data, '--stdio', '-g', 'none', '--sort', 'comm'] + common)
    return re.findall(r"^# Samples: \S+\s+of event '(.*)'$", out, re.M) if rc == 0 else []


if __name__ == '__main__':
    sys.exit(main())
