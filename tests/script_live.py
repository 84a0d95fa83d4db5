#!/usr/bin/env python3
"""Differential test: `perfdata script` against perf 6.1's `perf script`,
both run live with the same options on the fixtures of tests/data, stdout
compared byte for byte.

tests/script_diff.py compares with oracles perf wrote once (a few option
sets per fixture); this test covers the option surface a perf user meets:

  * -F lists: plain, with a type prefix (trace:, sw:, hw:, raw:, break:,
    synth:), +field / -field, sym, symoff, dso, addr, ip alone (call chains
    as bare addresses), --ns, -G; lists perf refuses (a field the samples
    lack, +-fields mixed with a plain list, symoff without sym) must be
    refused by perfdata too;
  * --comm, --pid, --tid, --cpu and --time (a span, either end open, sample
    times as bounds in microseconds and in nanoseconds, percentages as
    10%-20%, 10%/2 and 0%-10%,30%-40%), alone and with -F lists and the
    side-band lines; the values are taken from each fixture through perf;
  * --show-task-events, --show-mmap-events, --show-lost-events;
  * refusals: -F FIELD on samples without it must exit non-zero with a
    message naming the field, as perf refuses.

Each comparison runs `perf script -i FILE ARGS` and `perfdata script -i FILE
ARGS`: when perf exits 0, perfdata must exit 0, write nothing a sanitizer
writes, and print exactly perf's stdout; when perf refuses (non-zero exit),
perfdata must refuse too (non-zero exit, nothing on stdout). A failure
prints both command lines and the first differing line.

Both tools get the same kernel symbols (--kallsyms: tp-kallsyms.xz
unpacked, the extract of /proc/kallsyms record-tracepoints.sh made) and the
same --symfs tree, built as tests/profile_diff.py builds its: the recorded
programs at the paths they ran from (tests/data/workload as
/tmp/perfdata-fixture/workload, tests/data/tp-workload as
/tmp/perfdata-tp/tp-workload, see record.sh and record-tracepoints.sh) plus
links to this machine's /usr, /bin, /lib, /lib64, /sbin and /root. They
run with an empty HOME and PERF_BUILDID_DIR (no ~/.debug, no build-id
cache, no ~/.perfconfig) and LC_ALL=C. The inputs are unpacked into
build/test/script-live/ and kept there, so that a failure's command lines
can be run again (with HOME and PERF_BUILDID_DIR set to an empty directory).

Left out, where perfdata is known to differ from perf (docs/perf-differences.md,
"Known gaps"):
  * callchain-dwarf.data with call chains shown: perf unwinds the
    --call-graph dwarf user stack dumps into frames, perfdata prints the
    recorded chain; that fixture is compared with -G or without ip only.
  * C++ demangling and [vdso] symbols: no fixture of tests/data has either
    in its samples (the system-wide sys-*.data.xz profiles, which have
    [vdso], are tests/profile_diff.py's).

Also a property test of `perfdata script --filter EXPR` (perf script has no
such option: nothing to compare with): on the tracepoint fixtures, for each
expression, the output with the filter must be exactly the lines of the
output without it (same -F comm,tid,time,event,trace) whose trace fields
satisfy the expression, evaluated here from the printed name=value (or
"name: value") text; an event whose format (read from the file's tracing
data) lacks a field the expression names must have no samples and stderr
must say so; an expression that does not parse must exit 2 with a message
on stderr and print nothing.

Without perf, or with a perf other than 6.1, the test prints a skip line
and "0 passed, 0 failed, 1 skipped" and exits 0.

Usage: script_live.py PERFDATA [-v] [-k TEXT] [-j N]
  -v       print every comparison, not only the failures
  -k TEXT  run only the comparisons whose label contains TEXT
  -j N     run N comparisons at a time (default: the number of CPUs)
"""
import collections
import concurrent.futures
import fnmatch
import lzma
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from oracles import run_tool

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
# the unpacked inputs, kept after the run so that a failure's command lines
# can be run again
WORK = os.path.join(os.path.dirname(HERE), 'build', 'test', 'script-live')
SYSTEM_DIRS = ('usr', 'bin', 'lib', 'lib64', 'sbin', 'root')
# fixtures committed xz-compressed (record-tracepoints.sh packs those over 128 KiB)
PACKED = ('tp-kmem-g.data.xz', 'tp-many.data.xz')
# --call-graph dwarf: perf unwinds the user stack dumps, perfdata does not
# (a known gap): such a fixture's call chains are never compared
DWARF = ('callchain-dwarf.data',)


# ------------------------------------------------------------------ setup

def perf_is_61(perf):
    try:
        p = subprocess.run([perf, 'version'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return False, 'perf does not run'
    v = p.stdout.decode('utf-8', 'replace').strip()
    return re.match(r'perf version 6\.1(\.|$)', v) is not None, v or 'no version'


def unxz(src, out):
    with lzma.open(src) as f, open(out + '.tmp', 'wb') as dst:
        shutil.copyfileobj(f, dst)
    os.replace(out + '.tmp', out)


def prepare(work):
    """-> (fixtures: [(name, path)], kallsyms, symfs), in work"""
    os.makedirs(work, exist_ok=True)
    kallsyms = os.path.join(work, 'tp-kallsyms')
    unxz(os.path.join(DATA, 'tp-kallsyms.xz'), kallsyms)
    symfs = os.path.join(work, 'symfs')
    for src, dst in (('workload', '/tmp/perfdata-fixture/workload'), ('tp-workload', '/tmp/perfdata-tp/tp-workload')):
        os.makedirs(os.path.dirname(symfs + dst), exist_ok=True)
        shutil.copy(os.path.join(DATA, src), symfs + dst)
    for d in SYSTEM_DIRS:
        if os.path.exists('/' + d) and not os.path.lexists(os.path.join(symfs, d)):
            os.symlink('/' + d, os.path.join(symfs, d))
    fixtures = []
    for n in sorted(os.listdir(DATA)):
        if n.endswith('.data'):  # files, and --threads directories
            fixtures.append((n, os.path.join(DATA, n)))
    for n in PACKED:
        out = os.path.join(work, n[:-3])
        unxz(os.path.join(DATA, n), out)
        fixtures.append((n[:-3], out))
    fixtures.sort()
    return fixtures, kallsyms, symfs


def run_perf(perf, path, args):
    p = subprocess.run([perf, 'script', '-i', path] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=600)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


# ------------------------------------------------------ values per fixture

LINE = re.compile(r'^\s*(?P<comm>.*?)\s+(?P<pid>-?\d+)/(?P<tid>-?\d+)\s+(?:\[(?P<cpu>\d+)\]\s+)?(?P<time>\d+\.\d+):\s*$')


class Facts:
    """What perf prints of a fixture's samples: comm, pid, tid, cpu, time
    (ns) of each, whether it has CPU and ADDR, tracepoints, call chains."""

    def __init__(self, perf, path, common):
        self.samples = []
        self.has_cpu = False
        for fields in ('comm,pid,tid,cpu,time', 'comm,pid,tid,time'):
            rc, out, _ = run_perf(perf, path, common + ['--ns', '-F', fields])
            if rc == 0:
                self.has_cpu = 'cpu' in fields
                break
        for line in out.split('\n') if rc == 0 else []:
            m = LINE.match(line)
            if m:
                s, ns = m.group('time').split('.')
                self.samples.append((m.group('comm'), int(m.group('pid')), int(m.group('tid')),
                                     int(m.group('cpu')) if m.group('cpu') else None, int(s) * 10**9 + int(ns)))
        rc, out, _ = run_perf(perf, path, common + ['-F', 'ip', '--show-mmap-events'])
        self.callchains = rc == 0 and '\n\t' in out
        self.has_addr = run_perf(perf, path, common + ['-F', 'addr'])[0] == 0
        rc, out, _ = run_perf(perf, path, common + ['-F', 'event,trace'])
        self.tracepoints = rc == 0 and out.strip() != ''

    def top(self, key, n):
        c = collections.Counter(s[key] for s in self.samples)
        return [str(v) for v, _ in c.most_common(n)]


def sec(ns, digits=6):
    s = f'{ns // 10**9}.{ns % 10**9:09d}'
    return s[:len(s) - (9 - digits)]


# ------------------------------------------------------------ comparisons

class Case:
    def __init__(self, fixture, path, common, args, refuse_field=None):
        self.fixture, self.path, self.common, self.args = fixture, path, common, args
        self.refuse_field = refuse_field  # perf and perfdata must refuse, naming this field

    @property
    def label(self):
        return f'{self.fixture}: script {" ".join(shlex.quote(a) for a in self.args)}'.rstrip()


def first_difference(got, want):
    a, b = got.splitlines(True), want.splitlines(True)
    i = next((i for i in range(min(len(a), len(b))) if a[i] != b[i]), min(len(a), len(b)))

    def show(lines):
        return repr(lines[i].rstrip('\n')[:300]) if i < len(lines) else '<end>'
    return (f'first difference at line {i + 1} (perf {len(b)} lines, perfdata {len(a)}):\n'
            f'       perf:     {show(b)}\n'
            f'       perfdata: {show(a)}')


def check(perf, binary, case):
    """-> (ok, message lines, perf printed something)"""
    args = case.common + case.args
    where = [f'     $ {tool} script -i {shlex.quote(case.path)} ' + ' '.join(shlex.quote(a) for a in args)
             for tool in ('perf', binary)]
    prc, pout, perr = run_perf(perf, case.path, args)
    perr_first = next((l for l in perr.split('\n') if l.strip() and 'No kallsyms or vmlinux' not in l), '')
    if prc != 0 or case.refuse_field:
        if case.refuse_field and prc == 0:
            return False, [f'perf did not refuse it (the test expects a refusal naming \'{case.refuse_field}\')'] + where, True
        run = run_tool([binary, 'script', '-i', case.path] + args, expect_rc=None)
        problems = [p for p in run.problems if not p.startswith('exit status')]
        if run.rc == 0:
            problems.append(f'exit 0 where perf refuses (exit {prc}: {perr_first.strip()[:200]!r})')
        if run.out:
            problems.append(f'{len(run.out.splitlines())} lines on stdout for a refusal')
        if case.refuse_field and f"'{case.refuse_field}'" not in run.err:
            first = next((l for l in run.err.split('\n') if l.strip()), '')
            problems.append(f"stderr does not name '{case.refuse_field}': {first[:200]!r}")
        if problems:
            return False, ['; '.join(problems)] + where, False
        return True, [f'both refuse: perf exit {prc}, perfdata exit {run.rc}'], False
    run = run_tool([binary, 'script', '-i', case.path] + args)
    problems = list(run.problems)
    if run.out != pout:
        problems.append(first_difference(run.out, pout))
    if problems:
        return False, ['; '.join(problems)] + where, bool(pout)
    return True, [f'{len(pout.splitlines())} lines'], bool(pout)


# The -F lists. CORE on every fixture; EXTRA (types, +-fields, refusals) on
# the fixtures that have what they change: CPU, ADDR and WEIGHT or not,
# call chains, several events, tracepoints, a pipe. perf refuses some
# lists on some fixtures (a field the samples lack, +-fields mixed with a
# plain list, symoff without sym): perfdata must refuse them too.
CORE = [
    'comm,tid,time,event,trace', 'comm,pid,tid,cpu,time,period,event,ip,sym,dso',
    'comm,tid,pid,time,cpu,event,ip,period,addr', 'tid,pid,time,event,period',
    'ip', 'ip,sym', 'ip,dso', 'ip,sym,symoff,dso', 'comm,tid,time,ip,sym,symoff,dso',
    'trace:comm,tid,time,event,trace', 'sw:comm,pid,tid,cpu,time,period,event,ip,sym,dso',
    '+period', '-cpu', 'comm,+tid',
]
EXTRA = [
    'ip,sym,symoff', 'ip,sym,dso', 'comm,time,event,ip', 'time,cpu,event', 'cpu', 'addr', 'ip,addr',
    'period,addr,ip,sym', 'addr,sym', 'addr,dso', 'weight', 'phys_addr', 'comm,sym', 'comm,dso',
    # with a type prefix
    'sw:comm,tid,time,event,ip,sym', 'trace:comm,tid,event,ip,sym,dso', 'hw:comm,tid,event',
    'raw:comm,event', 'break:comm', 'synth:comm', 'trace:', 'sw:',
    # +field / -field, on every kind or one
    '-period', '+pid', '-comm,-tid', '+pid,-time', '-ip', '-dso', '-symoff', '-sym', '+ip', '+addr', '+cpu',
    'sw:+pid', 'sw:-period', 'sw:+addr', 'trace:-cpu', 'trace:+period', 'trace:addr',
    # refused by perf
    '+tid,comm', 'ip,-sym', 'comm,ip,symoff',
]
EXTRA_ON = ('callchain-fp.data', 'many-fields.data', 'two-events.data', 'tp-many-g.data', 'tp-pipe.data')
# fixtures with something to filter on (several commands, threads, cpus,
# events, tracepoints, call chains, side-band records)
FILTER_ON = ('tasks.data', 'stat-threads.data', 'kernel-a.data', 'sample-id.data', 'two-events.data',
             'callchain-fp.data', 'switch.data', 'threads.data', 'tp-many.data', 'tp-kmem-g.data',
             'tp-many-g.data', 'tp-pipe.data')
# fixtures that differ from others in how they are stored (pipe, zstd,
# --threads directory) or in one record type: CORE_FEW of the lists
CORE_FEW = CORE[:4] + ['ip,sym,symoff,dso', 'sw:comm,pid,tid,cpu,time,period,event,ip,sym,dso', '+period']
FEW = ('group-read.data', 'namespaces.data', 'pipe.data', 'pipe-zstd.data', 'regs.data', 'syscall-write.data',
       'threads-zstd.data', 'zstd.data', 'zstd-22.data')
# the object of the sampled data address (ADDR). Not its symbol: perf's
# symbol tables hold data objects too (STT_OBJECT, and the like of
# _edata), perfdata's functions only; a page fault's data address then
# prints [unknown] (docs/perf-differences.md, known gaps).
ADDR_LISTS = ['addr,dso', 'ip,addr,dso', 'comm,tid,ip,addr,dso']


def is_pipe(path):
    """a pipe-mode file: its header is 16 bytes (magic, size)"""
    if os.path.isdir(path):
        return False
    with open(path, 'rb') as f:
        head = f.read(16)
    return len(head) == 16 and int.from_bytes(head[8:], 'little') == 16


def cases_for(f_name, path, facts, common):
    out = []
    dwarf = f_name in DWARF

    def add(args, **kw):
        out.append(Case(f_name, path, common, args, **kw))

    def shows_chain(args):
        """might the output show call chains (no -G, ip printed or
        possibly kept from the defaults)?"""
        if '-G' in args or not facts.callchains:
            return False
        if '-F' not in args:
            return True
        flist = args[args.index('-F') + 1]
        if ':' in flist or '+' in flist or '-' in flist:
            return True
        return 'ip' in flist.split(',')

    side = ['--show-task-events', '--show-mmap-events']
    cpu = 'cpu,' if facts.has_cpu else ''
    variants = [[], ['--ns'], side + ['--show-lost-events'], side + ['--ns', '-F', f'pid,tid,{cpu}time,event,trace']]
    if facts.callchains:
        variants += [['-G'], ['-G', '-F', 'ip,sym'], ['-G', '-F', 'comm,tid,ip,sym,symoff,dso'], ['-G', '-F', '+period']]
    if f_name in EXTRA_ON or f_name in FILTER_ON:
        variants += [['--show-task-events'], ['--show-mmap-events'], ['--show-lost-events'],
                     side + ['-F', 'comm,tid,pid,time,event,ip,sym']]
    lists = CORE_FEW if f_name in FEW else CORE + (EXTRA if f_name in EXTRA_ON else [])
    if facts.has_addr:
        lists = lists + ADDR_LISTS
    for fl in lists:
        variants.append(['-F', fl])
    for args in variants:
        if dwarf and shows_chain(args):
            continue  # perf unwinds the dwarf stack dumps (see the module comment)
        add(args)

    # refusals that must name the field (perf refuses them with
    # "Samples for 'EVENT' event do not have X attribute set. Cannot print 'x' field.")
    if not facts.has_cpu:
        add(['-F', 'comm,cpu,time'], refuse_field='cpu')
        if f_name in EXTRA_ON:
            add(['-F', '+cpu'], refuse_field='cpu')
    if not facts.has_addr:
        add(['-F', 'comm,tid,ip,addr'], refuse_field='addr')

    # filters, with values from the fixture, each with one of four field
    # choices in turn
    if len(facts.samples) >= 2 and f_name in FILTER_ON:
        chain = [] if not dwarf else ['-G']
        comms, pids, tids = facts.top(0, 3), facts.top(1, 3), facts.top(2, 3)
        times = sorted(s[4] for s in facts.samples)
        lo, hi = times[len(times) // 4], times[len(times) * 3 // 5]
        fl_a = ['-F', 'comm,tid,time,event,trace'] if facts.tracepoints else ['-F', 'comm,pid,tid,time,event,period']
        fl_b = ['-F', 'comm,pid,tid,time,event,ip,sym,dso'] + chain
        filters = [['--comm', comms[0]], ['--comm', ','.join(comms)], ['--pid', pids[0]],
                   ['--pid', ','.join(pids[:2])], ['--tid', tids[-1]], ['--tid', ','.join(tids)],
                   ['--time', f'{sec(lo)},{sec(hi)}'], ['--time', f'{sec(lo)},'], ['--time', f',{sec(hi)}'],
                   ['--time', f'{sec(lo, 9)},{sec(hi, 9)}', '--ns'],
                   ['--time', '10%-20%'], ['--time', '10%/2'], ['--time', '0%-10%,30%-40%'],
                   ['--comm', comms[0], '--time', f'{sec(lo)},{sec(hi)}']]
        # perf 6.1 refuses --cpu on a pipe ("Requested CPU 0 too large": it
        # checks the cpu against the header's CPU count, which a pipe has
        # not delivered yet); perfdata applies it: not compared
        if facts.has_cpu and not is_pipe(path):
            cpus = sorted({s[3] for s in facts.samples})
            filters += [['--cpu', str(cpus[0])], ['--cpu', str(cpus[-1])], ['--cpu', f'{cpus[0]}-{cpus[-1]}'],
                        ['-C', str(cpus[-1]), '--pid', pids[0]]]
        for i, flt in enumerate(filters):
            add(flt + [chain, fl_a, fl_b, side + fl_a][i % 4])
    return out


# ---------------------------------------------------- --filter (property)

class Undecidable(Exception):
    pass


def tokenize(expr):
    toks, i = [], 0
    ops = ('&&', '||', '==', '!=', '<=', '>=', '<', '>', '&', '~', '!', '(', ')')
    while i < len(expr):
        c = expr[i]
        if c.isspace():
            i += 1
        elif c in '"\'':
            j = expr.index(c, i + 1)
            toks.append(('str', expr[i + 1:j]))
            i = j + 1
        elif c.isalpha() or c == '_':
            m = re.compile(r'\w+').match(expr, i)
            toks.append(('id', m.group()))
            i = m.end()
        elif c.isdigit() or c == '-':
            m = re.compile(r'-?(0x[0-9a-fA-F]+|\d+)').match(expr, i)
            toks.append(('num', int(m.group(), 0)))
            i = m.end()
        else:
            op = next(o for o in ops if expr.startswith(o, i))
            toks.append(('op', op))
            i += len(op)
    return toks


def parse_filter(expr):
    """ftrace's filter syntax -> a tree of ('or'|'and', a, b), ('not', a),
    ('cmp', field, op, value)"""
    toks = tokenize(expr)
    pos = [0]

    def peek():
        return toks[pos[0]] if pos[0] < len(toks) else (None, None)

    def take():
        pos[0] += 1
        return toks[pos[0] - 1]

    def chain(kind, sub, tok):
        left = sub()
        while peek() == ('op', tok):
            take()
            left = (kind, left, sub())
        return left

    def unary():
        if peek() == ('op', '!'):
            take()
            return ('not', unary())
        if peek() == ('op', '('):
            take()
            e = chain('or', lambda: chain('and', unary, '&&'), '||')
            assert take() == ('op', ')')
            return e
        kind, name = take()
        assert kind == 'id'
        _, op = take()
        _, value = take()
        return ('cmp', name, op, value)

    tree = chain('or', lambda: chain('and', unary, '&&'), '||')
    assert pos[0] == len(toks)
    return tree


def fields_named(tree):
    if tree[0] == 'cmp':
        return {tree[1]}
    return set().union(*(fields_named(t) for t in tree[1:]))


def number(text):
    t = text.rstrip(',')
    if t == '(nil)':  # %p of 0
        return 0
    if re.fullmatch(r'-?0x[0-9a-fA-F]+', t):
        return int(t, 16)
    if re.fullmatch(r'-?\d+', t):
        return int(t, 10)
    raise Undecidable(text)


def evaluate(tree, values):
    kind = tree[0]
    if kind == 'or':
        return evaluate(tree[1], values) or evaluate(tree[2], values)
    if kind == 'and':
        return evaluate(tree[1], values) and evaluate(tree[2], values)
    if kind == 'not':
        return not evaluate(tree[1], values)
    _, name, op, want = tree
    if name not in values:
        raise Undecidable(f'{name} not printed')
    got = values[name]
    if isinstance(want, str):
        return {'==': got == want, '!=': got != want, '~': fnmatch.fnmatchcase(got, want)}[op]
    v = number(got)
    return {'==': v == want, '!=': v != want, '<': v < want, '<=': v <= want, '>': v > want, '>=': v >= want,
            '&': (v & want) != 0}[op]


TRACE_LINE = re.compile(r'^\s*(?P<comm>.*?)\s+(?P<tid>-?\d+)\s+(?P<time>\d+\.\d+):\s+(?P<event>[\w.-]+:[\w.-]+):\s'
                        r'(?P<trace>.*)$')


def printed_values(trace):
    """name=value and "name: 0xvalue," pairs of a tracepoint's text"""
    v = {}
    for m in re.finditer(r'(?:^|\s)(\w+)=(\S*)', trace):
        v.setdefault(m.group(1), m.group(2))
    for m in re.finditer(r'(?:^|\s)(\w+): (0x[0-9a-fA-F]+)(?:,|$)', trace):
        v.setdefault(m.group(1), m.group(2))
    return v


def tracepoint_fields(path):
    """event name (without the system) -> its field names, from the
    format texts of the file's tracing data"""
    out = {}
    raw = open(path, 'rb').read()
    for name, body in re.findall(rb'name: (\w+)\nID: \d+\nformat:\n(.*?)\n\nprint fmt:', raw, re.S):
        out[name.decode()] = set(re.findall(r'field:[^;]*?(\w+)(?:\[[^\]]*\])?;', body.decode('utf-8', 'replace')))
    return out


# (fixture, expression, samples expected: 'some' = some but not all of the
# fixture's samples match, 'none' = no event has every field named)
FILTERS = [
    ('tp-kmem-g.data', 'bytes_req >= 4096', 'some'),
    ('tp-kmem-g.data', 'bytes_req > 64 && bytes_alloc < 1024', 'some'),
    ('tp-kmem-g.data', '!(bytes_req < 4096) || (bytes_alloc == 8 && node < 0)', 'some'),
    ('tp-kmem-g.data', 'ptr & 0x800', 'some'),
    ('tp-kmem-g.data', 'ptr & 0xf00 && !(bytes_alloc >= 512)', 'some'),
    ('tp-kmem-g.data', 'name ~ "kmalloc-*" || name == "filp"', 'some'),
    ('tp-kmem-g.data', 'bytes_req == 32 || bytes_req == 4096', 'some'),
    ('tp-kmem-g.data', 'name != "names_cache" && bytes_alloc >= 256', 'some'),
    ('tp-many.data', 'bytes_req >= 4096', 'some'),
    # (comm: tp-many's block events print theirs as "[comm]", not decidable here)
    ('tp-many.data', 'next_comm ~ "kwork*"', 'some'),
    ('tp-many.data', 'prev_comm ~ "tp-*" || prev_pid == 9302', 'some'),
    ('tp-many.data', 'prev_prio < 120 && !(prev_comm ~ "migration*")', 'some'),
    ('tp-many.data', '(prev_pid == 0 || next_pid == 0) && prev_prio <= 120', 'some'),
    ('tp-many.data', 'next_comm ~ "swapper/?" && !(prev_comm == "tp-workload")', 'some'),
    ('tp-many.data', 'error_code & 0x4', 'some'),
    ('tp-many.data', 'len >= 100 && !(len > 200)', 'some'),
    ('tp-many.data', 'vec == 9 || vec == 1', 'some'),
    ('tp-many.data', 'irq == 36 || vec == 9', 'none'),
    ('tp-many.data', 'runtime > 100000', 'some'),
    ('tp-many.data', 'target_cpu == 1', 'some'),
    ('tp-many.data', 'order > 0 || migratetype != 0', 'some'),
    ('tp-pipe.data', 'flags & 0x80000', 'some'),
    ('tp-pipe.data', 'count >= 0x4000 && fd == 4', 'some'),
    ('tp-pipe.data', 'sig == 10 && !(code != 0)', 'some'),
    ('tp-many-g.data', 'bytes_req >= 4096', 'some'),
    ('tp-many-g.data', 'count > 0x1000', 'some'),
    ('tp-many-g.data', 'address & 0x1000', 'some'),
    ('tp-many-g.data', 'comm ~ "tp-*" || pid == 9309', 'some'),
    ('tp-many-g.data', 'comm ~ "tp-w[aeiou]rk*" && !(sig == 10)', 'some'),
]
# expressions that do not parse: exit 2, a message, nothing on stdout
BAD_FILTERS = [
    ('tp-many.data', 'bytes_req >='), ('tp-many.data', 'bytes_req >= 4096 &&'),
    ('tp-many.data', '(bytes_req > 1'), ('tp-many.data', 'bytes_req 4096'),
    ('tp-many.data', 'bytes_req ~ "4*"'), ('tp-many.data', '&& bytes_req'), ('tp-many.data', ''),
    ('tp-many.data', 'bytes_req >= 4096 )'), ('tp-many.data', 'comm > "a"'),
    ('tp-many.data', 'bytes_req == abc'), ('tp-many.data', 'comm == "unterminated'),
    # the same mistakes after a field no event of the file has
    ('tp-kmem-g.data', 'nosuch == 1 &&'), ('tp-kmem-g.data', 'comm == "unterminated'),
]
FILTER_FIELDS = ['-F', 'comm,tid,time,event,trace']


def filter_check(binary, path, fixture, expr, expect, common, base_cache):
    label = f'{fixture}: script --filter {shlex.quote(expr)} (property)'
    cmd = f'{binary} script -i {shlex.quote(path)} ' + ' '.join(shlex.quote(a) for a in common + FILTER_FIELDS)
    where = [f'     $ {cmd} --filter {shlex.quote(expr)}']
    if path not in base_cache:
        base_cache[path] = run_tool([binary, 'script', '-i', path] + common + FILTER_FIELDS)
    base = base_cache[path]
    if base.problems:
        return label, False, ['unfiltered run: ' + '; '.join(base.problems)] + where
    tree = parse_filter(expr)
    named = fields_named(tree)
    formats = tracepoint_fields(path)
    want, lacking, n = [], set(), 0
    for line in base.out.split('\n')[:-1]:
        m = TRACE_LINE.match(line)
        if not m:
            return label, False, [f'unfiltered line not understood: {line[:200]!r}'] + where
        n += 1
        event = m.group('event')
        fields = formats.get(event.split(':', 1)[1])
        if fields is None:
            return label, False, [f'no format for {event} in the tracing data'] + where
        missing = named - fields
        if missing:
            lacking.add((event, frozenset(missing)))
            continue
        try:
            if evaluate(tree, printed_values(m.group('trace'))):
                want.append(line)
        except Undecidable as e:
            return label, False, [f'test design: {event} does not print {e} plainly: {line[:200]!r}'] + where
    if expect == 'some' and not 0 < len(want) < n:
        return label, False, [f'test design: {len(want)} of {n} samples match, want some but not all'] + where
    if expect == 'none' and want:
        return label, False, [f'test design: {len(want)} samples match, want none'] + where
    run = run_tool([binary, 'script', '-i', path] + common + FILTER_FIELDS + ['--filter', expr])
    problems = list(run.problems)
    got = run.out.split('\n')[:-1]
    if got != want:
        extra = [l for l in got if l not in set(want)]
        lost = [l for l in want if l not in set(got)]
        problems.append(f'{len(got)} samples printed, {len(want)} satisfy the expression'
                        + (f'; first printed that does not: {extra[0][:200]!r}' if extra else '')
                        + (f'; first not printed that does: {lost[0][:200]!r}' if lost else ''))
    for event, missing in sorted(lacking, key=lambda x: x[0]):
        # perfdata names the first field it does not find
        if not any(event in l and any(f"'{f}'" in l for f in missing) for l in run.err.split('\n')):
            problems.append(f'stderr does not say that {event} has no {" or ".join(sorted(missing))}')
            break
    if problems:
        return label, False, ['; '.join(problems)] + where
    return label, True, [f'{len(want)} of {n} samples; events without a field named: {len(lacking)}']


def bad_filter_check(binary, path, fixture, expr, common):
    label = f'{fixture}: script --filter {shlex.quote(expr)} (does not parse)'
    args = common + FILTER_FIELDS + ['--filter', expr]
    run = run_tool([binary, 'script', '-i', path] + args, expect_rc=2)
    problems = list(run.problems)
    if run.out:
        problems.append(f'{len(run.out.splitlines())} lines on stdout')
    # the message on what is wrong, not the notes on events without a field
    said = [l for l in run.err.split('\n') if '--filter' in l and 'none of its samples match' not in l]
    if not said:
        problems.append('no message on the expression on stderr')
    if problems:
        cmd = f'{binary} script -i {shlex.quote(path)} ' + ' '.join(shlex.quote(a) for a in args)
        return label, False, ['; '.join(problems), f'     $ {cmd}']
    return label, True, [said[0][:200]]


# ------------------------------------------------------------------ main

def main():
    args = sys.argv[1:]
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    only, jobs = None, os.cpu_count() or 2
    for opt in ('-k', '-j'):
        if opt in args:
            i = args.index(opt)
            if opt == '-k':
                only = args[i + 1]
            else:
                jobs = int(args[i + 1])
            del args[i:i + 2]
    if len(args) != 1:
        sys.exit(__doc__.strip().split('\n\n')[-1])
    binary = os.path.abspath(args[0])
    if not os.access(binary, os.X_OK):
        sys.exit(f'{binary}: not an executable')
    perf = shutil.which('perf')
    ok, version = perf_is_61(perf) if perf else (False, 'not installed')
    if not ok:
        print(f'skip perf script (live): needs perf 6.1 ({version})')
        print('0 passed, 0 failed, 1 skipped')
        return 0
    start = time.time()
    passed = failed = 0
    printed = 0  # comparisons where perf printed something: zero means nothing was really compared
    with tempfile.TemporaryDirectory(prefix='script_live.') as home:
        os.makedirs(os.path.join(home, 'buildid'))
        os.environ.update(HOME=home, PERF_BUILDID_DIR=os.path.join(home, 'buildid'), PERF_PAGER='cat',
                          PERF_CONFIG_NOSYSTEM='1', LC_ALL='C')
        fixtures, kallsyms, symfs = prepare(WORK)
        common = ['--kallsyms', kallsyms, '--symfs', symfs]
        paths = dict(fixtures)
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
            facts = dict(zip(paths, pool.map(lambda p: Facts(perf, p, common), paths.values())))
            cases = []
            for name, path in fixtures:
                cases += cases_for(name, path, facts[name], common)
            cases = [c for c in cases if only is None or only in c.label]
            futures = [pool.submit(check, perf, binary, c) for c in cases]
            base_cache = {}
            prop = [pool.submit(filter_check, binary, paths[f], f, e, x, common, base_cache)
                    for f, e, x in FILTERS if f in paths]
            prop += [pool.submit(bad_filter_check, binary, paths[f], f, e, common) for f, e in BAD_FILTERS if f in paths]
            for c, fut in zip(cases, futures):
                good, lines, some = fut.result()
                printed += some
                if good:
                    passed += 1
                    if verbose:
                        print(f'ok   {c.label}: {lines[0]}')
                else:
                    failed += 1
                    print(f'FAIL {c.label}: {lines[0]}')
                    for l in lines[1:]:
                        print(l)
            for fut in prop:
                label, good, lines = fut.result()
                if only is not None and only not in label:
                    continue
                if good:
                    passed += 1
                    if verbose:
                        print(f'ok   {label}: {lines[0]}')
                else:
                    failed += 1
                    print(f'FAIL {label}: {lines[0]}')
                    for l in lines[1:]:
                        print(l)
    if printed == 0 and not (only is not None and passed + failed):
        print('FAIL no comparison where perf printed anything: nothing was compared')
        failed += 1
    print(f'{len(fixtures)} fixtures, {time.time() - start:.0f} s')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
