#!/usr/bin/env python3
"""`perfdata info` on hostile feature sections: the crafted inputs of
tests/hostile/ made by tests/hostile/gen_info.py (info-*.data), and inputs
of about 1 MB that gen_info.py writes into a scratch directory (slow or
greedy only where a printer's time or output outgrows its section).

For every input, `info` and `info --events` must
  - end by themselves (no signal), within TIME_LIMIT seconds;
  - write no sanitizer or crash text on stderr;
  - exit with the status listed below (3, a partial result, when a
    section could not be printed, and then say so on stderr);
  - write only lines that start with '#', with no control character but a
    tab (text from the file is escaped), and no more than 64 bytes per
    input byte plus 1 MiB;
and `info` must print the lines listed below (perf 6.1's own output where
perf reads the input; where perf crashes or hangs, what is left is said),
and none of the lines a listed pattern forbids.

The two control-character inputs carry the same text at the end of every
string info prints: their output must be the output of the same file
without that text, once the escaped text is removed (and runs of spaces
are one, for the padded cache columns).

Usage: hostile_info.py PERFDATA
Prints `N passed, N failed` (one check per input and command).
"""
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
HOSTILE = os.path.join(HERE, 'hostile')
sys.path.insert(0, HOSTILE)
import gen_info  # noqa: E402

TIME_LIMIT = 5.0
SANITIZER = re.compile(r'Sanitizer|runtime error|LeakSanitizer|Segmentation fault|Aborted')
CONTROL = re.compile(rb'[\x00-\x08\x0a-\x1f\x7f]|\xc2[\x80-\x9f]')
ENV = dict(os.environ, ASAN_OPTIONS='detect_leaks=1', TZ='UTC')

BPF_NAMES = [  # perf 6.1 on info-bpf-btf-names.data
    '# bpf_prog_info 10:',
    '# \tsub_prog 0: bpf_prog_1011121314151617_main_fn addr 0xffffffffc0000000 size 64',
    '# \tsub_prog 1: bpf_prog_18191a1b1c1d1e1f_helper addr 0xffffffffc0001000 size 65',
    '# bpf_prog_info 11: bpf_prog_3031323334353637_helper addr 0xffffffffc0000000 size 64',
    '# bpf_prog_info 12: bpf_prog_5051525354555657_own addr 0xffffffffc0000000 size 64',
    '# bpf_prog_info 13:',
    '# \tsub_prog 0: bpf_prog_7071727374757677_F addr 0xffffffffc0000000 size 64',
    '# \tsub_prog 1: bpf_prog_78797a7b7c7d7e7f_F addr 0xffffffffc0001000 size 65',
    '# \tsub_prog 2: bpf_prog_8081828384858687_F addr 0xffffffffc0002000 size 66',
    '# bpf_prog_info 14: bpf_prog_9091929394959697 addr 0xffffffffc0000000 size 64',
    '# bpf_prog_info 15:',
    '# btf info of id 1',
    '# btf info of id 2',
]

# name: (exit status, lines that must be printed in this order, patterns no
# line may match, texts stderr must hold)
CASES = {
    'info-numa-cpulist-overflow.data': (
        3, ['# hostname : numa'], [r'^# node'], ['NUMA_TOPOLOGY', 'node 0', 'not one perf reads']),
    'info-numa-cpulist-extremes.data': (0, [
        '# node0 cpu list : 0-3,16-17,9000,2147483646', '# node1 cpu list : 0-2147483646',
        '# node2 cpu list : 4-5,8', '# node3 cpu list : -1', '# node4 cpu list : 7'], [], []),
    'info-numa-cpulist-invalid.data': (3, ['# hostname : numa'], [r'^# node'], ['node 1', 'not one perf reads']),
    'info-bpf-prog-info-before-section.data': (
        3, [], [r'bpf_prog'], ['BPF_PROG_INFO', 'program 0', 'arrays lie outside its data']),
    'info-bpf-prog-info-huge-count.data': (
        3, [], [r'bpf_prog', r'sub_prog'], ['BPF_PROG_INFO', 'program 0', 'arrays lie outside its data']),
    'info-bpf-btf-names.data': (0, BPF_NAMES, [r'bpf_prog_info 16', r'shadowed'], []),
    'info-bpf-btf-type-beyond.data': (
        3, ['# bpf_prog_info 21: bpf_prog_1011121314151617_main_fn addr 0xffffffffc0000000 size 64',
            '# btf info of id 1'], [r'bpf_prog_info 20'], ['program 0', 'names a type its BTF does not hold']),
    'info-bpf-func-info-outside.data': (
        3, ['# btf info of id 1'], [r'bpf_prog_info'], ['program 0', 'program 1', 'function info lies outside']),
    'info-bpf-btf-header-wrap.data': (0, [
        '# bpf_prog_info 40: bpf_prog_1011121314151617_first addr 0xffffffffc0000000 size 64',
        '# bpf_prog_info 41:',
        '# \tsub_prog 0: bpf_prog_1011121314151617_F addr 0xffffffffc0000000 size 64',
        '# \tsub_prog 1: bpf_prog_18191a1b1c1d1e1f_F addr 0xffffffffc0001000 size 65'], [r'main_fn'], []),
    'info-control-chars.data': (0, [
        '# hostname : host\\x0a# forged line\\x1b[2J\\x1b]0;title\\x07\\x0d\\x7f\\xc2\\x9b31m\\x09'], [], []),
    'info-control-chars-pipe.data': (0, [], [], []),
    'info-zstd-window-1gib.data': (
        3, ['# hostname : zstd', '# compressed : Zstd, level = 1, ratio = 1'], [], ['a window over 128 MiB']),
}

LARGE = {  # name: (exit status, lines, texts stderr must hold)
    'large-btf-lookups.data': (0, ['# \tsub_prog 14999: bpf_prog_c8c9cacbcccdcecf_f addr 0xffffffffc3a97000 size 15063'], []),
    'large-btf-blobs.data': (0, ['# bpf_prog_info 1999: bpf_prog_1011121314151617_f addr 0xffffffffc0000000 size 64'], []),
    'large-pipe-group-descs.data': (3, [], ['GROUP_DESC records not printed']),
    'large-numa-runs.data': (0, ['# node1 cpu list : 0-2147483646', '# node2 cpu list : 5,7,1000000-2000000000'], []),
}


def run(binary, args, path):
    start = time.monotonic()
    try:
        p = subprocess.run([binary] + args + [path], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60,
                           env=ENV)
    except subprocess.TimeoutExpired:
        return None, b'', 'timed out after 60 s', 60.0
    return p.returncode, p.stdout, p.stderr.decode('utf-8', 'replace'), time.monotonic() - start


def shape_problems(out, size):
    """What is wrong with the output's shape, whatever the input."""
    problems = []
    if len(out) > 64 * size + (1 << 20):
        problems.append(f'{len(out)} bytes of output for {size} bytes of input')
    lines = out.split(b'\n')
    if lines and lines[-1] == b'':
        lines.pop()
    elif lines:
        problems.append('the last line has no newline')
    for i, line in enumerate(lines):
        if not line.startswith(b'#'):
            problems.append(f'line {i + 1} does not start with #: {line[:80]!r}')
            break
    for i, line in enumerate(lines):
        m = CONTROL.search(line)
        if m:
            problems.append(f'line {i + 1} holds control character {m.group(0)!r}: {line[:80]!r}')
            break
    return problems


def check_run(binary, args, path, rc_want):
    rc, out, err, secs = run(binary, args, path)
    problems = []
    if rc is None or rc < 0:
        problems.append(f'did not end by itself ({err.strip()[:100] if rc is None else "signal %d" % -rc})')
    elif rc != rc_want:
        problems.append(f'exit status {rc}, expected {rc_want}; stderr: {err.strip()[:300]}')
    if SANITIZER.search(err):
        problems.append('sanitizer or crash text on stderr: ' + err.strip()[:300])
    if secs > TIME_LIMIT:
        problems.append(f'took {secs:.1f} s (limit {TIME_LIMIT} s)')
    if rc_want == 3 and not err.strip():
        problems.append('a partial result with nothing said on stderr')
    problems += shape_problems(out, os.path.getsize(path))
    return out.decode('utf-8', 'replace'), err, problems


def expect_lines(text, want, forbid):
    """Lines of want in this order (not necessarily adjacent); no line
    matching a forbidden pattern."""
    problems = []
    lines = text.split('\n')
    pos = 0
    for w in want:
        try:
            pos = lines.index(w, pos) + 1
        except ValueError:
            problems.append(f'missing line (or out of order): {w!r}')
    for f in forbid:
        hit = next((l for l in lines if re.search(f, l)), None)
        if hit is not None:
            problems.append(f'line matching {f!r}: {hit[:120]!r}')
    return problems


def escaped(raw):
    """raw as pd_text escapes it: control characters as \\xHH."""
    out, i = '', 0
    while i < len(raw):
        b = raw[i]
        if b < 0x20 or b == 0x7f:
            out += '\\x%02x' % b
        elif b == 0xc2 and i + 1 < len(raw) and 0x80 <= raw[i + 1] <= 0x9f:
            out += '\\xc2\\x%02x' % raw[i + 1]
            i += 1
        else:
            out += chr(b)
        i += 1
    return out


def same_but_text(binary, evil_text, clean_path, esc):
    """The evil output is the clean one once the escaped text is removed."""
    def norm(t):
        return [re.sub(' +', ' ', l) for l in t.split('\n') if not l.startswith('# captured on')]
    _, clean, _, _ = run(binary, ['info'], clean_path)
    a, b = norm(evil_text.replace(esc, '')), norm(clean.decode('utf-8', 'replace'))
    if a == b:
        return []
    diff = next(i for i in range(min(len(a), len(b)) + 1) if i >= len(a) or i >= len(b) or a[i] != b[i])
    return [f'differs from the clean file at line {diff + 1}: {a[diff] if diff < len(a) else None!r} '
            f'vs {b[diff] if diff < len(b) else None!r}']


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    binary = sys.argv[1]
    if not os.access(binary, os.X_OK):
        sys.exit(f'{binary}: not an executable')
    passed = failed = 0
    inputs = sorted(n for n in os.listdir(HOSTILE) if n.startswith('info-') and n.endswith('.data'))
    committed = {n for n, _ in gen_info.INPUTS}
    if not inputs:
        print('FAIL no info-*.data inputs in tests/hostile (python3 tests/hostile/gen_info.py writes them)')
        failed += 1
    for n in sorted(committed - set(inputs)):
        print(f'FAIL {n}: made by gen_info.py but not in tests/hostile')
        failed += 1
    for n, fn in gen_info.INPUTS:  # the committed bytes are the generator's
        path = os.path.join(HOSTILE, n)
        if os.path.exists(path) and open(path, 'rb').read() != fn():
            print(f'FAIL {n}: differs from what gen_info.py makes (python3 tests/hostile/gen_info.py)')
            failed += 1
    with tempfile.TemporaryDirectory() as tmp:
        for clean_name, fn in (('clean.data', lambda: gen_info.rich()),
                               ('clean-pipe.data', lambda: gen_info.rich(pipe=True))):
            with open(os.path.join(tmp, clean_name), 'wb') as f:
                f.write(fn())
        for n in inputs:
            path = os.path.join(HOSTILE, n)
            if n not in CASES:
                print(f'FAIL {n}: no expectations in tests/hostile_info.py')
                failed += 1
                continue
            rc_want, want, forbid, err_want = CASES[n]
            out, err, problems = check_run(binary, ['info'], path, rc_want)
            problems += expect_lines(out, want, forbid)
            problems += [f'stderr lacks {w!r}' for w in err_want if w not in err]
            if n.startswith('info-control-chars'):
                clean = os.path.join(tmp, 'clean-pipe.data' if 'pipe' in n else 'clean.data')
                problems += same_but_text(binary, out, clean, escaped(gen_info.EVIL))
            events_problems = check_run(binary, ['info', '--events'], path, 0)[2]
            for args, probs in ((['info'], problems), (['info', '--events'], events_problems)):
                if probs:
                    print(f'FAIL {" ".join(args)} {n}: ' + '; '.join(probs))
                    failed += 1
                else:
                    passed += 1
        subprocess.run([sys.executable, os.path.join(HOSTILE, 'gen_info.py'), '--large', tmp], check=True)
        for n, (rc_want, want, err_want) in sorted(LARGE.items()):
            out, err, problems = check_run(binary, ['info'], os.path.join(tmp, n), rc_want)
            problems += expect_lines(out, want, [])
            problems += [f'stderr lacks {w!r}' for w in err_want if w not in err]
            if problems:
                print(f'FAIL info {n} (generated): ' + '; '.join(problems))
                failed += 1
            else:
                passed += 1
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
