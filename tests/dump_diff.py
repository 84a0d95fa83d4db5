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
Prints a table (file, records, matched, mismatched, missing, extra: records
we print at an offset where perf printed none). An input's differences are
mismatched + missing + extra; they, and the exit status of `perfdata dump`,
must be exactly what the expectations file (tests/expected/dump.txt for the
corpus; none for tests/data: no difference, exit 0) lists. A run that dies,
or writes sanitizer text to stderr, fails its input.
"""
import lzma
import os
import re
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool

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


def main():
    binary, paths, verbose, expected = parse_args()
    tot = [0, 0, 0, 0, 0]
    bad_files = []
    rows = []
    for data, oracle in find_inputs(paths, '.dump.xz'):
        name = display_name(data, paths)
        theirs_lines, is_pipe = oracle_lines(oracle)
        theirs = split_records(theirs_lines)
        run = run_tool([binary, 'dump', data], expected.exit_status(name))
        ours = split_records(run.out.split('\n'), 16 if is_pipe else 0)
        matched = mismatched = missing = 0
        shown = 0
        for off, recs in sorted(theirs.items()):
            mine_list = ours.get(off)
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
        if verbose:
            for off in sorted(set(ours) - set(theirs))[:VERBOSE_MAX]:
                print(f'  EXTRA {data} {off[0]} {off[1]:#x}: {ours[off][0][0]}')
        counts = (sum(len(v) for v in theirs.values()), matched, mismatched, missing, extra)
        rows.append((name,) + counts)
        for i, v in enumerate(counts):
            tot[i] += v
        problems = list(run.problems)
        why = expected.check(name, mismatched + missing + extra)
        if why:
            problems.append(why)
        if problems:
            bad_files.append(name)
            print(f'FAIL {name}: ' + '; '.join(problems))
    w = max([len(r[0]) for r in rows] + [4])
    print(f'{"file":<{w}} {"records":>8} {"matched":>8} {"mismatch":>8} {"missing":>8} {"extra":>6}')
    for r in rows:
        print(f'{r[0]:<{w}} {r[1]:>8} {r[2]:>8} {r[3]:>8} {r[4]:>8} {r[5]:>6}')
    print(f'{"TOTAL":<{w}} {tot[0]:>8} {tot[1]:>8} {tot[2]:>8} {tot[3]:>8} {tot[4]:>6}')
    return finish(len(rows) - len(bad_files), len(bad_files), 0, expected, 'a .dump.xz oracle', len(rows))


if __name__ == '__main__':
    sys.exit(main())
