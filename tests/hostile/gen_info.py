#!/usr/bin/env python3
"""gen_info.py: the crafted inputs of tests/hostile/ that drive
`perfdata info` (tools/info.c, tools/bpf_info.c) with hostile feature
sections. One function per input; `python3 tests/hostile/gen_info.py`
rewrites them all, byte for byte the same each time. What each one holds
is in tests/hostile/README.md; the checks that run `perfdata info` on them
are in tests/hostile_info.py.

    python3 tests/hostile/gen_info.py [OUTDIR]    (default: this directory)
    python3 tests/hostile/gen_info.py --large DIR (the test's 1 MB inputs)
"""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from perfgen import (Attr, Perf, FEAT_ARCH, FEAT_AUXTRACE, FEAT_BPF_BTF, FEAT_BPF_PROG_INFO,  # noqa: E402
                     FEAT_BRANCH_STACK, FEAT_CACHE, FEAT_CLOCK_DATA, FEAT_CLOCKID, FEAT_CMDLINE, FEAT_COMPRESSED,
                     FEAT_CPU_PMU_CAPS, FEAT_CPU_TOPOLOGY, FEAT_CPUDESC, FEAT_CPUID, FEAT_EVENT_DESC,
                     FEAT_GROUP_DESC, FEAT_HOSTNAME, FEAT_HYBRID_TOPOLOGY, FEAT_MEM_TOPOLOGY, FEAT_NRCPUS,
                     FEAT_NUMA_TOPOLOGY, FEAT_OSRELEASE, FEAT_PMU_CAPS, FEAT_PMU_MAPPINGS, FEAT_SAMPLE_TIME,
                     FEAT_STAT, FEAT_TOTAL_MEM, FEAT_VERSION, FINISHED_ROUND, SAMPLE_IDENTIFIER, SAMPLE_IP,
                     SAMPLE_PERIOD, SAMPLE_TID, SAMPLE_TIME, zstd_frame_header, zstd_raw_block)

# struct bpf_prog_info (include/uapi/linux/bpf.h): the offsets perf's
# bpf_event__print_bpf_prog_info reads
BI_ID, BI_TAG, BI_NAME = 4, 8, 64
BI_NR_JITED_KSYMS, BI_NR_JITED_FUNC_LENS, BI_JITED_KSYMS, BI_JITED_FUNC_LENS = 104, 108, 112, 120
BI_BTF_ID, BI_FUNC_INFO_REC_SIZE, BI_FUNC_INFO, BI_NR_FUNC_INFO = 128, 132, 136, 144
BI_NR_PROG_TAGS, BI_PROG_TAGS = 180, 184
BI_SIZE = 192
# perf_bpil.arrays: which of the info's array fields perf turns from
# offsets into the data into addresses (enum perf_bpil_array_types)
BPIL_JITED_KSYMS, BPIL_JITED_FUNC_LENS, BPIL_FUNC_INFO, BPIL_PROG_TAGS = 1 << 3, 1 << 4, 1 << 5, 1 << 8
BPIL_ARRAYS = BPIL_JITED_KSYMS | BPIL_JITED_FUNC_LENS | BPIL_FUNC_INFO | BPIL_PROG_TAGS
# BTF kinds (include/uapi/linux/btf.h)
BTF_KIND_FUNC, BTF_KIND_FUNC_PROTO = 12, 13


def base(attrs=None, pipe=False):
    """A small file with one sample, ready for feature sections."""
    p = Perf(attrs or [Attr(ids=[1])], pipe=pipe)
    p.sample(ip=0x1000, pid=1, tid=1, time=1)
    return p


def numa_section(p, lists):
    """NUMA_TOPOLOGY: u32 nr, then per node u32 node, u64 mem_total,
    u64 mem_free, string cpu list."""
    body = p.u32(len(lists))
    for i, cpus in enumerate(lists):
        body += p.u32(i) + p.u64(1000 * (i + 1)) + p.u64(500 * (i + 1)) + p.perf_string(cpus)
    return body


def bpf_prog_info(p, prog_id, nr, ksyms, lens, tags, data, name=b'', btf_id=0, finfo=0, rec_size=0):
    """One BPF_PROG_INFO entry (perf_bpil): u32 info_len, u32 data_len,
    u64 arrays, the bpf_prog_info, the data its array offsets point into."""
    info = bytearray(BI_SIZE)
    struct.pack_into('<I', info, BI_ID, prog_id)
    info[BI_NAME:BI_NAME + len(name)] = name
    struct.pack_into('<IIQQ', info, BI_NR_JITED_KSYMS, nr, nr, ksyms, lens)
    struct.pack_into('<IIQ', info, BI_BTF_ID, btf_id, rec_size, finfo)
    struct.pack_into('<I', info, BI_NR_FUNC_INFO, nr if btf_id else 0)
    struct.pack_into('<IQ', info, BI_NR_PROG_TAGS, nr, tags)
    return p.u32(len(info)) + p.u32(len(data)) + p.u64(BPIL_ARRAYS) + bytes(info) + bytes(data)


def prog_data(nr, type_ids=(), tag_base=0x10):
    """The data area of a program with nr sub-programs: jited_ksyms (u64
    addresses), jited_func_lens (u32), prog_tags (8 bytes each), then the
    func_info records {u32 insn_off, u32 type_id}. Returns the data and the
    offsets of the four arrays."""
    ksyms = b''.join(struct.pack('<Q', 0xffffffffc0000000 + 0x1000 * i) for i in range(nr))
    lens = b''.join(struct.pack('<I', 0x40 + i) for i in range(nr))
    tags = b''.join(bytes((tag_base + 8 * i + k) & 0xff for k in range(8)) for i in range(nr))
    finfo = b''.join(struct.pack('<II', 4 * i, t) for i, t in enumerate(type_ids))
    data = ksyms + lens + tags + finfo
    return data, 0, len(ksyms), len(ksyms) + len(lens), len(ksyms) + len(lens) + len(tags)


def btf_blob(funcs, hdr_len=24):
    """A little-endian BTF blob: one FUNC_PROTO (type 1), then a FUNC per
    name (types 2, 3, ...). hdr_len other than 24 makes the header one
    libbpf refuses when it points outside the blob."""
    strs = b'\0'
    types = struct.pack('<III', 0, BTF_KIND_FUNC_PROTO << 24, 0)
    for name in funcs:
        types += struct.pack('<III', len(strs), BTF_KIND_FUNC << 24, 1)
        strs += bytes(name) + b'\0'
    return struct.pack('<HBBIIIII', 0xeb9f, 1, 0, hdr_len, 0, len(types), len(types), len(strs)) + types + strs


def btf_section(p, blobs):
    """BPF_BTF: u32 count, then per blob u32 id, u32 size, the blob."""
    return p.u32(len(blobs)) + b''.join(p.u32(i) + p.u32(len(b)) + b for i, b in blobs)


def info_numa_cpulist_overflow():
    """NUMA cpu lists whose numbers do not fit an int, nor a long: a range
    from 2^64 - 100 down to 0 (-100 as a long) and a cpu of 2^64 - 2^40
    (-2^40 as a long). perf refuses both lists."""
    p = base()
    p.string_feature(FEAT_HOSTNAME, b'numa')
    p.feature(FEAT_NUMA_TOPOLOGY, numa_section(p, [b'18446744073709551516-0', b'18446742974197923840']))
    return p.to_bytes()


def info_numa_cpulist_extremes():
    """Valid NUMA cpu lists that perf 6.1 prints, with cpus beyond any
    table: 2147483646, a range of 2^31 - 1 cpus (perf itself takes minutes
    on it), hex and octal numbers as strtoul reads them, an empty list
    (perf's dummy map, printed -1), trailing garbage after a comma."""
    p = base()
    p.string_feature(FEAT_HOSTNAME, b'numa')
    p.feature(FEAT_NUMA_TOPOLOGY, numa_section(p, [
        b'9000,2147483646,0x10-0x11,0-3', b'0-2147483646', b'010,4-5', b'', b'7,x']))
    p.feature(FEAT_TOTAL_MEM, p.u64(4096))
    return p.to_bytes()


def info_numa_cpulist_invalid():
    """NUMA cpu lists perf 6.1 refuses (a reversed range, a repeated cpu,
    a leading sign): perf then prints no NUMA line at all."""
    p = base()
    p.string_feature(FEAT_HOSTNAME, b'numa')
    p.feature(FEAT_NUMA_TOPOLOGY, numa_section(p, [b'0-3', b'7-5', b'1,1', b'-1']))
    return p.to_bytes()


def info_bpf_prog_info_before_section():
    """A BPF program whose jited_ksyms offset is 2^64 - 8: `off + 8 * nr`
    wraps to 0, and the array would start 8 bytes before the program's
    data."""
    p = base()
    data = bytes(range(0x40, 0x40 + 32))
    p.feature(FEAT_BPF_PROG_INFO, p.u32(1) + bpf_prog_info(p, 7, 1, (1 << 64) - 8, 8, 16, data, name=b'prog'))
    return p.to_bytes()


def info_bpf_prog_info_huge_count():
    """A BPF program with 2^28 sub-programs whose arrays start 2^31 and
    2^30 bytes before the end of the address space: offset plus size wraps
    to 0, and the arrays would start 2 GiB before the section."""
    p = base()
    nr = 1 << 28
    data = bytes(64)
    p.feature(FEAT_BPF_PROG_INFO, p.u32(1) + bpf_prog_info(p, 8, nr, (1 << 64) - (1 << 31), (1 << 64) - (1 << 30),
                                                           (1 << 64) - (1 << 31), data))
    return p.to_bytes()


def bpf_prog(p, prog_id, nr, type_ids=(), btf_id=0, name=b'', rec_size=8, finfo=None, tag_base=0x10):
    """A well-formed program entry whose arrays lie in its data."""
    data, ksyms, lens, tags, fi = prog_data(nr, type_ids, tag_base)
    return bpf_prog_info(p, prog_id, nr, ksyms, lens, tags, data, name=name, btf_id=btf_id,
                         finfo=fi if finfo is None else finfo, rec_size=rec_size)


def info_bpf_btf_names():
    """BPF programs named as perf 6.1 names them: from their BTF function
    info (the first of two blobs with the same id), from their own name
    when their BTF is one libbpf refuses (a header length past the blob),
    "F" for sub-programs without BTF, no name, no sub-programs, and
    sub-program counts that disagree (perf prints nothing)."""
    p = base()
    progs = [bpf_prog(p, 10, 2, [2, 3], btf_id=1, tag_base=0x10),
             bpf_prog(p, 11, 1, [3], btf_id=1, tag_base=0x30),
             bpf_prog(p, 12, 1, [2], btf_id=2, name=b'own', tag_base=0x50),
             bpf_prog(p, 13, 3, tag_base=0x70),
             bpf_prog(p, 14, 1, tag_base=0x90),
             bpf_prog(p, 15, 0)]
    data, ksyms, lens, tags, fi = prog_data(2)
    odd = bytearray(bpf_prog_info(p, 16, 2, ksyms, lens, tags, data))
    struct.pack_into('<I', odd, 16 + BI_NR_PROG_TAGS, 1)
    progs.append(bytes(odd))
    p.feature(FEAT_BPF_PROG_INFO, p.u32(len(progs)) + b''.join(progs))
    p.feature(FEAT_BPF_BTF, btf_section(p, [(1, btf_blob([b'main_fn', b'helper'])), (2, btf_blob([b'x'], 0xffffffff)),
                                            (1, btf_blob([b'shadowed', b'shadowed2']))]))
    return p.to_bytes()


def info_bpf_btf_type_beyond():
    """A program whose BTF function info names type 99 of a BTF with 3
    types (perf 6.1 dereferences NULL), next to a well-formed one."""
    p = base()
    progs = [bpf_prog(p, 20, 1, [99], btf_id=1), bpf_prog(p, 21, 1, [2], btf_id=1)]
    p.feature(FEAT_BPF_PROG_INFO, p.u32(len(progs)) + b''.join(progs))
    p.feature(FEAT_BPF_BTF, btf_section(p, [(1, btf_blob([b'main_fn', b'helper']))]))
    return p.to_bytes()


def info_bpf_func_info_outside():
    """Programs whose func_info offset is 2^64 - 4 (an offset plus the
    record's 8 bytes wraps) and whose record size is 2^32 - 1 (the second
    record lies 4 GiB on)."""
    p = base()
    progs = [bpf_prog(p, 30, 1, [2], btf_id=1, finfo=(1 << 64) - 4),
             bpf_prog(p, 31, 2, [2, 3], btf_id=1, rec_size=0xffffffff)]
    p.feature(FEAT_BPF_PROG_INFO, p.u32(len(progs)) + b''.join(progs))
    p.feature(FEAT_BPF_BTF, btf_section(p, [(1, btf_blob([b'main_fn', b'helper']))]))
    return p.to_bytes()


def info_bpf_btf_header_wrap():
    """BTF blobs whose header offsets wrap a 32-bit size_t (header length
    2^32 - 1 plus a type offset of 1; a string offset of 2^32 - 16): summed
    in 32 bits they look like small in-bounds offsets. libbpf refuses both,
    so perf names the programs as without BTF."""
    p = base()
    a = bytearray(btf_blob([b'main_fn']))
    struct.pack_into('<II', a, 4, 0xffffffff, 1)
    b = bytearray(btf_blob([b'main_fn']))
    struct.pack_into('<I', b, 16, 0xfffffff0)
    progs = [bpf_prog(p, 40, 1, [2], btf_id=1, name=b'first'), bpf_prog(p, 41, 2, [2, 2], btf_id=2)]
    p.feature(FEAT_BPF_PROG_INFO, p.u32(len(progs)) + b''.join(progs))
    p.feature(FEAT_BPF_BTF, btf_section(p, [(1, bytes(a)), (2, bytes(b))]))
    return p.to_bytes()


def strings(p, items, align=8):
    """perf strings: u32 length, the text NUL-padded to `align` bytes (perf
    writes 64; CPU_TOPOLOGY's reader depends on it)."""
    out = b''
    for x in items:
        raw = bytes(x) + b'\0'
        raw += b'\0' * (-len(raw) % align)
        out += p.u32(len(raw)) + raw
    return out


def every_feature(p, text):
    """Feature sections for every feature perf 6.1 prints, well-formed,
    each of their strings carrying `text`: {id: section bytes}. p's attrs
    are the events (EVENT_DESC names them, GROUP_DESC groups the first two)."""
    f = {}
    for feat, label in ((FEAT_HOSTNAME, b'host'), (FEAT_OSRELEASE, b'6.1.0'), (FEAT_VERSION, b'6.1'),
                        (FEAT_ARCH, b'x86_64'), (FEAT_CPUDESC, b'cpu desc'), (FEAT_CPUID, b'GenuineIntel,6,1,1')):
        raw = label + text + b'\0'
        raw += b'\0' * (-len(raw) % 64)
        f[feat] = p.u32(len(raw)) + raw
    f[FEAT_NRCPUS] = p.u32(4) + p.u32(4)
    f[FEAT_TOTAL_MEM] = p.u64(16 << 20)
    f[FEAT_CMDLINE] = p.u32(4) + strings(p, [b'perf', b'record', b"it's" + text, b'-a'])
    desc = p.u32(len(p.attrs)) + p.u32(128)
    for i, a in enumerate(p.attrs):
        ab = a.to_bytes(p.e)
        ab = ab + b'\0' * (128 - len(ab))
        desc += ab + p.u32(len(a.ids)) + p.perf_string(b'event%d' % i + text) + b''.join(p.u64(x) for x in a.ids)
    f[FEAT_EVENT_DESC] = desc
    f[FEAT_CPU_TOPOLOGY] = (p.u32(1) + strings(p, [b'0-3' + text], 64) + p.u32(2) + strings(p, [b'0-1', b'2-3'], 64) +
                            b''.join(p.u32(i // 2) + p.u32(0) for i in range(4)) +
                            p.u32(1) + strings(p, [b'0-3'], 64) + b''.join(p.u32(0) for _ in range(4)))
    f[FEAT_NUMA_TOPOLOGY] = numa_section(p, [b'0-1', b'2-3'])
    f[FEAT_BRANCH_STACK] = b''
    f[FEAT_PMU_MAPPINGS] = p.u32(3) + b''.join(p.u32(t) + p.perf_string(n) for t, n in
                                               ((4, b'cpu'), (1, b'software'), (9, b'pmu' + text)))
    if len(p.attrs) >= 2:
        f[FEAT_GROUP_DESC] = p.u32(1) + p.perf_string(b'group' + text) + p.u32(0) + p.u32(2)
    f[FEAT_AUXTRACE] = p.u64(0)
    f[FEAT_STAT] = b''
    f[FEAT_CACHE] = p.u32(1) + p.u32(2) + b''.join(
        p.u32(lvl) + p.u32(64) + p.u32(64) + p.u32(8) + strings(p, [typ, size, b'0-1' + text])
        for lvl, typ, size in ((1, b'Data' + text, b'32K'), (2, b'Unified', b'1024K' + text)))
    f[FEAT_SAMPLE_TIME] = p.u64(1000000123456) + p.u64(1002500654321)
    f[FEAT_MEM_TOPOLOGY] = p.u64(1) + p.u64(0x8000000) + p.u64(2) + (
        p.u64(0) + p.u64(1 << 31) + p.u64(70) + p.u64(0xffff0000ffff) + p.u64(0x3f) +
        p.u64(1) + p.u64(1 << 30) + p.u64(8) + p.u64(0xa5))
    f[FEAT_CLOCKID] = p.u64(1)
    data, ksyms, lens, tags, fi = prog_data(2, [2, 3])
    f[FEAT_BPF_PROG_INFO] = p.u32(2) + bpf_prog_info(p, 10, 2, ksyms, lens, tags, data, btf_id=1, finfo=fi,
                                                     rec_size=8) + bpf_prog(p, 11, 1, name=b'own')
    f[FEAT_BPF_BTF] = btf_section(p, [(1, btf_blob([b'main' + text, b'helper']))])
    f[FEAT_COMPRESSED] = p.u32(0) + p.u32(1) + p.u32(1) + p.u32(3) + p.u32(0x81000)
    f[FEAT_CPU_PMU_CAPS] = p.u32(2) + strings(p, [b'branches', b'32', b'pmu_name', b'skylake' + text])
    f[FEAT_CLOCK_DATA] = p.u32(1) + p.u32(1) + p.u64(1700000000123456789) + p.u64(5000123456789)
    f[FEAT_HYBRID_TOPOLOGY] = p.u32(2) + strings(p, [b'cpu_core' + text, b'0-1', b'cpu_atom', b'2-3' + text])
    f[FEAT_PMU_CAPS] = p.u32(1) + p.u32(1) + strings(p, [b'max_precise', b'3' + text]) + p.perf_string(b'ibs' + text)
    return f


def events():
    """Two events with ids, as perf needs them to read a group."""
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD
    return [Attr(config=0, sample_type=st, ids=[1]), Attr(config=1, sample_type=st, ids=[2])]


def rich(text=b'', pipe=False, big_endian=False):
    """A file (or pipe stream) with every feature perf 6.1 prints."""
    p = Perf(events(), pipe=pipe, big_endian=big_endian)
    for feat, sec in sorted(every_feature(p, text).items()):
        if pipe:
            p.header_feature(feat, sec)
        else:
            p.feature(feat, sec)
    p.sample(ip=0x1000, pid=1, tid=1, time=1)
    return p.to_bytes()


EVIL = b'\n# forged line\x1b[2J\x1b]0;title\x07\r\x7f\xc2\x9b31m\t'


def info_control_chars():
    """Every string info prints (host, release, version, arch, cpu desc and
    id, cmdline, event, pmu, cache, sibling, hybrid, group and BTF names,
    pmu caps) ending in newlines, terminal escape sequences (C0 and C1),
    DEL and a tab: printed raw, each could forge a line or drive the
    terminal."""
    return rich(EVIL)


def info_control_chars_pipe():
    """The same strings in a pipe's HEADER_FEATURE records."""
    return rich(EVIL, pipe=True)


def info_zstd_window_1gib():
    """A pipe whose first COMPRESSED chunk starts a zstd frame that asks
    for a 1 GiB window (libzstd's decoder, and so perf, refuses over 128
    MiB); the chunk holds one FINISHED_ROUND record."""
    p = Perf([Attr(ids=[1])], pipe=True)
    p.header_feature(FEAT_HOSTNAME, p.perf_string(b'zstd'))
    p.header_feature(FEAT_COMPRESSED, p.u32(0) + p.u32(1) + p.u32(1) + p.u32(1) + p.u32(4096))
    inner = struct.pack('<IHH', FINISHED_ROUND, 0, 8)
    p.compressed(zstd_frame_header(window_log=30) + zstd_raw_block(inner, last=True))
    return p.to_bytes()


INPUTS = [
    ('info-numa-cpulist-overflow.data', info_numa_cpulist_overflow),
    ('info-numa-cpulist-extremes.data', info_numa_cpulist_extremes),
    ('info-numa-cpulist-invalid.data', info_numa_cpulist_invalid),
    ('info-bpf-prog-info-before-section.data', info_bpf_prog_info_before_section),
    ('info-bpf-prog-info-huge-count.data', info_bpf_prog_info_huge_count),
    ('info-bpf-btf-names.data', info_bpf_btf_names),
    ('info-bpf-btf-type-beyond.data', info_bpf_btf_type_beyond),
    ('info-bpf-func-info-outside.data', info_bpf_func_info_outside),
    ('info-bpf-btf-header-wrap.data', info_bpf_btf_header_wrap),
    ('info-control-chars.data', info_control_chars),
    ('info-control-chars-pipe.data', info_control_chars_pipe),
    ('info-zstd-window-1gib.data', info_zstd_window_1gib),
]


# Inputs of about 1 MB that are slow or greedy only when a printer's time
# or output grows faster than its section: generated by the test
# (tests/hostile_info.py), not kept in the repository.

def large_btf_lookups():
    """One BTF blob of 40000 types and a program of 15000 sub-programs
    that all name the last type: quadratic for a printer that walks the
    types from the first for each name."""
    p = base()
    strs = b'\0f\0'
    types = struct.pack('<III', 0, BTF_KIND_FUNC_PROTO << 24, 0)
    types += struct.pack('<III', 1, BTF_KIND_FUNC << 24, 1) * 39999
    blob = struct.pack('<HBBIIIII', 0xeb9f, 1, 0, 24, 0, len(types), len(types), len(strs)) + types + strs
    nr = 15000
    data, ksyms, lens, tags, fi = prog_data(nr, [40000] * nr)
    prog = bpf_prog_info(p, 1, nr, ksyms, lens, tags, data, btf_id=7, finfo=fi, rec_size=8)
    p.feature(FEAT_BPF_PROG_INFO, p.u32(1) + prog)
    p.feature(FEAT_BPF_BTF, btf_section(p, [(7, blob)]))
    return p.to_bytes()


def large_btf_blobs():
    """10000 BTF blobs and 2000 programs that each name a blob near the
    end: quadratic for a printer that walks the blobs for each program."""
    p = base()
    blobs = [(i, btf_blob([b'f'])) for i in range(10000)]
    progs = [bpf_prog(p, i, 1, [2], btf_id=9000 + i % 1000) for i in range(2000)]
    p.feature(FEAT_BPF_PROG_INFO, p.u32(len(progs)) + b''.join(progs))
    p.feature(FEAT_BPF_BTF, btf_section(p, blobs))
    return p.to_bytes()


def large_pipe_group_descs():
    """A pipe with 1000 events and 23000 GROUP_DESC records, each one
    group of every event: each record walks every event, and perf prints
    each (1000 names per record, 350 MB in all)."""
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD
    p = Perf([Attr(config=i % 10, sample_type=st, ids=[i + 1], size=64) for i in range(1000)], pipe=True)
    rec = p.u32(1) + p.perf_string(b'g') + p.u32(0) + p.u32(1000)
    for _ in range(23000):
        p.header_feature(FEAT_GROUP_DESC, rec)
    return p.to_bytes()


def large_numa_runs():
    """NUMA cpu lists of 120000 single cpus in reverse order and of the
    largest runs perf accepts."""
    p = base()
    many = b','.join(b'%d' % (2 * i) for i in range(120000, 0, -1))
    p.feature(FEAT_NUMA_TOPOLOGY, numa_section(p, [many, b'0-2147483646', b'5,1000000-2000000000,7']))
    return p.to_bytes()


LARGE = [
    ('large-btf-lookups.data', large_btf_lookups),
    ('large-btf-blobs.data', large_btf_blobs),
    ('large-pipe-group-descs.data', large_pipe_group_descs),
    ('large-numa-runs.data', large_numa_runs),
]


def main():
    args = sys.argv[1:]
    inputs = INPUTS
    if args[:1] == ['--large']:  # the test's large inputs, into a scratch directory
        inputs, args = LARGE, args[1:]
    out = args[0] if args else os.path.dirname(os.path.abspath(__file__))
    for name, fn in inputs:
        data = fn()
        assert len(data) < (64 * 1024 if inputs is INPUTS else 1100 * 1024), (name, len(data))
        with open(os.path.join(out, name), 'wb') as f:
            f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main())
