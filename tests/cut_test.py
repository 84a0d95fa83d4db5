#!/usr/bin/env python3
"""Cut files: every command reads a perf.data cut short (`head -c N`, a copy
interrupted) as far as it goes.

Each input is cut at its record boundaries (the offsets `perfdata dump`
prints, at most MAX_BOUNDARIES of them, spread evenly, plus the end of the
data) and at RANDOM_CUTS random offsets (fixed seed). For every cut, each of
info, dump, stat, report and collapse must
  - not crash: no signal, no sanitizer report on stderr;
  - exit 3 (a partial result) with a message on stderr; a file cut before
    its data section is refused (exit 1, with a message), as perf refuses it;
    a pipe cut between two records may exit 0 (nothing shows that more was
    to come);
and dump must print exactly the whole records before the cut: the records
of the uncut dump whose bytes end at or before it.

Usage: cut_test.py PERFDATA FILE...   (directories are skipped)
Prints `N passed, N failed` (one check per cut file and command).
"""
import os
import random
import re
import struct
import subprocess
import sys
import tempfile

MAX_BOUNDARIES = 24
RANDOM_CUTS = 50
COMMANDS = (['info'], ['dump'], ['stat'], ['report'], ['collapse'])
SUMMARY = re.compile(r'^.*?(0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_')
SANITIZER = ('Sanitizer', 'runtime error', 'LeakSanitizer')
ENV = dict(os.environ, ASAN_OPTIONS='detect_leaks=0')


def run(binary, cmd, path):
    p = subprocess.run([binary] + cmd + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60, env=ENV)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def records(dump_text):
    """[(offset, text)] of a dump, in file order: a record's text runs from
    its summary line to the blank line that ends it."""
    out = []
    for block in dump_text.split('\n\n'):
        if not block.strip():
            continue
        m = SUMMARY.match(block.split('\n', 1)[0])
        if not m:
            continue
        out.append((int(m.group(1), 16), block.strip('\n')))
    return out


def layout(data):
    """(pipe, where the data starts, where it ends) from the header."""
    big = data[:8] == b'2ELIFREP'
    e = '>' if big else '<'
    if struct.unpack_from(e + 'Q', data, 8)[0] == 16:
        return True, 16, len(data)
    do, dsz = struct.unpack_from(e + 'QQ', data, 40)
    return False, do, do + dsz


def whole_before(recs, data_end, cut):
    """The texts of the records that end at or before `cut`. The records of
    a COMPRESSED chunk share the chunk's offset; a record (or chunk) ends
    where the next offset begins."""
    offsets = sorted({off for off, _ in recs})
    end_of = {off: (offsets[i + 1] if i + 1 < len(offsets) else data_end) for i, off in enumerate(offsets)}
    return [text for off, text in recs if end_of[off] <= cut]


def check_file(binary, path, work, rng):
    data = open(path, 'rb').read()
    pipe, data_off, data_end = layout(data)
    rc, full_dump, err = run(binary, ['dump'], path)
    if rc != 0:
        print(f'FAIL {path}: the uncut file does not dump (exit {rc}): {err.strip()[:200]}')
        return 0, 1
    recs = records(full_dump)
    all_bounds = {off for off, _ in recs} | {data_end}
    bounds = sorted(all_bounds)
    if len(bounds) > MAX_BOUNDARIES:
        step = (len(bounds) - 1) / (MAX_BOUNDARIES - 1)
        bounds = sorted({bounds[round(i * step)] for i in range(MAX_BOUNDARIES)})
    cuts = [(b, True) for b in bounds if b < len(data)]
    cuts += [(rng.randrange(1, len(data)), False) for _ in range(RANDOM_CUTS)]
    passed = failed = 0
    cut_path = os.path.join(work, 'cut.data')
    for cut, boundary in cuts:
        with open(cut_path, 'wb') as f:
            f.write(data[:cut])
        refused = cut < data_off if not pipe else cut < 16
        boundary = boundary or cut in all_bounds
        for cmd in COMMANDS:
            what = f'{os.path.basename(path)} cut at {cut:#x} ({cut}): {cmd[0]}'
            try:
                rc, out, err = run(binary, cmd, cut_path)
            except subprocess.TimeoutExpired:
                print(f'FAIL {what}: hang')
                failed += 1
                continue
            problems = []
            if rc < 0:
                problems.append(f'killed by signal {-rc}')
            if any(s in err for s in SANITIZER):
                problems.append('sanitizer report')
            if refused:
                if rc != 1 or not err.strip():
                    problems.append(f'exit {rc}, expected 1 (refused) with a message')
            elif pipe and boundary and rc == 0:
                pass  # a pipe cut between records looks like a whole one
            elif rc != 3 or not err.strip():
                problems.append(f'exit {rc}, expected 3 (partial) with a message')
            if cmd == ['dump'] and not refused and rc >= 0:
                got = [text for _, text in records(out)]
                want = whole_before(recs, data_end, cut)
                if got != want:
                    first = next((i for i, (a, b) in enumerate(zip(got, want)) if a != b), min(len(got), len(want)))
                    problems.append(f'{len(got)} records printed, {len(want)} expected; first difference at '
                                    f'record {first}: {(got[first] if first < len(got) else "(none)")[:120]!r} vs '
                                    f'{(want[first] if first < len(want) else "(none)")[:120]!r}')
            if problems:
                print(f'FAIL {what}: {"; ".join(problems)}; stderr: {err.strip()[-300:]}')
                failed += 1
            else:
                passed += 1
    print(f'{path}: {len(cuts)} cuts, {len(recs)} records')
    return passed, failed


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    binary = sys.argv[1]
    rng = random.Random(20240611)
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        for path in sys.argv[2:]:
            if os.path.isdir(path):
                continue
            p, f = check_file(binary, path, work, rng)
            passed += p
            failed += f
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
