#!/usr/bin/env python3
"""Every input in tests/hostile/ through every perfdata command.

    hostile_run.py ASAN_BINARY [RELEASE_BINARY]

Under the ASan+UBSan build each run must end without a sanitizer or crash
report and without a signal, with exit status 0, or 1 or 3 and a
"perfdata...: " message on stderr, within 60 s (ASan is slow; the run is
killed there and fails). ASan refuses allocations above 256 MiB (reported,
so a failure) and the run is killed above 3 GiB of RSS. With the release
build as well, each run must also keep the resource contract of
tests/contract.py (10 s, 256 MB, its limits and allocation guard).

The inputs are every file (or --threads directory) directly in
tests/hostile/ but the notes (*.md, *.txt) and scripts (*.py). Prints one
line per run and ends with "N passed, N failed"; fails when there is no
input.
"""
import os
import sys

sys.dont_write_bytecode = True    # no __pycache__ beside the inputs of tests/hostile
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import contract  # noqa: E402

ASAN_TIME = 60.0
ASAN_KILL_RSS = 3 << 30


def inputs(directory):
    out = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(('.md', '.txt', '.py')) or name.startswith('.') or name == '__pycache__':
            continue
        out.append((name, os.path.join(directory, name)))
    return out


def main(argv):
    if not argv or argv[0].startswith('-') or len(argv) > 2:
        sys.stderr.write(__doc__)
        return 2
    asan = os.path.abspath(argv[0])
    release = os.path.abspath(argv[1]) if len(argv) > 1 else None
    tally = contract.Tally()
    for b in filter(None, (asan, release)):
        if not os.access(b, os.X_OK):
            print(f'{b}: not an executable (make all asan)')
            print('0 passed, 1 failed')
            return 1
    files = inputs(os.path.join(HERE, 'hostile'))
    if not files:
        print('no input in tests/hostile')
        print('0 passed, 1 failed')
        return 1
    workdir = os.path.abspath('build/hostile_run')
    os.makedirs(workdir, exist_ok=True)
    opts = os.environ.get('ASAN_OPTIONS', '')
    asan_env = dict(os.environ, ASAN_OPTIONS=(opts + ':' if opts else '') +
                    'max_allocation_size_mb=256:allocator_may_return_null=0:hard_rss_limit_mb=3072')
    print(f'# {len(files)} inputs x {len(contract.COMMANDS)} commands, ASan build: {ASAN_TIME:.0f} s each'
          + (f'; release build: {contract.TIME_LIMIT:.0f} s, {contract.RSS_LIMIT} MB' if release else ''))
    print(f'{"input":<22} {"command":<22} {"seconds":>7} {"MB":>7} {"rc":>5}  verdict')
    for name, path in files:
        contract.run_commands(asan, name, path, workdir, tally, ASAN_TIME + 1, env=asan_env, address_space=None,
                              kill_rss=ASAN_KILL_RSS, time_limit=ASAN_TIME, rss_limit=float('inf'))
    if release:
        guard = contract.build_guard(workdir)
        if not guard:
            tally.failed += 1
        else:
            env = dict(os.environ, LD_PRELOAD=guard)
            for name, path in files:
                contract.run_commands(release, name + ' (release)', path, workdir, tally, 30.0, env=env)
    print(tally.line())
    return 0 if tally.failed == 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
