"""hostile_text.py BINARY - names read from a profile cannot forge output
structure: commands, file names, symbol and event names with newlines,
tabs, CRs, terminal escape sequences (ESC [2J, an OSC title, a UTF-8 C1
CSI), DEL, ';', commas, quotes and leading '=', '+', '-', '@' (the files
of tests/hostile/gen_text.py), through collapse (plain, --kernel,
--with-pid), report (stdio, -n, --sort variants, group view, branch mode,
--csv DIR), dump, stat and script (default fields, call chains, -G,
--show-task-events --show-mmap-events, -F lists); and tracepoints whose
TRACING_DATA formats (system and event names, print fmt text,
__print_symbolic/__print_flags strings) and RAW payloads (char arrays,
__data_loc strings) hold the same, through script (default, -F ...,trace,
--filter), file and pipe, both byte orders.

Checked: exit status 0 and no sanitizer report; no raw byte below 0x20 but
'\\n' (and script's tab before each call chain frame), no DEL and no UTF-8
C1 character in any output (stdout, stderr, CSV); every line of a text
output is one of its format's (a report row, a '#' line, a dump record
line, a script sample line, frame or side-band line...), with the names
escaped (\\xHH) where they stand; script prints every sample, in order, as
one line (the tracepoint's trace text whole on it) and its frames, a
--filter over hostile strings selects the expected samples; collapse
prints exactly the expected folded stacks, each line "FRAME;...;FRAME
COUNT" with the expected number of frames; every CSV file
parses (Python's csv module) into the expected rows and columns, a cell
that starts with = + - @ (tab, CR) prefixed with ', and processes.csv's
map list splits on ';' into the process's maps. Commands that need no
escaping fold as `perf script | stackcollapse-perf.pl` folds them (a skip,
said and counted, without perf, perl or the script). Ends with
"N passed, N failed[, N skipped]".
"""
import csv
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in tests/hostile, whose files are all replayed
sys.path.insert(0, os.path.join(HERE, 'hostile'))
import gen_text as g  # noqa: E402

passed = failed = skipped = 0
STACKCOLLAPSE = os.environ.get('STACKCOLLAPSE', os.path.join(os.path.dirname(HERE), '..', 'shared', 'tools',
                                                             'flamegraph', 'stackcollapse-perf.pl'))


def check(what, ok, detail=''):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print('FAIL', what)
        if detail:
            print('    ' + str(detail)[:3000].replace('\n', '\n    '))


# -- the escaping the tools promise ------------------------------------------

def esc(b):
    """Control characters (C0, DEL, UTF-8 C1) as \\xHH, each of their bytes."""
    out, i = bytearray(), 0
    while i < len(b):
        c = b[i]
        if c < 0x20 or c == 0x7f:
            out += b'\\x%02x' % c
        elif c == 0xc2 and i + 1 < len(b) and 0x80 <= b[i + 1] <= 0x9f:
            out += b'\\x%02x\\x%02x' % (c, b[i + 1])
            i += 1
        else:
            out.append(c)
        i += 1
    return bytes(out)


def cell(b):
    """A CSV cell's value as csv reads it back: escaped, a leading formula
    character neutralised with '."""
    return ((b"'" if b[:1] in (b'=', b'+', b'-', b'@', b'\t', b'\r') else b'') + esc(b)).decode('utf-8', 'surrogateescape')


def tidy(name):
    """stackcollapse-perf.pl's tidying of a function name: ';' as ':', what
    follows '(' dropped (but "(anonymous namespace)"), quotes dropped."""
    name = name.replace(b';', b':')
    m = re.search(rb'\((?!anonymous namespace\))', name)
    if m and not re.search(rb'\.\(.*\)\.', name):
        name = name[:m.start()]
    return name.replace(b'"', b'').replace(b"'", b'')


def frame(name, kernel=False, annotate=False):
    return esc(tidy(name) + (b'_[k]' if kernel and annotate else b''))


def unresolved(obj, kernel=False, annotate=False):
    return frame(b'[' + obj.rsplit(b'/', 1)[-1] + b']', kernel, annotate)


def root(i, with_pid=False):
    name = g.COMMS[i] + (b'-%d' % (100 + i) if with_pid else b'')
    return esc(name.replace(b' ', b'_').replace(b';', b':'))


def base(path):
    return path.rsplit(b'/', 1)[-1]


# -- what the files hold -------------------------------------------------------

def expected_stacks(annotate=False, with_pid=False):
    """collapse of text-names.data: {frames, root first: count}."""
    n = len(g.SYMS)
    out = {}
    for i in range(len(g.COMMS)):
        k = [root(i, with_pid), b'[unknown]', unresolved(g.MISSING_PATH), frame(g.SYMS[i % n]),
             frame(g.BPF_SYMS[i % len(g.BPF_SYMS)], True, annotate), unresolved(g.MODULE_NAME, True, annotate),
             frame(g.KSYMS[i % len(g.KSYMS)], True, annotate)]
        u = [root(i, with_pid), frame(g.SYMS[(i + 2) % n]), frame(g.SYMS[(i + 1) % n])]
        out[tuple(k)] = 1
        out[tuple(u)] = g.user_repeats(i)
    return out


def report_rows():
    """(comm, dso, symbol) of every row of text-names.data's report."""
    rows = []
    for i, comm in enumerate(g.COMMS):
        rows.append((comm, b'[kernel.kallsyms]', b'[k] ' + g.KSYMS[i % len(g.KSYMS)]))
        rows.append((comm, base(g.ELF_PATH), b'[.] ' + g.SYMS[(i + 1) % len(g.SYMS)]))
    return rows


def record_count(data):
    """Records in a perf.data image (file or pipe), by their headers."""
    if data[:8] == b'PERFILE2' and struct.unpack_from('<Q', data, 8)[0] == 16:
        pos, end = 16, len(data)
    else:
        pos, size = struct.unpack_from('<QQ', data, 40)
        end = pos + size
    n = 0
    while pos + 8 <= end:
        size = struct.unpack_from('<H', data, pos + 6)[0]
        if size < 8:
            break
        pos += size
        n += 1
    return n


# -- running and structural checks ---------------------------------------------

CONTROL = re.compile(rb'[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]')
SANITIZER = re.compile(rb'runtime error|Sanitizer|ERROR: |LeakSanitizer')


def clean_bytes(what, data):
    """No control character in data but '\\n' (none of the outputs here
    has a tab of its format's own: dump's come with NAMESPACES records)."""
    bad = CONTROL.search(data) or re.search(rb'\t', data)
    check(what + ': no raw control characters', not bad,
          bad and 'at %d: %r' % (bad.start(), data[max(0, bad.start() - 40):bad.start() + 40]))


def run(binary, what, args, rc_want=0):
    p = subprocess.run([binary] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(what + ': exit status %d' % rc_want, p.returncode == rc_want,
          'exit %d; stderr: %r' % (p.returncode, p.stderr[-2000:]))
    check(what + ': nothing from the sanitizers', not SANITIZER.search(p.stderr), p.stderr[-2000:])
    clean_bytes(what + ' (stdout)', p.stdout)
    clean_bytes(what + ' (stderr)', p.stderr)
    return p.stdout, p.stderr


def clean_script(what, data):
    """As clean_bytes, but a tab may start a line (script's call chain
    frames)."""
    bad = CONTROL.search(data) or re.search(rb'[^\n]\t', data)
    check(what + ': no raw control characters', not bad,
          bad and 'at %d: %r' % (bad.start(), data[max(0, bad.start() - 40):bad.start() + 40]))


def run_script(binary, what, args, rc_want=0):
    p = subprocess.run([binary, 'script'] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check(what + ': exit status %d' % rc_want, p.returncode == rc_want,
          'exit %d; stderr: %r' % (p.returncode, p.stderr[-2000:]))
    check(what + ': nothing from the sanitizers', not SANITIZER.search(p.stderr), p.stderr[-2000:])
    clean_script(what + ' (stdout)', p.stdout)
    clean_bytes(what + ' (stderr)', p.stderr)
    return p.stdout, p.stderr


FRAME_LINE = re.compile(rb'^\t {0,15}[0-9a-f]{1,16} (.*) \((.*)\)$')


class Sample:
    """What script prints of one sample: its header line starts with the
    command (padded), holds ' PID ' (or ' PID/TID ') and ends with the event's name, ': '
    and `tail` (None: anything); then its frames, (symbol, object) each,
    one a line after a tab, and an empty line (frames None: no call chain
    printed, the header line is the sample's only line)."""

    def __init__(self, comm, pid, event, tail=b'', frames=None):
        self.comm, self.pid, self.event, self.tail, self.frames = esc(comm), pid, esc(event), tail, frames


def check_script(what, out, samples, sideband=()):
    """out is exactly: the side-band lines, each ending with one of
    `sideband` in order (escaped already), then the samples' lines."""
    check(what + ': output ends with a newline', out.endswith(b'\n'), out[-200:])
    lines = out.split(b'\n')[:-1]
    side = [ln for ln in lines if b': PERF_RECORD_' in ln]
    check(what + ': %d side-band lines' % len(sideband), len(side) == len(sideband), b'\n'.join(side))
    for ln, want in zip(side, sideband):
        check(what + ': side-band line %r' % want[:40], ln.endswith(want), ln)
    i = 0
    while i < len(lines) and b': PERF_RECORD_' in lines[i]:
        i += 1
    check(what + ': side-band lines first', i == len(side), b'\n'.join(lines[:len(side) + 3]))
    for n, smp in enumerate(samples):
        if i >= len(lines):
            check(what + ': sample %d of %d printed' % (n + 1, len(samples)), False, out[-600:])
            return
        head = lines[i]
        i += 1
        ok = (head.lstrip(b' ').startswith(smp.comm) and
              (b' %d ' % smp.pid in head or b' %d/%d ' % (smp.pid, smp.pid) in head) and
              ((smp.event + b': ' + esc(smp.tail)) if smp.tail is not None else (smp.event + b': ')) in head and
              (smp.tail is None or head.endswith(smp.event + b': ' + esc(smp.tail))))
        check(what + ': sample %d: one line for %r %d %r' % (n + 1, smp.comm[:24], smp.pid, smp.tail and smp.tail[:24]),
              ok, head)
        if smp.frames is None:
            continue
        for sym, dso in smp.frames:
            ln = lines[i] if i < len(lines) else b''
            m = FRAME_LINE.match(ln)
            check(what + ': sample %d: frame %r (%r)' % (n + 1, sym[:24], dso[:24]),
                  m is not None and m.group(1) == esc(sym) and m.group(2) == esc(dso), ln)
            i += 1
        check(what + ': sample %d: an empty line after its frames' % (n + 1), i < len(lines) and lines[i] == b'',
              lines[i] if i < len(lines) else b'<end>')
        i += 1
    check(what + ': nothing after the samples', i == len(lines), b'\n'.join(lines[i:i + 5]))


def names_samples(event=g.EVENT_NAME, chains=True, kallsyms=True, symoff=True):
    """script's samples of text-names.data (and its pipe twin)."""
    out = []

    def off(o):
        return o if symoff else b''
    for i, comm in enumerate(g.COMMS):
        ksym = (g.KSYMS[i % len(g.KSYMS)] + off(b'+0x8')) if kallsyms else b'[unknown]'
        kernel = [(ksym, b'[kernel.kallsyms]'), (b'[unknown]', g.MODULE_NAME),
                  (g.BPF_SYMS[i % len(g.BPF_SYMS)] + off(b'+0x4'), b'[bpf_prog]'),
                  (g.SYMS[i % len(g.SYMS)] + off(b'+0x10'), g.ELF_PATH), (b'[unknown]', g.MISSING_PATH),
                  (b'[unknown]', b'[unknown]')]
        user = [(g.SYMS[(i + 1) % len(g.SYMS)] + off(b'+0x10'), g.ELF_PATH),
                (g.SYMS[(i + 2) % len(g.SYMS)] + off(b'+0x10'), g.ELF_PATH)]
        if chains:
            out.append(Sample(comm, 100 + i, event, b'', kernel))
            out += [Sample(comm, 100 + i, event, b'', user) for _ in range(g.user_repeats(i))]
        else:
            # -G: the sample's own ip, symbol and object end its line
            out.append(Sample(comm, 100 + i, event, None))
            out += [Sample(comm, 100 + i, event, None) for _ in range(g.user_repeats(i))]
    return out


def names_sideband():
    """--show-task-events --show-mmap-events on text-names.data: the
    kernel's MMAPs, then per process its COMM and two MMAP2s."""
    out = [b': x [kernel.kallsyms]_text', b': x ' + esc(g.MODULE_PATH)]
    for i, comm in enumerate(g.COMMS):
        out.append(b'PERF_RECORD_COMM: %s:%d/%d' % (esc(comm), 100 + i, 100 + i))
        out.append(b'r-xp ' + esc(g.ELF_PATH))
        out.append(b'r-xp ' + esc(g.MISSING_PATH))
    return out


def failed_text(comm, msg):
    """perf's text of an event whose print fmt it cannot parse: each field
    as name=value, a char array that is not printable as ARRAY[hex, ...]."""
    def arr(b):
        return b'ARRAY[' + b', '.join(b'%02x' % c for c in b) + b']'
    return b'[FAILED TO PARSE] comm=' + arr(comm + b'\0' * (16 - len(comm))) + b' msg=' + arr(msg + b'\0')


def tp_samples(names, match=None, frames=True):
    """script's samples of a text-tracepoint file: names[k] is format k's
    event name; match(k, variant) says which are printed (--filter)."""
    out = []
    for i, comm in enumerate(g.COMMS):
        chain = [(g.KSYMS[i % len(g.KSYMS)] + b'+0x8', b'[kernel.kallsyms]'),
                 (g.KSYMS[(i + 1) % len(g.KSYMS)] + b'+0x8', b'[kernel.kallsyms]')] if frames else None
        for k in range(len(g.TP_FORMATS)):
            for variant in (0, 1):
                if match and not match(k, variant):
                    continue
                tail = g.tp_trace_text(k, variant)
                if k == 4 and not variant:
                    tail = failed_text(g.TP_COMM, g.TP_MSG)
                out.append(Sample(comm, 100 + i, names[k], tail, chain))
    return out


def script_checks(binary, syms, inputs):
    names, pipe = inputs['text-names.data'], inputs['text-names-pipe.data']
    for f in (names, pipe):
        tag = os.path.basename(f)
        out, _ = run_script(binary, 'script ' + tag, syms + [f])
        check_script('script ' + tag, out, names_samples())
        out, _ = run_script(binary, 'script -G ' + tag, ['-G'] + syms + [f])
        check_script('script -G ' + tag, out, names_samples(chains=False))
        what = 'script --show-task-events --show-mmap-events ' + tag
        out, _ = run_script(binary, what, ['--show-task-events', '--show-mmap-events'] + syms + [f])
        check_script(what, out, names_samples(), names_sideband())
    # without --kallsyms: the kernel frames unresolved, the rest as before
    out, _ = run_script(binary, 'script --symfs (no kallsyms)', syms[:2] + ['--kallsyms', os.devnull, names])
    check_script('script --symfs (no kallsyms)', out, names_samples(kallsyms=False))
    # -F with fields the samples lack: refused, the event named escaped
    _, err = run_script(binary, 'script -F ...,addr', ['-F', 'comm,tid,pid,time,event,ip,sym,dso,addr,period'] + syms +
                        [names], rc_want=1)
    check('script -F ...,addr: names the event, escaped', esc(g.EVENT_NAME) in err, err)
    what = 'script -F comm,tid,pid,time,event,ip,sym,dso,period --show-task-events --show-mmap-events'
    out, _ = run_script(binary, what, ['-F', 'comm,tid,pid,time,event,ip,sym,dso,period', '--show-task-events',
                                       '--show-mmap-events'] + syms + [names])
    check_script(what, out, names_samples(symoff=False), names_sideband())
    # the group's members, branch stacks, a cut command, plain commands
    grp = []
    for i, c in enumerate(g.COMMS):
        grp += [Sample(c, 100 + i, g.GROUP_EVENTS[0], None), Sample(c, 100 + i, g.GROUP_EVENTS[1], None)]
    out, _ = run_script(binary, 'script text-group.data', syms + [inputs['text-group.data']])
    check_script('script text-group.data', out, grp)
    out, _ = run_script(binary, 'script text-branch.data', syms + [inputs['text-branch.data']])
    check_script('script text-branch.data', out,
                 [Sample(c, 100 + i, g.EVENT_NAME, None) for i, c in enumerate(g.COMMS)])
    out, _ = run_script(binary, 'script text-cut.data', syms + [inputs['text-cut.data']])
    check_script('script text-cut.data', out, [Sample(g.CUT_COMM, 200, b'cpu-clock:HG', None)])
    out, _ = run_script(binary, 'script text-oracle-comms.data', syms + [inputs['text-oracle-comms.data']])
    obj = b'/nonexistent/lib(q) "x".so'
    check_script('script text-oracle-comms.data', out,
                 [Sample(c, 300 + i, b'cpu-clock:HG', b'', [(b'[unknown]', obj), (b'[unknown]', obj),
                                                          (b'[unknown]', b'[unknown]')])
                  for i, c in enumerate(g.ORACLE_COMMS)])

    # tracepoints: the trace text stays on its sample's line, escaped
    from_desc = g.TP_EVENT_NAMES
    from_fmt = [g.TP_SYSTEM + b':' + n for n in g.TP_NAMES]
    for n, names_ in (('text-tracepoint.data', from_desc), ('text-tracepoint-be.data', from_fmt),
                      ('text-tracepoint-pipe.data', from_fmt)):
        f = inputs[n]
        out, _ = run_script(binary, 'script ' + n, syms + [f])
        check_script('script ' + n, out, tp_samples(names_))
        for ln in out.split(b'\n'):
            check('script %s: no forged line' % n, not re.match(rb'^\t?forged', ln), ln)
        out, _ = run_script(binary, 'script -G ' + n, ['-G'] + syms + [f])
        check_script('script -G ' + n, out, tp_samples(names_, frames=False))
        what = 'script -F comm,tid,pid,time,cpu,event,trace --show-task-events --show-mmap-events ' + n
        out, _ = run_script(binary, what, ['--show-task-events', '--show-mmap-events', '-F',
                                           'comm,tid,pid,time,cpu,event,trace'] + syms + [f])
        side = [b': x [kernel.kallsyms]_text', b': x ' + esc(g.MODULE_PATH)]
        side += [b'PERF_RECORD_COMM: %s:%d/%d' % (esc(c), 100 + i, 100 + i) for i, c in enumerate(g.COMMS)]
        check_script(what, out, tp_samples(names_, frames=False), side)
        # a glob over hostile strings: the samples whose comm starts with 'c'
        # (variant 0 of the formats with a comm); the others named on stderr
        what = 'script --filter \'comm ~ "c*"\' ' + n
        out, err = run_script(binary, what, ['--filter', 'comm ~ "c*"'] + syms + [f])
        check_script(what, out, tp_samples(names_, match=lambda k, v: k in (0, 4) and not v))
        for k in (1, 2, 3, 5):
            check(what + ': says %r has no comm, escaped' % names_[k][:30], esc(names_[k]) + b' has no field' in err,
                  err)
        what = 'script --filter \'msg ~ "*forged*"\' ' + n
        out, err = run_script(binary, what, ['--filter', 'msg ~ "*forged*"'] + syms + [f])
        check_script(what, out, tp_samples(names_, match=lambda k, v: k in (1, 4, 5)))


def check_collapse(binary, what, args, want):
    """want: {tuple of frames, root first: count}."""
    out, _ = run(binary, what, args)
    check(what + ': output ends with a newline', out.endswith(b'\n'), out[-200:])
    lines = out.split(b'\n')[:-1]
    check(what + ': %d lines' % len(want), len(lines) == len(want), b'\n'.join(lines))
    got = {}
    for line in lines:
        m = re.match(rb'^(.*) ([0-9]+)$', line)
        check(what + ': "STACK COUNT" line', m is not None, line)
        if m:
            got[tuple(m.group(1).split(b';'))] = int(m.group(2))
    for frames, count in want.items():
        check(what + ': %d frames, count %d: %r' % (len(frames), count, frames[0]), got.get(frames) == count,
              'want %r\n got %r' % (frames, [(f, c) for f, c in got.items() if f[0] == frames[0]]))
    check(what + ': sorted by text', lines == sorted(lines), b'\n'.join(lines))


TABLE_ROW = re.compile(rb'^ +[0-9]+\.[0-9]{2}%')


def table_rows(what, out):
    """The rows of a perf report --stdio text; every other line is a '#'
    line or empty."""
    rows = []
    for line in out.split(b'\n'):
        if not line or line.startswith(b'#'):
            continue
        check(what + ': a row or a # line', TABLE_ROW.match(line) is not None, line)
        rows.append(line)
    return rows


def has_in_order(line, parts):
    at = 0
    for p in parts:
        at = line.find(p, at)
        if at < 0:
            return False
        at += len(p)
    return True


def check_report(binary, what, args, want_rows, sample_line):
    out, _ = run(binary, what, args)
    rows = table_rows(what, out)
    check(what + ': %d rows' % len(want_rows), len(rows) == len(want_rows), b'\n'.join(rows))
    for parts in want_rows:
        n = sum(1 for r in rows if has_in_order(r, [esc(p) for p in parts]))
        check(what + ': one row of %r' % (parts,), n == 1, b'\n'.join(rows))
    check(what + ': the event line', sample_line in out.split(b'\n'), out[:600])
    return out


def read_csv(what, path, header):
    data = open(path, 'rb').read()
    clean_bytes(what, data)
    text = data.decode('utf-8', 'surrogateescape')
    rows = list(csv.reader(io.StringIO(text, newline='')))
    check(what + ': header', rows[:1] == [header], rows[:1])
    for r in rows[1:]:
        check(what + ': %d columns' % len(header), len(r) == len(header), r)
    return rows[1:]


def oracle(binary, path, tmp):
    """collapse = perf script | stackcollapse-perf.pl, line for line (a
    skip when perf, perl or the script is missing)."""
    global skipped
    missing = [w for w, ok in (('perf', shutil.which('perf')), ('perl', shutil.which('perl')),
                               (STACKCOLLAPSE, os.path.exists(STACKCOLLAPSE))) if not ok]
    if missing:
        skipped += 1
        print('skip collapse = stackcollapse-perf.pl on %s: %s not found' % (os.path.basename(path), ', '.join(missing)))
        return
    os.makedirs(os.path.join(tmp, 'home'), exist_ok=True)
    env = dict(os.environ, PERF_BUILDID_DIR=os.path.join(tmp, 'home'), HOME=os.path.join(tmp, 'home'))
    script = subprocess.run(['perf', 'script', '-i', path, '-F', 'comm,pid,tid,time,ip,sym,dso'], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check('perf script %s: exit status 0' % os.path.basename(path), script.returncode == 0, script.stderr)
    folded = subprocess.run(['perl', STACKCOLLAPSE], input=script.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check('stackcollapse-perf.pl: exit status 0', folded.returncode == 0, folded.stderr)
    ours, _ = run(binary, 'collapse ' + os.path.basename(path), ['collapse', path])
    check('collapse %s = perf script | stackcollapse-perf.pl' % os.path.basename(path),
          ours == folded.stdout and len(ours.split(b'\n')) == len(g.ORACLE_COMMS) + 1,
          'ours:\n%s\noracle:\n%s' % (ours.decode('utf-8', 'replace'), folded.stdout.decode('utf-8', 'replace')))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    if not os.access(binary, os.X_OK):
        print('%s: not an executable' % binary)
        return 2
    tmp = tempfile.mkdtemp(prefix='hostile_text.')
    try:
        return body(binary, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def body(binary, tmp):
    # the committed inputs are the generator's
    inputs = {n: os.path.join(HERE, 'hostile', n) for n in g.FILES}
    for n, path in inputs.items():
        check('tests/hostile/%s is committed' % n, os.path.exists(path))
        check('tests/hostile/%s = gen_text.py\'s' % n, os.path.exists(path) and open(path, 'rb').read() == g.FILES[n]())
    check('inputs: at least one', len(inputs) > 0)
    if failed:
        print('%d passed, %d failed' % (passed, failed))
        return 1
    sfs = os.path.join(tmp, 'symfs')
    g.write_symfs(sfs)
    syms = ['--symfs', sfs, '--kallsyms', os.path.join(sfs, 'kallsyms')]
    names, pipe = inputs['text-names.data'], inputs['text-names-pipe.data']
    event_line = b"# Samples: %d  of event '%s'" % (sum(1 + g.user_repeats(i) for i in range(len(g.COMMS))),
                                                   esc(g.EVENT_NAME))

    # collapse
    for f in (names, pipe):
        tag = os.path.basename(f)
        check_collapse(binary, 'collapse ' + tag, ['collapse'] + syms + [f], expected_stacks())
        check_collapse(binary, 'collapse --kernel ' + tag, ['collapse', '--kernel'] + syms + [f],
                       expected_stacks(annotate=True))
        check_collapse(binary, 'collapse --with-pid ' + tag, ['collapse', '--with-pid'] + syms + [f],
                       expected_stacks(with_pid=True))
    # the group file has two events: the first one's samples, the other named on stderr
    want = {(root(i), frame(g.SYMS[i])): 1 for i in range(len(g.COMMS))}
    check_collapse(binary, 'collapse text-group.data', ['collapse'] + syms + [inputs['text-group.data']], want)
    _, err = run(binary, 'collapse text-group.data (stderr)', ['collapse'] + syms + [inputs['text-group.data']])
    check('collapse text-group.data names the event it folds, escaped', esc(g.GROUP_EVENTS[0]) in err, err)

    # commands that need no escaping fold as stackcollapse-perf.pl folds
    # perf script's output: nothing of the root is cut or dropped
    oracle(binary, inputs['text-oracle-comms.data'], tmp)

    # report
    rows = report_rows()
    for f in (names, pipe):
        tag = os.path.basename(f)
        check_report(binary, 'report ' + tag, ['report', '--stdio'] + syms + [f], rows, event_line)
        check_report(binary, 'report -n ' + tag, ['report', '-n'] + syms + [f], rows, event_line)
    comms = [(c,) for c in g.COMMS]
    check_report(binary, 'report --sort comm', ['report', '--sort', 'comm'] + syms + [names], comms, event_line)
    check_report(binary, 'report --sort pid', ['report', '--sort', 'pid'] + syms + [names],
                 [(b'%7d:' % (100 + i) + c,) for i, c in enumerate(g.COMMS)], event_line)
    check_report(binary, 'report --sort dso', ['report', '--sort', 'dso'] + syms + [names],
                 [(b'[kernel.kallsyms]',), (base(g.ELF_PATH),)], event_line)
    check_report(binary, 'report --sort sym', ['report', '--sort', 'sym'] + syms + [names],
                 [(r[2],) for r in rows], event_line)
    check_report(binary, 'report --sort dso,sym -n', ['report', '--sort', 'dso,sym', '-n'] + syms + [names],
                 [r[1:] for r in rows], event_line)
    check_report(binary, 'report --sort sym,pid,comm,dso', ['report', '--sort', 'sym,pid,comm,dso'] + syms + [names],
                 [(r[2], r[0], r[0], r[1]) for r in rows], event_line)
    # the group view: the group's and members' names in the header
    group_line = b"# Samples: %d  of events '%s { %s, %s }'" % (
        2 * len(g.COMMS), esc(g.GROUP_NAME), esc(g.GROUP_EVENTS[0]), esc(g.GROUP_EVENTS[1]))
    check_report(binary, 'report text-group.data (group view)', ['report'] + syms + [inputs['text-group.data']],
                 [(c, base(g.ELF_PATH), b'[.] ' + g.SYMS[i]) for i, c in enumerate(g.COMMS)], group_line)
    # branch mode
    brows = []
    for i, c in enumerate(g.COMMS):
        brows.append((c, base(g.ELF_PATH), b'[.] ' + g.SYMS[i], b'[.] ' + g.SYMS[(i + 3) % len(g.SYMS)]))
        brows.append((c, b'[kernel.kallsyms]', b'[k] ' + g.KSYMS[i], b'[k] ' + g.BPF_SYMS[i % len(g.BPF_SYMS)]))
        brows.append((c, base(g.MISSING_PATH), b'[.] 0x', b'[H] 0x0000000000005000'))
    nbranch = sum(len(g.branch_entries(i)) for i in range(len(g.COMMS)))
    check_report(binary, 'report text-branch.data (branch mode)', ['report'] + syms + [inputs['text-branch.data']],
                 brows, b"# Samples: %d  of event '%s'" % (nbranch, esc(g.EVENT_NAME)))
    check_report(binary, 'report -n --sort comm,symbol_to text-branch.data (branch mode)',
                 ['report', '-n', '--sort', 'comm,symbol_to'] + syms + [inputs['text-branch.data']],
                 [(r[0], r[3]) for r in brows], b"# Samples: %d  of event '%s'" % (nbranch, esc(g.EVENT_NAME)))

    # a name cut to its column's width is cut before an escape, not inside it
    out = check_report(binary, 'report text-cut.data', ['report'] + syms + [inputs['text-cut.data']],
                       [(b'abcd   ', base(g.ELF_PATH), b'[.] ' + g.SYMS[7])], b"# Samples: 1  of event 'cpu-clock:HG'")
    check('report text-cut.data: no escape cut in half', b'\\x1 ' not in out and b'\\x ' not in out, out)

    # report --csv
    d = os.path.join(tmp, 'csv')
    run(binary, 'report --csv', ['report', '--csv', d] + syms + [names])
    res = read_csv('results.csv', os.path.join(d, 'results.csv'),
                   ['event', 'function', 'source_file', 'line', 'shared_object', 'samples', 'period', 'percent'])
    want = sorted((cell(g.EVENT_NAME), cell(r[2][4:]), '', cell(r[1])) for r in rows)
    check('results.csv: %d rows' % len(rows), len(res) == len(rows), res)
    got = sorted((r[0], r[1], r[2], r[4]) for r in res if len(r) == 8)
    check('results.csv: event, function, source file, object of each row', got == want, '%r\n!=\n%r' % (got, want))
    check('results.csv: no line without debug information', all(r[3] == '' for r in res if len(r) == 8), res)
    check('results.csv: a formula cell is neutralised', any(r[1] == "'=SUM(A1:A2)" for r in res), res)
    procs = read_csv('processes.csv', os.path.join(d, 'processes.csv'),
                     ['pid', 'ppid', 'comm', 'fork_time', 'exit_time', 'samples', 'period', 'maps'])
    check('processes.csv: %d rows' % len(g.COMMS), len(procs) == len(g.COMMS), procs)
    maps = sorted(esc(p).replace(b';', b'\\x3b').decode('utf-8', 'surrogateescape') for p in (g.ELF_PATH, g.MISSING_PATH))
    for r in procs:
        if len(r) != 8:
            continue
        i = int(r[0]) - 100
        check('processes.csv: pid %s' % r[0], 0 <= i < len(g.COMMS), r)
        if not 0 <= i < len(g.COMMS):
            continue
        check('processes.csv: comm of %d' % (100 + i), r[2] == cell(g.COMMS[i]), '%r != %r' % (r[2], cell(g.COMMS[i])))
        check('processes.csv: samples of %d' % (100 + i), r[5] == str(1 + g.user_repeats(i)), r)
        entries = r[7].split(';')
        check('processes.csv: maps of %d split on ; into its 2 maps' % (100 + i), len(entries) == 2, r[7])
        fields = [e.split(' ', 2) for e in entries]
        check('processes.csv: each map "START-END PGOFF NAME"',
              all(len(f) == 3 and re.match(r'^[0-9a-f]+-[0-9a-f]+$', f[0]) and re.match(r'^[0-9a-f]+$', f[1])
                  for f in fields), fields)
        check('processes.csv: map names of %d' % (100 + i), sorted(f[-1] for f in fields) == maps,
              '%r != %r' % (sorted(f[-1] for f in fields), maps))
    ov = read_csv('overview.csv', os.path.join(d, 'overview.csv'),
                  ['nr', 'time', 'offset', 'type', 'name', 'pid', 'tid', 'cpu', 'info'])
    nrec = record_count(open(names, 'rb').read())
    check('overview.csv: a row per record (%d)' % nrec, len(ov) == nrec, len(ov))
    check('overview.csv: nr counts the rows', [r[0] for r in ov] == [str(i + 1) for i in range(len(ov))], ov[:3])
    # the info column: the name from the file last, escaped, after keys it cannot forge
    infos = [r[8] for r in ov if len(r) == 9]
    for c in g.COMMS:
        want = esc(c).decode('utf-8', 'surrogateescape')
        check('overview.csv: info of COMM %r' % c, any(i in ('comm=' + want, 'exec comm=' + want) for i in infos), want)
    for p in (g.ELF_PATH, g.MISSING_PATH):
        want = ' file=' + esc(p).decode('utf-8', 'surrogateescape')
        check('overview.csv: info of MMAP2 %r' % p,
              any(re.match(r'^addr=0x[0-9a-f]+ len=0x[0-9a-f]+ pgoff=0x[0-9a-f]+ file=', i) and i.endswith(want)
                  for i in infos), want)
    st = read_csv('stat.csv', os.path.join(d, 'stat.csv'), ['type', 'name', 'count', 'bytes'])
    check('stat.csv: records add up', sum(int(r[2]) for r in st) == nrec, st)

    # dump
    for f in (names, pipe):
        tag = os.path.basename(f)
        out, _ = run(binary, 'dump ' + tag, ['dump', f])
        lines = out.split(b'\n')
        nrec = record_count(open(f, 'rb').read())
        heads = [ln for ln in lines if b'PERF_RECORD_' in ln]
        check('dump %s: a PERF_RECORD_ line per record (%d)' % (tag, nrec), len(heads) == nrec, len(heads))
        for ln in lines:
            ok = (not ln or re.match(rb'^(-1 -1 |[0-9]+ )?0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_', ln) or
                  ln.startswith(b'.') or ln.startswith(b'(IP, '))
            check('dump %s: a dump line' % tag, bool(ok), ln)
        for i, c in enumerate(g.COMMS):
            check('dump %s: COMM of %d' % (tag, 100 + i),
                  any(ln.endswith(b'PERF_RECORD_COMM: %s:%d/%d' % (esc(c), 100 + i, 100 + i)) for ln in heads), c)
        for p in (g.ELF_PATH, g.MISSING_PATH):
            check('dump %s: MMAP2 of %r' % (tag, p), sum(1 for ln in heads if b'MMAP2' in ln and ln.endswith(esc(p))) ==
                  len(g.COMMS))
        check('dump %s: the module MMAP' % tag, any(ln.endswith(b': x ' + esc(g.MODULE_PATH)) for ln in heads))
        for s in g.BPF_SYMS:
            check('dump %s: KSYMBOL %r' % (tag, s), any(ln.endswith(b' name ' + esc(s)) for ln in heads))
    out, _ = run(binary, 'dump --raw', ['dump', '--raw', names])

    # stat
    for f in (names, pipe):
        tag = os.path.basename(f)
        out, _ = run(binary, 'stat ' + tag, ['stat', f])
        check('stat %s: the event\'s line' % tag, esc(g.EVENT_NAME) + b' stats:' in out.split(b'\n'), out)
        for ln in out.split(b'\n'):
            check('stat %s: a stat line' % tag,
                  not ln or ln.startswith(b'#') or ln.startswith(b' ') or ln.endswith(b' stats:') or
                  ln == b'Aggregated stats:', ln)
    d = os.path.join(tmp, 'stat')
    run(binary, 'stat --csv', ['stat', '--csv', d, names])
    read_csv('stat --csv: stat.csv', os.path.join(d, 'stat.csv'), ['type', 'name', 'count', 'bytes'])

    # script
    script_checks(binary, syms, inputs)

    print('%d passed, %d failed%s' % (passed, failed, ', %d skipped' % skipped if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
