#!/usr/bin/env python3
"""Crafted worst cases for the tools' process state, lookups and hashes.

The inputs of tests/hostile/gen_state.py, each at most 1 MB, go through
report, report --csv, collapse, stat and dump --ordered of PERFDATA (a
release build). Each run must
  - exit with the status expected (0; 3 where the output is cut, with the
    reason on stderr) and write nothing else to stderr than what is listed;
  - finish within 10 s of wall time (the project's target for any input of
    at most 1 MB) and within CPU_BUDGET seconds of CPU time (default 1:
    these inputs take a few tenths of a second at most once every lookup
    is O(log n); a cost that grows as n^2 shows here before it reaches
    10 s, and CPU time does not count the waits of a loaded machine);
  - peak at no more than 256 MB of RSS (as GNU time measures the command,
    when /usr/bin/time is there; else as wait4 reports it, which counts
    this script's own few tens of MB too).
A run is killed after 30 s, and runs under a 2 GiB address-space limit so
that a blow-up fails the run instead of the machine. report and collapse
run twice: the hash seed differs between runs, the output may not.

The small committed inputs (tests/hostile/*.data of gen_state.py) must be
what gen_state.py makes, and their outputs are checked for the semantics
they pin down: a map replaced between two samples, a child's map not seen
by its parent or sibling (with the pgoff of the part cut above it), the
first recorded KSYMBOL winning where two overlap.

Usage: state_limits.py PERFDATA [--cpu-budget SECONDS] [-v]
Ends with "N passed, N failed".
"""
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ left in tests/hostile, which the fuzz replay reads
sys.path.insert(0, os.path.join(HERE, 'hostile'))
import gen_state  # noqa: E402

WALL_LIMIT, RSS_LIMIT_KB, KILL_AFTER, AS_LIMIT = 10.0, 256 * 1024, 30, 2 << 30
TIME = '/usr/bin/time' if os.access('/usr/bin/time', os.X_OK) else None

passed = failed = 0
verbose = False


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        if verbose:
            print('ok   ' + what)
    else:
        failed += 1
        print('FAIL ' + what)
    return ok


def run(cmd):
    """(exit status, stdout, stderr, wall s, cpu s, peak RSS KiB) of one run;
    a run killed by signal N has the status -N (KILL_AFTER s: -9)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, tempfile.NamedTemporaryFile('r') as res:
        # the shell sets the limit and becomes the command; GNU time, when
        # there is one, measures the command alone (the peak RSS that wait4
        # gives for a child of this interpreter counts the interpreter's)
        full = ['sh', '-c', 'ulimit -v %d && exec "$0" "$@"' % (AS_LIMIT >> 10)] + cmd
        if TIME:
            full = [TIME, '-q', '-f', '%M', '-o', res.name] + full
        t0 = time.monotonic()
        p = subprocess.Popen(full, stdout=out, stderr=err, start_new_session=True)
        timer = threading.Timer(KILL_AFTER, os.killpg, (p.pid, signal.SIGKILL))
        timer.start()
        _, status, ru = os.wait4(p.pid, 0)
        timer.cancel()
        wall = time.monotonic() - t0
        code = p.returncode = os.waitstatus_to_exitcode(status)
        rss = ru.ru_maxrss
        if TIME:
            if code > 128:  # time exits 128 + N for a command killed by signal N
                code = 128 - code
            try:
                rss = int(res.read().split()[-1])
            except (ValueError, IndexError):
                pass
        out.seek(0)
        err.seek(0)
        return code, out.read(), err.read().decode('utf-8', 'replace'), wall, ru.ru_utime + ru.ru_stime, rss


# Lines a run may write to stderr, by input; anything else fails it.
ALLOWED = {
    'group-overlap': [r'perfdata report: a group of events \d+-\d+ overlaps an earlier group: it is reported event by event',
                      r'perfdata collapse: folding the samples of event .* only \(--event NAME for another\)'],
}
CSV_CUT = r'perfdata report: processes\.csv: the maps of \d+ processes are cut short \(the maps column holds at most 64 MiB in all\)'
# (input, command) -> (exit status, stderr line that must be there)
EXPECT = {
    ('fork-storm', 'report --csv'): (3, CSV_CUT),
}


def limits(perfdata, cpu_budget, tmp):
    for gen in gen_state.LARGE:
        name = gen.__name__.replace('_', '-')
        path = os.path.join(tmp, name + '.data')
        data = gen()
        with open(path, 'wb') as f:
            f.write(data)
        check(len(data) <= 1 << 20, '%s: %d bytes, at most 1 MB' % (name, len(data)))
        csv = os.path.join(tmp, 'csv-' + name)
        for label, args in (('report', ['report']), ('report --csv', ['report', '--csv', csv]),
                            ('collapse', ['collapse']), ('stat', ['stat']), ('dump --ordered', ['dump', '--ordered'])):
            what = '%s %s' % (label, name)
            code, out, err, wall, cpu, rss = run([perfdata] + args + [path])
            want, must = EXPECT.get((name, label), (0, None))
            extra = [line for line in err.splitlines()
                     if not any(re.fullmatch(a, line) for a in ALLOWED.get(name, []) + ([must] if must else []))]
            print('     %-14s %-16s exit %-6s %6.2f s wall %6.2f s cpu %7d KiB' % (label, name, code, wall, cpu, rss))
            check(code == want, '%s: exit status %s (want %s)' % (what, code, want))
            check(not extra, '%s: stderr says only what is expected%s' % (what, ''.join('\n     | ' + e for e in extra[:5])))
            if must:
                check(any(re.fullmatch(must, line) for line in err.splitlines()), '%s: stderr says why (%s)' % (what, must))
            check(wall <= WALL_LIMIT, '%s: %.2f s of wall time (at most %.0f s)' % (what, wall, WALL_LIMIT))
            check(cpu <= cpu_budget, '%s: %.2f s of CPU time (at most %.1f s)' % (what, cpu, cpu_budget))
            check(rss <= RSS_LIMIT_KB, '%s: %d KiB peak RSS (at most %d KiB)' % (what, rss, RSS_LIMIT_KB))
            if label in ('report', 'collapse') and code == want:
                again = run([perfdata] + args + [path])
                check(again[0] == code and again[1] == out, '%s: the same output again (another hash seed)' % what)


def committed(perfdata, tmp):
    outs = {}
    for gen in gen_state.SMALL:
        name = gen.__name__.replace('_', '-')
        path = os.path.join(HERE, 'hostile', name + '.data')
        data = gen()
        have = open(path, 'rb').read() if os.path.exists(path) else None
        check(have == data, '%s: tests/hostile/%s.data is what gen_state.py makes' % (name, name))
        for args in (['collapse'], ['report', '--sort', 'pid,dso,sym']):
            code, out, err, _, _, _ = run([perfdata] + args + [path])
            check(code == 0 and not err, '%s %s: exit 0, nothing on stderr (exit %s%s)' %
                  (' '.join(args), name, code, ', ' + err.strip()[:200] if err else ''))
            outs[(name, args[0])] = out.decode('utf-8', 'replace')
    # a map replaced between two samples at the same address
    check(outs[('remap', 'collapse')] == 'remap;[new] 1\nremap;[old] 1\n',
          'remap: collapse finds the second sample in the new map\n' + outs[('remap', 'collapse')])
    # a child's map is its own; the part of the parent's map above it keeps its file offsets
    check(outs[('fork-isolation', 'collapse')] == 'child1;[a] 2\nchild1;[b] 1\nchild2;[a] 3\nparent;[a] 3\n',
          'fork-isolation: the parent and the second child see /x/a where the first child mapped /x/b\n' +
          outs[('fork-isolation', 'collapse')])
    rows = set()
    for line in outs[('fork-isolation', 'report')].splitlines():
        m = re.match(r'\s+[\d.]+%\s+(\d+):\S+\s+(\S+)\s+\[\.\] (0x[0-9a-f]+)$', line)
        if m:
            rows.add((int(m.group(1)), m.group(2), int(m.group(3), 16)))
    want = {(pid, 'a', off) for pid in (10, 11, 12) for off in (0x100, 0x10100, 0x20100)}
    want = (want - {(11, 'a', 0x10100)}) | {(11, 'b', 0x100)}
    check(rows == want, 'fork-isolation: report rows (pid, dso, address in the object) as each process maps them: %s'
          % sorted(rows ^ want))
    rep = outs[('ksym-first-wins', 'report')]
    check(re.search(r'\[bpf_prog\]\s+\[k\] bpf_first\n', rep) is not None and
          re.search(r'\[bpf_prog\]\s+\[k\] bpf_second\n', rep) is not None and 'bpf_third' not in rep,
          'ksym-first-wins: the first recorded KSYMBOL holds an address two cover\n' + rep)


def main(argv):
    global verbose
    args = [a for a in argv[1:] if a != '-v']
    verbose = len(args) != len(argv) - 1
    cpu_budget = 1.0
    if '--cpu-budget' in args:
        i = args.index('--cpu-budget')
        cpu_budget = float(args[i + 1])
        del args[i:i + 2]
    if len(args) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    perfdata = os.path.abspath(args[0])
    with tempfile.TemporaryDirectory(prefix='state-limits-') as tmp:
        committed(perfdata, tmp)
        limits(perfdata, cpu_budget, tmp)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
