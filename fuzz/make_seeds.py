#!/usr/bin/env python3
"""make_seeds.py - (re)generate the seed corpora in fuzz/corpus/<target>/.

Run from the repository root: python3 fuzz/make_seeds.py [compressed|info|tracing]
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


def tracing_sections():
    """(name, section) for the TRACING_DATA of every recording in tests/data
    that has one: the feature section (file mode) or the bytes after the
    HEADER_TRACING_DATA record (pipe mode)."""
    for n in sorted(os.listdir(DATA)):
        p = os.path.join(DATA, n)
        if not n.endswith('.data') or not os.path.isfile(p):
            continue
        with open(p, 'rb') as f:
            b = f.read()
        h = header(b)
        if not h:
            continue
        e, pipe, _ = h
        if not pipe:
            for bit, sec in feature_sections(b):
                if bit == 1:
                    yield n, sec
            continue
        pos = 16
        while pos + 8 <= len(b):
            typ, _, size = struct.unpack(e + 'IHH', b[pos:pos + 8])
            if size < 8:
                break
            if typ == 66:
                tsize = struct.unpack(e + 'I', b[pos + 8:pos + 12])[0]
                yield n, b[pos + size:pos + size + tsize]
                break
            pos += size


def tracing_synthetic(big, version, long_size=8):
    """A TRACING_DATA section as perf's trace-event-info.c writes it, with
    ftrace files, an empty event system and fields of every kind (as in
    tests/test_tracing.c)."""
    e = '>' if big else '<'
    common = (b'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
              b'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
              b'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
              b'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n')
    ftrace = [b'name: function\nID: 1\nformat:\n' + common +
              b'\n\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;\n'
              b'\tfield:unsigned long parent_ip;\toffset:16;\tsize:8;\tsigned:0;\n\n'
              b'print fmt: " %ps <-- %ps", (void *)REC->ip, (void *)REC->parent_ip\n',
              b'name: print\nID: 5\nformat:\n\tfield special:unsigned short common_type;\toffset:0;\tsize:2;\n'
              b'\tfield:char buf[];\toffset:16;\tsize:0;\tsigned:1;\n\nprint fmt: "%s", REC->buf']
    sched = [b'name: sched_switch\nID: 316\nformat:\n' + common +
             b'\n\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
             b'\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n'
             b'\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n\n'
             b'print fmt: "prev_comm=%s prev_pid=%d", REC->prev_comm, REC->prev_pid\n',
             b'name: sched_stat\nID: 317\nformat:\n' + common +
             b'\tfield:__data_loc char[] comm;\toffset:8;\tsize:4;\tsigned:0;\n'
             b'\tfield:__rel_loc char[] rcomm;\toffset:12;\tsize:4;\tsigned:0;\n'
             b'\tfield:__data_loc u32[] cpus;\toffset:16;\tsize:4;\tsigned:0;\n'
             b'\tfield:__rel_loc unsigned long[] ips;\toffset:20;\tsize:4;\tsigned:0;\n\n'
             b'print fmt: "comm=%s", __get_str(comm)\n']
    kmem = [b'name: ints\nID: 400\nformat:\n'
            b'\tfield:s8 a_s8;\toffset:8;\tsize:1;\tsigned:1;\n'
            b'\tfield:short a_s16;\toffset:10;\tsize:2;\tsigned:1;\n'
            b'\tfield:u32 a_u32;\toffset:12;\tsize:4;\tsigned:0;\n'
            b'\tfield:long long a_s64;\toffset:16;\tsize:8;\tsigned:1;\n'
            b'\tfield:const char * a_ptr;\toffset:24;\tsize:8;\tsigned:0;\n'
            b'\tfield:__u8 saddr[sizeof(struct sockaddr_in6)];\toffset:32;\tsize:28;\tsigned:0;\n'
            b'\tfield:unsigned long caller[2];\toffset:60;\tsize:16;\tsigned:0;\n'
            b'\tfield:int grid[2][2];\toffset:76;\tsize:16;\tsigned:1;\n'
            b'print fmt: "x"\n',
            b'name: tiny\nID: 401\nformat:\nprint fmt: ""\n']
    hp = (b'\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
          b'\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n'
          b'\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n' % long_size)
    he = b'# compressed entry header\n\ttype_len    :    5 bits\n'
    out = b'\x17\x08\x44tracing' + version + b'\0' + bytes([1 if big else 0, 8]) + struct.pack(e + 'I', 4096)
    out += b'header_page\0' + struct.pack(e + 'Q', len(hp)) + hp
    out += b'header_event\0' + struct.pack(e + 'Q', len(he)) + he
    out += struct.pack(e + 'I', len(ftrace)) + b''.join(struct.pack(e + 'Q', len(t)) + t for t in ftrace)
    systems = ((b'sched', sched), (b'empty', []), (b'kmem', kmem))
    out += struct.pack(e + 'I', len(systems))
    for name, files in systems:
        out += name + b'\0' + struct.pack(e + 'I', len(files))
        out += b''.join(struct.pack(e + 'Q', len(t)) + t for t in files)
    ks, pk = b'ffffffff81000000 T _text\n', b'0xffffffff81234567 : "hello"\n'
    out += struct.pack(e + 'I', len(ks)) + ks + struct.pack(e + 'I', len(pk)) + pk
    if version >= b'0.6':
        cl = b'1 systemd\n'
        out += struct.pack(e + 'Q', len(cl)) + cl
    return out


def tracing_raw(big):
    """A RAW payload for the synthetic formats: common_type 317, then
    __data_loc/__rel_loc words that point at strings and arrays."""
    e = '>' if big else '<'
    r = bytearray(96)
    struct.pack_into(e + 'H', r, 0, 317)
    struct.pack_into(e + 'I', r, 8, (6 << 16) | 40)    # comm "hello" at 40
    struct.pack_into(e + 'I', r, 12, (4 << 16) | 30)   # rcomm "rel" at 16 + 30
    struct.pack_into(e + 'I', r, 16, (8 << 16) | 50)   # cpus at 50
    struct.pack_into(e + 'I', r, 20, (16 << 16) | 34)  # ips at 24 + 34
    r[40:46] = b'hello\0'
    r[46:50] = b'rel\0'
    struct.pack_into(e + 'II', r, 50, 1, 0xfffffffe)
    struct.pack_into(e + 'QQ', r, 58, 0x1122334455667788, 2 ** 64 - 1)
    return bytes(r)


def tracing_seeds():
    """fuzz_tracing: first byte the RAW payload's length, then the section,
    then the payload. The real sections of tests/data, and synthetic ones in
    both byte orders and versions 0.5 and 0.6."""
    d = os.path.join(OUT, 'fuzz_tracing')
    if os.path.isdir(d):
        shutil.rmtree(d)
    seen = set()
    for n, sec in tracing_sections():
        if sec in seen:
            continue
        seen.add(sec)
        raw = tracing_raw(False)
        put('fuzz_tracing', n, bytes([len(raw)]) + sec + raw)
        put('fuzz_tracing', n + '-noraw', b'\0' + sec)
    for big in (False, True):
        for version in (b'0.5', b'0.6'):
            raw = tracing_raw(big)
            name = 'synthetic-%s-%s' % ('be' if big else 'le', version.decode())
            put('fuzz_tracing', name, bytes([len(raw)]) + tracing_synthetic(big, version) + raw)
        put('fuzz_tracing', 'synthetic-long4-%s' % ('be' if big else 'le'),
            bytes([0]) + tracing_synthetic(big, b'0.6', long_size=4))


def main():
    if sys.argv[1:] == ['compressed']:  # only the seeds of the zstd targets
        compressed_seeds(dict(fixtures()))
        return
    if sys.argv[1:] == ['info']:  # only the seeds of fuzz_info
        info_seeds(dict(fixtures()))
        return
    if sys.argv[1:] == ['tracing']:  # only the seeds of fuzz_tracing
        tracing_seeds()
        return
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    small = dict(fixtures())
    compressed_seeds(small)
    info_seeds(small)
    tracing_seeds()
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
