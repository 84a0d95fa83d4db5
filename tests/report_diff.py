#!/usr/bin/env python3
"""Differential test: `perfdata report --sort dso,sym F` against perf 6.1's
`perf report --stdio --sort dso,sym -i F` (the F.report.txt oracles).

Per event table: the sample count and event count lines must be equal, and
every entry perf lists for the recorded workload binary (the program the
fixture profiled, whose symbols we have) must be in ours with the same
overhead to 0.01%. Entries in other objects depend on this machine's
libraries, kernel, vdso and perf's build-id cache at the time, so they are
only reported. For callchain recordings perf prints Children and Self
columns; Self is the flat profile. Group views (`:S` leader sampling) are
skipped: perf merges the group into one table. An input's differences are
the problems found (table count, header lines, workload entries); they, and
the exit status of `perfdata report`, must be exactly what the expectations
file lists (tests/expected/report.txt; none: no problem, exit 0). A run
that dies, or writes sanitizer text to stderr, fails its input.

Usage: report_diff.py PERFDATA [-v] [--expect FILE] DIR_OR_FILE...
"""
import lzma
import os
import re
import sys

from oracles import display_name, find_inputs, finish, parse_args, run_tool

ENTRY = re.compile(r'^\s+(?:(\d+\.\d+)%\s+)?(\d+\.\d+)%\s+(\S+)\s+\[(.)\] (.*?)\s*$')
SAMPLES = re.compile(r'^# Samples: (\S+)\s+of events? \'(.*)\'$')
WORKLOAD = ('workload',)


def parse(text):
    events, cur = [], None
    for line in text.split('\n'):
        m = SAMPLES.match(line)
        if m:
            cur = {'samples': m.group(1), 'name': m.group(2), 'count': None, 'entries': {}}
            events.append(cur)
            continue
        if cur is None:
            continue
        if line.startswith('# Event count (approx.):'):
            cur['count'] = line.split(':', 1)[1].strip()
            continue
        m = ENTRY.match(line)
        if m:
            self_pct = float(m.group(2))
            cur['entries'][(m.group(3), f'[{m.group(4)}] {m.group(5)}')] = self_pct
    return events


# Where the recordings ran their workload (tests/data/record.sh and the
# corpus' record.sh): the binary sits beside the data, so a --symfs tree
# puts it back at that path; --symdir finds it by build id where one was
# recorded (not in pipe mode).
RECORDED_PATHS = ('/tmp/perfdata-fixture/workload', '/tmp/perfdata-corpus/workload')
TP_WORKLOAD_PATH = '/tmp/perfdata-tp/tp-workload'
LANG_PATH = '/tmp/perfdata-lang'
LANG_WORKLOADS = ('cxx-workload', 'rust-workload', 'unwind-c', 'libuwfix.so', 'unwind-cxx')


def symbol_options(data):
    here = os.path.dirname(os.path.abspath(data))
    binary = os.path.join(here, 'workload')
    if not os.path.exists(binary):
        return []
    symfs = os.path.join('build', 'test', 'symfs', here.strip('/').replace('/', '_'))
    for p in RECORDED_PATHS:
        dst = symfs + p
        if not os.path.exists(dst):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(binary, dst)
    # the tracepoint fixtures' workload (tests/data/record-tracepoints.sh)
    tp = os.path.join(here, 'tp-workload')
    if os.path.exists(tp) and not os.path.lexists(symfs + TP_WORKLOAD_PATH):
        os.makedirs(os.path.dirname(symfs + TP_WORKLOAD_PATH), exist_ok=True)
        os.symlink(tp, symfs + TP_WORKLOAD_PATH)
    # the C++, Rust and unwinding fixtures' workloads, committed compressed
    # (tests/data/record-lang.sh); written again when the committed one is newer
    for name in LANG_WORKLOADS:
        packed = os.path.join(here, name + '.xz')
        dst = symfs + LANG_PATH + '/' + name
        if os.path.exists(packed) and (not os.path.lexists(dst) or
                                       os.path.getmtime(dst) < os.path.getmtime(packed)):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            with lzma.open(packed) as f, open(dst, 'wb') as o:
                o.write(f.read())
    # --symfs replaces every path, as perf's does: the system's libraries
    # and their debug files are linked in so that they resolve as perf
    # resolved them when the oracles were made (without --symfs)
    for d in ('usr', 'lib', 'lib64', 'bin', 'sbin'):
        dst = os.path.join(symfs, d)
        if os.path.exists('/' + d) and not os.path.lexists(dst):
            os.symlink('/' + d, dst)
    return ['--symfs', symfs, '--symdir', here]


def is_compressed(data):
    """The profile has a COMPRESSED feature or COMPRESSED records."""
    hdr = data + '.header.txt'
    return os.path.exists(hdr) and '# compressed :' in open(hdr, errors='replace').read()


def main():
    binary, paths, verbose, expected = parse_args()
    passed = failed = skipped = 0
    for data, oracle in find_inputs(paths, '.report.txt'):
        text = open(oracle, errors='replace').read()
        if 'of events' in text:
            skipped += 1  # a group view: perf merges the group into one table
            continue
        name = display_name(data, paths)
        theirs = parse(text)
        extra = symbol_options(data)
        run = run_tool([binary, 'report', '--sort', 'dso,sym'] + extra + [data], expected.exit_status(name))
        ours = parse(run.out)
        problems = []
        if len(ours) != len(theirs):
            problems.append(f'{len(ours)} event tables, perf has {len(theirs)}')
        for t, o in zip(theirs, ours):
            if (t['samples'], t['count'], t['name']) != (o['samples'], o['count'], o['name']):
                problems.append(f"header: perf {t['samples']}/{t['count']}/{t['name']}, ours {o['samples']}/{o['count']}/{o['name']}")
            for key, pct in t['entries'].items():
                if key[0] not in WORKLOAD or pct == 0.0:  # 0.00% self: a caller listed only in children mode
                    continue
                mine = o['entries'].get(key)
                if mine is None or abs(mine - pct) > 0.01 + 1e-9:
                    problems.append(f'{key}: perf {pct:.2f}%, ours {mine}')
            if verbose:
                other = [(k, v, o['entries'].get(k)) for k, v in t['entries'].items()
                         if k[0] not in WORKLOAD and o['entries'].get(k) != v]
                for k, v, m in other[:5]:
                    print(f'  note {data}: {k} perf {v}%, ours {m}')
        why = expected.check(name, len(problems))
        fails = run.problems + ([why] if why else [])
        if fails:
            failed += 1
            print(f'FAIL {name}: ' + '; '.join(fails + problems[:4]))
        else:
            passed += 1
    if skipped:
        print(f'{skipped} inputs skipped: group views (perf merges the group into one table)')
    return finish(passed, failed, skipped, expected, 'a .report.txt oracle', passed + failed)


if __name__ == '__main__':
    sys.exit(main())
