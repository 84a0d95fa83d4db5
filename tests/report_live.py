#!/usr/bin/env python3
"""`perfdata report -n --sort comm,dso,sym --no-branch-stack F` against
`perf report --stdio --no-children -g none` with the same options, run
live, every line,
for every input under the given directories that perf reports samples of
(other parsers' files: many kernels and arches, modules, pipes, branch
stacks, groups, simpleperf).

perf runs with an empty PERF_BUILDID_DIR and HOME (no build-id cache, no
~/.perfconfig); both read this machine's files for symbols. The only line
left out is perf's random '# (Tip: ...)'; trailing blanks are removed on
both sides. DIFFS in the expectations file counts the differing lines
(difflib: lines outside the longest matching blocks). Inputs perf refuses
or reports no sample of are not counted; without perf every input is
skipped, never passed.

Usage: report_live.py PERFDATA [-v] [--expect FILE] DIR...
"""
import difflib
import os
import shutil
import subprocess
import sys
import tempfile

from oracles import display_name, finish, parse_args, run_tool

NOT_INPUTS = ('.xz', '.txt', '.json', '.md', '.c', '.cpp', '.py', '.sh', '.tsv', '.buildids', '.gz', '.expected')


def inputs(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            if root.endswith('.data'):  # a --threads directory's own files
                continue
            for name in sorted(files):
                path = os.path.join(root, name)
                if name.endswith(NOT_INPUTS) or not os.access(path, os.R_OK):
                    continue
                with open(path, 'rb') as f:
                    magic = f.read(8)
                if magic in (b'PERFILE2', b'2ELIFREP'):
                    yield path


def clean(text):
    return [l.rstrip() for l in text.rstrip('\n').split('\n') if not l.startswith('# (Tip:')]


def main():
    binary, paths, verbose, expected = parse_args()
    perf = shutil.which('perf')
    tmp = tempfile.mkdtemp(prefix='report_live.')
    env = dict(os.environ, PERF_BUILDID_DIR=os.path.join(tmp, 'buildid'), HOME=tmp, PERF_PAGER='cat',
               PERF_CONFIG_NOSYSTEM='1', LC_ALL='C')
    os.makedirs(env['PERF_BUILDID_DIR'])
    passed = failed = skipped = counted = 0
    # the sample view: branch mode is branch_diff.py's
    keys = ['-n', '--sort', 'comm,dso,sym', '--no-branch-stack']
    try:
        for data in inputs(paths):
            name = display_name(data, paths)
            if not perf:
                skipped += 1
                continue
            try:
                p = subprocess.run([perf, 'report', '-i', data, '--stdio', '--no-children', '-g', 'none'] + keys,
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=300)
            except subprocess.TimeoutExpired:
                skipped += 1
                continue
            theirs = p.stdout.decode('utf-8', 'replace')
            if p.returncode != 0 or '# Samples' not in theirs:
                continue  # perf refuses it, or has no sample to report
            counted += 1
            run = run_tool([binary, 'report'] + keys + [data], expected.exit_status(name))
            a, b = clean(theirs), clean(run.out)
            sm = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
            differ = max(len(a), len(b)) - sum(m.size for m in sm.get_matching_blocks())
            problems = list(run.problems)
            why = expected.check(name, differ)
            if why:
                problems.append(why)
            if not problems:
                passed += 1
                continue
            failed += 1
            print(f'FAIL {name}: ' + '; '.join(problems))
            if verbose:
                for l in list(difflib.unified_diff(a, b, 'perf', 'perfdata', n=0, lineterm=''))[2:14]:
                    print('   ', l[:200])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if not perf:
        print('perf is not installed: every input skipped')
        return finish(passed, failed, skipped, expected, 'perf', 1)
    return finish(passed, failed, skipped, expected, 'samples perf reports', counted)


if __name__ == '__main__':
    sys.exit(main())
