#!/usr/bin/env python3
"""The resource contract, tested: every perfdata command on every worst-case
input of at most 1 MiB (tests/hostile/gen_resources.py) finishes within 10 s
at a peak RSS of at most 256 MB, with exit status 0, or 1 or 3 and a
`perfdata...: ` message on stderr; never a signal, never a sanitizer or
crash report.

    contract.py RELEASE_BINARY [--workdir DIR] [--hard-timeout S] [--only NAME,...]

Each command runs alone (one at a time, so that the times are the
machine's), its output to /dev/null. Wall time and peak RSS are those of
the child (os.wait4). It runs under limits that keep a runaway from
hurting the machine, each of which also fails the run:
  - killed at --hard-timeout seconds (default 30) and counted as a timeout;
  - killed when its RSS passes 1 GiB (read from /proc while it runs);
  - an address-space limit of 4 GiB (a tool that then says "out of
    memory" tried to use that much for a 1 MiB input: a failure);
  - files it writes (report --csv) at most 512 MiB each;
  - an allocation guard (LD_PRELOAD, compiled here) refuses any single
    malloc, calloc or realloc above 256 MiB and says so on stderr: no
    allocation may be sized from file values beyond the memory budget.
The compressed inputs are first checked to be what they claim (their zstd
stream decoded by the zstd command expands at least 64:1), so that a broken
generator cannot make the test pass; without the zstd command that check
is a skip. Prints one line per run (input, command, seconds, MB, exit
status, verdict) and ends with "N passed, N failed[, N skipped]"; fails
when there is nothing to run.
"""
import ctypes
import os
import re
import resource
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True    # no __pycache__ beside the inputs of tests/hostile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, 'hostile'))
sys.path.insert(0, HERE)
import gen_resources  # noqa: E402
from oracles import SANITIZER  # noqa: E402

TIME_LIMIT = 10.0            # seconds of wall time
RSS_LIMIT = 256              # MB (10^6 bytes) of peak RSS
KILL_RSS = 1 << 30           # bytes: a run is stopped here
AS_LIMIT = 4 << 30           # bytes of address space (release build)
FSIZE_LIMIT = 512 << 20      # bytes per file written
ALLOC_LIMIT = 256 << 20      # bytes in one allocation

# Every command and the options that change what it does per record.
COMMANDS = [
    ('info', ['info']),
    ('info --events', ['info', '--events']),
    ('dump', ['dump']),
    ('dump --ordered', ['dump', '--ordered']),
    ('stat', ['stat']),
    ('report', ['report']),           # perf's branch mode on a profile with branch stacks
    # the sample view's sort keys and --csv: on a profile with branch stacks
    # they need --no-branch-stack (else a usage error), a no-op elsewhere
    ('report --sort pid', ['report', '--sort', 'pid', '--no-branch-stack']),
    ('report --sort dso,sym', ['report', '--sort', 'dso,sym', '--no-branch-stack']),
    ('report --csv', ['report', '--csv', '{csv}', '--no-branch-stack']),
    ('report --children', ['report', '--children', '--no-branch-stack']),
    ('diff', ['diff', '{input}']),    # the input against itself
    ('collapse', ['collapse']),
    ('collapse --kernel', ['collapse', '--kernel']),
    ('flamegraph', ['flamegraph']),
    ('script', ['script']),
    ('script -F trace', ['script', '--show-task-events', '--show-mmap-events', '-F', 'comm,tid,pid,time,cpu,event,trace']),
    ('convert --pipe', ['convert', '--pipe', '-o', '-']),
    ('convert --endian', ['convert', '--pipe', '--endian', 'big', '--decompress', '-o', '-']),
]

# A clear message: what the tools print, "perfdata: ..." or "perfdata CMD: ...".
MESSAGE = re.compile(r'^perfdata( [a-z]+)?: \S', re.M)
REFUSED = re.compile(r'^contract: refused an allocation of (\d+) bytes', re.M)
NO_MEMORY = re.compile(r'out of memory$', re.M)

ALLOC_GUARD = r'''
/* LD_PRELOAD: refuse single allocations above CONTRACT_ALLOC_LIMIT bytes. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static size_t limit = LIMIT;
static char boot[1 << 16];            /* what dlsym allocates before the real calloc is known */
static size_t boot_used;
static int resolving;

static void resolve(void) {
    resolving = 1;
    real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
    real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
    real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
    real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
    resolving = 0;
}

static void refuse(size_t n) {
    char msg[80] = "contract: refused an allocation of ", num[24];
    size_t len = strlen(msg), k = 0;
    do { num[k++] = (char)('0' + n % 10); n /= 10; } while (n);
    while (k) msg[len++] = num[--k];
    memcpy(msg + len, " bytes\n", 7);
    if (write(2, msg, len + 7) < 0) { /* nothing more to do */ }
    errno = ENOMEM;
}

static void *from_boot(size_t n) {
    void *p;
    n = (n + 15) & ~(size_t)15;
    if (n > sizeof boot - boot_used) return NULL;
    p = boot + boot_used;
    boot_used += n;
    return p;
}

static int in_boot(const void *p) { return (const char *)p >= boot && (const char *)p < boot + sizeof boot; }

void *malloc(size_t n) {
    if (!real_malloc) { if (resolving) return from_boot(n); resolve(); }
    if (n > limit) { refuse(n); return NULL; }
    return real_malloc(n);
}

void *calloc(size_t a, size_t b) {
    size_t n;
    if (__builtin_mul_overflow(a, b, &n)) { refuse((size_t)-1); return NULL; }
    if (!real_calloc) { if (resolving) return from_boot(n); resolve(); }
    if (n > limit) { refuse(n); return NULL; }
    return real_calloc(a, b);
}

void *realloc(void *p, size_t n) {
    if (!real_realloc) { if (resolving) return NULL; resolve(); }
    if (n > limit) { refuse(n); return NULL; }
    if (in_boot(p)) {
        size_t room = (size_t)(boot + sizeof boot - (char *)p);
        void *q = real_malloc(n);
        if (q) memcpy(q, p, n < room ? n : room);
        return q;
    }
    return real_realloc(p, n);
}

void free(void *p) {
    if (!p || in_boot(p)) return;
    if (!real_free) resolve();
    real_free(p);
}
'''


def build_guard(workdir):
    """Compiles the allocation guard; returns its path, or None (said)."""
    src = os.path.join(workdir, 'alloc_guard.c')
    lib = os.path.join(workdir, 'alloc_guard.so')
    with open(src, 'w') as f:
        f.write(ALLOC_GUARD)
    cc = os.environ.get('CC', 'cc')
    p = subprocess.run([cc, '-shared', '-fPIC', '-O2', f'-DLIMIT={ALLOC_LIMIT}u', src, '-o', lib, '-ldl'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if p.returncode:
        print(f'cannot build the allocation guard with {cc}:\n{p.stdout.decode(errors="replace")}')
        return None
    return lib


class Outcome:
    """How one run ended: seconds (wall), cpu, mb (peak RSS, 10^6 bytes),
    rc (exit status or None), sig (signal or None), killed (why we killed
    it, or None), err (stderr text, its head and tail)."""

    def __init__(self, seconds, cpu, mb, rc, sig, killed, err):
        self.seconds, self.cpu, self.mb, self.rc, self.sig, self.killed, self.err = \
            seconds, cpu, mb, rc, sig, killed, err


try:
    _LIBC = ctypes.CDLL(None, use_errno=True)
except OSError:
    _LIBC = None


def _limits(address_space):
    def apply():
        if _LIBC is not None:
            _LIBC.prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG: dies with the test
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FSIZE_LIMIT, FSIZE_LIMIT))
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
    return apply


def _rss_bytes(pid):
    try:
        with open(f'/proc/{pid}/statm') as f:
            return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE')
    except (OSError, ValueError, IndexError):
        return 0


def run_limited(cmd, hard_timeout, env=None, address_space=AS_LIMIT, kill_rss=KILL_RSS, cwd=None):
    """Runs cmd with stdout to /dev/null under the limits above; an
    Outcome."""
    with tempfile.TemporaryFile(prefix='contract-err-') as errf:
        start = time.monotonic()
        p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=errf, env=env, cwd=cwd,
                             preexec_fn=_limits(address_space), start_new_session=True)
        killed, status, usage, nap = None, 0, None, 0.002
        while True:
            pid, status, usage = os.wait4(p.pid, os.WNOHANG)
            if pid:
                break
            elapsed = time.monotonic() - start
            if killed is None and elapsed > hard_timeout:
                killed = f'still running at {hard_timeout:.0f} s: killed'
            elif killed is None and _rss_bytes(p.pid) > kill_rss:
                killed = f'RSS above {kill_rss >> 20} MiB after {elapsed:.1f} s: killed'
            if killed:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(nap)
            nap = min(nap * 2, 0.05)
        seconds = time.monotonic() - start
        p.returncode = status      # reaped here, not by Popen
        errf.flush()
        errf.seek(0, os.SEEK_END)
        size = errf.tell()
        errf.seek(0)
        cap = 1 << 16
        if size <= 2 * cap:
            err = errf.read()
        else:
            err = errf.read(cap) + b'\n[... %d bytes ...]\n' % (size - 2 * cap)
            errf.seek(size - cap)
            err += errf.read()
    sig = os.WTERMSIG(status) if os.WIFSIGNALED(status) else None
    rc = os.WEXITSTATUS(status) if os.WIFEXITED(status) else None
    return Outcome(seconds, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024 / 1e6, rc, sig, killed,
                   err.decode('utf-8', 'replace'))


def problems_of(o, time_limit=TIME_LIMIT, rss_limit=RSS_LIMIT):
    """Why a run breaks the contract (empty when it keeps it)."""
    out = []
    if o.killed:
        out.append(o.killed)
    elif o.sig is not None:
        out.append(f'killed by signal {o.sig}' + (' (file size limit)' if o.sig == signal.SIGXFSZ else ''))
    if not o.killed and o.seconds > time_limit:
        out.append(f'{o.seconds:.1f} s > {time_limit:.0f} s')
    if o.mb > rss_limit:
        out.append(f'peak RSS {o.mb:.0f} MB > {rss_limit} MB')
    if o.rc is not None and o.rc not in (0, 1, 3):
        out.append(f'exit status {o.rc}')
    if o.rc in (1, 3) and not MESSAGE.search(o.err):
        out.append(f'exit status {o.rc} without a "perfdata: ..." message')
    m = REFUSED.search(o.err)
    if m:
        out.append(f'asked for one allocation of {int(m.group(1)) / 1e6:.0f} MB')
    elif NO_MEMORY.search(o.err):
        out.append('ran out of memory (address space limited to 4 GiB)')
    if 'write error' in o.err:
        out.append('write error on its output')
    m = SANITIZER.search(o.err)
    if m:
        line = o.err[o.err.rfind('\n', 0, m.start()) + 1:].split('\n', 1)[0]
        out.append(f'crash or sanitizer text: {line[:160]}')
    return out


class Tally:
    def __init__(self):
        self.passed = self.failed = self.skipped = 0

    def add(self, ok):
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def line(self):
        s = f'{self.passed} passed, {self.failed} failed'
        return s + (f', {self.skipped} skipped' if self.skipped else '')


def first_message(err):
    m = MESSAGE.search(err)
    return err[m.start():].split('\n', 1)[0] if m else ''


def print_row(name, label, o, probs, path):
    rc = o.rc if o.rc is not None else f'sig{o.sig}'
    verdict = 'ok' if not probs else 'FAIL ' + '; '.join(probs)
    if o.rc:
        verdict += ' | ' + first_message(o.err).replace(os.path.dirname(path) + '/', '')[:110]
    print(f'{name:<22} {label:<22} {o.seconds:7.2f} {o.mb:7.0f} {rc!s:>5}  {verdict}', flush=True)


def run_commands(binary, name, path, workdir, tally, hard_timeout, env=None, address_space=AS_LIMIT,
                 kill_rss=KILL_RSS, time_limit=TIME_LIMIT, rss_limit=RSS_LIMIT):
    """Every command on one input; one tally entry and one line per run.
    The tools run in workdir, beside a FIFO named as gen_resources.FIFO
    (an MMAP may name a file relative to where the tool runs)."""
    fifo = os.path.join(workdir, gen_resources.FIFO.decode())
    if not os.path.exists(fifo):
        os.mkfifo(fifo)
    for label, args in COMMANDS:
        csv = os.path.join(workdir, 'csv')
        shutil.rmtree(csv, ignore_errors=True)
        cmd = [binary] + [a.replace('{csv}', csv).replace('{input}', path) for a in args] + [path]
        o = run_limited(cmd, hard_timeout, env=env, address_space=address_space, kill_rss=kill_rss, cwd=workdir)
        probs = problems_of(o, time_limit, rss_limit)
        tally.add(not probs)
        print_row(name, label, o, probs, path)
        shutil.rmtree(csv, ignore_errors=True)


# -- the compressed inputs are what they claim ------------------------------

def chunk_payloads(path):
    """The payloads of a perf.data file's COMPRESSED records, in order."""
    data = open(path, 'rb').read()
    off, size = struct.unpack_from('<QQ', data, 40)
    pos, end, out = off, off + size, []
    while pos + 8 <= end:
        typ, _, n = struct.unpack_from('<IHH', data, pos)
        if n < 8:
            break
        if typ == 81:
            out.append(data[pos + 8:pos + n])
        pos += n
    return b''.join(out)


def expands(path, want=64 << 20):
    """'' when the zstd command decodes at least `want` bytes from the
    file's chunks at a ratio of at least 64:1; None when there is no zstd
    command; else what is wrong."""
    zstd = shutil.which('zstd')
    if not zstd:
        return None
    stream = chunk_payloads(path)
    if not stream:
        return 'no COMPRESSED records'
    # windows up to 64 MiB; the 2 GiB one is checked by its frame header
    with tempfile.TemporaryFile() as f:
        f.write(stream)
        f.seek(0)
        p = subprocess.Popen([zstd, '-dc', '-M80MB'], stdin=f, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    got = 0
    while got < want:
        b = p.stdout.read(1 << 20)
        if not b:
            break
        got += len(b)
    p.kill()
    p.wait()
    if got < want:                         # and so at least 64:1, from at most 1 MiB
        return f'the zstd command decodes only {got} bytes from its {len(stream)} bytes of chunks'
    return ''


def check_window(path, log):
    stream = chunk_payloads(path)
    if stream[:4] != b'\x28\xb5\x2f\xfd' or stream[5] >> 3 != log - 10:
        return f'the first frame does not ask for a 2^{log} byte window'
    return ''


def potency(name, path):
    """'' when the input is what its generator says, None when that cannot
    be checked here, else what is wrong."""
    if name == 'zstd-window-2g':
        return check_window(path, 31)
    if name.startswith('zstd-') or name.startswith('chunk-'):
        return expands(path)
    return ''


def main(argv):
    if not argv or argv[0].startswith('-'):
        sys.stderr.write(__doc__)
        return 2
    binary = os.path.abspath(argv[0])
    workdir, hard_timeout, only = 'build/contract', 30.0, None
    rest = argv[1:]
    while rest:
        opt = rest.pop(0)
        if opt == '--workdir' and rest:
            workdir = rest.pop(0)
        elif opt == '--hard-timeout' and rest:
            hard_timeout = float(rest.pop(0))
        elif opt == '--only' and rest:
            only = rest.pop(0).split(',')
        else:
            sys.stderr.write(__doc__)
            return 2
    tally = Tally()
    if not os.access(binary, os.X_OK):
        print(f'{binary}: not an executable (make all)')
        print('0 passed, 1 failed')
        return 1
    workdir = os.path.abspath(workdir)
    inputs = os.path.join(workdir, 'inputs')
    shutil.rmtree(inputs, ignore_errors=True)
    os.makedirs(inputs)
    guard = build_guard(workdir)
    if not guard:
        print('0 passed, 1 failed')
        return 1
    env = dict(os.environ, LD_PRELOAD=guard)
    unknown = [n for n in only or () if n not in gen_resources.GENERATORS]
    if unknown:
        print(f'no generator named {", ".join(unknown)} (gen_resources.py --list)')
        print('0 passed, 1 failed')
        return 1
    names = [n for n in gen_resources.GENERATORS if only is None or n in only]
    print(f'# {len(names)} inputs x {len(COMMANDS)} commands; limits {TIME_LIMIT:.0f} s, {RSS_LIMIT} MB; '
          f'killed at {hard_timeout:.0f} s or {KILL_RSS >> 20} MiB')
    print(f'{"input":<22} {"command":<22} {"seconds":>7} {"MB":>7} {"rc":>5}  verdict')
    for name in names:
        path = gen_resources.write(inputs, name, gen_resources.LIMIT)
        why = potency(name, path)
        if why is None:
            tally.skipped += 1
            print(f'{name:<22} {"(is it hostile?)":<22} skip: no zstd command to check its chunks')
        elif why:
            tally.add(False)
            print(f'{name:<22} {"(is it hostile?)":<22} FAIL {why}')
            continue
        run_commands(binary, name, path, workdir, tally, hard_timeout, env=env)
    if tally.passed + tally.failed == 0:
        print('no input was run')
        tally.failed += 1
    print(tally.line())
    return 0 if tally.failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
