#!/usr/bin/env python3
"""make_seeds.py - (re)generate the seed corpora in fuzz/corpus/<target>/.

Run from the repository root: python3 fuzz/make_seeds.py [compressed|info]
(with an argument, only those targets' seeds are rewritten)
Sources: the small recordings in tests/data (< 40 KB), pieces cut from them
(pipe streams without their header, feature sections), a few synthetic
inputs, and, for fuzz_elf, tiny ELF files compiled here with gcc (kept only
when < 20 KB) and a kallsyms text. The output is deterministic for a given
tests/data and compiler; the seeds are committed, so this runs only when
they are refreshed."""
import os, shutil, struct, subprocess, sys, tempfile

ROOT = os.getcwd()
DATA = os.path.join(ROOT, 'tests', 'data')
OUT = os.path.join(ROOT, 'fuzz', 'corpus')
MAX_FIXTURE = 40 * 1024


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), 'wb') as f:
        f.write(data)


def fixtures():
    for n in sorted(os.listdir(DATA)):
        p = os.path.join(DATA, n)
        if n.endswith('.data') and os.path.isfile(p) and os.path.getsize(p) < MAX_FIXTURE:
            with open(p, 'rb') as f:
                yield n, f.read()


def header(b):
    """(endian, is_pipe, fields) of a perf.data header."""
    if b[:8] == b'PERFILE2':
        e = '<'
    elif b[:8] == b'2ELIFREP':
        e = '>'
    else:
        return None
    size = struct.unpack(e + 'Q', b[8:16])[0]
    if size == 16:
        return e, True, None
    attr_size, a_off, a_sz, d_off, d_sz, t_off, t_sz = struct.unpack(e + '7Q', b[16:72])
    feats = int.from_bytes(b[72:104], 'little') if e == '<' else 0
    if e == '>':  # the bitmap is an array of u64 in the file's order
        for i in range(4):
            feats |= struct.unpack('>Q', b[72 + 8 * i:80 + 8 * i])[0] << (64 * i)
    return e, False, dict(attr_size=attr_size, d_off=d_off, d_sz=d_sz, feats=feats)


def feature_sections(b):
    h = header(b)
    if not h or h[1]:
        return []
    e, _, f = h
    out, pos = [], f['d_off'] + f['d_sz']
    for bit in range(256):
        if f['feats'] >> bit & 1:
            off, sz = struct.unpack(e + 'QQ', b[pos:pos + 16])
            pos += 16
            if off + sz <= len(b):
                out.append((bit, b[off:off + sz]))
    return out


def chunk_payloads(b):
    """The zstd bytes of every COMPRESSED record of a little-endian file."""
    h = header(b)
    if not h or h[0] != '<' or h[1]:
        return b''
    f = h[2]
    pos, end, out = f['d_off'], f['d_off'] + f['d_sz'], b''
    while pos + 8 <= end:
        typ, _, size = struct.unpack('<IHH', b[pos:pos + 8])
        if size < 8:
            break
        if typ == 81:
            out += b[pos + 8:pos + size]
        pos += size
    return out


def compressed_seeds(small):
    """fuzz_compressed: the -z recordings; fuzz_zstd: frames made by the zstd
    command line (first byte: chunking selector) and a perf chunk stream."""
    for n in ('zstd.data', 'pipe-zstd.data'):
        if n in small:
            put('fuzz_compressed', n, small[n])
    text = b''.join(b'line %d: the quick brown fox jumps over the lazy dog\n' % i for i in range(300))
    rnd = bytes((i * 2654435761 >> 13) & 0xff for i in range(3000))
    with tempfile.TemporaryDirectory() as t:
        for name, payload, args in (('text-1', text, ['-1']), ('text-19', text, ['-19']),
                                    ('text-nocheck', text, ['-3', '--no-check']), ('random', rnd, ['-3']),
                                    ('empty', b'', ['-3']), ('rle', b'a' * 5000, ['-1']),
                                    ('window-1k', text, ['-3', '--zstd=wlog=10'])):
            src = os.path.join(t, name)
            with open(src, 'wb') as f:
                f.write(payload)
            r = subprocess.run(['zstd', '-q', '-f'] + args + [src, '-o', src + '.zst'], capture_output=True)
            if r.returncode != 0:
                print('skipped', name, '(no zstd command?)', file=sys.stderr)
                continue
            with open(src + '.zst', 'rb') as f:
                z = f.read()
            put('fuzz_zstd', name, bytes([0x05]) + z)
            put('fuzz_zstd', name + '-bytewise', bytes([0x40]) + z)
    put('fuzz_zstd', 'skippable', bytes([0x11]) + struct.pack('<II', 0x184D2A50, 4) + b'skip')
    if 'zstd.data' in small:
        put('fuzz_zstd', 'perf-chunks', bytes([0x83]) + chunk_payloads(small['zstd.data']))


def info_seeds(small):
    """fuzz_info: whole files and pipe streams. Recordings whose feature
    sections differ (groups, a pipe's HEADER_FEATURE records, compressed
    data), and files built with tests/hostile/gen_info.py that carry every
    feature perf 6.1 prints (NUMA, memory and cpu topology, caches, pmu
    caps, hybrid cpus, BPF programs named from BTF, clock data), in both
    byte orders and as a pipe."""
    d = os.path.join(OUT, 'fuzz_info')
    if os.path.isdir(d):
        shutil.rmtree(d)
    for n in ('group-read.data', 'two-events.data', 'pipe.data', 'pipe-zstd.data', 'stat-threads.data'):
        if n in small:
            put('fuzz_info', n, small[n])
    sys.path.insert(0, os.path.join(ROOT, 'tests', 'hostile'))
    import gen_info
    put('fuzz_info', 'every-feature', gen_info.rich())
    put('fuzz_info', 'every-feature-be', gen_info.rich(big_endian=True))
    put('fuzz_info', 'every-feature-pipe', gen_info.rich(pipe=True))


def main():
    if sys.argv[1:] == ['compressed']:  # only the seeds of the zstd targets
        compressed_seeds(dict(fixtures()))
        return
    if sys.argv[1:] == ['info']:  # only the seeds of fuzz_info
        info_seeds(dict(fixtures()))
        return
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    small = dict(fixtures())
    compressed_seeds(small)
    info_seeds(small)
    # fuzz_file: every small recording, plus edge inputs
    for n, b in small.items():
        put('fuzz_file', n, b)
    put('fuzz_file', 'empty', b'')
    put('fuzz_file', 'magic-only', b'PERFILE2')
    put('fuzz_file', 'pipe-header-only', b'PERFILE2' + struct.pack('<Q', 16))
    put('fuzz_file', 'pipe-header-only-be', b'2ELIFREP' + struct.pack('>Q', 16))
    # fuzz_ordered: recordings with timestamps and rounds
    for n in ('plain.data', 'sample-id.data', 'switch.data', 'tasks.data', 'two-events.data', 'pipe.data'):
        if n in small:
            put('fuzz_ordered', n, small[n])
    # fuzz_pipe: the record stream of pipe recordings (without the 16-byte
    # header the target prepends), and HEADER_ATTR + samples cut from the
    # data section of file recordings
    for n, b in small.items():
        h = header(b)
        if h and h[1]:
            put('fuzz_pipe', n + '.stream', b[16:])
    for n in ('plain.data', 'two-events.data', 'callchain-fp.data'):
        if n not in small:
            continue
        b = small[n]
        e, _, f = header(b)
        if e != '<':
            continue
        a_off, a_sz = struct.unpack('<QQ', b[24:40])
        attr_size = f['attr_size'] - 16  # each file attr is attr + ids section
        recs = b''
        for i in range(a_sz // f['attr_size']):
            base = a_off + i * f['attr_size']
            attr = b[base:base + attr_size]
            ids_off, ids_sz = struct.unpack('<QQ', b[base + attr_size:base + attr_size + 16])
            ids = b[ids_off:ids_off + ids_sz]
            body = attr + ids
            recs += struct.pack('<IHH', 64, 0, 8 + len(body)) + body
        data = b[f['d_off']:f['d_off'] + min(f['d_sz'], 4096)]
        put('fuzz_pipe', n + '.attrs+records', recs + data)
    # fuzz_features: first byte = feature id (nr_cpus selector 2: 4 cpus)
    seen = set()
    for n, b in small.items():
        for bit, sec in feature_sections(b):
            key = (bit, sec)
            if key in seen or bit >= 64:
                continue
            seen.add(key)
            put('fuzz_features', '%02d-%s' % (bit, n), bytes([bit | (2 << 6)]) + sec)
    # fuzz_elf: tiny compiled objects and a kallsyms text
    src = b'static int helper(int x) { return x * 3 + 1; }\nint api(int x) { return helper(x) ^ 5; }\nint main(int c, char **v) { (void)v; return api(c); }\n'
    with tempfile.TemporaryDirectory() as t:
        cs = os.path.join(t, 't.c')
        with open(cs, 'wb') as f:
            f.write(src)
        compile_seeds(put, t, cs, (('tiny-stripped', ['-Os', '-s']), ('tiny-symtab', ['-Os']),
                                   ('tiny-pie-so', ['-Os', '-shared', '-fPIC']), ('tiny-reloc.o', ['-Os', '-c']),
                                   ('tiny-m32', ['-Os', '-m32', '-s'])))
        # calls into libc: .plt and .rela.plt, for the synthesized name@plt symbols
        cs = os.path.join(t, 'plt.c')
        with open(cs, 'wb') as f:
            f.write(b'#include <stdio.h>\n#include <stdlib.h>\n'
                    b'int main(int c, char **v) { puts(v[0]); printf("%d\\n", atoi(v[c - 1])); return abs(c); }\n')
        compile_seeds(put, t, cs, (('tiny-plt', ['-O1']), ('tiny-plt-stripped', ['-O1', '-s'])))
    put('fuzz_elf', 'kallsyms', b'ffffffff81000000 T _stext\nffffffff81000100 t helper\n'
        b'ffffffff81000200 W weak_fn\nffffffff81000300 D data_sym\nffffffffc0000000 t mod_fn\t[ext4]\n'
        b'ffffffffc0000100 T mod_fn2\t[ext4]\n0000000000000000 T hidden\n')
    put('fuzz_elf', 'kallsyms-hidden', b'0000000000000000 T a\n0000000000000000 t b\n')
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(OUT) for f in fs)
    print('seeds: %d bytes' % total)


def compile_seeds(put, tmp, source, builds):
    """fuzz_elf seeds: source compiled with gcc as each (name, args); a build
    that fails or exceeds 20 KiB is left out, and said so."""
    for name, args in builds:
        outp = os.path.join(tmp, name)
        r = subprocess.run(['gcc'] + args + [source, '-o', outp], capture_output=True)
        if r.returncode == 0 and os.path.getsize(outp) < 20 * 1024:
            with open(outp, 'rb') as f:
                put('fuzz_elf', name, f.read())
        else:
            print('skipped', name, file=sys.stderr)


main()
