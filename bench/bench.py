#!/usr/bin/env python3
"""bench/: wall time, throughput and peak RSS of perfdata against the raw
record walk (the floor) and against perf itself, on the same inputs, warm
cache, median of several runs, ratios computed pair by pair in one run.
Writes bench/RESULTS.md.

Inputs (recorded here with perf if missing; sizes are targets):
  bench/data/system-g.data   perf record -a -g -F 19999                  (BENCH_MB, default 500)
  bench/data/dwarf.data      perf record -a --call-graph dwarf,4096 -F 999 (BENCH_MB * 0.6)
  bench/data/zstd.data       perf record -z -a -g -F 19999               (BENCH_MB / 20)
each under a gzip load on every core, stopped by --max-size.
The inputs live in bench/data unless BENCH_DATA names another directory.
Usage: bench.py [--runs N] [--mb MB] [--no-perf] [--perf-runs N]
"""
import argparse
import datetime
import os
import platform
import re
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


def run_once(cmd):
    """(seconds, peak RSS in KiB) of one run, output discarded."""
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, ru = os.wait4(p.pid, 0)
    return time.monotonic() - t, ru.ru_maxrss, status


def measure(cmd, runs):
    results = [run_once(cmd) for _ in range(runs)]
    return statistics.median(r[0] for r in results), max(r[1] for r in results), results[0][2]


def record(path, mb, args):
    """Record until the file reaches about mb MiB (perf --max-size stops it)."""
    if os.path.exists(path) and os.path.getsize(path) > mb * (1 << 20) * 0.5:
        return
    os.makedirs(DATA, exist_ok=True)
    # A busy machine for at most 600 s; --max-size usually ends it sooner
    # (500 MB of -g at 19999 Hz on 2 cores: about 4 minutes). perf runs in
    # its own process group, so the load it leaves behind when --max-size
    # stops it is killed with it.
    load = ("end=$(($(date +%s) + 600)); for i in 1 2 3 4; do "
            "(while [ $(date +%s) -lt $end ]; do gzip -c /usr/bin/* >/dev/null 2>&1; done) & done; wait")
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


def stat_samples(path):
    """The SAMPLE count `perfdata stat` decoded (its Aggregated stats line)."""
    out = subprocess.run([PERFDATA, 'stat', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    m = re.search(r'^\s*SAMPLE events:\s*(\d+)', out, re.M)
    return int(m.group(1)) if m else 0


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
        ours, _, _ = measure([unzstd, z], a.runs)
        theirs, _, _ = measure(['zstd', '-q', '-d', '-c', z], a.runs)
        rows.append((level, os.path.getsize(raw), ours, theirs))
        print('zstd level', level, ours, theirs, flush=True)
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--mb', type=int, default=int(os.environ.get('BENCH_MB', '500')))
    ap.add_argument('--no-perf', action='store_true', help='skip the perf commands (slow)')
    ap.add_argument('--perf-runs', type=int, default=3, help='runs of each perf command (they are slow)')
    a = ap.parse_args()
    with_zstd = build_walk()
    have_perf = shutil.which('perf') and not a.no_perf
    inputs = [('system-g.data', a.mb, ['-a', '-g', '-F', '19999']),
              ('dwarf.data', max(1, a.mb * 6 // 10), ['-a', '--call-graph', 'dwarf,4096', '-F', '999']),
              ('zstd.data', max(1, a.mb // 20), ['-z', '-a', '-g', '-F', '19999'])]
    rows = []
    for name, mb, args in inputs:
        path = os.path.join(DATA, name)
        if shutil.which('perf'):
            record(path, mb, args)
        if not os.path.exists(path):
            continue
        size = os.path.getsize(path)
        nrec, nsamples = count_records(path)
        decoded = stat_samples(path)
        if decoded != nsamples:  # nothing that skips data may post a time
            print(f'{name}: perfdata stat decoded {decoded} samples, the floor walk counted {nsamples}',
                  file=sys.stderr)
        for cmd in (['cat', path], [PERFDATA, 'stat', path]):  # warm the cache
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        pairs = [('raw record walk (floor)', [WALK, path], None),
                 ('perfdata stat', [PERFDATA, 'stat', path], None),
                 ('perfdata dump', [PERFDATA, 'dump', path], ['perf', 'report', '-D', '-i', path]),
                 ('perfdata report', [PERFDATA, 'report', path], ['perf', 'report', '--stdio', '-i', path]),
                 ('perfdata collapse', [PERFDATA, 'collapse', path], ['perf', 'script', '-i', path])]
        floor = None
        for label, ours, theirs in pairs:
            t, rss, _ = measure(ours, a.runs)
            if floor is None:
                floor = t
            row = {'input': name, 'size': size, 'records': nrec, 'what': label, 'time': t, 'rss': rss,
                   'vs_floor': t / floor if floor else 0, 'samples_ok': decoded == nsamples,
                   'zstd_floor': with_zstd}
            if theirs and have_perf:
                pt, prss, _ = measure(theirs, max(1, min(a.runs, a.perf_runs)))
                row.update(perf=pt, perf_rss=prss, speedup=pt / t if t else 0, rss_ratio=prss / rss if rss else 0)
            rows.append(row)
            print(row, flush=True)
    write_results(rows, zstd_rows(a), a)


def write_results(rows, zrows, a):
    lines = ['# Benchmark results', '',
             f'Machine: {platform.machine()}, {os.cpu_count()} cores, {platform.platform()}; '
             f'{datetime.date.today().isoformat()}. Warm page cache; median of {a.runs} runs '
             f'(perf: of {a.perf_runs}). Regenerate with `make bench` (BENCH_MB sets the input size, BENCH_DATA where the inputs are).', '',
             '| input | size | records | command | time | MB/s | records/s | peak RSS | x floor | perf | perf RSS | perf / ours | perf RSS / ours |',
             '|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|']
    for r in rows:
        mbs = r['size'] / (1 << 20) / r['time'] if r['time'] else 0
        rps = r['records'] / r['time'] if r['time'] else 0
        perf = f"{r['perf']:.2f} s | {r['perf_rss'] // 1024} MiB | {r['speedup']:.1f}x | {r['rss_ratio']:.1f}x" \
            if 'perf' in r else ' | | | '
        lines.append(f"| {r['input']} | {r['size'] >> 20} MiB | {r['records']} | {r['what']} | {r['time']:.3f} s | "
                     f"{mbs:.0f} | {rps / 1e6:.2f} M | {r['rss'] // 1024} MiB | {r['vs_floor']:.1f} | {perf} |")
    bad = sorted({r['input'] for r in rows if not r['samples_ok']})
    lines += ['', 'Sample counts: ' + ('`perfdata stat` decoded as many samples as the floor walk counted on every input'
                                        if not bad else 'MISMATCH on ' + ', '.join(bad)) +
              ('; the -z floor decompresses with libzstd and walks the records inside.' if rows and rows[0]['zstd_floor']
               else '; libzstd-dev was not installed, so the -z floor did not decompress.')]
    if zrows:
        lines += ['', '## zstd decoder', '',
                  'The header\'s decoder (`bench/unzstd.c`, streaming into a 1 MiB buffer) against `zstd -d -c >/dev/null` '
                  'on the same frames: system-g.data (up to its first 256 MiB) compressed by the zstd command.', '',
                  '| level | decoded | perfdata.h | zstd -d | ours / theirs (speed) |', '|---|---:|---:|---:|---:|']
        for level, n, ours, theirs in zrows:
            lines.append(f'| {level} | {n >> 20} MiB | {n / (1 << 20) / ours:.0f} MB/s | {n / (1 << 20) / theirs:.0f} MB/s | '
                         f'{theirs / ours:.2f} |')
    open(os.path.join(HERE, 'RESULTS.md'), 'w').write('\n'.join(lines) + '\n')


if __name__ == '__main__':
    sys.exit(main())
