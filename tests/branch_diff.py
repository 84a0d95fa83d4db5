#!/usr/bin/env python3
"""Differential test of branch mode: `perfdata report F` against perf 6.1's
`perf report --stdio -i F`, run live, on every input perf reports in branch
mode (the header has the BRANCH_STACK feature and no event samples
STACK_USER: builtin-report.c). Other inputs are not counted; a profile with
branch stacks but without the feature (perf record --call-graph lbr) is
listed as skipped, since perf shows it in the sample view.

Every line must be equal, in order, with one exception: the line
'# (Tip: ...)' that perf prints between the last two '#' lines, a tip
picked at random, which ours leaves out. Both run with an empty build-id
cache (perf's --buildid-dir, ours PERF_BUILDID_DIR: perf ignores that
variable) so no cache on this machine changes their symbols. Ours must exit 0 with nothing from a sanitizer on stderr.

Usage: branch_diff.py PERFDATA FILE_OR_DIR...
Ends with 'N passed, N failed, N skipped'; finding no input fails.
"""
import os
import struct
import subprocess
import sys
import tempfile

FEAT_BRANCH_STACK = 15
SAMPLE_BRANCH_STACK = 1 << 11
SAMPLE_STACK_USER = 1 << 13
SANITIZER = ('AddressSanitizer', 'LeakSanitizer', 'UndefinedBehaviorSanitizer', 'runtime error:')


def header_facts(path):
    """(branch feature, OR of the events' sample_type) of a perf.data file,
    or None when it is not one in file mode."""
    try:
        with open(path, 'rb') as f:
            head = f.read(104)
            if len(head) < 104 or head[:8] not in (b'PERFILE2', b'2ELIFREP'):
                return None
            e = '<' if head[:8] == b'PERFILE2' else '>'
            size, attr_size, attrs_off, attrs_size = struct.unpack(e + 'QQQQ', head[8:40])
            if size != 104 or attr_size < 16 or attrs_size > 1 << 24:
                return None
            features = struct.unpack(e + '4Q', head[72:104])
            f.seek(attrs_off)
            attrs = f.read(attrs_size)
    except OSError:
        return None
    types = 0
    for at in range(0, len(attrs) - attr_size + 1, attr_size):
        types |= struct.unpack(e + 'Q', attrs[at + 24:at + 32])[0]  # perf_event_attr.sample_type
    return bool(features[0] >> FEAT_BRANCH_STACK & 1), types


def find_files(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for name in sorted(files):
                if not name.endswith(('.xz', '.txt', '.json', '.md', '.c', '.py', '.sh', '.tsv')):
                    yield os.path.join(root, name)


def main():
    if len(sys.argv) < 3:
        print(__doc__.strip().split('\n')[-2])
        return 2
    binary, paths = sys.argv[1], sys.argv[2:]
    passed = failed = skipped = 0
    for data in find_files(paths):
        facts = header_facts(data)
        if facts is None or not facts[1] & SAMPLE_BRANCH_STACK:
            continue
        feature, types = facts
        if not feature or types & SAMPLE_STACK_USER:
            skipped += 1
            print(f'skip {data}: branch stacks, but perf shows the sample view (no BRANCH_STACK feature or user stacks)')
            continue
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, PERF_BUILDID_DIR=cache)
            perf = subprocess.run(['perf', '--buildid-dir', cache, 'report', '--stdio', '-i', data],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=900)
        if perf.returncode != 0:
            skipped += 1
            print(f'skip {data}: perf report exits {perf.returncode}')
            continue
        ours = subprocess.run([binary, 'report', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=900)
        err = ours.stderr.decode('utf-8', 'replace')
        theirs = [l for l in perf.stdout.decode('utf-8', 'replace').split('\n') if not l.startswith('# (Tip:')]
        mine = ours.stdout.decode('utf-8', 'replace').split('\n')
        problems = []
        if ours.returncode != 0:
            problems.append(f'exit status {ours.returncode}')
        if any(s in err for s in SANITIZER):
            problems.append('sanitizer: ' + err.strip().split('\n')[0])
        if len(mine) != len(theirs):
            problems.append(f'{len(mine)} lines, perf has {len(theirs)}')
        for i, (t, o) in enumerate(zip(theirs, mine)):
            if t != o:
                problems.append(f'line {i + 1}: perf {t!r}, ours {o!r}')
                break
        if problems:
            failed += 1
            print(f'FAIL {data}: ' + '; '.join(problems))
        else:
            passed += 1
            print(f'ok   {data}: {len(theirs)} lines')
    if passed + failed == 0:
        print('no input in branch mode found')
        failed += 1
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
