#!/usr/bin/env python3
"""Round trips through `perfdata convert` (perfdata.h's writer).

For every input, each conversion is read back and compared record by
record with the input (a `perf record --threads` directory becomes one
stream in delivery order: its ordered dump and `perf script` are compared):
  --pipe, --file            the mode changed (and back again: pipe -> file,
                            file -> pipe), records copied as they are;
  --decompress              (compressed inputs) the chunks' records written out;
  --endian OTHER            every record and feature decoded and encoded in
                            the other byte order, and back again.
What is compared:
  - `perfdata dump` of the output = `perfdata dump` of the input;
  - `perf report -D` of every little-endian output = perf's of the input
    (perf reads big-endian files wrongly, ../shared/reference/perf-data-abi.md
    section 1.15; our dump of them is compared instead, and the byte order's
    round trip back to little-endian is compared with perf's).
Normalised away: file offsets and sizes in the record lines, the input's
name, and the records that frame a stream rather than carry data (a pipe's
ATTR, FEATURE, TRACING_DATA and BUILD_ID records, which a file keeps in its
header; a decompressed input's COMPRESSED records). A conversion that
leaves records out (a type whose byte order is not changed yet) must exit
3 and name them on stderr; they are then left out of the comparison too.
Anything else on stderr, or an exit status other than 0 (3 as above),
fails the input.

Usage: convert_roundtrip.py PERFDATA [--jobs N] [--no-perf] DIR_OR_FILE...
Prints one line per failing conversion and "N passed, N failed".
"""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile

FRAMING = {'ATTR', 'FEATURE', 'HEADER_TRACING_DATA', 'HEADER_BUILD_ID', 'TRACING_DATA', 'BUILD_ID'}
SUMMARY = re.compile(r'^(.*?)(0x[0-9a-f]+|0) \[(0x[0-9a-f]+)\]: PERF_RECORD_([A-Z0-9_]+)(.*)$')
PERF_HEAD = re.compile(r'^(0x[0-9a-f]+|0)@(.*) \[(0x[0-9a-f]+)\]: event: (\d+)$')
PERF_FRAMING = {64, 80, 66, 67}
LEFT_OUT = re.compile(r'^perfdata convert: \d+ records left out \([^)]*\):((?: [A-Z0-9_]+)+)')
FEATURE_LEFT_OUT = re.compile(r'^perfdata convert: (the \S+ feature|feature \d+) is left out: (malformed|its byte order|\d+ bytes do not fit a pipe|a pipe.s reader stops)')


def run(cmd, timeout=300):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 124, b'', b'timeout'
    return p.returncode, p.stdout, p.stderr


def our_records(text, drop):
    """Our dump as a list of records (their lines, offsets removed), without
    the types in drop."""
    out = []
    for block in text.split('\n\n'):
        lines = [l for l in block.split('\n') if l]
        if not lines:
            continue
        m = SUMMARY.match(lines[0])
        if not m:
            out.append(lines)
            continue
        if m.group(4) in drop:
            continue
        out.append([m.group(1) + 'PERF_RECORD_' + m.group(4) + m.group(5)] + lines[1:])
    return out


# perf's symbol state, not a decode of the bytes (a vdso's temporary copy has a new name each run)
PERF_STATE = re.compile(r'^ (\.\.\. thread: |\.\.\.\.\.\. dso: )')
# trace packets perf decodes from AUX data: a file's index and a pipe's
# stream decode them at different points
AUX_PACKETS = re.compile(r'^\.  [0-9a-f]{8}:|^\. \.\.\. .*(Trace|SPE) data: size|^\tIdx:')
STATS_LINE = re.compile(r'^\s*([A-Z0-9_]+) events:\s+(\d+)')


def perf_records(text, drop_types, drop_names):
    """perf report -D as a list of records, each from its 'event: N' line on,
    then its record counts (the framing types and the total left out)."""
    out, cur, skip = [], None, False
    text, _, stats = text.partition('\nAggregated stats:')
    counts = {}
    for line in stats.split('\n'):
        m = STATS_LINE.match(line)
        if m and m.group(1) not in drop_names and m.group(1) != 'TOTAL' and m.group(1) not in counts:
            counts[m.group(1)] = m.group(2)
    for line in text.split('\n'):
        h = PERF_HEAD.match(line)
        if h:
            t = int(h.group(4))
            skip = t in drop_types
            cur = None if skip else ['event: %d' % t]
            if cur is not None:
                out.append(cur)
            continue
        if skip or cur is None or PERF_STATE.match(line) or AUX_PACKETS.match(line) or not line:
            continue
        m = SUMMARY.match(line)
        if m:
            if m.group(4) in drop_names:
                out.pop()
                cur = None
                continue
            line = m.group(1) + 'PERF_RECORD_' + m.group(4) + m.group(5)
        cur.append(line)
    out.append(['counts'] + sorted('%s %s' % kv for kv in counts.items()))
    return out


TYPE_NUMBERS = {'MMAP': 1, 'LOST': 2, 'COMM': 3, 'EXIT': 4, 'THROTTLE': 5, 'UNTHROTTLE': 6, 'FORK': 7, 'READ': 8,
                'SAMPLE': 9, 'MMAP2': 10, 'AUX': 11, 'ITRACE_START': 12, 'LOST_SAMPLES': 13, 'SWITCH': 14,
                'SWITCH_CPU_WIDE': 15, 'NAMESPACES': 16, 'KSYMBOL': 17, 'BPF_EVENT': 18, 'CGROUP': 19,
                'TEXT_POKE': 20, 'AUX_OUTPUT_HW_ID': 21, 'ATTR': 64, 'EVENT_TYPE': 65, 'TRACING_DATA': 66,
                'BUILD_ID': 67, 'FINISHED_ROUND': 68, 'ID_INDEX': 69, 'AUXTRACE_INFO': 70, 'AUXTRACE': 71,
                'AUXTRACE_ERROR': 72, 'THREAD_MAP': 73, 'CPU_MAP': 74, 'STAT_CONFIG': 75, 'STAT': 76,
                'STAT_ROUND': 77, 'EVENT_UPDATE': 78, 'TIME_CONV': 79, 'FEATURE': 80, 'COMPRESSED': 81,
                'FINISHED_INIT': 82, 'COMPRESSED2': 83}


def first_difference(a, b):
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return 'record %d: %s | %s' % (i, ' / '.join(x[:3])[:200], ' / '.join(y[:3])[:200])
    return 'records: %d | %d' % (len(a), len(b))


class Checker:
    def __init__(self, tool, use_perf, work):
        self.tool, self.use_perf, self.work = tool, use_perf, work

    def dump(self, path):
        rc, out, err = run([self.tool, 'dump', path])
        return rc, out.decode('utf-8', 'replace'), err.decode('utf-8', 'replace')

    def info(self, path):
        """Our info, without what depends on the file's place and time."""
        rc, out, err = run([self.tool, 'info', path])
        skip = ('# captured on', '# data offset', '# data size', '# feat offset')
        return [l for l in out.decode('utf-8', 'replace').splitlines() if not l.startswith(skip)]

    def perf_dump(self, path):
        rc, out, err = run(['perf', 'report', '-D', '-i', path])
        return rc, out.decode('utf-8', 'replace')

    def convert(self, src, dst, opts):
        rc, out, err = run([self.tool, 'convert'] + opts + ['-o', dst, src])
        return rc, err.decode('utf-8', 'replace')

    def check_input(self, path):
        """[(name, problem or None)] for every conversion of one input."""
        own = tempfile.mkdtemp(dir=self.work)  # each input its own: they run side by side
        try:
            return self.check_in(path, os.path.join(own, 'out'))
        finally:
            shutil.rmtree(own, ignore_errors=True)

    def ordered(self, path, drop):
        """Our dump in delivery order, stream headers left out."""
        rc, out, err = run([self.tool, 'dump', '--ordered', path])
        text = '\n'.join(l for l in out.decode('utf-8', 'replace').split('\n') if not l.startswith('# stream: '))
        return rc, our_records(text, drop)

    def check_dir(self, path, base):
        """A --threads directory becomes one stream in delivery order: our
        ordered dump and perf script of it = the directory's."""
        results = []
        rc0, want = self.ordered(path, set(FRAMING) | {'COMPRESSED', 'COMPRESSED2'})
        perf_want = None
        if self.use_perf:
            p = subprocess.run(['perf', 'script', '-i', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            perf_want = p.stdout if p.returncode == 0 else None
        for name, opts, back in (('pipe', ['--pipe'], None), ('file', ['--file'], None),
                                 ('endian', ['--endian', 'big'], ['--endian', 'little'])):
            out = '%s.%s' % (base, name)
            rc, err = self.convert(path, out, opts)
            if back and rc in (0, 3):
                rc, err2 = self.convert(out, out + '.back', back)
                err += err2
                out += '.back'
            left = set()
            for line in err.splitlines():
                m = LEFT_OUT.match(line)
                if m:
                    left |= set(m.group(1).split())
            if rc not in (0, 3) or (rc == 3 and not (left or any(FEATURE_LEFT_OUT.match(l) for l in err.splitlines()))):
                results.append((path + ' ' + name, 'exit %d: %s' % (rc, err.strip()[:300])))
                continue
            drc, got = self.ordered(out, set(FRAMING) | {'COMPRESSED', 'COMPRESSED2'} | left)
            if got != [r for r in want if not r[0].split('PERF_RECORD_')[-1].split(' ')[0].split(':')[0] in left]:
                results.append((path + ' ' + name, 'ordered dump differs: ' + first_difference(want, got)))
                continue
            if perf_want is not None and not left:
                p = subprocess.run(['perf', 'script', '-i', out], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
                if p.stdout != perf_want:
                    results.append((path + ' ' + name, 'perf script differs'))
                    continue
            results.append((path + ' ' + name, None))
        return results

    def check_in(self, path, base):
        if os.path.isdir(path):
            return self.check_dir(path, base)
        results = []
        rc0, orig, err0 = self.dump(path)
        if rc0 not in (0, 3):
            # not a profile perfdata reads: convert must refuse it the same way
            rc, err = self.convert(path, base + '.refused', ['--pipe'])
            ok = rc == rc0 and err.strip()
            return [(path + ' refused', None if ok else 'dump exits %d, convert %d: %s' % (rc0, rc, err.strip()[:200]))]
        crc, chunks, _ = run([self.tool, 'dump', '--no-decompress', '--type', 'COMPRESSED,COMPRESSED2', path])
        compressed = b'PERF_RECORD_COMPRESSED' in chunks
        big = False
        rc, info, _ = run([self.tool, 'info', path])
        big = b'big-endian' in info
        perf_orig = None
        # a damaged input (dump exits 3): where perf stops in it is its own
        # business; our dump of the output is compared all the same
        if self.use_perf and not big and rc0 == 0:
            prc, ptext = self.perf_dump(path)
            perf_orig = ptext if prc == 0 else None
        with open(path, 'rb') as fh:
            head = fh.read(16)
        in_pipe = len(head) == 16 and int.from_bytes(head[8:16], 'big' if big else 'little') == 16
        other = 'little' if big else 'big'
        same = 'big' if big else 'little'
        plans = [('pipe', ['--pipe'], None), ('file', ['--file'], None)]
        if compressed:
            plans.append(('decompressed', ['--decompress'], None))
        plans.append(('endian', ['--endian', other] + (['--decompress'] if compressed else []), ['--endian', same]))
        for name, opts, back in plans:
            out = '%s.%s' % (base, name)
            rc, err = self.convert(path, out, opts)
            left = set()
            problem = None
            for line in err.splitlines():
                m = LEFT_OUT.match(line)
                if m:
                    left |= set(m.group(1).split())
                elif not FEATURE_LEFT_OUT.match(line) and not line.startswith('perfdata: ') and line.strip():
                    problem = 'stderr: ' + line[:200]
            said_left = bool(left) or any(FEATURE_LEFT_OUT.match(l) for l in err.splitlines())
            if rc == 3 and not said_left and rc0 != 3:
                problem = problem or 'exit 3 without saying what was left out: ' + err.strip()[:200]
            elif rc not in (0, 3) or (rc == 3 and name != 'endian' and rc0 != 3 and not said_left):
                problem = 'exit %d: %s' % (rc, err.strip()[:300])
            if problem:
                results.append((path + ' ' + name, problem))
                continue
            drop = set(FRAMING) | left
            if any(t.isdigit() for t in left):  # types perfdata does not name
                drop.add('UNKNOWN')
            if name in ('decompressed', 'endian') and compressed:
                drop |= {'COMPRESSED', 'COMPRESSED2'}
            want = our_records(orig, drop)
            drc, got_text, derr = self.dump(out)
            got = our_records(got_text, drop)
            if got != want:
                results.append((path + ' ' + name, 'dump differs: ' + first_difference(want, got)))
                continue
            targets = [(out, name)]
            if back:  # the byte order's way back
                out2 = out + '.back'
                rc2, err2 = self.convert(out, out2, back)
                if rc2 not in (0, 3) or (rc2 == 3 and not LEFT_OUT.search(err2) and rc0 != 3 and 'left out' not in err2):
                    results.append((path + ' ' + name + ' back', 'exit %d: %s' % (rc2, err2.strip()[:300])))
                    continue
                drc, got_text, derr = self.dump(out2)
                if our_records(got_text, drop) != want:
                    results.append((path + ' ' + name + ' back', 'dump differs: ' + first_difference(want, our_records(got_text, drop))))
                    continue
                # and the features, decoded, when none was left out either way
                if not in_pipe and not any(FEATURE_LEFT_OUT.match(l) for l in (err + err2).splitlines()):
                    a, b = self.info(path), self.info(out2)
                    if a != b:
                        diff = [l for l in a if l not in b][:2] + [l for l in b if l not in a][:2]
                        results.append((path + ' ' + name + ' back', 'info differs: ' + ' | '.join(diff)[:300]))
                        continue
                targets = [(out2, name + ' back')]
            elif name == 'pipe':  # and back to a file
                out2 = out + '.file'
                rc2, err2 = self.convert(out, out2, ['--file'])
                drc, got_text, derr = self.dump(out2)
                if rc2 not in (0, 3) or our_records(got_text, drop) != want:
                    results.append((path + ' pipe file', 'exit %d; dump %s' % (rc2, first_difference(want, our_records(got_text, drop)))))
                    continue
                targets.append((out2, 'pipe file'))
            # perf stops at a record type it does not know (simpleperf's): with
            # those left out of the output it reads on, and nothing compares
            if perf_orig is not None and not any(t.isdigit() for t in left):
                drop_types = set(PERF_FRAMING) | {TYPE_NUMBERS[t] for t in left if t in TYPE_NUMBERS} | \
                    {int(t) for t in left if t.isdigit()}
                if 'COMPRESSED' in drop:
                    drop_types |= {81, 83}
                for t, tname in targets:
                    # perf 6.1's dump of a pipe stops at its last AUXTRACE
                    # record (of a file it prints them all): where a pipe meets
                    # a file, AUX profiles are compared by our dump alone
                    types, names = set(drop_types), set(drop)
                    out_pipe = tname == 'pipe' or (tname not in ('file', 'pipe file') and in_pipe)
                    if out_pipe != in_pipe and 'PERF_RECORD_AUXTRACE ' in orig:
                        continue
                    # nor does it head the records of a pipe's compressed
                    # chunks with their 'event:' lines: decompressed, they have them
                    if in_pipe and compressed and 'COMPRESSED' in drop:
                        continue
                    pwant = perf_records(perf_orig, types, names)
                    prc, ptext = self.perf_dump(t)
                    pgot = perf_records(ptext, types, names)
                    if prc != 0 or pgot != pwant:
                        results.append((path + ' ' + tname, 'perf report -D differs (exit %d): %s' % (prc, first_difference(pwant, pgot))))
                        break
            results.append((path + ' ' + name, None))
        return results


def cli_checks(tool, work):
    """The command line: what is refused, standard input and output, write errors."""
    fails = []
    data = 'tests/data/plain.data'

    def expect(name, cmd, rc_want, err_has, stdin=None):
        p = subprocess.run(cmd, input=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode('utf-8', 'replace')
        if p.returncode != rc_want or err_has not in err:
            fails.append('%s: exit %d, stderr %r' % (name, p.returncode, err[:200]))
        return p.stdout
    expect('no -o', [tool, 'convert', data], 2, 'no output')
    expect('--endian bogus', [tool, 'convert', '--endian', 'middle', '-o', os.path.join(work, 'x'), data], 2, 'big or little')
    expect('a file to standard output', [tool, 'convert', '--file', '-o', '-', data], 2, '')
    copy = os.path.join(work, 'same.data')
    shutil.copy(data, copy)
    expect('-o the input', [tool, 'convert', '--pipe', '-o', copy, copy], 2, 'is the input')
    with open(copy, 'rb') as a, open(data, 'rb') as b:
        if a.read() != b.read():
            fails.append('-o the input: the input changed')
    expect('an output directory that does not exist', [tool, 'convert', '-o', os.path.join(work, 'no', 'x'), data], 1, 'No such file')
    if os.path.exists('/dev/full'):
        expect('a write error', [tool, 'convert', '--pipe', '-o', '/dev/full', data], 1, 'No space left')
    with open('tests/data/pipe.data', 'rb') as f:
        piped = expect('standard input to standard output', [tool, 'convert', '--pipe', '-o', '-', '-'], 0, '', stdin=f.read())
    direct = expect('a file to standard output as a pipe', [tool, 'convert', '--pipe', '-o', '-', 'tests/data/pipe.data'], 0, '')
    if piped != direct or not piped:
        fails.append('standard input: %d bytes, from the file %d' % (len(piped), len(direct)))
    return fails


def inputs(args):
    out = []
    for a in args:
        if os.path.isdir(a) and os.path.isfile(os.path.join(a, 'data')):
            out.append(a)
        elif os.path.isdir(a):
            for root, dirs, files in os.walk(a):
                # a --threads directory is one input
                out.extend(os.path.join(root, d) for d in dirs if os.path.isfile(os.path.join(root, d, 'data')))
                dirs[:] = [d for d in dirs if not os.path.isfile(os.path.join(root, d, 'data'))]
                for f in files:
                    p = os.path.join(root, f)
                    if (f.endswith('.data') or f.endswith('.perf') or f.startswith('perf.data')) and \
                            not f.endswith(('.xz', '.txt', '.json')) and os.path.getsize(p) < (32 << 20):
                        out.append(p)
        else:
            out.append(a)
    return sorted(out)


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    tool = args.pop(0)
    jobs, use_perf = os.cpu_count() or 1, shutil.which('perf') is not None
    paths = []
    while args:
        a = args.pop(0)
        if a == '--jobs':
            jobs = int(args.pop(0))
        elif a == '--no-perf':
            use_perf = False
        else:
            paths.append(a)
    files = inputs(paths)
    if not files:
        print('no input')
        print('0 passed, 1 failed')
        return 1
    work = tempfile.mkdtemp(prefix='convert-rt-')
    checker = Checker(tool, use_perf, work)
    passed = failed = 0
    try:
        for problem in cli_checks(tool, work):
            failed += 1
            print('FAIL command line: ' + problem)
        passed += 1
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            for res in ex.map(checker.check_input, files):
                for name, problem in res:
                    if problem:
                        failed += 1
                        print('FAIL %s: %s' % (name, problem))
                    else:
                        passed += 1
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if not use_perf:
        print('(perf report -D not run: compared by our dump only)')
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
