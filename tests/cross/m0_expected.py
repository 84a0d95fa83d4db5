#!/usr/bin/env python3
"""Samples per event of a perf.data file, from the host tool's output:
`perfdata info` gives each event's name and ids, `perfdata dump --header`
each event's sample_type, `perfdata dump --raw --type SAMPLE` the bytes of
every sample, whose id field is read at the position sample_type gives.
Prints "event N NAME: C samples" lines as m0_samples.c does.
Usage: m0_expected.py build/perfdata FILE"""
import re
import subprocess
import sys

tool, path = sys.argv[1], sys.argv[2]
run = lambda *a: subprocess.run([tool] + list(a) + [path], check=True, capture_output=True, text=True).stdout
names, ids = [], []
for m in re.finditer(r'^# event : name = ([^,]*), .*?id = \{ ([0-9, ]*) \}', run('info'), re.M):
    names.append(m.group(1)); ids.append([int(x) for x in m.group(2).split(',')])
stypes = [int(m.group(1), 16) for m in re.finditer(r'^# event \d+: .*sample_type (0x[0-9a-f]+)', run('dump', '--header'), re.M)]
le = 'little-endian' in run('dump', '--header')
if len(stypes) != len(names):
    sys.exit('event count mismatch: info %d, dump --header %d' % (len(names), len(stypes)))
owner = {i: e for e, l in enumerate(ids) for i in l}
counts = [0] * len(names)
for rec in run('dump', '--raw', '--type', 'SAMPLE').split('raw event: size')[1:]:
    raw = bytes(int(b, 16) for line in re.findall(r'^\.\s+[0-9a-f]{4}:\s+((?:[0-9a-f]{2} )+)', rec, re.M) for b in line.split())
    st = stypes[0]   # every event of the file must place the id alike (perf's own rule)
    if st & 0x10000:
        pos = 8                     # PERF_SAMPLE_IDENTIFIER
    elif st & 0x40:                 # PERF_SAMPLE_ID after IP, TID, TIME, ADDR
        pos = 8 + 8 * sum(1 for bit in (1, 2, 4, 8) if st & bit)
    else:
        counts[0] += 1; continue
    counts[owner[int.from_bytes(raw[pos:pos + 8], 'little' if le else 'big')]] += 1
for e, n in enumerate(names):
    print('event %d %s: %d samples' % (e, n, counts[e]))
