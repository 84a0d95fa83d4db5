#!/usr/bin/env python3
"""tools/pd_demangle.c against its oracles.

1. tests/expected/demangle.txt, lines FLAGS<TAB>NAME<TAB>EXPECTED: names
   from libstdc++, LLVM, boost, cc1plus, V8/Node and rustc (C++, Rust legacy
   and v0), every case that once differed, with what c++filt 2.40 prints
   (FLAGS 3: parameters and full forms; 2: c++filt -p) and what perf 6.1
   printed for them in the fixtures' perf script (FLAGS 0: perf's own
   options, from the .script-lang oracles beside their --no-demangle twins).
   Needs nothing but the compiler.
2. Live, where c++filt is installed: every C++ symbol of libstdc++.so.6 and
   every C++ and Rust symbol of the fixture workloads, with FLAGS 3 against
   c++filt and 2 against c++filt -p (skipped, and said, without them).
3. Hostile names: none crashes, hangs or overruns (ASan+UBSan build):
   nesting tens of thousands deep, substitution loops, truncations of every
   table name at every length.

Usage: demangle_test.py CLI_BINARY [--write]   (--write regenerates part 1's
perf-mode lines from the fixtures and the c++filt lines from c++filt)"""
import lzma
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')
TABLE = os.path.join(HERE, 'expected', 'demangle.txt')
LIBSTDCXX = '/usr/lib/x86_64-linux-gnu/libstdc++.so.6'


def run_cli(cli, flags, names, timeout=120):
    p = subprocess.run([cli, str(flags)], input=('\n'.join(names) + '\n').encode(), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=timeout)
    err = p.stderr.decode('utf-8', 'replace')
    if p.returncode != 0 or re.search(r'runtime error|Sanitizer|ERROR:', err):
        return None, f'exit {p.returncode}: {err.strip()[:300]}'
    out = p.stdout.decode('utf-8', 'replace').split('\n')[:-1]
    if len(out) != len(names):
        return None, f'{len(out)} lines for {len(names)} names'
    return out, ''


def cxxfilt(names, params):
    p = subprocess.run(['c++filt'] + ([] if params else ['-p']), input=('\n'.join(names) + '\n').encode(),
                       stdout=subprocess.PIPE, check=True)
    return p.stdout.decode('utf-8', 'replace').split('\n')[:-1]


def symbols(path):
    """the defined symbols of an ELF whose names c++filt reads alone (no
    version suffix)"""
    out = set()
    for opt in (['-D', '--defined-only'], ['--defined-only']):
        p = subprocess.run(['nm'] + opt + [path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        for line in p.stdout.decode('utf-8', 'replace').splitlines():
            name = line.split()[-1].split('@')[0] if line.split() else ''
            if name.startswith(('_Z', '_R')):
                out.add(name)
    return sorted(out)


def perf_pairs():
    """(mangled, perf's name) from the fixtures' script oracles: the
    demangled and --no-demangle outputs line up"""
    pairs = {}
    sym = re.compile(r'^\s+[0-9a-f]+ (.*)\+0x[0-9a-f]+ \(')
    for base in ('cxx-g.data', 'rust-g.data'):
        a = os.path.join(DATA, base + '.script-lang.xz')
        b = os.path.join(DATA, base + '.script-lang-mangled.xz')
        if not (os.path.exists(a) and os.path.exists(b)):
            continue
        for x, y in zip(lzma.open(a).read().decode().split('\n'), lzma.open(b).read().decode().split('\n')):
            mx, my = sym.match(x), sym.match(y)
            if mx and my and mx.group(1) != my.group(1):
                pairs[my.group(1)] = mx.group(1)
    return pairs


def write_table(cli):
    names = [l.split('\t')[1] for l in open(TABLE) if l.strip() and not l.startswith('#')] if os.path.exists(TABLE) else []
    names = sorted(set(names))
    want3, want2 = cxxfilt(names, True), cxxfilt(names, False)
    pairs = perf_pairs()
    with open(TABLE, 'w') as f:
        f.write('# FLAGS<TAB>NAME<TAB>EXPECTED: 3 = c++filt, 2 = c++filt -p (binutils 2.40), 0 = perf 6.1\n'
                '# (from tests/data/*.script-lang.xz); python3 tests/demangle_test.py CLI --write\n')
        for n, a, b in zip(names, want3, want2):
            f.write(f'3\t{n}\t{a}\n2\t{n}\t{b}\n')
        for n in sorted(pairs):
            f.write(f'0\t{n}\t{pairs[n]}\n')


def hostile():
    names = []
    for n in (10, 1000, 20000):
        names += ['_Z1f' + 'P' * n + 'i', '_Z1fI' + 'IiE' * n + 'E', '_ZN' + '1a' * n + 'E', '_Z1fI' + 'S_' * n + 'E',
                  '_R' + 'B_' * n, '_RNvC' + 'I' * n, '_Z1f' + 'Dp' * n + 'T_', '_ZZ' * n + '1fE1xE',
                  '_Z1fIJ' + 'T_' * n + 'EEvv', '_RINvC1a1bE' + 'B2_' * n]
    seeds = ['_ZN2ns4CalcIdE3runEi.isra.0', '_ZNSt6vectorIiSaIiEE9push_backERKi', '_ZZN2ns3fooEvENKUlvE_clEv',
             '_ZN4llvm10checkedAddIiEENSt9enable_ifIXsr3std9is_signedIT_EE5valueENS_8OptionalIS2_EEE4typeES2_S2_',
             '_ZN42_$LT$$RF$T$u20$as$u20$core..fmt..Debug$GT$3fmt17h4dd711c03c6e7784E',
             '_RINvNtCs1_4core3ptr13drop_in_placeINtNtCs2_5alloc3vec3VecDNtCs3_4main5ShapeEL_EEB7_']
    for s in seeds:
        names += [s[:i] for i in range(len(s) + 1)]
    return names


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    cli = args[0]
    if '--write' in args:
        write_table(cli)
    passed = failed = skipped = 0
    # 1. the table
    rows = [l.rstrip('\n').split('\t') for l in open(TABLE) if l.strip() and not l.startswith('#')]
    by_flags = {}
    for r in rows:
        by_flags.setdefault(int(r[0]), []).append(r)
    for flags, rs in sorted(by_flags.items()):
        got, why = run_cli(cli, flags, [r[1] for r in rs])
        if got is None:
            failed += 1
            print(f'FAIL table flags {flags}: {why}')
            continue
        bad = [(r, g) for r, g in zip(rs, got) if g != r[2]]
        for r, g in bad[:10]:
            print(f'FAIL flags {flags}: {r[1]}\n       want {r[2]}\n       got  {g}')
        failed += len(bad)
        passed += len(rs) - len(bad)
    if not rows:
        failed += 1
        print(f'FAIL {TABLE}: no rows')
    # 2. live against c++filt
    if not shutil.which('c++filt') or not shutil.which('nm'):
        skipped += 1
        print('skip live c++filt comparison: c++filt or nm not installed')
    else:
        sources = [p for p in (LIBSTDCXX,) if os.path.exists(p)]
        work = os.path.join('build', 'test', 'demangle')
        os.makedirs(work, exist_ok=True)
        for w in ('cxx-workload', 'rust-workload'):
            src = os.path.join(DATA, w + '.xz')
            if os.path.exists(src):
                dst = os.path.join(work, w)
                with lzma.open(src) as f, open(dst, 'wb') as o:
                    o.write(f.read())
                sources.append(dst)
        if LIBSTDCXX not in sources:
            skipped += 1
            print(f'skip {LIBSTDCXX}: not installed')
        for src in sources:
            names = symbols(src)
            if not names:
                failed += 1
                print(f'FAIL {src}: no mangled symbols found')
                continue
            for flags, params in ((3, True), (2, False)):
                want = cxxfilt(names, params)
                got, why = run_cli(cli, flags, names)
                if got is None:
                    failed += 1
                    print(f'FAIL {src} flags {flags}: {why}')
                    continue
                bad = [(n, w, g) for n, w, g in zip(names, want, got) if w != g]
                for n, w, g in bad[:5]:
                    print(f'FAIL {os.path.basename(src)} flags {flags}: {n}\n       c++filt {w}\n       got     {g}')
                if bad:
                    failed += 1
                else:
                    passed += 1
                    print(f'ok   {os.path.basename(src)}: {len(names)} names = c++filt{"" if params else " -p"}')
    # 3. hostile names
    names = hostile()
    for flags in (0, 3):
        got, why = run_cli(cli, flags, names, timeout=60)
        if got is None:
            failed += 1
            print(f'FAIL hostile names, flags {flags}: {why}')
        else:
            passed += 1
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
