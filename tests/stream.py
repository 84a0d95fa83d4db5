#!/usr/bin/env python3
"""Standard input as a stream: `perfdata CMD -` reads a pipe as its bytes
arrive, in bounded memory, and prints what it prints for the same bytes
saved to a file.

(a) Equality. Every pipe-mode perf.data of tests/data (first 8 bytes
    PERFILE2, header size 16; the *.data.xz fixtures unpacked into WORKDIR)
    and a few file-mode ones, through dump, info, stat, report and collapse
    with several options each: once with the path, once with the same bytes
    on standard input through a pipe that a writer thread feeds in random
    pieces (1 byte to 64 KiB, log-uniform, seeded) with occasional short
    sleeps, and once through a FIFO given as the path. Standard output must
    be equal byte for byte, the exit status equal, and standard error equal
    once the path is replaced by the name the tools give standard input
    (the FIFO's path for the FIFO run). That name is learned first from
    the message about an 8-byte stream (`perfdata: NAME: shorter than a
    perf.data header`); the tools say `-`. info's `# captured on` line (the
    input's mtime: a pipe has none) is left out. Then each pipe-mode fixture
    cut short inside a record at a few offsets: the file run must say so on
    stderr and exit 3, and the stdin run must agree.
(b) First record before the writer ends. `perfdata dump -` (and dump of a
    FIFO) gets a pipe fixture up to the end of its first SAMPLE record
    while the writer holds the pipe open; a record line must appear on its
    standard output (a pipe: dump has to flush before it waits for more
    input) within 10 s. Then the rest is written, the pipe closed, and the
    whole output must equal the file run's.
(c) Bounded memory on >= 1 GiB. A pipe-mode stream of at least 1 GiB goes,
    as it is made, to `perfdata stat -`, `report -`, `collapse -` and
    `dump -` at once (dump's output hashed, not kept) and to a file under
    WORKDIR. Each child's peak RSS (os.wait4's ru_maxrss) must be at most
    64 MB (10^6 bytes, as tests/contract.py counts), it must exit as the
    same command on the saved file does, with the same output (dump's by
    SHA-1 and length) and stderr. The file is deleted afterwards. Sources:
    (i)  live: `perf record -o - -a -g -F 29999` on a load of a
         deep-stack spinner per CPU (call chains 105-120 frames deep, a
         program compiled here) and a loop of short-lived processes,
         stopped with SIGINT once 1 GiB has come (35 s to 150 s here,
         at most LIVE_SECONDS);
         skipped, with the reason, when perf, a C compiler or
         `perf record -o - -a true` is not usable here;
    (ii) synthetic, always: tests/data/sys-pipe.data.xz (a system-wide -g
         profile in pipe mode) with its header, attrs, features and
         synthesized records (up to FINISHED_INIT) once, then its recorded
         records over and over, each repetition's timestamps moved past
         the previous one's and a FINISHED_ROUND after each, as perf's
         rounds would be; the processes and threads born in those records
         (a FORK's tid) are born anew in each repetition under new ids,
         so that the stream has over a million short-lived processes, as
         a long system-wide profile of a build has. Checked first on 3
         repetitions: dump must show each repetition's records with the
         times and the FORKs' ids moved as intended, stat must count 3
         times the samples.
    The pipes are given 1 MiB buffers here. A child whose RSS passes 3 GiB
    is killed (the machine is shared), and one that runs for 10 minutes.
    The tools run under a small program that reports their ru_maxrss: a
    child of Python would inherit Python's own peak RSS as its floor.
    Part (c) takes 2.5 to 4 minutes on 2 busy cores with tools that read
    standard input whole.

Prints one FAIL line per failed check, the time each part took, and ends
with "N passed, N failed[, N skipped]"; exit status 1 on any failure.

Usage: stream.py PERFDATA_BINARY [WORKDIR] [--only a,b,c] [--seed N] [--no-live]
  WORKDIR defaults to build/test/stream; --only runs some parts;
  --seed changes the random piece sizes of (a) (the failing run's seed is
  printed); --no-live skips (c)(i), counted as a skip.
"""
import argparse
import fcntl
import hashlib
import lzma
import os
import random
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
GIB = 1 << 30
RSS_LIMIT_MB = 64            # MB of 10^6 bytes
KILL_RSS = 3 << 30           # bytes: a child past this is killed
HARD_TIMEOUT = 600           # seconds: a child of (c) running longer is killed
FIRST_RECORD_TIMEOUT = 10.0  # seconds
RECORD_LINE = re.compile(rb'^.* 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_', re.M)
FORK_LINE = re.compile(r'PERF_RECORD_FORK\((-?\d+):(-?\d+)\):\((-?\d+):(-?\d+)\)')  # (pid:tid):(ppid:ptid)
DUMP_LINE = re.compile(r'^(-?\d+) (-?\d+) 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_([A-Z0-9_]+)', re.M)

# record types and sample_type bits (include/uapi/linux/perf_event.h,
# tools/perf/util/event.h)
MMAP, COMM, EXIT, FORK, SAMPLE, MMAP2 = 1, 3, 4, 7, 9, 10
HEADER_ATTR, FINISHED_ROUND, FINISHED_INIT = 64, 68, 82
S_IP, S_TID, S_TIME, S_ID, S_CPU, S_STREAM_ID, S_IDENTIFIER = 1, 2, 4, 64, 128, 512, 1 << 16
SAMPLE_ID_ALL = 1 << 18      # attr.flags bit

# What runs on every input of (a): each tool, with options that change
# what it does per record or how it prints.
COMMANDS = [
    ['dump'], ['dump', '--ordered'], ['dump', '--raw'], ['dump', '--header'],
    ['dump', '--type', 'SAMPLE,COMM,MMAP2,FEATURE'],
    ['info'], ['info', '--events'],
    ['stat'], ['stat', '--table-only'],
    ['report'], ['report', '--sort', 'comm,dso'], ['report', '--sort', 'pid,sym', '--show-nr-samples', '--symdir', DATA],
    ['collapse'], ['collapse', '--kernel', '--with-pid'], ['collapse', '--period', '--symdir', DATA],
    ['script'], ['script', '--show-task-events', '--show-mmap-events', '--ns'],
]
FILE_MODE = ['plain.data', 'callchain-fp.data', 'zstd.data']
# (c): what reads the 1 GiB stream
BIG_COMMANDS = [['stat'], ['report'], ['collapse'], ['dump']]

passed = failed = skipped = 0


def check(name, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {name} {detail}'.rstrip(), flush=True)
    return cond


def skip(name, why):
    global skipped
    skipped += 1
    print(f'skip {name}: {why}', flush=True)


def short(b, n=400):
    s = b.decode('utf-8', 'replace') if isinstance(b, bytes) else str(b)
    return s if len(s) <= n else s[:n] + '...'


def is_pipe_mode(data):
    return len(data) >= 16 and data[:8] == b'PERFILE2' and struct.unpack_from('<Q', data, 8)[0] == 16


def records(data, start=16):
    """(offset, type, size) of every record from start to the end; raises
    ValueError when the records do not tile the bytes exactly."""
    out, pos = [], start
    while pos + 8 <= len(data):
        rtype, _, size = struct.unpack_from('<IHH', data, pos)
        if size < 8 or size > len(data) - pos:
            raise ValueError(f'record of size {size} at {pos:#x}')
        if rtype == 66 and size >= 12:  # HEADER_TRACING_DATA: its data follows the 12-byte record
            extra = struct.unpack_from('<I', data, pos + 8)[0]
            if size - 12 < extra:
                size += extra
                if size > len(data) - pos:
                    raise ValueError(f'tracing data of size {extra} at {pos:#x} runs past the end')
        out.append((pos, rtype, size))
        pos += size
    if pos != len(data):
        raise ValueError(f'{len(data) - pos} bytes after the last record')
    return out


def big_pipe(fd):
    """A 1 MiB pipe buffer (the default 64 KiB costs a context switch per
    64 KiB, which on 2 cores slows the 1 GiB runs of (c) a lot)."""
    try:
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except OSError:
        pass


def write_all(fd, b):
    mv = memoryview(b)
    while mv:
        mv = mv[os.write(fd, mv):]


def feed(fd, data, seed, holder=None):
    """Writes data to fd in random pieces of 1 byte to 64 KiB (log-uniform),
    sleeping 1-5 ms before about one piece in 20; closes fd. A reader that
    went away (EPIPE) ends it early: holder['written'] says how far it got."""
    rng = random.Random(seed)
    pos = 0
    try:
        while pos < len(data):
            n = min(len(data) - pos, max(1, int(2 ** rng.uniform(0, 16))))
            if rng.random() < 0.05:
                time.sleep(rng.uniform(0.001, 0.005))
            write_all(fd, data[pos:pos + n])
            pos += n
    except BrokenPipeError:
        pass
    finally:
        os.close(fd)
        if holder is not None:
            holder['written'] = pos


def run_path(tool, args, path):
    p = subprocess.run([tool] + args + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout, p.stderr


def run_stdin(tool, args, data, seed):
    """tool args - with data fed through a pipe by a writer thread."""
    r, w = os.pipe()
    try:
        p = subprocess.Popen([tool] + args + ['-'], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    finally:
        os.close(r)
    writer = threading.Thread(target=feed, args=(w, data, seed))
    writer.start()
    try:
        out, err = p.communicate(timeout=300)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
        writer.join()
    return p.returncode, out, err


def run_fifo(tool, args, data, seed, fifo):
    """tool args FIFO with data fed into the FIFO by a writer thread."""
    if os.path.lexists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)

    def writer_main():
        try:
            fd = os.open(fifo, os.O_WRONLY)
        except OSError:
            return
        feed(fd, data, seed)
    writer = threading.Thread(target=writer_main)
    writer.start()
    try:
        p = subprocess.run([tool] + args + [fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    finally:
        if writer.is_alive():   # the tool never opened the FIFO: let the writer's open return
            try:
                os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
            except OSError:
                pass
        writer.join()
        os.unlink(fifo)
    return p.returncode, p.stdout, p.stderr


def first_diff(a, b):
    """Where two outputs part, as a line number and both lines."""
    la, lb = a.split(b'\n'), b.split(b'\n')
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            return f'line {i + 1}: {short(x, 200)!r} vs {short(y, 200)!r}'
    return f'{len(la)} vs {len(lb)} lines'


CAPTURED_ON = re.compile(rb'^# captured on    : .*$', re.M)


def compare(name, ref, got, path, alias, seed=None):
    """ref = (rc, out, err) of the path run, got = the same of the run under
    test; stderr compared with path replaced by alias. info's `# captured
    on` line is the input's mtime, which a pipe does not have: it is left
    out of both."""
    rc0, out0, err0 = ref
    rc1, out1, err1 = got
    out0, out1 = CAPTURED_ON.sub(b'# captured on', out0), CAPTURED_ON.sub(b'# captured on', out1)
    want_err = err0.replace(path.encode(), alias.encode())
    tag = f' (seed {seed})' if seed is not None else ''
    ok = check(f'{name}: exit status{tag}', rc0 == rc1, f'{rc1}, the file gives {rc0}; stderr {short(err1)}')
    ok &= check(f'{name}: stdout{tag}', out0 == out1, first_diff(out0, out1))
    ok &= check(f'{name}: stderr{tag}', want_err == err1, f'{short(err1)!r}, the file gives {short(want_err)!r}')
    return ok


def stdin_name(tool):
    """What the tools call standard input in their messages: the NAME of
    `perfdata: NAME: shorter than a perf.data header` (any message of that
    form) for 8 bytes on a pipe."""
    rc, out, err = run_stdin(tool, ['dump'], b'PERFILE2', 0)
    m = re.match(rb'perfdata(?: [a-z]+)?: (.+?): ', err)
    check('the name of standard input in messages, from a message about it', rc in (1, 3) and m,
          f'exit {rc}, {short(err)}')
    name = m.group(1).decode() if m else '-'
    print(f'standard input is called {name!r} in messages', flush=True)
    return name


def fixtures(work):
    """(name, path, data) of every pipe-mode fixture, then the file-mode ones."""
    pipes, files = [], []
    for name in sorted(os.listdir(DATA)):
        src = os.path.join(DATA, name)
        if name.endswith('.data') and os.path.isfile(src):
            data = open(src, 'rb').read()
            if is_pipe_mode(data):
                pipes.append((name, src, data))
            elif name in FILE_MODE:
                files.append((name, src, data))
        elif name.endswith('.data.xz'):
            data = lzma.decompress(open(src, 'rb').read())
            if is_pipe_mode(data):
                path = os.path.join(work, name[:-3])
                open(path, 'wb').write(data)
                pipes.append((name[:-3], path, data))
    return pipes, files


def part_a(tool, work, seed, alias):
    pipes, files = fixtures(work)
    check('(a) pipe-mode fixtures found (the compressed one among them)',
          len(pipes) >= 2 and any('zstd' in n for n, _, _ in pipes), [n for n, _, _ in pipes])
    check('(a) file-mode fixtures found', len(files) == len(FILE_MODE), [n for n, _, _ in files])
    fifo = os.path.join(work, 'fifo')
    k = 0
    for name, path, data in pipes + files:
        for args in COMMANDS:
            k += 1
            ref = run_path(tool, args, path)
            what = f'{name}: {" ".join(args).replace(DATA, "tests/data")}'
            if not check(f'{what}: runs on the file', ref[0] in (0, 3) and ref[1], f'exit {ref[0]}, {short(ref[2])}'):
                continue
            compare(f'{what} -', ref, run_stdin(tool, args, data, seed + k), path, alias, seed + k)
            if args in (['dump'], ['stat'], ['report'], ['collapse']):
                compare(f'{what} FIFO', ref, run_fifo(tool, args, data, seed + k, fifo), path, fifo, seed + k)
    # cut short inside a record: said on stderr, exit 3, the same both ways
    for name, path, data in pipes:
        recs = records(data)
        cuts = {recs[0][0] + recs[0][2] // 2,                 # inside the first record (an attr)
                recs[len(recs) // 2][0] + 3,                   # inside a record header
                recs[2 * len(recs) // 3][0] + recs[2 * len(recs) // 3][2] // 2,
                len(data) - 1}                                 # the last byte missing
        for cut in sorted(cuts):
            cpath = os.path.join(work, f'cut-{cut}-{name}')
            open(cpath, 'wb').write(data[:cut])
            for args in (['dump'], ['stat'], ['report'], ['collapse']):
                k += 1
                ref = run_path(tool, args, cpath)
                what = f'{name} cut at {cut:#x}: {args[0]}'
                check(f'{what}: the file run says so and exits 3', ref[0] == 3 and b'perfdata' in ref[2],
                      f'exit {ref[0]}, {short(ref[2])}')
                compare(f'{what} -', ref, run_stdin(tool, args, data[:cut], seed + k), cpath, alias, seed + k)
            os.unlink(cpath)
    hostile_streams(tool, seed + k + 1)


def hostile_streams(tool, seed):
    """Streams whose sizes come from the input: each ends with a message on
    stderr and a non-zero exit, never a hang or an allocation the input
    names."""
    hdr = b'PERFILE2' + struct.pack('<Q', 16)
    aux = struct.pack('<IHH', 71, 0, 48) + struct.pack('<QQQIIII', 1 << 32, 0, 0, 0, 0, 0, 0)  # 4 GiB payload
    cases = [
        ('an AUXTRACE payload of 4 GiB', hdr + aux + b'x' * 1000, b'more than the 256 MiB one buffer may take'),
        ('a record of size 0', hdr + struct.pack('<IHH', 9, 0, 0) + bytes(64), b'record size below 8'),
        ('10 bytes', hdr[:10], b'shorter than a perf.data header'),
        ('nothing', b'', b'shorter than a perf.data header'),
        ('a record cut in its header', hdr + struct.pack('<IHH', 68, 0, 8)[:5], b'record header truncated'),
    ]
    for k, (what, data, says) in enumerate(cases):
        rc, out, err = run_stdin(tool, ['stat'], data, seed + k)
        check(f'(a) hostile stream, {what}: stat - says so and exits non-zero', rc in (1, 3) and says in err,
              f'exit {rc}, {short(err)}')
    rc, out, err = run_stdin(tool, ['report'], hdr + struct.pack('<IHH', 68, 0, 8) * 1000000, seed)
    check('(a) hostile stream, a million 8-byte records: report - reads them all', rc in (0, 3) and b'no samples' in err,
          f'exit {rc}, {short(err)}')


def part_b(tool, work, alias):
    data = open(os.path.join(DATA, 'pipe.data'), 'rb').read()
    first_sample = next(r for r in records(data) if r[1] == SAMPLE)
    head = first_sample[0] + first_sample[2]
    ref = run_path(tool, ['dump'], os.path.join(DATA, 'pipe.data'))
    check('(b) dump of pipe.data runs', ref[0] == 0 and RECORD_LINE.search(ref[1]), short(ref[2]))
    fifo = os.path.join(work, 'fifo-b')
    for via in ('-', 'FIFO'):
        what = f'(b) dump {via}: a record line while the writer holds the pipe open'
        if via == '-':
            r, w = os.pipe()
            p = subprocess.Popen([tool, 'dump', '-'], stdin=r, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            os.close(r)
        else:
            if os.path.lexists(fifo):
                os.unlink(fifo)
            os.mkfifo(fifo)
            p = subprocess.Popen([tool, 'dump', fifo], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            w, t0 = None, time.monotonic()
            while w is None and p.poll() is None and time.monotonic() - t0 < FIRST_RECORD_TIMEOUT:
                try:    # ENXIO until dump has opened the FIFO
                    w = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
                except OSError:
                    time.sleep(0.01)
            if not check('(b) dump FIFO opens the FIFO', w is not None, f'exit {p.poll()}'):
                p.kill()
                p.communicate()
                os.unlink(fifo)
                continue
            os.set_blocking(w, True)
        t0 = time.monotonic()
        try:
            write_all(w, data[:head])
        except BrokenPipeError:
            pass
        seen, out, eof = None, b'', False
        while time.monotonic() - t0 < FIRST_RECORD_TIMEOUT:
            ready, _, _ = select.select([p.stdout], [], [], max(0.0, FIRST_RECORD_TIMEOUT - (time.monotonic() - t0)))
            if not ready:
                continue
            chunk = os.read(p.stdout.fileno(), 1 << 16)
            if not chunk:
                eof = True
                break
            out += chunk
            if RECORD_LINE.search(out):
                seen = time.monotonic() - t0
                break
        check(what, seen is not None,
              f'none within {FIRST_RECORD_TIMEOUT:.0f} s of the first {head} bytes (of {len(data)})'
              + (' (dump ended)' if eof else '') + f'; stdout so far {short(out, 120)!r}')
        if seen is not None:
            print(f'(b) dump {via}: first record line {seen * 1000:.0f} ms after the first {head} bytes', flush=True)
        try:
            write_all(w, data[head:])
        except BrokenPipeError:
            pass
        os.close(w)
        rest, err = p.communicate(timeout=60)
        compare(f'(b) dump {via} after the rest', ref, (p.returncode, out + rest, err),
                os.path.join(DATA, 'pipe.data'), alias if via == '-' else fifo)
        if via != '-':
            os.unlink(fifo)


# ---- (c) ------------------------------------------------------------------

# ru_maxrss of a child that Python starts is no less than Python's own peak
# RSS: the child is started with vfork (or fork) and exec keeps the larger
# of the old and new address spaces' high-water marks. The tools are run
# through this small program instead, whose own child starts from its
# ~1 MB; it writes that child's wait status and ru_maxrss to a file.
SPAWN_C = r'''
/* spawn_rss OUT CMD ARGS...: run CMD (stdin, stdout, stderr inherited) and
   write "STATUS MAXRSS_KB" of it to OUT; exit as CMD did. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int status;
    struct rusage ru;
    pid_t pid;
    FILE *f;
    if (argc < 3) return 125;
    pid = fork();
    if (pid < 0) return 125;
    if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return 125;
    if (!(f = fopen(argv[1], "w")) || fprintf(f, "%d %ld\n", status, ru.ru_maxrss) < 0 || fclose(f) != 0) return 125;
    if (WIFEXITED(status)) return WEXITSTATUS(status);
    return 128 + WTERMSIG(status);
}
'''


def build_spawn(work):
    """The spawn_rss program, compiled into work (None when that fails)."""
    exe = os.path.join(work, 'spawn_rss')
    open(exe + '.c', 'w').write(SPAWN_C)
    cc = os.environ.get('CC') or 'cc'
    try:
        c = subprocess.run([cc, '-O1', '-o', exe, exe + '.c'], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    except OSError as e:
        return None, str(e)
    return (exe, '') if c.returncode == 0 else (None, short(c.stdout))


class Child:
    """perfdata CMD PATH (PATH '-': a pipe we write) under spawn_rss: its
    stdout hashed (dump) or kept, its stderr kept, its exit status and peak
    RSS from wait4."""
    spawn = None

    def __init__(self, tool, args, path='-'):
        self.args = args
        self.hash_out = args[0] == 'dump'
        self.r, self.w = (os.pipe() if path == '-' else (None, None))
        self.status_file = os.path.join(os.path.dirname(Child.spawn), f'status-{os.getpid()}-{id(self)}')
        self.p = subprocess.Popen([Child.spawn, self.status_file, tool] + args + [path],
                                  stdin=subprocess.DEVNULL if self.r is None else self.r,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if self.r is not None:
            os.close(self.r)
            big_pipe(self.w)
        big_pipe(self.p.stdout.fileno())
        self.sha, self.nout, self.out, self.err = hashlib.sha1(), 0, [], []
        self.alive, self.killed, self.broke_at = True, None, None
        self.t0 = time.monotonic()
        self.watchdog = threading.Timer(HARD_TIMEOUT, self.time_out)
        self.watchdog.start()
        self.threads = [threading.Thread(target=self._read_out), threading.Thread(target=self._read_err)]
        for t in self.threads:
            t.start()

    def _read_out(self):
        fd = self.p.stdout.fileno()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            self.nout += len(b)
            if self.hash_out:
                self.sha.update(b)
            else:
                self.out.append(b)

    def _read_err(self):
        self.err.append(self.p.stderr.read())

    def write(self, b, total):
        if not self.alive:
            return
        try:
            write_all(self.w, b)
        except BrokenPipeError:
            self.alive = False
            self.broke_at = total

    def tool_pid(self):
        try:
            return int(open(f'/proc/{self.p.pid}/task/{self.p.pid}/children').read().split()[0])
        except (OSError, ValueError, IndexError):
            return None

    def rss_check(self):
        """Kills the tool when its RSS has passed KILL_RSS."""
        pid = self.tool_pid()
        try:
            for line in open(f'/proc/{pid}/status'):
                if line.startswith('VmRSS:') and int(line.split()[1]) << 10 > KILL_RSS:
                    os.kill(pid, signal.SIGKILL)
                    self.killed = f'killed at {int(line.split()[1]) >> 10} MiB of RSS'
        except (OSError, ValueError, TypeError):
            pass

    def time_out(self):
        """Kills the tool when it has run for HARD_TIMEOUT seconds."""
        pid = self.tool_pid()
        if pid is not None and self.p.poll() is None:
            try:
                os.kill(pid, signal.SIGKILL)
                self.killed = f'killed after {HARD_TIMEOUT} s'
            except OSError:
                pass

    def finish(self):
        if self.w is not None:
            os.close(self.w)
            self.w = None
        self.p.wait()
        self.watchdog.cancel()
        self.seconds = time.monotonic() - self.t0
        for t in self.threads:
            t.join()
        try:
            status, self.rss_kb = (int(x) for x in open(self.status_file).read().split())
            os.unlink(self.status_file)
            rc = os.waitstatus_to_exitcode(status)
        except (OSError, ValueError):
            rc, self.rss_kb = f'spawn_rss failed (exit {self.p.returncode})', 1 << 40
        self.result = (rc, (self.sha.hexdigest().encode() + b' %d bytes' % self.nout)
                       if self.hash_out else b''.join(self.out), b''.join(self.err))
        return self


def fan_out(tool, pieces, save):
    """Sends the byte pieces to every BIG_COMMANDS child's stdin and to the
    file save; returns (children, bytes sent, (seconds until the last byte
    was sent, seconds until every child had ended))."""
    kids = [Child(tool, args) for args in BIG_COMMANDS]
    total, t0, last_check = 0, time.monotonic(), 0
    with open(save, 'wb') as f:
        for b in pieces:
            f.write(b)
            for k in kids:
                k.write(b, total)
            total += len(b)
            if total - last_check >= 32 << 20:
                last_check = total
                for k in kids:
                    k.rss_check()
    sent = time.monotonic() - t0
    kids = [k.finish() for k in kids]
    return kids, total, (sent, time.monotonic() - t0)


def judge(tool, alias, source, kids, total, seconds, save, want_rc0):
    print(f'(c) {source}: {total / GIB:.2f} GiB sent in {seconds[0]:.1f} s, every reader done in {seconds[1]:.1f} s',
          flush=True)
    check(f'(c) {source}: the stream is at least 1 GiB', total >= GIB, f'{total} bytes')
    for k in kids:
        name = f'(c) {source}: {k.args[0]} -'
        print(f'    {k.args[0]} -: exit {k.result[0]}, peak RSS {k.rss_kb * 1024 / 1e6:.1f} MB, '
              f'{k.seconds:.1f} s' + (f', {k.killed}' if k.killed else ''), flush=True)
        check(f'{name}: peak RSS <= {RSS_LIMIT_MB} MB', k.rss_kb * 1024 <= RSS_LIMIT_MB * 10 ** 6,
              f'{k.rss_kb * 1024 / 1e6:.1f} MB' + (f' ({k.killed})' if k.killed else ''))
        check(f'{name}: read the whole stream', k.broke_at is None, f'stopped reading at {k.broke_at} bytes')
        f = Child(tool, k.args, save).finish()
        print(f'    {k.args[0]} FILE: exit {f.result[0]}, peak RSS {f.rss_kb * 1024 / 1e6:.1f} MB, {f.seconds:.1f} s',
              flush=True)
        if want_rc0:
            check(f'{name}: the saved file reads cleanly', f.result[0] == 0 and not f.result[2],
                  f'exit {f.result[0]}, {short(f.result[2])}')
        compare(name, f.result, k.result, save, alias)


def synthetic_parts(source):
    """(prefix, body, offsets of the time fields in body, D): the pipe-mode
    stream source cut after its FINISHED_INIT record into what is sent once
    and what is repeated (its FINISHED_ROUNDs dropped, one appended), and D,
    the shift that puts one repetition's times past the previous one's."""
    recs = records(source)
    init = next(i for i, r in enumerate(recs) if r[1] == FINISHED_INIT)
    sample_type = id_bits = None
    for off, rtype, size in recs[:init]:
        if rtype == HEADER_ATTR:
            st = struct.unpack_from('<Q', source, off + 8 + 24)[0]
            flags = struct.unpack_from('<Q', source, off + 8 + 40)[0]
            if not flags & SAMPLE_ID_ALL:
                raise ValueError('an attr without sample_id_all')
            if sample_type is not None and st != sample_type:
                raise ValueError('attrs with different sample types')
            sample_type = st
    id_bits = sample_type & (S_TID | S_TIME | S_ID | S_STREAM_ID | S_CPU | S_IDENTIFIER)
    if not sample_type & S_TIME:
        raise ValueError('no time in the samples')
    in_sample = 8 + 8 * bool(sample_type & S_IDENTIFIER) + 8 * bool(sample_type & S_IP) + 8 * bool(sample_type & S_TID)
    trailer = 8 * bin(id_bits).count('1')
    in_trailer = 8 * bool(sample_type & S_TID)
    body, offsets, times, pid_fields = bytearray(), [], [], []
    for off, rtype, size in recs[init + 1:]:
        if rtype == FINISHED_ROUND:
            continue
        if rtype >= 64:
            raise ValueError(f'record type {rtype} among the recorded records')
        at = in_sample if rtype == SAMPLE else size - trailer + in_trailer
        offsets.append(len(body) + at)
        times.append(struct.unpack_from('<Q', source, off + at)[0])
        # the u32 pid and tid fields: the sample's or the sample_id's
        # (TID comes first among the id fields), and the record's own
        tid_at = (8 + 8 * bool(sample_type & S_IDENTIFIER) + 8 * bool(sample_type & S_IP) if rtype == SAMPLE
                  else size - trailer)
        fields = [tid_at, tid_at + 4] if sample_type & S_TID else []
        fields += {FORK: [8, 12, 16, 20], EXIT: [8, 12, 16, 20], COMM: [8, 12], MMAP: [8, 12], MMAP2: [8, 12]}.get(rtype, [])
        pid_fields += [(len(body) + f, struct.unpack_from('<i', source, off + f)[0]) for f in fields]
        body += source[off:off + size]
    body += struct.pack('<IHH', FINISHED_ROUND, 0, 8)
    # the processes and threads born in the body (a FORK's tid) are born
    # anew in every repetition: their ids move by r * step
    born = {struct.unpack_from('<i', body, o + 16)[0] for o, t, _ in records(body, 0) if t == FORK}
    top = max([v for _, v in pid_fields] + [1])
    pids = [o for o, v in pid_fields if v in born and v > 0]
    return (bytes(source[:recs[init][0] + recs[init][2]]), bytes(body), offsets, max(times) - min(times) + 1,
            pids, 1 << top.bit_length())


def repeat(prefix, body, offsets, shift, reps, pids=(), step=0):
    """prefix, then body reps times with every time field of repetition r
    moved by r * shift, and every pid field in pids by r * step: one
    big-integer sum per repetition (the fields are little-endian and far
    from their tops, so no carry leaves a field)."""
    if pids and reps * step > 1 << 31:
        raise ValueError(f'{reps} repetitions of pids moved by {step} pass 2^31')
    yield prefix
    base = int.from_bytes(body, 'little')
    mask = sum(1 << (8 * o) for o in offsets)
    pid_mask = sum(1 << (8 * o) for o in pids)
    for r in range(reps):
        yield (base + r * shift * mask + r * step * pid_mask).to_bytes(len(body), 'little')


def part_c_synthetic(tool, work, alias):
    src = os.path.join(DATA, 'sys-pipe.data.xz')
    source = lzma.decompress(open(src, 'rb').read())
    try:
        prefix, body, offsets, shift, pids, step = synthetic_parts(source)
    except (ValueError, StopIteration) as e:
        check('(c) synthetic: sys-pipe.data splits into a prefix and records to repeat', False, str(e))
        return
    # the generator checked on 3 repetitions: the tool sees each
    # repetition's records with their times moved by the shift, and all
    # of a repetition after all of the previous one
    small = os.path.join(work, 'synthetic-3.data')
    open(small, 'wb').write(b''.join(repeat(prefix, body, offsets, shift, 3, pids, step)))
    rc, out, err = run_path(tool, ['dump'], small)
    lines = DUMP_LINE.findall(out.decode('utf-8', 'replace'))
    nprefix = len(records(prefix))
    reps = [lines[nprefix + i * (len(offsets) + 1):nprefix + (i + 1) * (len(offsets) + 1)] for i in range(3)]
    ok = rc == 0 and not err and len(lines) == nprefix + 3 * (len(offsets) + 1)
    for r in (1, 2):
        ok = ok and all(a[2] == b[2] and (int(b[1]) == int(a[1]) + r * shift or a[2] == 'FINISHED_ROUND')
                        for a, b in zip(reps[0], reps[r]))
        ok = ok and max(int(x[1]) for x in reps[r - 1] if x[2] != 'FINISHED_ROUND') < \
            min(int(x[1]) for x in reps[r] if x[2] != 'FINISHED_ROUND')
    check('(c) synthetic: 3 repetitions dump with each repetition\'s times moved past the previous one\'s', ok,
          f'exit {rc}, {len(lines)} record lines, {short(err)}')
    text = [m.group(0) for m in re.finditer(r'^-?\d+ -?\d+ 0x[0-9a-f]+ \[0x[0-9a-f]+\]: PERF_RECORD_.*$',
                                            out.decode('utf-8', 'replace'), re.M)]
    n = len(offsets) + 1
    forks = [[tuple(int(x) for x in m.groups()) for m in map(FORK_LINE.search, text[nprefix + i * n:nprefix + (i + 1) * n]) if m]
             for i in range(3)]
    ok = len(text) == len(lines) and len(forks[0]) > 0
    for r in (1, 2):
        ok = ok and len(forks[r]) == len(forks[0]) and all(b[1] == a[1] + r * step and b[0] in (a[0], a[0] + r * step)
                                                           for a, b in zip(forks[0], forks[r]))
    check('(c) synthetic: the FORKs of each repetition make new threads (their tids moved)', ok,
          f'{[len(f) for f in forks]} FORKs, step {step}')
    n1 = sum(1 for off, t, s in records(body, 0) if t == SAMPLE)
    rc, out, err = run_path(tool, ['stat'], small)
    m = re.search(rb'^\s*SAMPLE events:\s*(\d+)', out, re.M)
    check('(c) synthetic: stat counts 3 times the samples of a repetition', rc == 0 and not err and m
          and int(m.group(1)) == 3 * n1, f'exit {rc}, {m and m.group(1)}, want {3 * n1}; {short(err)}')
    os.unlink(small)
    reps = -(-(GIB - len(prefix)) // len(body))
    save = os.path.join(work, 'synthetic.data')
    try:
        kids, total, seconds = fan_out(tool, repeat(prefix, body, offsets, shift, reps, pids, step), save)
        judge(tool, alias, f'synthetic stream ({reps} repetitions of sys-pipe.data\'s records)', kids, total, seconds,
              save, True)
    finally:
        if os.path.exists(save):
            os.unlink(save)


DEEP_C = r'''
/* deep SECONDS DEPTH: spin at the bottom of a DEPTH-deep chain of calls
   (frame pointers kept) until SECONDS have passed; SECONDS 0: once. */
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static unsigned long down(int depth, unsigned long x) {
    int i;
    if (depth > 0) return down(depth - 1, x * 31 + (unsigned long)depth) + 1;
    for (i = 0; i < 200000; i++) x = x * 6364136223846793005UL + 1442695040888963407UL;
    return x;
}
int main(int argc, char **argv) {
    time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 10);
    int depth = argc > 2 ? atoi(argv[2]) : 120;
    do sink += down(depth - (int)(sink % 16), sink); while (time(NULL) < end);
    return 0;
}
'''
# the longest the live recording may take to reach 1 GiB: 35 s to 150 s
# here, as the kernel lowers perf_event_max_sample_rate on a busy machine
LIVE_SECONDS = 420
LIVE_FREQ = 29999    # Hz per CPU: ~30 MB/s of call chains here


def part_c_live(tool, work, alias):
    name = '(c) live: perf record -o - -a -g into the tools'
    if not shutil.which('perf'):
        return skip(name, 'perf is not installed')
    cc = shutil.which('cc') or shutil.which('gcc')
    if not cc:
        return skip(name, 'no C compiler for the deep-stack load')
    env = dict(os.environ, PERF_BUILDID_DIR=os.path.join(work, '.debug'), PERF_PAGER='cat')
    try:
        t = subprocess.run(['perf', 'record', '-q', '-o', '-', '-a', 'true'], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=60, env=env)
    except subprocess.TimeoutExpired:
        return skip(name, '`perf record -o - -a true` did not end within 60 s')
    if t.returncode != 0 or not is_pipe_mode(t.stdout):
        return skip(name, f'`perf record -o - -a true` fails here (exit {t.returncode}): '
                    f'{short(t.stderr, 200).strip()} (kernel.perf_event_paranoid may forbid -a)')
    deep = os.path.join(work, 'deep')
    open(deep + '.c', 'w').write(DEEP_C)
    c = subprocess.run([cc, '-O1', '-fno-omit-frame-pointer', '-fno-optimize-sibling-calls', '-o', deep, deep + '.c'],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if c.returncode != 0:
        return skip(name, f'the deep-stack load does not compile: {short(c.stdout, 200)}')
    # spinners with ~100-frame stacks on every CPU and a loop of
    # short-lived processes; all stopped with perf (one process group),
    # or after LIVE_SECONDS + 60 s whatever happens
    ncpu = os.cpu_count() or 2
    limit = LIVE_SECONDS + 60
    load = (f'for i in $(seq {ncpu}); do {deep} {limit} 120 & done; '
            f'end=$(($(date +%s) + {limit})); while [ $(date +%s) -lt $end ]; do {deep} 0 100; done; wait')
    perf = subprocess.Popen(['perf', 'record', '-q', '-o', '-', '-a', '-g', '-F', str(LIVE_FREQ), '--', 'sh', '-c', load],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, start_new_session=True)
    big_pipe(perf.stdout.fileno())
    perf_err = []
    et = threading.Thread(target=lambda: perf_err.append(perf.stderr.read()))
    et.start()
    state = {'stopped': None}

    def pieces():
        fd, total, t0 = perf.stdout.fileno(), 0, time.monotonic()
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            total += len(b)
            yield b
            late = time.monotonic() - t0 > LIVE_SECONDS
            if (total >= GIB or late) and state['stopped'] is None:
                state['stopped'] = 'timeout' if late and total < GIB else 'size'
                try:
                    os.killpg(perf.pid, signal.SIGINT)
                except ProcessLookupError:
                    pass
    save = os.path.join(work, 'live.data')
    try:
        kids, total, seconds = fan_out(tool, pieces(), save)
    except BaseException:
        if os.path.exists(save):
            os.unlink(save)
        raise
    finally:
        try:
            os.killpg(perf.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        perf.wait()
        et.join()
    if state['stopped'] != 'size':
        print(f'(c) live: perf stopped after {total} bytes ({state["stopped"] or "by itself"}): '
              f'{short(b"".join(perf_err), 300)}', flush=True)
    try:
        judge(tool, alias, 'live perf record -a -g stream', kids, total, seconds, save, False)
    finally:
        if os.path.exists(save):
            os.unlink(save)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('tool')
    ap.add_argument('work', nargs='?', default=os.path.join('build', 'test', 'stream'))
    ap.add_argument('--only', default='a,b,c')
    ap.add_argument('--seed', type=int, default=20261127)
    ap.add_argument('--no-live', action='store_true')
    a = ap.parse_args()
    tool = os.path.abspath(a.tool)
    os.makedirs(a.work, exist_ok=True)
    parts = a.only.split(',')
    alias = stdin_name(tool)
    if 'c' in parts:
        Child.spawn, why = build_spawn(a.work)
        if not check('spawn_rss (to measure the peak RSS of the tools alone) compiles', Child.spawn, why):
            parts.remove('c')
    for part in parts:
        t0 = time.monotonic()
        if part == 'a':
            part_a(tool, a.work, a.seed, alias)
        elif part == 'b':
            part_b(tool, a.work, alias)
        elif part == 'c':
            if a.no_live:
                skip('(c) live: perf record -o - -a -g into the tools', '--no-live')
            else:
                part_c_live(tool, a.work, alias)
            part_c_synthetic(tool, a.work, alias)
        else:
            check(f'part {part} exists', False)
            continue
        print(f'part {part}: {time.monotonic() - t0:.1f} s', flush=True)
    if passed + failed == 0:
        check('something was checked', False)
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
