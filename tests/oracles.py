"""What the differential tests share: finding inputs that have a perf oracle
beside them, running the program under test and checking how it ended, the
per-test expectations files (tests/expected/*.txt), the command line
(PERFDATA [-v] [--expect FILE] DIR_OR_FILE...) and the summary line.

Expectations file: one line per input that is known to differ from perf or
to end with a non-zero exit status, '#' starts a comment (say why there):

    PATH  DIFFS  EXIT

PATH is relative to the directory given on the command line; DIFFS is the
exact number of differences the test counts for it (what it counts is the
test's own business); EXIT is the exit status the program returns on it.
Both numbers are enforced exactly: more or fewer differences, or another
exit status, fail the input. An input not listed must match perf exactly
and exit 0. A listed input that was not found fails too."""
import os
import re
import subprocess
import sys

# What a sanitizer, the C library or the shell writes when the program did
# something wrong; none of it is ever part of a clean error message.
SANITIZER = re.compile(
    r'runtime error|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|MemorySanitizer|ThreadSanitizer'
    r'|^==\d+==\s*ERROR: |^SUMMARY: \w+Sanitizer|Segmentation fault|stack smashing detected|double free'
    r'|free\(\): |malloc\(\): |corrupted size vs|Assertion .* failed|core dumped', re.M)


def find_inputs(paths, suffix):
    """(data file, oracle) pairs: DIR/NAME with DIR/NAME<suffix> beside it.
    A --threads directory's own files (inside *.data/) are not inputs."""
    for p in paths:
        if os.path.isfile(p) and p.endswith(suffix):
            yield p[:-len(suffix)], p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            if root.endswith('.data'):
                continue
            for name in sorted(files):
                if name.endswith(suffix):
                    data = os.path.join(root, name[:-len(suffix)])
                    if os.path.exists(data):
                        yield data, os.path.join(root, name)


class Run:
    """One run of the program under test: out (text), err (text), rc, and
    problems: why the run itself fails the check (empty when it ended as
    expected)."""

    def __init__(self, out, err, rc, problems):
        self.out, self.err, self.rc, self.problems = out, err, rc, problems


def run_tool(cmd, expect_rc=0, timeout=600):
    """Runs cmd; the run fails on an exit status other than expect_rc, on
    death by a signal, on a timeout and on any sanitizer or crash text in
    stderr."""
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    except subprocess.TimeoutExpired as e:
        out = (e.stdout or b'').decode('utf-8', 'replace')
        return Run(out, (e.stderr or b'').decode('utf-8', 'replace'), None, [f'timed out after {timeout} s'])
    out = p.stdout.decode('utf-8', 'replace')
    err = p.stderr.decode('utf-8', 'replace')
    problems = []
    first = next((l for l in err.split('\n') if l.strip()), '')
    if p.returncode < 0:
        problems.append(f'killed by signal {-p.returncode}')
    elif p.returncode != expect_rc:
        problems.append(f'exit status {p.returncode}, expected {expect_rc}' + (f' (stderr: {first[:200]})' if first else ''))
    m = SANITIZER.search(err)
    if m:
        line = err[err.rfind('\n', 0, m.start()) + 1:].split('\n', 1)[0]
        problems.append(f'sanitizer or crash text in stderr: {line[:300]}')
    return Run(out, err, p.returncode, problems)


class Expectations:
    """The expectations file of one test (see the module comment)."""

    def __init__(self, path):
        self.path = path
        self.entries = {}
        self.seen = set()
        if path is None:
            return
        if not os.path.exists(path):
            sys.exit(f'{path}: no such expectations file')
        for n, line in enumerate(open(path), 1):
            line = line.split('#', 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 3 or not (parts[1].isdigit() or parts[1] == '*') or not parts[2].isdigit():
                sys.exit(f'{path}:{n}: want "PATH DIFFS EXIT", got "{line}"')
            if parts[0] in self.entries:
                sys.exit(f'{path}:{n}: {parts[0]} listed twice')
            self.entries[parts[0]] = (None if parts[1] == '*' else int(parts[1]), int(parts[2]))

    def exit_status(self, name):
        """The exit status expected of the program on this input."""
        self.seen.add(name)
        return self.entries.get(name, (0, 0))[1]

    def check(self, name, diffs):
        """'' when the input differs from perf exactly as listed, else why not."""
        self.seen.add(name)
        want = self.entries.get(name, (0, 0))[0]
        if diffs == want or (want is None and diffs > 0):
            return ''
        where = self.path or 'no expectations file'
        if name in self.entries:
            return (f'{diffs} differences, {where} lists {want}: if the change is intended, '
                    f'update that line (and its reason)')
        return (f'{diffs} differences, none expected ({where}): if they are intended, '
                f'list the input there with the count and a reason')

    def unused(self):
        """Listed inputs the run never met (stale lines)."""
        return sorted(set(self.entries) - self.seen)


def display_name(data, paths):
    """How an input is named in tables and expectations files: relative to
    the one directory given, else as given."""
    if len(paths) == 1 and os.path.isdir(paths[0]):
        return os.path.relpath(data, paths[0])
    return data


def parse_args(argv=None):
    """-> (binary, paths, verbose, Expectations)"""
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    expect = None
    if '--expect' in args:
        i = args.index('--expect')
        expect = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(f'usage: {os.path.basename(sys.argv[0])} PERFDATA [-v] [--expect FILE] DIR_OR_FILE...')
    return args[0], args[1:], verbose, Expectations(expect)


def finish(passed, failed, skipped, expected, what, inputs):
    """Prints the stale lines of the expectations file and the summary line
    "N passed, N failed[, N skipped]"; returns the exit status. Finding no
    input at all is a failure: the test compared nothing."""
    if inputs == 0:
        print(f'FAIL no input with {what} found: nothing was compared')
        failed += 1
    for name in expected.unused():
        print(f'FAIL {name}: listed in {expected.path} but not among the inputs; remove the line')
        failed += 1
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0
