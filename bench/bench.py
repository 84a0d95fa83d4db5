#!/usr/bin/env python3
"""bench/: wall time, throughput and peak RSS of perfdata against the raw
record walk (the floor) and against perf itself, on the same inputs, warm
cache, median of several runs, ratios computed pair by pair in one run.
Writes bench/RESULTS.md.

Inputs (recorded here with perf if missing; sizes are targets):
  bench/data/system-g.data   perf record -a -g -F 19999                  (BENCH_MB, default 500)
  bench/data/dwarf.data      perf record -a --call-graph dwarf,4096 -F 999 (BENCH_MB * 0.6)
  bench/data/zstd.data       perf record -z -a -g -F 19999               (BENCH_MB / 20)
  bench/data/tracepoints-g.data  perf record -a -g -e kmem:kmalloc,kfree,kmem_cache_alloc
                             -e sched:sched_switch                        (BENCH_MB / 10)
each under a gzip load on every core, and
  bench/data/deep-g.data     perf record -a -g -F 19999                  (BENCH_MB / 2)
  bench/data/deep-dwarf.data perf record -a --call-graph dwarf,4096 -F 999 (BENCH_MB * 0.3)
under bench/deepload.c (deep, varied stacks; short-lived processes); all
stopped by --max-size.
The inputs live in bench/data unless BENCH_DATA names another directory.

--before BINARY (or BENCH_BEFORE=BINARY, e.g. `make bench
BENCH_BEFORE=/path/to/perfdata-0.1.0`) also times another perfdata, an
older build, on the same inputs in the same run, its runs alternating with
the current build's, and adds its time and peak RSS and the ratios
after/before (below 1: the current build is faster or smaller).

Usage: bench.py [--runs N] [--mb MB] [--no-perf] [--perf-runs N] [--before BINARY] [--results FILE] [--only NAMES]
"""
import argparse
import datetime
import os
import platform
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.environ.get('BENCH_DATA') or os.path.join(HERE, 'data')  # where inputs are recorded
PERFDATA = os.path.join(ROOT, 'build', 'perfdata')
WALK = os.path.join(ROOT, 'build', 'bench-walk')
SPAWN = os.path.join(ROOT, 'build', 'bench-spawn')
# the FlameGraph scripts, the flame graph's peer (perf script | stackcollapse-perf.pl | flamegraph.pl)
FLAMEGRAPH_DIR = os.environ.get('FLAMEGRAPH_DIR') or os.path.join(ROOT, '..', 'shared', 'tools', 'flamegraph')
# A child of this script starts with the script's own peak RSS as its
# ru_maxrss (it is started by vfork or fork, and exec keeps the larger of
# the old and new address spaces' high-water marks): ~15 MiB that would
# hide any smaller peak. Each command runs under this small program
# instead, which times it and reports its ru_maxrss from a child of its own.
SPAWN_C = r'''
/* bench-spawn OUT CMD ARGS...: run CMD (stdin, stdout, stderr inherited),
   write "STATUS MAXRSS_KB SECONDS CPU_SECONDS" of it to OUT; exit as CMD did. */
#define _DEFAULT_SOURCE /* wait4 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
int main(int argc, char **argv) {
    int status;
    struct rusage ru;
    struct timespec t0, t1;
    pid_t pid;
    FILE *f;
    if (argc < 3) return 125;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pid = fork();
    if (pid < 0) return 125;
    if (pid == 0) { execvp(argv[2], argv + 2); _exit(127); }
    while (wait4(pid, &status, 0, &ru) < 0)
        if (errno != EINTR) return 125;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!(f = fopen(argv[1], "w")) || fprintf(f, "%d %ld %.9f %.6f\n", status, ru.ru_maxrss,
        (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
        (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6) < 0 ||
        fclose(f) != 0) return 125;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
'''


def build_spawn():
    with open(SPAWN + '.c', 'w') as f:
        f.write(SPAWN_C)
    subprocess.run(['cc', '-O2', '-Wall', '-Wextra', '-Werror', '-o', SPAWN, SPAWN + '.c'], check=True)


def run_once(cmd):
    """(seconds, peak RSS in KiB, wait status, CPU seconds) of one run, output discarded."""
    out = SPAWN + '.out'
    subprocess.run([SPAWN, out] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    status, rss, seconds, cpu = open(out).read().split()
    return float(seconds), int(rss), int(status), float(cpu)


def summary(results):
    """(median time, largest peak RSS, the first wait status, median CPU time)"""
    return (statistics.median(r[0] for r in results), max(r[1] for r in results), results[0][2],
            statistics.median(r[3] for r in results))


def measure(cmd, runs):
    return summary([run_once(cmd) for _ in range(runs)])


def measure_pair(cmd, other, runs):
    """measure() of both commands, their runs alternating, so that a
    machine that gets busier or quieter meanwhile affects both alike."""
    a, b = [], []
    for _ in range(runs):
        a.append(run_once(cmd))
        b.append(run_once(other))
    return summary(a), summary(b)


def measure_with_peer(cmd, peer, runs, peer_runs):
    """measure() of cmd (runs times) and of its peer (peer_runs times, fewer:
    perf is slow), the peer's runs each between two of cmd's: on a machine
    whose speed drifts by a third within minutes (this VM), a ratio from
    runs taken minutes apart says more about the drift than the tools."""
    a, b = [], []
    for i in range(max(runs, peer_runs)):
        if i < runs:
            a.append(run_once(cmd))
        if i < peer_runs:
            b.append(run_once(peer))
    return summary(a), summary(b)


# The loads recorded: gzip on every core (shallow stacks, few of them), or
# deepload (bench/deepload.c: deep, varied frame-pointer stacks on two
# threads and a short-lived process every few milliseconds). Each ends by
# itself within 600 s; --max-size usually ends the recording sooner (500 MB
# of -g at 19999 Hz on 2 cores: about 4 minutes).
GZIP_LOAD = ("end=$(($(date +%s) + 600)); for i in 1 2 3 4; do "
             "(while [ $(date +%s) -lt $end ]; do gzip -c /usr/bin/* >/dev/null 2>&1; done) & done; wait")
DEEPLOAD = os.path.join(ROOT, 'build', 'bench-deepload')


def build_deepload():
    subprocess.run(['cc', '-std=c99', '-O1', '-g', '-fno-omit-frame-pointer', '-fno-inline',
                    '-fno-optimize-sibling-calls', '-pthread', '-Wall', '-Wextra', '-Werror', '-o', DEEPLOAD,
                    os.path.join(HERE, 'deepload.c')], check=True)


def record(path, mb, args, load=GZIP_LOAD):
    """Record until the file reaches about mb MiB (perf --max-size stops it)."""
    if os.path.exists(path) and os.path.getsize(path) > mb * (1 << 20) * 0.5:
        return
    os.makedirs(DATA, exist_ok=True)
    # perf runs in its own process group, so the load it leaves behind when
    # --max-size stops it is killed with it.
    cmd = ['perf', 'record', '-q', '-o', path, '--max-size=%dM' % mb] + args + ['--', 'sh', '-c', load]
    print('recording', path, '...', flush=True)
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        p.wait(timeout=900)
    finally:
        try:
            os.killpg(p.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        p.wait()


def count_records(path):
    """(records, samples) by the floor walk, records inside chunks included."""
    out = subprocess.run([WALK, path], stdout=subprocess.PIPE, text=True).stdout
    m = re.match(r'(\d+) records, (\d+) samples', out)
    return (int(m.group(1)), int(m.group(2))) if m else (0, 0)


def stat_samples(path, perfdata=PERFDATA):
    """The SAMPLE count `perfdata stat` decoded (its Aggregated stats line)."""
    out = subprocess.run([perfdata, 'stat', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    m = re.search(r'^\s*SAMPLE events:\s*(\d+)', out, re.M)
    return int(m.group(1)) if m else 0


LPD = os.path.join(ROOT, 'build', 'lpd', 'release', 'lpd-walk')
PERFPARSER = '/usr/lib/x86_64-linux-gnu/libexec/hotspot-perfparser'


def build_lpd():
    """linux-perf-data 0.6, the Rust parser (Debian's librust-linux-perf-data-dev,
    built offline with cargo), walking every record: stat's peer. None when
    it cannot be built, and why on stderr."""
    if not shutil.which('cargo') or not os.path.isdir('/usr/share/cargo/registry/linux-perf-data-0.6.0'):
        print('linux-perf-data peer skipped: needs cargo and librust-linux-perf-data-dev', file=sys.stderr)
        return None
    r = subprocess.run(['cargo', 'build', '--release', '--quiet', '--target-dir', os.path.join(ROOT, 'build', 'lpd')],
                       cwd=os.path.join(HERE, 'lpd-walk'), stderr=subprocess.PIPE, text=True)
    if r.returncode or not os.path.exists(LPD):
        print('linux-perf-data peer skipped: cargo build failed: ' + r.stderr[-300:], file=sys.stderr)
        return None
    return LPD


def peer_samples(cmd):
    """The samples a peer says it parsed ("N samples"), or None"""
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = re.search(r'(\d+) samples', r.stdout)
    return int(m.group(1)) if m and r.returncode == 0 else None


def event_samples(path):
    """{event: samples} as `perfdata stat` decodes them"""
    out = subprocess.run([PERFDATA, 'stat', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    return {m.group(1): int(m.group(2)) for m in re.finditer(r'^(\S+) stats:\n\s*SAMPLE events:\s*(\d+)', out, re.M)}


def accounted(path):
    """Whether every row saw every sample: the Samples column of `report -n
    --sort comm` summed per event, and collapse's counts (the first event's
    samples, guests' left out as perf script does) against stat's counts"""
    want = event_samples(path)
    out = subprocess.run([PERFDATA, 'report', '-n', '--sort', 'comm', path], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True).stdout
    got, event = {}, None
    for line in out.splitlines():
        m = re.match(r"# Samples: .* of event '([^']*)'", line)
        if m:
            event = m.group(1)
            got[event] = 0
            continue
        m = re.match(r'\s+[0-9.]+%\s+(\d+)\s', line)
        if m and event is not None:
            got[event] += int(m.group(1))
    report_ok = all(got.get(e, 0) == n for e, n in want.items() if n)
    folded = subprocess.run([PERFDATA, 'collapse', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True).stdout
    total = sum(int(line.rsplit(' ', 1)[1]) for line in folded.splitlines() if line.strip())
    first = next((n for n in want.values() if n), 0)
    return report_ok, sum(got.values()), sum(want.values()), total, first


def build_walk():
    """The floor, with libzstd when it is installed (libzstd-dev): the -z
    input's floor is then the walk with decompression."""
    src = os.path.join(HERE, 'walk.c')
    if subprocess.run(['cc', '-O2', '-DWALK_ZSTD', '-o', WALK, src, '-lzstd'],
                      stderr=subprocess.DEVNULL).returncode == 0:
        return True
    subprocess.run(['cc', '-O2', '-o', WALK, src], check=True)
    print('libzstd-dev not installed: the -z floor walks the chunks without decompressing', file=sys.stderr)
    return False


def zstd_rows(a):
    """The header's zstd decoder (bench/unzstd.c) against `zstd -d` on the
    same frames: the -g input's first 256 MiB at perf's level 1 and at 3."""
    src = os.path.join(DATA, 'system-g.data')
    if not shutil.which('zstd') or not os.path.exists(src):
        return []
    unzstd = os.path.join(ROOT, 'build', 'bench-unzstd')
    subprocess.run(['cc', '-O2', '-I', ROOT, '-o', unzstd, os.path.join(HERE, 'unzstd.c')], check=True)
    raw = os.path.join(DATA, 'zstd-input.raw')
    with open(src, 'rb') as f, open(raw, 'wb') as o:
        o.write(f.read(256 << 20))
    rows = []
    for level in ('1', '3'):
        z = os.path.join(DATA, 'zstd-input.%s.zst' % level)
        subprocess.run(['zstd', '-q', '-f', '-' + level, raw, '-o', z], check=True)
        ours = measure([unzstd, z], a.runs)[0]
        theirs = measure(['zstd', '-q', '-d', '-c', z], a.runs)[0]
        rows.append((level, os.path.getsize(raw), ours, theirs))
        print('zstd level', level, ours, theirs, flush=True)
    return rows


FRAME_ADDR = re.compile(r'^\t\s*([0-9a-f]+) ')


def samples_of(path):
    """perf script's output as a list of samples, each its lines."""
    with open(path, 'rb') as f:
        return [b.split(b'\n') for b in f.read().split(b'\n\n') if b.strip()]


def parity(path):
    """`perfdata script` against `perf script` on one input, sample by
    sample: (samples, byte-identical, same frame addresses), or None."""
    work = os.path.join(ROOT, 'build', 'bench-parity')
    os.makedirs(work, exist_ok=True)
    outs = []
    for who, cmd in (('perf', ['perf', 'script', '-i', path]), ('ours', [PERFDATA, 'script', path])):
        out = os.path.join(work, who + '.txt')
        with open(out, 'wb') as f:
            if subprocess.run(cmd, stdout=f, stderr=subprocess.DEVNULL).returncode != 0:
                return None
        outs.append(samples_of(out))
    theirs, ours = outs
    if len(theirs) != len(ours) or not theirs:
        return len(theirs), 0, 0
    same = sum(1 for a, b in zip(theirs, ours) if a == b)
    addrs = sum(1 for a, b in zip(theirs, ours)
                if a[0] == b[0] and [FRAME_ADDR.match(x.decode('latin-1')).group(1) for x in a[1:] if
                                     FRAME_ADDR.match(x.decode('latin-1'))] ==
                [FRAME_ADDR.match(x.decode('latin-1')).group(1) for x in b[1:] if FRAME_ADDR.match(x.decode('latin-1'))])
    return len(theirs), same, addrs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--mb', type=int, default=int(os.environ.get('BENCH_MB', '500')))
    ap.add_argument('--no-perf', action='store_true', help='skip the perf commands (slow)')
    ap.add_argument('--perf-runs', type=int, default=3, help='runs of each perf command (they are slow)')
    ap.add_argument('--before', default=os.environ.get('BENCH_BEFORE') or None,
                    help='another perfdata binary (an older build) to time on the same inputs')
    ap.add_argument('--results', default=os.path.join(HERE, 'RESULTS.md'), help='where to write the results')
    ap.add_argument('--only', default=None,
                    help='comma-separated input names (e.g. deep-dwarf.data): time those alone (write them with '
                         '--results elsewhere: RESULTS.md has every input of one run)')
    a = ap.parse_args()
    if a.before:
        a.before = os.path.abspath(a.before)
        if subprocess.run([a.before, 'version'], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            print(f'--before {a.before}: `{a.before} version` fails', file=sys.stderr)
            return 2
    os.makedirs(os.path.dirname(SPAWN), exist_ok=True)
    build_spawn()
    with_zstd = build_walk()
    have_perf = shutil.which('perf') and not a.no_perf
    build_deepload()
    deep = shlex.quote(DEEPLOAD) + ' 600 2'
    inputs = [('system-g.data', a.mb, ['-a', '-g', '-F', '19999'], GZIP_LOAD),
              ('dwarf.data', max(1, a.mb * 6 // 10), ['-a', '--call-graph', 'dwarf,4096', '-F', '999'], GZIP_LOAD),
              ('zstd.data', max(1, a.mb // 20), ['-z', '-a', '-g', '-F', '19999'], GZIP_LOAD),
              # the perf tutorial's tracepoints, system-wide with call chains
              ('tracepoints-g.data', max(1, a.mb // 10), ['-a', '-g', '-e', 'kmem:kmalloc', '-e', 'kmem:kfree',
                                                          '-e', 'kmem:kmem_cache_alloc', '-e', 'sched:sched_switch'],
               GZIP_LOAD),
              # deep, varied stacks and short-lived processes, with frame
              # pointers and unwound from stack copies
              ('deep-g.data', max(1, a.mb // 2), ['-a', '-g', '-F', '19999'], deep),
              ('deep-dwarf.data', max(1, a.mb * 3 // 10), ['-a', '--call-graph', 'dwarf,4096', '-F', '999'], deep)]
    rows = []
    parities = []
    peers = []      # (input, peer, time, rss, samples parsed, samples in the file, our command, our time)
    accounts = []   # (input, report ok, report's samples, stat's samples, collapse's, the first event's)
    lpd = build_lpd()
    perfparser = PERFPARSER if os.access(PERFPARSER, os.X_OK) else None
    if not perfparser:
        print('perfparser peer skipped: hotspot (its hotspot-perfparser) is not installed', file=sys.stderr)
    if a.only:
        inputs = [i for i in inputs if i[0] in a.only.split(',')]
    for name, mb, args, load in inputs:
        path = os.path.join(DATA, name)
        if shutil.which('perf'):
            record(path, mb, args, load)
        if not os.path.exists(path):
            continue
        size = os.path.getsize(path)
        nrec, nsamples = count_records(path)
        decoded = stat_samples(path)
        if decoded != nsamples:  # nothing that skips data may post a time
            print(f'{name}: perfdata stat decoded {decoded} samples, the floor walk counted {nsamples}',
                  file=sys.stderr)
        before_decoded = stat_samples(path, a.before) if a.before else nsamples
        if before_decoded != nsamples:
            print(f'{name}: {a.before} stat decoded {before_decoded} samples, the floor walk counted {nsamples}',
                  file=sys.stderr)
        for cmd in (['cat', path], [PERFDATA, 'stat', path]):  # warm the cache
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pairs = [('raw record walk (floor)', [WALK, path], None),
                 ('perfdata stat', [PERFDATA, 'stat', path], None),
                 ('perfdata dump', [PERFDATA, 'dump', path], ['perf', 'report', '-D', '-i', path]),
                 ('perfdata report', [PERFDATA, 'report', path], ['perf', 'report', '--stdio', '-i', path]),
                 ('perfdata collapse', [PERFDATA, 'collapse', path], ['perf', 'script', '-i', path]),
                 ('perfdata script', [PERFDATA, 'script', path], ['perf', 'script', '-i', path]),
                 # the flame graph against the pipeline users run for one
                 ('perfdata flamegraph', [PERFDATA, 'flamegraph', path],
                  ['sh', '-c', 'perf script -i %s | perl %s | perl %s > /dev/null' % (
                      shlex.quote(path), shlex.quote(os.path.join(FLAMEGRAPH_DIR, 'stackcollapse-perf.pl')),
                      shlex.quote(os.path.join(FLAMEGRAPH_DIR, 'flamegraph.pl')))]
                  if os.path.exists(os.path.join(FLAMEGRAPH_DIR, 'flamegraph.pl')) else None),
                 # source lines against symbols alone (perf's srcline runs addr2line per
                 # sample: an hour on these inputs, so it is not timed)
                 ('perfdata report --sort sym', [PERFDATA, 'report', '--sort', 'sym', path], None),
                 ('perfdata report --sort srcline', [PERFDATA, 'report', '--sort', 'srcline', path], None)]
        floor = None
        for label, ours, theirs in pairs:
            peer = None
            if a.before and ours[0] == PERFDATA:
                (t, rss, _, cpu), (bt, brss, _, _) = measure_pair(ours, [a.before] + ours[1:], a.runs)
            elif theirs and have_perf:
                ((t, rss, _, cpu), peer), bt = measure_with_peer(ours, theirs, a.runs, max(1, min(a.runs, a.perf_runs))), None
            else:
                (t, rss, _, cpu), bt = measure(ours, a.runs), None
            if floor is None:
                floor = t
            row = {'input': name, 'size': size, 'records': nrec, 'what': label, 'time': t, 'rss': rss, 'cpu': cpu,
                   'vs_floor': t / floor if floor else 0, 'samples_ok': decoded == nsamples,
                   'before_samples_ok': before_decoded == nsamples, 'zstd_floor': with_zstd}
            if bt is not None:
                row.update(before=bt, before_rss=brss, time_ratio=t / bt if bt else 0,
                           rss_ratio_before=rss / brss if brss else 0)
            if theirs and have_perf:
                pt, prss, _, _ = peer if peer else measure(theirs, max(1, min(a.runs, a.perf_runs)))
                row.update(perf=pt, perf_rss=prss, speedup=pt / t if t else 0, rss_ratio=prss / rss if rss else 0)
            rows.append(row)
            print(row, flush=True)
        by = {r['what']: r for r in rows if r['input'] == name}
        if lpd:
            t, rss, _, _ = measure([lpd, path], a.runs)
            peers.append((name, 'linux-perf-data 0.6 (Rust): every record parsed', t, rss, peer_samples([lpd, path]),
                          nsamples, 'perfdata stat', by['perfdata stat']['time']))
            print(peers[-1], flush=True)
        if perfparser:
            pp = [perfparser, '--input', path, '--output', '/dev/null']
            t, rss, _, _ = measure(pp, max(1, min(a.runs, a.perf_runs)))
            # it says nothing of what it read; a -z file it cannot read ("unhandled event type 81") takes no time
            peers.append((name, 'hotspot-perfparser 1.3: parsed, unwound, symbolized', t, rss, None, nsamples,
                          'perfdata collapse', by['perfdata collapse']['time']))
            print(peers[-1], flush=True)
        accounts.append((name,) + accounted(path))
        print(accounts[-1], flush=True)
        if have_perf:
            parities.append((name, parity(path)))
            print(parities[-1], flush=True)
    write_results(rows, zstd_rows(a) if not a.only else [], a, parities, peers, accounts)


# Speed round 2's targets: (command, what is compared, the bound, at least (1) or at most (-1))
TARGETS = [('perfdata report', 'speedup', 50, 1, 'report >= 50x `perf report --stdio`'),
           ('perfdata report', 'rss_ratio', 20, 1, '... at <= 1/20 its RSS'),
           ('perfdata collapse', 'speedup', 20, 1, 'collapse >= 20x `perf script`'),
           ('perfdata dump', 'speedup', 50, 1, 'dump >= 50x `perf report -D`'),
           ('perfdata stat', 'vs_floor', 2, -1, 'stat <= 2x the floor')]
MEMORY_INPUT, MEMORY_MIB = 'dwarf.data', 64   # report and collapse on the dwarf input at most 64 MiB


def target_lines(rows, zrows):
    """The targets on every input, met or not, and for each one not met
    what its own measurements say bounds it (docs/performance.md has each
    one's profile)."""
    inputs = list(dict.fromkeys(r['input'] for r in rows))
    row = {(r['input'], r['what']): r for r in rows}
    cores = os.cpu_count() or 1
    lines = ['', '## Against the targets', '',
             'Met in bold. A target not met is followed by what this run measured of it below.', '',
             '| target | ' + ' | '.join(inputs) + ' |', '|---|' + '---|' * len(inputs)]
    unmet = []
    for what, key, bound, sense, text in TARGETS:
        cells = []
        for i in inputs:
            r = row.get((i, what))
            if not r or key not in r:
                cells.append('')
                continue
            v = r[key]
            met = v >= bound if sense > 0 else v <= bound
            shown = (f'1/{v:.0f}' if key == 'rss_ratio' else f'{v:.1f}x')
            cells.append(f'**{shown}**' if met else shown)
            if not met:
                unmet.append((i, what, key, bound, text, r))
        lines.append(f'| {text} | ' + ' | '.join(cells) + ' |')
    mem = [row.get((MEMORY_INPUT, w)) for w in ('perfdata report', 'perfdata collapse')]
    if all(mem):
        ok = all(m['rss'] // 1024 <= MEMORY_MIB for m in mem)
        shown = ', '.join(f"{m['rss'] // 1024}" for m in mem) + ' MiB'
        lines.append(f'| report, collapse <= {MEMORY_MIB} MiB on {MEMORY_INPUT} | ' +
                     ' | '.join((f'**{shown}**' if ok else shown) if i == MEMORY_INPUT else '' for i in inputs) + ' |')
    if not unmet:
        return lines
    zratio = min((theirs / ours for _, _, ours, theirs in zrows), default=None)
    lines += ['', "What bounds the ones not met, as this run measured them (the CPU time is the command's, "
              f'every thread, user and system; {cores} cores):', '']
    for i, what, key, bound, text, r in unmet:
        if key == 'rss_ratio':
            lines.append(f"- {i}, {what}'s peak RSS: {r['rss'] // 1024} MiB against perf's {r['perf_rss'] // 1024} MiB; "
                         f"the target is {r['perf_rss'] / 1024 / bound:.0f} MiB.")
            continue
        need = r['perf'] / bound if key == 'speedup' else bound * r['time'] / r['vs_floor']
        cpu, wall = r['cpu'], r['time']
        line = f"- {i}, {what}: {wall:.3f} s, the target {need:.3f} s; {cpu:.3f} s of CPU"
        if cpu / cores > need:
            line += (f", so even with every core busy it takes {cpu / cores:.3f} s: its CPU time is what bounds it, "
                     f"and the target needs {100 * (1 - need * cores / cpu):.0f}% of it gone")
        elif cpu / wall < 1.2:
            line += ": it runs in one thread, reading and doing its work per record in turn"
        else:
            line += (f" ({cpu / wall:.1f} cores busy on average), which {cores} cores could run in {cpu / cores:.3f} s: "
                     "one thread's share bounds it (the command's own work per record, or the reader's)")
        if key == 'vs_floor' and i.startswith('zstd') and zratio:
            line += (f"; the floor decompresses with libzstd, and the header's decoder runs at {zratio:.2f} of its "
                     "speed (the zstd decoder table)")
        lines.append(line + '.')
    lines += ['', 'docs/performance.md has the profile of each: where that CPU time goes.']
    return lines


def write_results(rows, zrows, a, parities=(), peers=(), accounts=()):
    head = '| input | size | records | command | time | MB/s | records/s | peak RSS | x floor | perf | perf RSS | perf / ours | perf RSS / ours |'
    rule = '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'
    if a.before:
        head += ' before | before RSS | after / before | RSS after / before |'
        rule += '---:|---:|---:|---:|'
    lines = ['# Benchmark results', '',
             f'Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; '
             f'{datetime.date.today().isoformat()}. Warm page cache; median of {a.runs} runs (perf: of {a.perf_runs}, each '
             'between two of ours, so that the ratio compares runs taken together); '
             'peak RSS the largest of the runs, each the command\'s own ru_maxrss, taken by a small spawner '
             '(a child of Python would start from Python\'s). Regenerate with `make bench` (BENCH_MB sets the input size, BENCH_DATA where the inputs are'
             ', BENCH_BEFORE an older perfdata to compare with).', '']
    if a.before:
        version = subprocess.run([a.before, 'version'], stdout=subprocess.PIPE, text=True).stdout.strip()
        lines += [f'"before" is `{os.path.basename(a.before)}` ({version}), timed in the same run on the same inputs, its '
                  'runs alternating with the current build\'s; after / before below 1 means the current build is faster '
                  '(or smaller).', '']
    lines += [head, rule]
    for r in rows:
        mbs = r['size'] / (1 << 20) / r['time'] if r['time'] else 0
        rps = r['records'] / r['time'] if r['time'] else 0
        perf = f"{r['perf']:.2f} s | {r['perf_rss'] // 1024} MiB | {r['speedup']:.1f}x | {r['rss_ratio']:.1f}x" \
            if 'perf' in r else ' | | | '
        line = (f"| {r['input']} | {r['size'] >> 20} MiB | {r['records']} | {r['what']} | {r['time']:.3f} s | "
                f"{mbs:.0f} | {rps / 1e6:.2f} M | {r['rss'] // 1024} MiB | {r['vs_floor']:.1f} | {perf} |")
        if a.before:
            line += (f" {r['before']:.3f} s | {r['before_rss'] // 1024} MiB | {r['time_ratio']:.2f} | "
                     f"{r['rss_ratio_before']:.2f} |" if 'before' in r else '  |  |  |  |')
        lines.append(line)
    if any('perf' in r for r in rows):
        lines += target_lines(rows, zrows)
    bad = sorted({r['input'] for r in rows if not r['samples_ok']})
    lines += ['', 'Sample counts: ' + ('`perfdata stat` decoded as many samples as the floor walk counted on every input'
                                        if not bad else 'MISMATCH on ' + ', '.join(bad)) +
              ('; the -z floor decompresses with libzstd and walks the records inside.' if rows and rows[0]['zstd_floor']
               else '; libzstd-dev was not installed, so the -z floor did not decompress.')]
    if a.before:
        bad = sorted({r['input'] for r in rows if not r['before_samples_ok']})
        lines[-1] += (' The "before" build decoded as many too.' if not bad
                      else ' The "before" build decoded a different count on ' + ', '.join(bad) + '.')
    if any(r['what'] == 'perfdata flamegraph' and 'perf' in r for r in rows):
        lines += ['', 'The flame graph\'s "perf" is the pipeline `perf script | stackcollapse-perf.pl | flamegraph.pl` '
                  '(the FlameGraph scripts, Perl), the SVG written to /dev/null (target: perfdata at least 20x faster).']
    by = {(r['input'], r['what']): r['time'] for r in rows}
    ratios = [f"{i}: {by[(i, 'perfdata report --sort srcline')] / by[(i, 'perfdata report --sort sym')]:.2f}x"
              for i in dict.fromkeys(r['input'] for r in rows)
              if by.get((i, 'perfdata report --sort sym')) and (i, 'perfdata report --sort srcline') in by]
    if ratios:
        lines += ['', 'Source lines: `report --sort srcline` over `report --sort sym` (target: at most 2x): ' +
                  ', '.join(ratios) + '.']
    if parities:
        lines += ['', 'Every sample compared: `perfdata script` against `perf script` (default fields, call chains '
                  'included; on dwarf.data the unwound stacks with their inlined frames), sample by sample: '
                  'byte-identical, and with the same frame addresses.', '',
                  '| input | samples | identical | same frames |', '|---|---:|---:|---:|']
        for name, res in parities:
            if res is None:
                lines.append(f'| {name} | (a command failed) | | |')
                continue
            n, same, addrs = res
            lines.append(f'| {name} | {n} | {same} ({100 * same / n if n else 0:.2f}%) | '
                         f'{addrs} ({100 * addrs / n if n else 0:.2f}%) |')
    if peers:
        lines += ['', '## Other readers', '',
                  'linux-perf-data 0.6 (Rust, `bench/lpd-walk`) parses every record, as `perfdata stat` decodes every '
                  'field; hotspot\'s perfparser 1.3 parses, unwinds and symbolizes (its output to /dev/null), as '
                  '`perfdata collapse` does. Neither reads -z chunks: on zstd.data they see no sample.', '',
                  '| input | reader | time | peak RSS | samples it parsed | samples in the file | ours | theirs / ours (time) |',
                  '|---|---|---:|---:|---:|---:|---|---:|']
        for name, who, t, rss, got, n, ours, ot in peers:
            # a reader that saw no sample of a -z file did not read it: no ratio
            unread = name.startswith('zstd') or got == 0
            lines.append(f'| {name} | {who} | {t:.3f} s | {rss // 1024} MiB | {"" if got is None else got} | {n} | '
                         f'{ours} {ot:.3f} s | {"(cannot read it)" if unread else f"{t / ot if ot else 0:.1f}x"} |')
    if accounts:
        lines += ['', 'Every row saw every sample: the Samples column of `report -n --sort comm` summed per event '
                  'against the samples `perfdata stat` decoded, and the counts of `collapse` (one event: the first) '
                  'against that event\'s samples.', '',
                  '| input | report rows | samples | collapse | first event\'s samples |', '|---|---:|---:|---:|---:|']
        for name, ok, rsum, n, csum, first in accounts:
            lines.append(f'| {name} | {rsum}{"" if ok else " (MISMATCH)"} | {n} | {csum}'
                         f'{"" if csum == first else " (differs)"} | {first} |')
    if zrows:
        lines += ['', '## zstd decoder', '',
                  'The header\'s decoder (`bench/unzstd.c`, streaming into a 1 MiB buffer) against `zstd -d -c >/dev/null` '
                  'on the same frames: system-g.data (up to its first 256 MiB) compressed by the zstd command.', '',
                  '| level | decoded | perfdata.h | zstd -d | ours / theirs (speed) |', '|---|---:|---:|---:|---:|']
        for level, n, ours, theirs in zrows:
            lines.append(f'| {level} | {n >> 20} MiB | {n / (1 << 20) / ours:.0f} MB/s | {n / (1 << 20) / theirs:.0f} MB/s | '
                         f'{theirs / ours:.2f} |')
    open(a.results, 'w').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    sys.exit(main())
