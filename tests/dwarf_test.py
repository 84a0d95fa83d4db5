#!/usr/bin/env python3
"""tools/pd_dwarf.c against addr2line.

1. Line tables against binutils' addr2line (what perf 6.1 runs for source
   lines): every third address of .text, in

- tests/data/cxx-workload (g++ -O2 -g: DWARF 5, inlined libstdc++ code),
  the unwinding fixtures' unwind-c, libuwfix.so and unwind-cxx (gcc and
  g++ -O2 -g without frame pointers), and rust-workload (rustc -O -g: DWARF
  4 from LLVM, std's included; every seventh address);
- tests/data/workload.c built here with gcc -O2 -gdwarf-2, -gdwarf-4 and
  -gdwarf-5, and -m32 where gcc can (32-bit ELF, 4-byte addresses);
- each of those again with its debug sections compressed by objcopy
  (zlib, and zstd where this objcopy has it): the same lines;
- the debug files of this machine's ld.so and libc (libc6-dbg; every
  seventh address; skipped where not installed);
- workload.c built big-endian for s390x (ELF64) and MIPS (ELF32) with
  the cross compilers, against their own addr2line (every eleventh
  address; skipped without them).

   Where addr2line gives FILE:LINE (a discriminator dropped), ours must be
   the same text; where it gives none (??:0, or a compile unit's name with
   ?: units without line tables, not read here), ours must give none either.
2. Functions and inline chains against llvm-addr2line -f -i -a (without
   -C: names compared as stored; demangling has its own test), at every
   address of .text of the same binaries that the debug information holds:
   every frame's name and FILE:LINE (discriminators dropped) must be
   llvm's; of the outermost frame, which llvm names from the symbol table,
   another symbol at the same address (an alias: D1/D2, .localalias) is
   accepted. Addresses the debug information does not hold are counted,
   not compared (llvm's symbol-table fallbacks are its own).
Needs gcc, objcopy, addr2line and llvm-addr2line (a missing one is a skip).

Usage: dwarf_test.py LINES_CLI FRAMES_CLI"""
import lzma
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, 'data')


def text_range(path):
    out = subprocess.run(['readelf', '-SW', path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
    for line in out.splitlines():
        if ' .text ' in line:
            f = line.split(']', 1)[1].split()
            return int(f[2], 16), int(f[4], 16)
    return None


def compare(cli, path, label, step=3, a2l='addr2line'):
    r = text_range(path)
    if not r or not r[1]:
        return f'{label}: no .text'
    addrs = [hex(a) for a in range(r[0], r[0] + r[1], step)]
    text = '\n'.join(addrs) + '\n'
    p = subprocess.run([cli, path], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or re.search(r'runtime error|Sanitizer|ERROR:', p.stderr):
        return f'{label}: exit {p.returncode}: {p.stderr.strip()[:200]}'
    ours = p.stdout.split('\n')[1:-1]
    theirs = subprocess.run([a2l, '-e', path], input=text, stdout=subprocess.PIPE, text=True).stdout.split('\n')[:-1]
    if len(ours) != len(addrs) or len(theirs) != len(addrs):
        return f'{label}: {len(ours)} and {len(theirs)} answers for {len(addrs)} addresses'
    bad, lines = [], 0
    for a, o, t in zip(addrs, ours, theirs):
        t = re.sub(r' \(discriminator \d+\)$', '', t)
        if t == '??:0' or t.endswith(':?'):
            # no line: a row of line 0 (FILE:?, ours the same) or a unit
            # without a line table (its name, ours ??:0: not read here)
            if o != '??:0' and o != t:
                bad.append(f'{a}: addr2line has no line, ours {o}')
            continue
        lines += 1
        if o != t:
            bad.append(f'{a}: addr2line {t}, ours {o}')
    if not lines:
        return f'{label}: addr2line found no lines (no debug info?)'
    if bad:
        return f'{label}: {len(bad)} of {len(addrs)} addresses differ: ' + '; '.join(bad[:3])
    print(f'ok   {label}: {len(addrs)} addresses, {lines} with a line = addr2line')
    return ''


def aliases(path):
    """address -> the names of the symbols there"""
    out = {}
    p = subprocess.run(['nm', '--defined-only', path], stdout=subprocess.PIPE, text=True)
    for line in p.stdout.splitlines():
        f = line.split()
        if len(f) == 3:
            out.setdefault(int(f[0], 16), set()).add(f[2])
    return out


def blocks(lines, start):
    out, cur = [], None
    for l in lines:
        if start(l):
            cur = [l]
            out.append(cur)
        elif cur is not None:
            cur.append(l)
    return out


def compare_frames(cli, path, label, addrs=None):
    r = text_range(path)
    if not r or not r[1]:
        return f'{label}: no .text', None
    addrs = addrs or [hex(a) for a in range(r[0], r[0] + r[1])]
    text = '\n'.join(addrs) + '\n'
    p = subprocess.run([cli, path], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0 or re.search(r'runtime error|Sanitizer|ERROR:', p.stderr):
        return f'{label}: exit {p.returncode}: {p.stderr.strip()[:200]}', None
    llvm = subprocess.run(['llvm-addr2line', '-a', '-f', '-i', '-e', path], input=text, stdout=subprocess.PIPE,
                          text=True).stdout.split('\n')[:-1]
    ob = blocks(p.stdout.split('\n')[:-1], lambda l: l.startswith('@ '))
    lb = blocks(llvm, lambda l: l.startswith('0x'))
    if len(ob) != len(addrs) or len(lb) != len(addrs):
        return f'{label}: {len(ob)} and {len(lb)} answers for {len(addrs)} addresses', None
    names = aliases(path)
    by_name = {}
    for a, ns in names.items():
        for n in ns:
            by_name.setdefault(n, set()).add(a)
    dwarf, bad = 0, []
    for a, o, l in zip(addrs, ob, lb):
        if o[0] != '@ dwarf':
            continue
        dwarf += 1
        o = o[1:]
        l = [re.sub(r' \(discriminator \d+\)$', '', x) for x in l[1:]]
        if len(o) != len(l):
            bad.append(f'{a}: {len(o) // 2} frames, llvm {len(l) // 2}')
            continue
        for i, (x, y) in enumerate(zip(o, l)):
            if x == y:
                continue
            if x == '??:0' and y.endswith(':0') and i == 1:
                continue  # no line row: llvm names the function's own file, binutils (and ours) none
            if i == len(o) - 2 and by_name.get(x, set()) & by_name.get(y, set()):
                continue  # the outermost frame: another name of the same symbol
            bad.append(f'{a}: ours {x!r}, llvm {y!r}')
            break
    if not dwarf:
        return f'{label}: the debug information holds no address', None
    if bad:
        return f'{label}: {len(bad)} of {dwarf} addresses differ from llvm-addr2line: ' + '; '.join(bad[:3]), None
    print(f'ok   {label}: {dwarf} addresses in the debug information (of {len(addrs)}): frames = llvm-addr2line')
    return '', dwarf


def shared_abbrevs(frames_cli, work):
    """A crafted object: 40,000 units sharing one abbreviation table of
    4,000 entries, each unit's first entry using the last. Reading each
    unit's first entry must not read the table again per unit (40,000 x
    4,000 entries: about 15 s here); the table is read once, and the
    function of an address in the last unit is found."""
    m, n = 4000, 40000
    out = ['\t.text\n\t.globl f0\nf0:\n\t.zero %d\n' % (16 * n + 16),
           '\t.section .debug_abbrev,"",@progbits\n']
    for c in range(1, m - 1):  # DW_TAG_variable, DW_AT_name string
        out.append('\t.uleb128 %d\n\t.uleb128 0x34\n\t.byte 0\n\t.uleb128 0x3\n\t.uleb128 0x8\n\t.byte 0,0\n' % c)
    for c, tag, children in ((m - 1, 0x2e, 0), (m, 0x11, 1)):  # subprogram, compile unit: name, low_pc, high_pc
        out.append('\t.uleb128 %d\n\t.uleb128 %#x\n\t.byte %d\n\t.uleb128 0x3\n\t.uleb128 0x8\n'
                   '\t.uleb128 0x11\n\t.uleb128 0x1\n\t.uleb128 0x12\n\t.uleb128 0x6\n\t.byte 0,0\n' % (c, tag, children))
    out.append('\t.byte 0\n\t.section .debug_info,"",@progbits\n')
    for k in range(n):
        low = 0x1000 + 16 * k
        out.append('\t.long .Le%d-.Lb%d\n.Lb%d:\n\t.value 4\n\t.long 0\n\t.byte 8\n' % (k, k, k))
        out.append('\t.uleb128 %d\n\t.string "u"\n\t.quad %d\n\t.long 16\n' % (m, low))
        out.append('\t.uleb128 %d\n\t.string "f%d"\n\t.quad %d\n\t.long 16\n\t.byte 0\n.Le%d:\n' % (m - 1, k, low, k))
    src, obj = os.path.join(work, 'shared-abbrevs.s'), os.path.join(work, 'shared-abbrevs.o')
    with open(src, 'w') as f:
        f.write(''.join(out))
    p = subprocess.run(['gcc', '-c', src, '-o', obj], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        return None, f'gcc cannot assemble it ({p.stderr[:100].strip()})'
    try:
        r = subprocess.run([frames_cli, obj], input='%#x\n' % (0x1000 + 16 * (n - 1) + 4), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True, timeout=5)
    except subprocess.TimeoutExpired:
        return 'units sharing one abbreviation table: not read in 5 s (the table read again for each unit?)', None
    want = '@ dwarf\nf%d\n??:0\n' % (n - 1)
    if r.returncode != 0 or r.stdout != want or re.search(r'runtime error|Sanitizer', r.stderr):
        return f'units sharing one abbreviation table: exit {r.returncode}, {r.stdout!r} (want {want!r}) {r.stderr[:200]}', None
    print(f'ok   {n} units sharing one abbreviation table of {m} entries: read once, the last unit\'s function found')
    return None, None


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    cli = os.path.abspath(sys.argv[1])
    frames_cli = os.path.abspath(sys.argv[2])
    passed = failed = skipped = 0
    tools = [t for t in ('gcc', 'objcopy', 'addr2line', 'readelf') if not shutil.which(t)]
    if tools:
        print(f'skip line tables against addr2line: {", ".join(tools)} not installed')
        print('0 passed, 0 failed, 1 skipped')
        return
    work = os.path.abspath(os.path.join('build', 'test', 'dwarf'))
    os.makedirs(work, exist_ok=True)
    bins = []
    cxx = os.path.join(work, 'cxx-workload')
    with lzma.open(os.path.join(DATA, 'cxx-workload.xz')) as f, open(cxx, 'wb') as o:
        o.write(f.read())
    bins.append((cxx, 'cxx-workload (DWARF 5, g++ -O2)'))
    src = os.path.join(DATA, 'workload.c')
    for flags, label in ((['-gdwarf-2'], 'DWARF 2'), (['-gdwarf-4'], 'DWARF 4'), (['-gdwarf-5'], 'DWARF 5'),
                         (['-m32', '-gdwarf-4'], 'DWARF 4, -m32'), (['-m32', '-gdwarf-5'], 'DWARF 5, -m32')):
        out = os.path.join(work, 'workload-' + '-'.join(x.strip('-') for x in flags))
        p = subprocess.run(['gcc', '-O2'] + flags + [src, '-o', out, '-lpthread'], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            skipped += 1
            print(f'skip workload.c {label}: gcc cannot build it here ({p.stderr.decode()[:100].strip()})')
            continue
        bins.append((out, f'workload.c ({label}, gcc -O2)'))
    originals = {}
    for path, label in list(bins):
        for kind in ('zlib', 'zstd'):
            out = f'{path}-{kind}'
            p = subprocess.run(['objcopy', f'--compress-debug-sections={kind}', path, out], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if p.returncode != 0:
                skipped += 1
                print(f'skip {label} compressed with {kind}: objcopy cannot ({p.stderr.decode()[:80].strip()})')
                continue
            bins.append((out, f'{label}, sections compressed with {kind}'))
            originals[out] = path
    why, skip = shared_abbrevs(frames_cli, work)
    if skip:
        skipped += 1
        print('skip units sharing one abbreviation table: ' + skip)
    elif why:
        failed += 1
        print('FAIL ' + why)
    else:
        passed += 1
    # the other fixtures' workloads: lines (and, below, frames) as they are
    more = []
    for name, label, step in (('unwind-c', 'unwind-c (gcc -O2, no frame pointers)', 3),
                              ('libuwfix.so', 'libuwfix.so (gcc -O2, no frame pointers)', 3),
                              ('unwind-cxx', 'unwind-cxx (g++ -O2, no frame pointers)', 3),
                              ('rust-workload', 'rust-workload (rustc -O -g, std included)', 7)):
        out = os.path.join(work, name)
        with lzma.open(os.path.join(DATA, name + '.xz')) as f, open(out, 'wb') as o:
            o.write(f.read())
        more.append((out, label, step))
    for path, label, step in more:
        why = compare(cli, path, label, step=step)
        if why:
            failed += 1
            print('FAIL ' + why)
        else:
            passed += 1
    for path, label in bins:
        why = compare(cli, path, label)
        if why:
            failed += 1
            print('FAIL ' + why)
        else:
            passed += 1
    # big-endian: s390x (64-bit) and MIPS (32-bit) builds, against the cross
    # binutils' own addr2line (tests/cross/install.sh installs both)
    for gcc, flags, label in (('s390x-linux-gnu-gcc', ['-gdwarf-5'], 's390x, big-endian ELF64, DWARF 5'),
                              ('mips-linux-gnu-gcc', ['-gdwarf-4'], 'MIPS, big-endian ELF32, DWARF 4')):
        a2l = gcc[:-len('gcc')] + 'addr2line'
        out = os.path.join(work, 'workload-' + gcc.split('-')[0])
        if not shutil.which(gcc) or not shutil.which(a2l):
            skipped += 1
            print(f'skip workload.c ({label}): {gcc} or {a2l} not installed (tests/cross/install.sh)')
            continue
        p = subprocess.run([gcc, '-O2', '-static'] + flags + [src, '-o', out, '-lpthread'], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
        if p.returncode != 0:
            skipped += 1
            print(f'skip workload.c ({label}): {gcc} cannot link it here ({p.stderr.decode()[:100].strip()})')
            continue
        why = compare(cli, out, f'workload.c ({label}, static)', step=11, a2l=a2l)
        if why:
            failed += 1
            print('FAIL ' + why)
        else:
            passed += 1
        if not shutil.which('llvm-addr2line'):
            continue
        # the frames of workload.c's own functions (the C library has no DWARF)
        source = open(src).read()
        nm = subprocess.run([gcc[:-len('gcc')] + 'nm', '-S', '--defined-only', out], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True).stdout
        addrs = []
        for line in nm.splitlines():
            f = line.split()
            if len(f) == 4 and f[2] in 'tT' and re.search(r'\b' + re.escape(f[3]) + r'\(', source):
                addrs += [hex(a) for a in range(int(f[0], 16), int(f[0], 16) + int(f[1], 16))]
        why, _ = compare_frames(frames_cli, out, f'workload.c ({label}, static)', addrs)
        if why:
            failed += 1
            print('FAIL ' + why)
        else:
            passed += 1
    # libc6-dbg's DWARF 5 debug files of ld.so and libc (gcc's line tables
    # where a sequence starts in an included file: binutils names file 0
    # until the program sets the file)
    for obj in ('/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2', '/usr/lib/x86_64-linux-gnu/libc.so.6'):
        notes = subprocess.run(['readelf', '-n', obj], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True).stdout
        bid = notes.split('Build ID: ')[1].split()[0] if 'Build ID: ' in notes else ''
        debug = f'/usr/lib/debug/.build-id/{bid[:2]}/{bid[2:]}.debug'
        if not bid or not os.path.isfile(debug):
            skipped += 1
            print(f'skip {os.path.basename(obj)}\'s debug file: not installed (libc6-dbg)')
            continue
        why = compare(cli, debug, f'{os.path.basename(obj)}\'s debug file (libc6-dbg)', step=7)
        if why:
            failed += 1
            print('FAIL ' + why)
        else:
            passed += 1
    if not shutil.which('llvm-addr2line'):
        skipped += 1
        print('skip functions and inline chains: llvm-addr2line not installed')
    else:
        for path, label in bins:
            if 'zstd' in label:
                # llvm-addr2line 14 reads no zstd sections: the same frames as the original's
                r = text_range(path)
                text = '\n'.join(hex(a) for a in range(r[0], r[0] + r[1])) + '\n'
                a = subprocess.run([frames_cli, path], input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                b = subprocess.run([frames_cli, originals[path]], input=text, stdout=subprocess.PIPE, text=True)
                if a.returncode != 0 or a.stdout != b.stdout or re.search(r'runtime error|Sanitizer', a.stderr):
                    failed += 1
                    print(f'FAIL {label}: frames differ from the uncompressed file\'s')
                else:
                    passed += 1
                    print(f'ok   {label}: frames = the uncompressed file\'s')
                continue
            why, _ = compare_frames(frames_cli, path, label)
            if why:
                failed += 1
                print('FAIL ' + why)
            else:
                passed += 1
        for path, label, step in more:
            r = text_range(path)
            why, _ = compare_frames(frames_cli, path, label, [hex(a) for a in range(r[0], r[0] + r[1], step)])
            if why:
                failed += 1
                print('FAIL ' + why)
            else:
                passed += 1
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    sys.exit(1 if failed else 0)


if __name__ == '__main__':
    main()
