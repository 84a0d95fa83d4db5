#!/usr/bin/env python3
"""Differential test: `perfdata dump FILE` against perf 6.1's `perf report -D`.

For every input that has a `F.dump.xz` oracle beside it, both outputs are
split into records keyed by file offset (perf prints in time order, we in
file order) and each record's decoded lines are compared: the summary line
(cpu/time prefix, offset, size, PERF_RECORD_ name and fields) and the detail
lines under it. Excluded, because they are perf's symbol state and not a
decode of the bytes: ` ... thread:` and ` ...... dso:` lines. Pipe-mode
offsets are normalised (perf counts them from the end of the 16-byte pipe
header, we print file offsets).

Usage: dump_diff.py PERFDATA_BINARY [-v] [--expect FILE] DIR_OR_FILE...
Prints a table (file, records, matched, mismatched, missing, extra, in-zstd:
perf records inside COMPRESSED chunks, which perf prints at the chunk's
offset and we do not decompress yet) and exits
1 when a mismatch is not listed in the expectations file (tests/dump_expected.txt).
"""
import lzma
import os
import re
import subprocess
import sys

from oracles import find_inputs, parse_args

VERBOSE_MAX = int(os.environ.get("DUMP_DIFF_SHOW", "5"))
HEADER = re.compile(r'^(0x[0-9a-f]+|0)@(\S+) \[(0x[0-9a-f]+)\]: event: (\d+)$')
STREAM = re.compile(r'^# stream: (\S+)$')
PER_THREAD = re.compile(r'/(data\.\d+)$')  # --threads directory streams


def stream_of(path):
    m = PER_THREAD.search(path)
    return m.group(1) if m else ''

SUMMARY = re.compile(r'^(.*?)(0x[0-9a-f]+|0) \[(0x[0-9a-f]+)\]: PERF_RECORD_(.*)$')
EXCLUDE = re.compile(r'^ (\.\.\. thread: |\.\.\.\.\.\. dso: )')


def split_records(lines, shift=0):
    """{offset: [summary, detail...]} from dump text."""
    out = {}
    cur = None
    stream = ''
    for line in lines:
        h = HEADER.match(line) or STREAM.match(line)
        if h:
            stream = stream_of(h.group(2) if h.re is HEADER else h.group(1))
        if line == '' or h:
            cur = None
            continue
        m = SUMMARY.match(line)
        if m and cur is None:
            off = int(m.group(2), 16) - (shift if not stream else 0)
            cur = [f'{m.group(1)}{off:#x} [{m.group(3)}]: PERF_RECORD_{m.group(4)}']
            # the records of a COMPRESSED chunk all carry the chunk's offset:
            # keep every record at an offset, compared as a multiset
            out.setdefault((stream, off), []).append(cur)
            continue
        if cur is None or line.startswith('. ') or line == '.':
            continue
        if EXCLUDE.match(line):
            continue
        cur.append(line)
    return out


def oracle_lines(path):
    with lzma.open(path, 'rt', errors='replace') as f:
        text = f.read()
    # everything before the stats table
    text = text.split('\nAggregated stats:', 1)[0]
    return text.split('\n'), ('@pipe [' in text)


def run_ours(binary, data):
    p = subprocess.run([binary, 'dump', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=600)
    return p.stdout.decode('utf-8', 'replace').split('\n'), p.returncode, p.stderr.decode('utf-8', 'replace')


def main():
    binary, paths, verbose, expected = parse_args()
    tot = [0, 0, 0, 0, 0, 0]
    bad_files = []
    rows = []
    for data, oracle in find_inputs(paths, '.dump.xz'):
        theirs_lines, is_pipe = oracle_lines(oracle)
        theirs = split_records(theirs_lines)
        ours_lines, rc, err = run_ours(binary, data)
        ours = split_records(ours_lines, 16 if is_pipe else 0)
        matched = mismatched = missing = compressed = 0
        shown = 0
        for off, recs in sorted(theirs.items()):
            mine_list = ours.get(off)
            if mine_list is not None and re.search(r'PERF_RECORD_COMPRESSED2?[: ]', mine_list[0][0]) and \
                    'PERF_RECORD_COMPRESSED' not in recs[0][0]:
                compressed += len(recs)  # perf shows the records inside; ours could not be decompressed
                continue
            if mine_list is None:
                missing += len(recs)
                if verbose and shown < VERBOSE_MAX:
                    print(f'  MISSING {data} {off[0]} {off[1]:#x}: {recs[0][0]}')
                    shown += 1
                continue
            pending = sorted(mine_list)
            for rec in sorted(recs):
                if rec in pending:
                    pending.remove(rec)
                    matched += 1
                    continue
                mismatched += 1
                if verbose and shown < VERBOSE_MAX:
                    shown += 1
                    mine = pending[0] if pending else ['']
                    print(f'  DIFF {data} {off[0]} {off[1]:#x}')
                    for a, b in zip(rec + [''] * len(mine), mine + [''] * len(rec)):
                        if a != b:
                            print(f'    perf: {a}\n    ours: {b}')
                            break
        extra = len(set(ours) - set(theirs))
        name = os.path.relpath(data, os.path.commonpath([os.path.abspath(p) for p in paths]) if len(paths) > 1 else paths[0]) \
            if os.path.isdir(paths[0]) else data
        rows.append((name, sum(len(v) for v in theirs.values()), matched, mismatched, missing, extra, compressed))
        for i, v in enumerate((sum(len(v) for v in theirs.values()), matched, mismatched, missing, extra, compressed)):
            tot[i] += v
        allowed = expected.get(name, 0)
        if mismatched + missing > allowed:
            bad_files.append(name)
    w = max([len(r[0]) for r in rows] + [4])
    print(f'{"file":<{w}} {"records":>8} {"matched":>8} {"mismatch":>8} {"missing":>8} {"extra":>6} {"in-zstd":>7}')
    for r in rows:
        print(f'{r[0]:<{w}} {r[1]:>8} {r[2]:>8} {r[3]:>8} {r[4]:>8} {r[5]:>6} {r[6]:>7}')
    print(f'{"TOTAL":<{w}} {tot[0]:>8} {tot[1]:>8} {tot[2]:>8} {tot[3]:>8} {tot[4]:>6} {tot[5]:>7}')
    if bad_files:
        print('unexplained differences in: ' + ', '.join(bad_files))
    print(f'{len(rows) - len(bad_files)} passed, {len(bad_files)} failed')
    return 1 if bad_files else 0


if __name__ == '__main__':
    sys.exit(main())
