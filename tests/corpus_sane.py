#!/usr/bin/env python3
"""Every corpus input, including those perf itself refuses or crashes on:
`perfdata dump` (a sanitizer build) must end with a clean error or a full
walk, never a crash, a sanitizer report or a hang; and where the corpus'
own walker counted the outer records (manifest.json, own_record_counts),
our per-type counts of the outer records (--no-decompress) must equal its.
The records inside compressed chunks are checked against perf's dumps by
dump_diff.py.

Usage: corpus_sane.py PERFDATA_BINARY CORPUS_DIR
"""
import collections
import json
import os
import re
import subprocess
import sys

# Files where the corpus' own walker is wrong, not us: it assumes perf's
# out-of-band TRACING_DATA payload, but simpleperf embeds the payload in
# the record, so the walker loses its framing there (it reports a walk
# error, or resynchronises by chance and miscounts). Our walk ends exactly
# at the data section's end on both.
WALKER_WRONG = {
    'public/simpleperf/perf_sched_stat_runtime.data',
    'public/simpleperf/perf_with_tracepoint_event.data',
}
SUMMARY = re.compile(r'^.*?(?:0x[0-9a-f]+|0) \[0x[0-9a-f]+\]: PERF_RECORD_([A-Z0-9_]+)')


def main():
    binary, corpus = sys.argv[1], sys.argv[2]
    manifest = json.load(open(os.path.join(corpus, 'manifest.json')))
    passed = failed = 0
    for name, entry in sorted(manifest.items()):
        path = os.path.join(corpus, name)
        if not os.path.exists(path):
            continue
        try:
            p = subprocess.run([binary, 'dump', '--no-decompress', path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120,
                               env=dict(os.environ, ASAN_OPTIONS='detect_leaks=0'))
        except subprocess.TimeoutExpired:
            print(f'FAIL {name}: hang (over 120 s)')
            failed += 1
            continue
        err = p.stderr.decode('utf-8', 'replace')
        problems = []
        if p.returncode not in (0, 1, 3) or 'Sanitizer' in err or 'runtime error' in err:
            problems.append(f'exit {p.returncode}: {err.strip()[:300]}')
        own = (entry.get('facts') or {}).get('own_record_counts')
        if os.path.isdir(path) or 'PERFDATA_ERR_UNSUPPORTED' in err or name in WALKER_WRONG:
            own = None  # the walker counts only dir/data; v1 files are refused by design
        if own and not problems:
            counts = collections.Counter()
            for line in p.stdout.decode('utf-8', 'replace').split('\n'):
                m = SUMMARY.match(line)
                if m:
                    counts[m.group(1)] += 1
            want = collections.Counter()
            for k, v in own.items():  # the walker names unknown types TYPE_n / USER_n
                if v:
                    want['UNKNOWN' if re.match(r'(TYPE|USER)_\d+$', k) else k] += v
            want = dict(want)
            if dict(counts) != want:
                diff = {k: (counts.get(k, 0), want.get(k, 0)) for k in set(counts) | set(want)
                        if counts.get(k, 0) != want.get(k, 0)}
                problems.append(f'record counts (ours, corpus walker) differ: {diff}')
        if problems:
            failed += 1
            print(f'FAIL {name}: ' + '; '.join(problems))
        else:
            passed += 1
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
