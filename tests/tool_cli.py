#!/usr/bin/env python3
"""The perfdata command as a user meets it: inputs it must refuse clearly,
standard input and FIFOs for pipe-mode streams, dump's options, and the
memory of a dump and a report over a 100 MB profile (nothing kept per record,
only a window of the input resident), and compressed chunks whose buffers an
ordered walk gives back.

Usage: tool_cli.py PERFDATA_BINARY WORKDIR [ASAN_BINARY]
"""
import os
import re
import shutil
import resource
import struct
import subprocess
import sys
import time
import threading

from oracles import SANITIZER

passed = failed = skipped = 0


def check(name, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {name} {detail}')


def run(args, stdin=None):
    p = subprocess.run(args, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def big_profile(src, dst, target):
    """tests/data/plain.data with its data section repeated up to `target`
    bytes, features dropped (the records are independent of each other)."""
    data = open(src, 'rb').read()
    magic, hsize, attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQQQ', data, 0)
    section = data[do:do + dsz]
    reps = max(1, target // len(section))
    head = bytearray(data[:do])
    struct.pack_into('<Q', head, 48, len(section) * reps)       # data.size
    head[72:104] = bytes(32)                                     # no features
    with open(dst, 'wb') as f:
        f.write(head)
        for _ in range(reps):
            f.write(section)
    return len(head) + len(section) * reps


def many_forks(src, dst, n):
    """tests/data/plain.data with n FORK records (children of pid 1, each a
    new process) put before its records: the tools' thread table grows
    (rehashes) while a fork is handled. Its attr has sample_id_all with
    TID|TIME, so each FORK carries that trailer."""
    data = open(src, 'rb').read()
    magic, hsize, attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQQQ', data, 0)
    forks = b''
    for i in range(n):
        child = 100000 + i
        body = struct.pack('<IIIIQ', child, 1, child, 1, 1000 + i) + struct.pack('<IIQ', child, child, 1000 + i)
        forks += struct.pack('<IHH', 7, 0, 8 + len(body)) + body
    head = bytearray(data[:do])
    struct.pack_into('<Q', head, 48, dsz + len(forks))  # data.size
    head[72:104] = bytes(32)                            # no features
    with open(dst, 'wb') as f:
        f.write(head + forks + data[do:do + dsz])


def compressed_profile(src, dst, target, name):
    """tests/data/plain.data's kernel records, repeated to `target` bytes,
    inside COMPRESSED records (one zstd frame of at most 256 KiB each), with
    a FINISHED_ROUND after each (perf writes those outside the chunks) and,
    first in the first chunk, an EVENT_UPDATE naming the event `name`. An
    ordered walk gives back the buffers of chunks no queued record points
    into, but must keep the first: the event's name points into it.
    Returns False when the zstd command is missing."""
    data = open(src, 'rb').read()
    magic, hsize, attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQQQ', data, 0)
    ids_off, _ = struct.unpack_from('<QQ', data, ao + attr_size - 16)
    event_id = struct.unpack_from('<Q', data, ids_off)[0]
    kernel, pos = b'', do
    while pos + 8 <= do + dsz:
        rtype, _, size = struct.unpack_from('<IHH', data, pos)
        if size < 8:
            break
        if rtype < 64:
            kernel += data[pos:pos + size]
        pos += size
    text = name.encode() + b'\0' * (8 - len(name) % 8)
    body = struct.pack('<QQ', 2, event_id) + text                   # PERF_EVENT_UPDATE__NAME
    stream = struct.pack('<IHH', 78, 0, 8 + len(body)) + body
    stream += kernel * max(1, target // len(kernel))
    records = []
    for at in range(0, len(stream), 256 << 10):
        try:
            z = subprocess.run(['zstd', '-q', '-1', '-c'], input=stream[at:at + (256 << 10)],
                               stdout=subprocess.PIPE, check=True).stdout
        except (OSError, subprocess.CalledProcessError):
            return False
        records.append(struct.pack('<IHH', 81, 0, 8 + len(z)) + z)   # PERF_RECORD_COMPRESSED
        records.append(struct.pack('<IHH', 68, 0, 8))                 # FINISHED_ROUND
    section = b''.join(records)
    head = bytearray(data[:do])
    struct.pack_into('<Q', head, 48, len(section))   # data.size
    head[72:104] = bytes(32)                         # no features (no COMPRESSED: the tools guess)
    with open(dst, 'wb') as f:
        f.write(head + section)
    return True


def peak_rss_kb(args):
    """Peak RSS of a child, read from /proc while it runs (ru_maxrss of
    RUSAGE_CHILDREN would report the largest child ever)."""
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    peak = 0
    while p.poll() is None:
        try:
            for line in open(f'/proc/{p.pid}/status'):
                if line.startswith('VmHWM:'):
                    peak = max(peak, int(line.split()[1]))
        except OSError:
            pass
        threading.Event().wait(0.01)
    return peak, p.returncode


def main():
    global skipped
    tool, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    # inputs that must be refused with a clear message
    rc, out, err = run([tool, 'dump', os.path.join(work, 'no-such-file')])
    check('missing file', rc == 1 and 'No such file' in err, err)
    empty = os.path.join(work, 'empty.data')
    open(empty, 'wb').close()
    rc, out, err = run([tool, 'dump', empty])
    check('empty file', rc == 1 and 'empty file' in err, err)
    rc, out, err = run([tool, 'dump', work])
    check('directory without data', rc == 1 and 'data' in err, err)
    rc, out, err = run([tool, 'dump', '/dev/null'])
    check('special file', rc == 1 and 'shorter than a perf.data header' in err, err)
    try:  # a device that never ends is read no further than its first bytes
        p = subprocess.run([tool, 'dump', '/dev/zero'], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
        check('/dev/zero as the input: refused at once', p.returncode == 1 and b'bad magic' in p.stderr, p.stderr)
    except subprocess.TimeoutExpired:
        check('/dev/zero as the input: refused at once', False, 'still reading after 20 s')
    junk = os.path.join(work, 'junk.data')
    open(junk, 'wb').write(b'not a perf.data file at all')
    rc, out, err = run([tool, 'dump', junk])
    check('not perf data', rc == 1 and 'bad magic' in err, err)
    rc, out, err = run([tool, 'frobnicate', junk])
    check('unknown command', rc == 2 and 'unknown command' in err, err)
    # standard input and a FIFO carry pipe-mode streams
    pipe = open('tests/data/pipe.data', 'rb').read()
    rc0, ref, _ = run([tool, 'dump', 'tests/data/pipe.data'])
    rc, out, err = run([tool, 'dump', '-'], stdin=pipe)
    check('dump - reads standard input', rc == 0 and out == ref and rc0 == 0, err)
    fifo = os.path.join(work, 'fifo')
    if os.path.exists(fifo):
        os.unlink(fifo)
    os.mkfifo(fifo)
    writer = threading.Thread(target=lambda: open(fifo, 'wb').write(pipe))
    writer.start()
    rc, out, err = run([tool, 'dump', fifo])
    writer.join()
    check('dump FIFO', rc == 0 and out == ref, err)
    # options
    rc, out, err = run([tool, 'dump', '--type', 'SAMPLE,comm', 'tests/data/plain.data'])
    kinds = {l.split('PERF_RECORD_')[1].split('(')[0].split(':')[0].split(' ')[0] for l in out.split('\n') if 'PERF_RECORD_' in l}
    check('dump --type', rc == 0 and kinds == {'SAMPLE', 'COMM'}, str(kinds))
    rc, out, err = run([tool, 'dump', '--raw', 'tests/data/plain.data'])
    check('dump --raw', rc == 0 and '. ... raw event: size 80 bytes' in out and '.  0000:  45 00 00 00' in out, err)
    # THREAD_MAP as perf 6.1 prints it (thread_map__fprintf): "thread" for
    # one, "threads" and ", " for several, each pid as a 32-bit pid_t; the
    # expected lines are perf report -D's on the same streams
    for pids, want in (([7404], 'nr: 1 thread: 7404'), ([], 'nr: 0 thread: '),
                       ([7404, 0xffffffff, 12, 2**31 + 5, 99999, 1, 42],
                        'nr: 7 threads: 7404, -1, 12, -2147483643, 99999, 1, 42')):
        out_stream, pos = bytearray(pipe[:16]), 16
        while pos + 8 <= len(pipe):
            typ, misc, size = struct.unpack_from('<IHH', pipe, pos)
            rec = pipe[pos:pos + size]
            if typ == 73:
                body = struct.pack('<Q', len(pids)) + b''.join(struct.pack('<Q', p) + b'comm'.ljust(16, b'\0') for p in pids)
                rec = struct.pack('<IHH', 73, misc, 8 + len(body)) + body
            out_stream += rec
            pos += size
        rc, out, err = run([tool, 'dump', '-'], stdin=bytes(out_stream))
        line = next((l for l in out.split('\n') if 'PERF_RECORD_THREAD_MAP' in l), '')
        check(f'THREAD_MAP of {len(pids)} threads as perf prints it', rc == 0 and line.endswith('PERF_RECORD_THREAD_MAP ' + want), line)
    rc, out, err = run([tool, 'dump', '--header', 'tests/data/plain.data'])
    check('dump --header', rc == 0 and out.startswith('# mode: file, byte order: little-endian'), out[:100])
    rc, out, err = run([tool, 'info', 'tests/data/two-events.data'])
    check('info lists events', rc == 0 and out.count('# event ') == 2, out)
    # report --csv: the four tables agree with the dump and with each other
    csv_dir = os.path.join(work, 'csv')
    os.makedirs(csv_dir, exist_ok=True)
    rc, out, err = run([tool, 'report', '--csv', csv_dir, '--symdir', 'tests/data', 'tests/data/tasks.data'])
    import csv as csvmod
    tables = {}
    for name in ('stat.csv', 'overview.csv', 'processes.csv', 'results.csv'):
        p = os.path.join(csv_dir, name)
        tables[name] = list(csvmod.DictReader(open(p))) if os.path.exists(p) else None
    check('report --csv writes four tables', rc == 0 and all(v is not None for v in tables.values()), err)
    if all(v is not None for v in tables.values()):
        _, dump_out, _ = run([tool, 'dump', 'tests/data/tasks.data'])
        nrec = sum(1 for l in dump_out.split('\n') if 'PERF_RECORD_' in l)
        check('stat.csv counts every record', sum(int(r['count']) for r in tables['stat.csv']) == nrec)
        check('overview.csv has every record', len(tables['overview.csv']) == nrec)
        times = [int(r['time']) for r in tables['overview.csv'] if int(r['time'])]
        check('overview.csv is in time order within the final flush', times[-len(times) // 2:] == sorted(times[-len(times) // 2:]))
        nsamples = int(next(r['count'] for r in tables['stat.csv'] if r['name'] == 'SAMPLE'))
        check('results.csv and processes.csv count every sample',
              sum(int(r['samples']) for r in tables['results.csv']) == nsamples ==
              sum(int(r['samples']) for r in tables['processes.csv']))
        check('results.csv percentages add up to 100', abs(sum(float(r['percent']) for r in tables['results.csv']) - 100) < 0.01)
        check('results.csv names the hot functions', {'hot_a', 'hot_b', 'hot_c'} <= {r['function'] for r in tables['results.csv']})
    # a record whose size is 0 (or 7) ends every command that reads records
    # with an error, never a loop: the corpus has fuzzer files like that;
    # info reads no records, so it prints the header and exits 0
    for size in (0, 7):
        data = bytearray(open('tests/data/plain.data', 'rb').read())
        do = struct.unpack_from('<Q', data, 40)[0]
        rec2 = do + struct.unpack_from('<H', data, do + 6)[0]  # the second record
        struct.pack_into('<H', data, rec2 + 6, size)
        bad = os.path.join(work, f'size{size}.data')
        open(bad, 'wb').write(bytes(data))
        for cmd in (['dump'], ['dump', '--ordered'], ['stat'], ['report'], ['collapse'], ['info']):
            try:
                p = subprocess.run([tool] + cmd + [bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=20)
                err = p.stderr.decode('utf-8', 'replace')
                if cmd == ['info']:
                    ended = p.returncode == 0 and b'# data size' in p.stdout
                else:
                    ended = p.returncode > 0 and err.strip() != ''
                ended = ended and not SANITIZER.search(err)
                detail = f'(exit {p.returncode}) {err[-300:]}'
            except subprocess.TimeoutExpired:
                ended, detail = False, 'timed out'
            check(f'{cmd} on a record of size {size} ' + ('prints the header' if cmd == ['info'] else 'ends with an error'),
                  ended, detail)
    # 3000 forks: the thread table is rehashed while a FORK is handled (a
    # pointer to the parent taken before that dangled; clang's analyzer found
    # it). Under ASan when that build is there.
    forks = os.path.join(work, 'forks.data')
    many_forks('tests/data/plain.data', forks, 3000)
    asan = os.path.join(os.path.dirname(tool), 'asan', 'perfdata')
    for exe in [tool] + ([asan] if os.path.exists(asan) else []):
        for cmd in (['report'], ['collapse'], ['dump', '--ordered']):
            rc, out, err = run([exe] + cmd + [forks])
            check(f'{os.path.basename(os.path.dirname(exe))} {cmd[0]} with 3000 forks', rc == 0 and 'ERROR' not in err,
                  err[-400:])
    # a 100 MB profile: peak RSS must be the mapping plus a constant
    small = os.path.join(work, 'small.data')
    big = os.path.join(work, 'big.data')
    small_size = big_profile('tests/data/plain.data', small, 1 << 20)
    big_size = big_profile('tests/data/plain.data', big, 100 << 20)
    rss_small, rc1 = peak_rss_kb([tool, 'dump', small])
    rss_big, rc2 = peak_rss_kb([tool, 'dump', big])
    grow = rss_big - rss_small
    mapping = (big_size - small_size) // 1024
    print(f'dump peak RSS: {rss_small} KiB on {small_size >> 10} KiB, {rss_big} KiB on {big_size >> 20} MiB '
          f'(growth {grow} KiB for {mapping} KiB more mapping)')
    check('dump of 100 MB keeps no per-record state', rc1 == 0 and rc2 == 0 and grow <= mapping + 4096,
          f'{grow} KiB growth')
    # the tools keep 8 MiB each side of the reader resident, not the file
    check('dump of 100 MB keeps a window of the file resident, not all of it', grow <= 24 << 10, f'{grow} KiB growth')
    rss_report, rc3 = peak_rss_kb([tool, 'report', big])
    check('report of 100 MB keeps a window of the file resident', rc3 == 0 and rss_report <= 64 << 10,
          f'{rss_report} KiB')
    os.unlink(big)
    # compressed: buffers of chunks no queued record points into are given
    # back; the one an event's name points into is kept
    zdata = os.path.join(work, 'chunks.data')
    asan = sys.argv[3] if len(sys.argv) > 3 else tool
    if compressed_profile('tests/data/plain.data', zdata, 120 << 20, 'renamed-event'):
        for t in sorted({tool, asan}):
            rc, out, err = run([t, 'report', zdata])
            check(f'{os.path.basename(os.path.dirname(t))} report over 120 MiB of chunks names the event from '
                  'inside the first one', rc == 0 and "of event 'renamed-event'" in out, err[-2000:])
        rc, out, err = run([tool, 'collapse', zdata])
        check('collapse over 120 MiB of chunks', rc == 0 and out.count('\n') > 0, err[-2000:])
        rss, rc = peak_rss_kb([tool, 'report', zdata])
        print(f'report peak RSS over 120 MiB of chunks: {rss} KiB')
        check('report over 120 MiB of chunks gives back their buffers', rc == 0 and rss <= 100 << 10, f'{rss} KiB')
        os.unlink(zdata)
    else:
        print('skip compressed buffers: the zstd command is missing')
        skipped += 1
    bounds(tool, work)
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


def bounds(tool, work):
    """The bounds on hostile input: --max-ratio on decompression (the
    chunks here are zstd frames of RLE blocks, 4 MiB of records from a few
    bytes each) and --queue-size on time ordering (records in reverse time
    order and no FINISHED_ROUND: the whole file would be queued)."""
    global skipped
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import perfgen
    p = perfgen.Perf([perfgen.Attr(ids=[1])])
    # the COMPRESSED feature: version, type (zstd), level, ratio, mmap_len
    p.feature(perfgen.FEAT_COMPRESSED, struct.pack('<IIIII', 0, 1, 1, 1, (4 << 20) + 4096))
    frame = perfgen.zstd_frame_header(22)
    for i in range(32):
        frame += perfgen.zstd_rle_block(8, 131072, last=(i == 31))
    for _ in range(63):  # 256 MiB of 2056-byte records, 1 MiB of cost each
        p.compressed(frame)
    # the last frame ends the last record, which began in an earlier chunk
    tail = 2056 - (64 << 22) % 2056
    p.compressed(frame[:-(3 + 1)] + perfgen.zstd_rle_block(8, 131072) + perfgen.zstd_rle_block(8, tail, last=True))
    rle = os.path.join(work, 'rle.data')
    with open(rle, 'wb') as f:
        f.write(p.to_bytes())
    rc, out, err = run([tool, 'stat', rle])
    check('stat: chunks expanding 4096 times stop at the bound, said, exit 3',
          rc == 3 and 'expand more than 4096 times' in err and '--max-ratio' in err, err)
    rc, out, err = run([tool, 'stat', '--max-ratio', '0', rle])
    check('stat --max-ratio 0 decompresses them all', rc == 0 and 'expand' not in err, err)
    rc, out, err = run([tool, 'stat', '--max-ratio=100000', rle])
    check('stat --max-ratio 100000 decompresses them all', rc == 0, err)
    for bad in ('x', '-1', '99999999999', '12K'):
        rc, out, err = run([tool, 'stat', '--max-ratio', bad, rle])
        check(f'stat --max-ratio {bad}: a usage error', rc == 2 and '--max-ratio' in err, err)
    os.unlink(rle)
    # the last chunk ends inside a record: the records before it are read,
    # the loss is said, the exit status says the output is short
    p = perfgen.Perf([perfgen.Attr(ids=[1])])
    p.feature(perfgen.FEAT_COMPRESSED, struct.pack('<IIIII', 0, 1, 1, 1, 65536))
    rounds = struct.pack('<IHH', 68, 0, 8) * 3
    p.compressed(perfgen.zstd_frame_header() + perfgen.zstd_raw_block(rounds + rounds[:4], last=True))
    cut = os.path.join(work, 'chunk-cut.data')
    with open(cut, 'wb') as f:
        f.write(p.to_bytes())
    for args in (['stat'], ['dump'], ['report'], ['collapse']):
        rc, out, err = run([tool] + args + [cut])
        check(f'{args[0]}: a record cut off at the end of the last chunk is said once, exit 3',
              rc == 3 and err.count('end inside a record') == 1 and '4 bytes' in err, f'exit {rc}: {err}')
    rc, out, err = run([tool, 'stat', cut])
    check('stat: the whole records of that chunk are counted', re.search(r'FINISHED_ROUND events:\s+3\b', out), out)
    os.unlink(cut)
    a = perfgen.Attr(sample_type=perfgen.SAMPLE_IP | perfgen.SAMPLE_TID | perfgen.SAMPLE_TIME, ids=[1])
    p = perfgen.Perf([a])
    n = 20000
    for i in range(n):
        p.sample(ip=0x1000 + i, pid=1, tid=1, time=10 ** 9 - i)
    rev = os.path.join(work, 'reverse.data')
    with open(rev, 'wb') as f:
        f.write(p.to_bytes())
    rc, ref, err = run([tool, 'dump', '--ordered', rev])
    times = [int(l.split()[0]) for l in ref.splitlines() if 'PERF_RECORD_SAMPLE' in l]
    check('dump --ordered within --queue-size: every record, in time order',
          rc == 0 and len(times) == n and times == sorted(times) and not err, err)
    rc, out, err = run([tool, 'dump', '--ordered', '--queue-size', '256K', rev])
    times = [int(l.split()[0]) for l in out.splitlines() if 'PERF_RECORD_SAMPLE' in l]
    check('dump --ordered past --queue-size: every record once, the early release said, exit 0',
          rc == 0 and sorted(times) == sorted(range(10 ** 9 - n + 1, 10 ** 9 + 1)) and 'queue-size' in err, err)
    rc, out, err = run([tool, 'report', '--queue-size', '1X', rev])
    check('report --queue-size 1X: a usage error', rc == 2 and '--queue-size' in err, err)
    os.unlink(rev)
    # a call chain deeper than perf script resolves: its 127 innermost
    # entries (PERF_MAX_STACK_DEPTH; context markers do not count), as
    # perf script | stackcollapse-perf.pl, which runs here when installed
    a = perfgen.Attr(sample_type=perfgen.SAMPLE_IP | perfgen.SAMPLE_TID | perfgen.SAMPLE_TIME |
                     perfgen.SAMPLE_CALLCHAIN, ids=[1])
    p = perfgen.Perf([a])
    p.comm(7, 7, b'deep')
    chain = [0xfffffffffffffe00] + [0x400000 + 16 * k for k in range(300)]  # PERF_CONTEXT_USER, then 300 frames
    p.sample(ip=chain[1], pid=7, tid=7, time=5, callchain=chain)
    p.sample(ip=chain[1], pid=7, tid=7, time=6, callchain=chain[:100])
    deep = os.path.join(work, 'deep.data')
    with open(deep, 'wb') as f:
        f.write(p.to_bytes())
    rc, out, err = run([tool, 'collapse', deep])
    depths = sorted(line.rsplit(' ', 1)[0].count(';') for line in out.splitlines())
    check('collapse keeps the 127 innermost frames of a deeper chain', rc == 0 and depths == [99, 127], f'{depths} {err}')
    # CPU_MAP ranges print as perf report -D prints them (checked against
    # perf 6.1; for end < start perf prints a stale or failed map, we print none)
    p = perfgen.Perf([perfgen.Attr(ids=[1])])
    want = []
    for any_cpu, lo, hi, text in ((0, 0, 3, '0-3'), (0, 7, 7, '7'), (0, 0, 65535, '0-65535'), (0, 5, 3, ''),
                                  (1, 0, 0, '-1-0'), (1, 1, 5, '-1,1-5'), (1, 5, 3, '-1'), (1, 0, 65535, '-1-65535')):
        p.cpu_map_range(lo, hi, any_cpu)
        want.append(text)
    for _ in range(20000):
        p.cpu_map_range(0, 65535)
    ranges = os.path.join(work, 'ranges.data')
    with open(ranges, 'wb') as f:
        f.write(p.to_bytes())
    t0 = time.monotonic()
    rrc, rout, rerr = run([tool, 'dump', ranges])
    took = time.monotonic() - t0
    got = [line.split('PERF_RECORD_CPU_MAP: ', 1)[1] for line in rout.splitlines() if 'PERF_RECORD_CPU_MAP: ' in line]
    check('dump prints CPU_MAP ranges as cpu lists', rrc == 0 and got[:len(want)] == want, f'{got[:len(want)]} {rerr}')
    check('dump of 20,000 ranges of 65,536 cpus does not walk the cpus', rrc == 0 and len(got) == 20008 and took < 5,
          f'{len(got)} maps in {took:.1f} s')
    # zstd windows: 128 MiB (perf -z 22 writes windowLog 27) decodes; a larger
    # one, which libzstd and so perf refuse, is said once, whatever the streams
    for log, want_rc in ((27, 0), (28, 3)):
        p = perfgen.Perf([perfgen.Attr(ids=[1])])
        p.feature(perfgen.FEAT_COMPRESSED, struct.pack('<IIIII', 0, 1, 22, 1, 528384))
        q = perfgen.Perf([perfgen.Attr(ids=[1])])
        rec = q.sample(ip=0x400000, pid=1, tid=1)
        p.compressed(perfgen.zstd_frame_header(log) + perfgen.zstd_raw_block(rec, last=True))
        path = os.path.join(work, f'window{log}.data')
        with open(path, 'wb') as f:
            f.write(p.to_bytes())
        zrc, zout, zerr = run([tool, 'dump', path])
        said = zerr.count('cannot set up decompression')
        check(f'dump of a frame with a 2^{log}-byte window: exit {want_rc}',
              zrc == want_rc and ('PERF_RECORD_SAMPLE' in zout) == (want_rc == 0) and said == (want_rc != 0), zerr)
    # a --threads directory of more data.N files of a page or more than a
    # process may have mappings (vm.max_map_count): the rest are read
    try:
        max_maps = int(open('/proc/sys/vm/max_map_count').read())
    except (OSError, ValueError):
        max_maps = None
    if max_maps and max_maps <= 200000:
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'data', 'threads.data')
        many = os.path.join(work, 'many-maps.data')
        shutil.rmtree(many, ignore_errors=True)
        os.makedirs(many)
        shutil.copy(os.path.join(src, 'data'), os.path.join(many, 'data'))
        stream = open(os.path.join(src, 'data.1'), 'rb').read()
        with open(os.path.join(many, 'big'), 'wb') as f:
            f.write(stream * (8192 // len(stream) + 1))
        n = max_maps + 100
        for i in range(n):
            os.symlink('big', os.path.join(many, f'data.{i}'))
        mrc, mout, merr = run([tool, 'stat', many])
        check(f'stat of a --threads directory of {n} streams past vm.max_map_count', mrc == 0, merr)
        shutil.rmtree(many)
    else:
        print('skip a --threads directory past vm.max_map_count: its value is unknown or too large to reach')
        skipped += 1
    # a name longer than a column may be wide is cut, not padded into every row
    p = perfgen.Perf([perfgen.Attr(ids=[1])])
    p.comm(1, 1, b'w' * 5000)
    p.comm(2, 2, b'short')
    for i in range(4):
        p.sample(ip=0x400000 + 16 * i, pid=1 + i % 2, tid=1 + i % 2)
    wide = os.path.join(work, 'wide.data')
    with open(wide, 'wb') as f:
        f.write(p.to_bytes())
    wrc, wout, werr = run([tool, 'report', wide])
    rows = [line for line in wout.splitlines() if '%' in line and not line.startswith('#')]
    dots = [line for line in wout.splitlines() if line.startswith('# ....')]
    check('report cuts a 5000-byte command to a 1023-byte column',
          wrc == 0 and len(rows) == 4 and dots and dots[0].split()[2] == '.' * 1023
          and all(('w' * 1023 + ' ') in r and 'w' * 1024 not in r for r in rows if 'www' in r)
          and all(('short' + ' ' * 1018 + '  ') in r for r in rows if 'short' in r), werr + wout[:300])
    script = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'shared', 'tools', 'flamegraph',
                          'stackcollapse-perf.pl')
    if shutil.which('perf') and shutil.which('perl') and os.path.exists(script):
        ps = subprocess.run(['perf', 'script', '-f', '-i', deep, '-F', 'comm,pid,tid,time,ip,sym,dso'],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        folded = subprocess.run(['perl', script], input=ps.stdout, stdout=subprocess.PIPE, timeout=120)
        check('collapse of a deep chain = perf script | stackcollapse-perf.pl',
              ps.returncode == 0 and sorted(folded.stdout.decode().splitlines()) == sorted(out.splitlines()),
              folded.stdout.decode()[:300] + ' / ' + out[:300])
    else:
        print('skip collapse of a deep chain against perf script: perf, perl or ../shared missing')
        skipped += 1
    os.unlink(deep)


if __name__ == '__main__':
    sys.exit(main())
