#!/usr/bin/env python3
"""Worst-case inputs for the resource contract: each at most 1 MiB, each
built to make one piece of per-record or per-sample work as expensive as a
hostile file can (a decompressor, a table, a lookup, a queue, an output).

    gen_resources.py [--budget BYTES] OUTDIR [NAME...]   write NAME.data files
    gen_resources.py --list                               names and what each is

Without NAMEs every input is written. The output is deterministic: the same
bytes on every run, so a measurement can be repeated. --budget scales an
input down (the small copies in tests/hostile/ are made this way); the
contract test uses the default, 1 MiB. `threads-dir` is a --threads
directory (NAME.data/data and NAME.data/data.N), the others are files.

tests/contract.py runs every command on each of them; docs/reliability.md
says what the contract is.
"""
import os
import shutil
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
from perfgen import (Attr, Perf, BRANCH_ANY, CONTEXT_KERNEL, FEAT_BPF_BTF, FEAT_BPF_PROG_INFO,  # noqa: E402
                     FEAT_BRANCH_STACK, FEAT_COMPRESSED, FEAT_EVENT_DESC, FEAT_GROUP_DESC, FEAT_NUMA_TOPOLOGY,
                     FEAT_TRACING_DATA, FORMAT_GROUP, FORMAT_ID, MISC_KERNEL, SAMPLE_BRANCH_STACK, SAMPLE_CALLCHAIN,
                     SAMPLE_CPU, SAMPLE_IDENTIFIER, SAMPLE_IP, SAMPLE_RAW, SAMPLE_READ, SAMPLE_TID, SAMPLE_TIME,
                     zstd_frame_header, zstd_raw_block, zstd_rle_block, zstd_seq_block)

LIMIT = 1 << 20              # the contract's input size
BLOCK = 1 << 17              # a zstd block's most output
PERF_MMAP_LEN = 528384       # what perf writes in the COMPRESSED feature (129 pages)
HEAD = 256                   # file header, one attr, the COMPRESSED feature and its index
CHUNK_MAX = 65527            # a COMPRESSED record's most payload

GENERATORS = {}


def generator(name, what):
    """Registers fn(budget) -> bytes (a file) or {name: bytes} (a directory)."""
    def add(fn):
        GENERATORS[name] = (fn, what)
        return fn
    return add


def plain(sample_type=SAMPLE_IP | SAMPLE_TID, **kw):
    """An attr without sample_id_all, 64 bytes: the smallest records."""
    return Attr(sample_type=sample_type, flags=0, size=64, **kw)


def used(p):
    """Bytes the file has so far (header, attrs, records; no features)."""
    return 104 + sum(80 + 8 * len(a.ids) for a in p.attrs if a.share_ids is None) + \
        80 * sum(1 for a in p.attrs if a.share_ids is not None) + sum(len(r) for r in p.records)


# -- compressed streams ---------------------------------------------------

def compressed_file(attr, chunks, mmap_len=PERF_MMAP_LEN):
    """A file whose data is COMPRESSED records with these payloads, and the
    COMPRESSED feature perf writes beside them."""
    p = Perf([attr])
    p.feature(FEAT_COMPRESSED, p.compressed_section(mmap_len))
    for c in chunks:
        assert len(c) <= CHUNK_MAX
        p.compressed(c)
    return p.to_bytes()


def fit_chunks(budget, fixed, first, per_chunk):
    """How many chunks of per_chunk payload bytes (each a record of 8 more)
    fit in budget after `fixed` bytes and a first chunk of `first` bytes."""
    return max(0, (budget - fixed - 8 - first) // (8 + per_chunk))


def periodic_chunks(record, budget, fixed, window_log=20, blocks_per_chunk=4):
    """One zstd frame whose output is `record` over and over, cut into
    chunks of blocks_per_chunk blocks (512 KiB of output each: at most
    PERF_MMAP_LEN, as perf's chunks); as many chunks as the budget takes.
    The last block evens the output to whole records."""
    P = len(record)
    head = zstd_frame_header(window_log) + zstd_seq_block(record, BLOCK - P, P)
    step = zstd_seq_block(b'', BLOCK, P)
    per = blocks_per_chunk * len(step)
    n = fit_chunks(budget, fixed + 8 * (len(head) // CHUNK_MAX), len(head) + (blocks_per_chunk - 1) * len(step), per)
    first = head + step * (blocks_per_chunk - 1)  # a block may run on into the next chunk
    chunks = [first[i:i + CHUNK_MAX] for i in range(0, len(first), CHUNK_MAX)]
    chunks += [step * blocks_per_chunk for _ in range(n)]
    total = BLOCK * blocks_per_chunk * (n + 1)
    chunks.append(zstd_seq_block(b'', BLOCK - total % P if total % P else BLOCK, P, last=True))
    return chunks


@generator('zstd-window', 'a 64 MiB zstd window filled by RLE blocks, then ~260,000 one-byte blocks: a decoder '
           'that slides its window by copying it copies 64 MiB per block')
def zstd_window(budget):
    head = zstd_frame_header(26)
    fill = zstd_rle_block(0x08, BLOCK)
    chunks = [head + fill * 4] + [fill * 4 for _ in range(127)]  # 64 MiB: 0x08 bytes, records of 2056
    one = zstd_raw_block(b'\x08')
    room = budget - HEAD - sum(8 + len(c) for c in chunks)
    per = CHUNK_MAX // len(one)
    while room > 8 + len(one):
        k = min(per, (room - 8) // len(one))
        chunks.append(one * k)
        room -= 8 + k * len(one)
    return compressed_file(plain(), chunks)


def expansion(record, budget, attr):
    return compressed_file(attr, periodic_chunks(record, budget, HEAD))


@generator('zstd-expand-8', 'chunks of compressed blocks whose output is one 8-byte SAMPLE over and over: '
           '~1 MiB of input, ~10 GiB and over a billion records of output')
def zstd_expand_8(budget):
    return expansion(struct.pack('<IHH', 9, 2, 8), budget, plain(sample_type=0))


@generator('zstd-expand-16t', 'as zstd-expand-8 with 16-byte SAMPLEs that carry a time and no FINISHED_ROUND: '
           'an ordered walk queues every one')
def zstd_expand_16t(budget):
    return expansion(struct.pack('<IHHQ', 9, 2, 16, 1000), budget, plain(sample_type=SAMPLE_TIME))


@generator('zstd-expand-big', 'as zstd-expand-16t with 65,528-byte SAMPLEs (RAW): the queue of an ordered walk '
           'keeps every decompressed buffer')
def zstd_expand_big(budget):
    raw = 65528 - 16 - 4
    rec = struct.pack('<IHHQI', 9, 2, 65528, 1000, raw) + bytes(raw)
    return expansion(rec, budget, plain(sample_type=SAMPLE_TIME | SAMPLE_RAW))


@generator('zstd-expand-frames', 'one 64 MiB zstd frame of RLE blocks per COMPRESSED record and a COMPRESSED '
           'feature saying chunks hold 64 MiB: ~500 frames, ~32 GiB')
def zstd_expand_frames(budget):
    frame = zstd_frame_header(17) + zstd_rle_block(0x08, BLOCK) * 511 + zstd_rle_block(0x08, BLOCK, last=True)
    n = fit_chunks(budget, HEAD, 0, len(frame))
    return compressed_file(plain(), [frame] * n, mmap_len=64 << 20)


@generator('zstd-big-chunk', 'a COMPRESSED feature with mmap_len 4 GiB and chunks that each fill what that asks '
           'for: a 256 MiB output buffer')
def zstd_big_chunk(budget):
    chunk = zstd_frame_header(17) + zstd_rle_block(0x08, BLOCK) * 2046 + zstd_rle_block(0x08, BLOCK, last=True)
    n = fit_chunks(budget, HEAD, 0, len(chunk))
    return compressed_file(plain(), [chunk] * n, mmap_len=0xffffffff)


@generator('zstd-window-2g', 'a first frame asking for a 2 GiB window (the largest the decoder takes), filled '
           'by RLE blocks')
def zstd_window_2g(budget):
    fill = zstd_rle_block(0x08, BLOCK)
    head = zstd_frame_header(31)
    n = fit_chunks(budget, HEAD, len(head) + 4 * len(fill), 4 * len(fill))
    return compressed_file(plain(), [head + fill * 4] + [fill * 4] * n)


@generator('chunk-event-updates', '6,000 events, then chunks whose output repeats one EVENT_UPDATE (NAME): each '
           'record from a chunk that names an event makes the tools look at every event')
def chunk_event_updates(budget):
    n = budget // 2 // 88
    attrs = [plain(sample_type=SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID, ids=[i + 1]) for i in range(n)]
    p = Perf(attrs)
    rec = p.event_update_name(1, b'renamed')
    p.records.clear()
    p.feature(FEAT_COMPRESSED, p.compressed_section(PERF_MMAP_LEN))
    for c in periodic_chunks(rec, budget, used(p) + 64):
        p.compressed(c)
    return p.to_bytes()


# -- queues, tables and lookups ---------------------------------------------

@generator('ordered-desc', '65,000 16-byte SAMPLEs with times in descending order and no FINISHED_ROUND: every '
           'record is queued and each goes to the top of the heap')
def ordered_desc(budget):
    p = Perf([plain(sample_type=SAMPLE_TIME)])
    n = (budget - used(p)) // 16
    for i in range(n):
        p.sample(time=1000000 + n - i)
    return p.to_bytes()


@generator('fork-storm', '10,900 MMAPs in one process, then 16,300 FORKs each making a new process: each child '
           'gets a copy of the parent\'s maps')
def fork_storm(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'parent')
    room = budget - used(p)
    maps = room // 2 // 48
    forks = (room - maps * 48) // 32
    for i in range(maps):
        p.mmap(1, 1, 0x10000000 + i * 0x10000, 0x1000, 0, b'/m')
    for j in range(forks):
        p.fork(1000 + j, 1, 1000 + j, 1)
    return p.to_bytes()


@generator('fork-storm-children', '15,000 MMAPs in one process, then 4,000 FORKs each making a new process that '
           'maps one more file and has two samples')
def fork_storm_children(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'parent')
    room = budget - used(p)
    maps = room // 2 // 48
    kids = (room - maps * 48) // 128
    for i in range(maps):
        p.mmap(1, 1, 0x10000000 + i * 0x10000, 0x1000, 0, b'/m')
    for j in range(kids):
        pid = 1000 + j
        p.fork(pid, 1, pid, 1)
        p.mmap(pid, pid, 0x7f0000000000, 0x1000, 0, b'/c')
        p.sample(ip=0x10000000 + (j % maps) * 0x10000 + 0x10, pid=pid, tid=pid)
        p.sample(ip=0x7f0000000010, pid=pid, tid=pid)
    return p.to_bytes()


@generator('mmap-storm', 'one MMAP over the whole address space, then 20,000 small MMAPs inside it, each below '
           'the last: each splits what is left of the big one in two, so the process ends with 40,000 maps; '
           'then samples in them')
def mmap_storm(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'mapper')
    p.mmap2(1, 1, 0x10000, 0x7ff000000000, 0, b'/big')
    room = budget - used(p)
    n = room * 95 // 100 // 48
    for i in range(n):
        p.mmap(1, 1, 0x10000000 + (n - i) * 0x2000, 0x1000, 0, b'/m')
    for k in range((budget - used(p)) // 24):
        p.sample(ip=0x10000000 + (k % n + 1) * 0x2000 + 0x10, pid=1, tid=1)
    return p.to_bytes()


@generator('event-desc', '4,300 events sharing one array of 43,000 ids and an EVENT_DESC of 3,900 entries whose '
           'ids match none: matching each entry by a scan reads every id of every event (7e11 reads)')
def event_desc(budget):
    third = (budget - 1024) // 3
    nev, nids, ndesc = third // 80, third // 8, third // 88
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID
    attrs = [plain(sample_type=st, ids=range(1, nids + 1))] + [plain(sample_type=st, share_ids=0)
                                                              for _ in range(nev - 1)]
    p = Perf(attrs)
    p.feature(FEAT_EVENT_DESC, p.event_desc_section([(plain(sample_type=st), b'e', [nids + 1 + d])
                                                     for d in range(ndesc)]))
    for i in range(16):
        p.sample(ip=0x400000 + i, pid=1, tid=1, id=i + 1)
    return p.to_bytes()


@generator('shared-ids', '6,500 events all pointing at one array of 65,536 ids (4.3e8 ids in all), then samples '
           'whose id is none of them')
def shared_ids(budget):
    nids = min(65536, budget // 2 // 8)
    nev = (budget - nids * 8 - 4096) // 80
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID
    p = Perf([plain(sample_type=st, ids=range(1, nids + 1))] + [plain(sample_type=st, share_ids=0)
                                                               for _ in range(nev - 1)])
    for i in range(64):
        p.sample(ip=0x400000 + i, pid=1, tid=1, id=nids + 1 + i)
    return p.to_bytes()


@generator('pipe-attrs', 'a pipe of 4,500 HEADER_ATTRs of 16 ids each, a sample after each: an id index '
           'refilled and re-sorted for each attr is sorted 4,500 times over')
def pipe_attrs(budget):
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID
    p = Perf([plain(sample_type=st, ids=range(1, 17))], pipe=True)
    n = (budget - 16 - 200) // 232
    for i in range(1, n):
        p.header_attr(plain(sample_type=st, ids=range(16 * i + 1, 16 * i + 17)))
        p.sample(ip=0x400000 + i, pid=1, tid=1, id=16 * i + 1)
    return p.to_bytes()


@generator('tid-collide', '30,000 FORKs, each making a thread whose tid is k<<17 (equal to the others in the '
           'low 17 bits) as the child of the thread made last, then samples of the last 3,600 of them')
def tid_collide(budget):
    p = Perf([plain()])
    room = budget - used(p)
    n = min(32767, room * 92 // 100 // 32)
    parent = 1
    for k in range(1, n + 1):
        p.fork(k << 17, parent, k << 17, parent)
        parent = k << 17
    m = (room - 32 * n) // 24
    for i in range(m):
        k = n - i % n
        p.sample(ip=0x400000 + i, pid=k << 17, tid=k << 17)
    return p.to_bytes()


@generator('pid-table', '43,000 samples, each of a new process: report --csv keeps a row per process')
def pid_table(budget):
    p = Perf([plain()])
    n = (budget - used(p)) // 24
    for i in range(n):
        p.sample(ip=0x400000 + i, pid=10 + i, tid=10 + i)
    return p.to_bytes()


def ksyms(p, n):
    for i in range(n):
        p.ksymbol(0xffffffffc0000000 + i * 0x1000, 0x100, b'k')


# two kernel addresses in no map and no ksym, equal but for bit 63 (and so
# for anything a hash of the low bits keys on)
KIP_A, KIP_B = 0xffffffff81234000, 0x7fffffff81234000


@generator('ksym-samples', '16,000 KSYMBOLs, then 21,000 kernel samples outside all of them')
def ksym_samples(budget):
    p = Perf([plain()])
    ksyms(p, (budget - used(p)) // 2 // 32)
    for i in range((budget - used(p)) // 24):
        p.sample(ip=(KIP_A, KIP_B)[i % 2], pid=1, tid=1, misc=MISC_KERNEL)
    return p.to_bytes()


@generator('ksym-callchains', '16,000 KSYMBOLs, then 65 kernel callchains of 1,000 frames that alternate between '
           'two addresses outside them, equal but for bit 63')
def ksym_callchains(budget):
    p = Perf([plain(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_CALLCHAIN)])
    ksyms(p, (budget - used(p)) // 2 // 32)
    chain = [CONTEXT_KERNEL] + [(KIP_A, KIP_B)[j % 2] for j in range(1000)]
    for _ in range((budget - used(p)) // (32 + 8 * len(chain))):
        p.sample(ip=KIP_A, pid=1, tid=1, misc=MISC_KERNEL, callchain=chain)
    return p.to_bytes()


@generator('ksym-branches', '16,000 KSYMBOLs, then 334 samples with branch stacks of 64 entries between kernel '
           'addresses outside them (report\'s branch mode)')
def ksym_branches(budget):
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_BRANCH_STACK, flags=0, size=80, branch_sample_type=BRANCH_ANY)
    p = Perf([a])
    p.feature(FEAT_BRANCH_STACK, b'')           # what makes report's branch mode the default
    ksyms(p, (budget - used(p)) // 2 // 32)
    br = [(KIP_A + 8 * j, KIP_B + 8 * j, 0) for j in range(64)]
    for _ in range((budget - used(p)) // (32 + 24 * len(br))):
        p.sample(ip=KIP_A, pid=1, tid=1, misc=MISC_KERNEL, branches=br)
    return p.to_bytes()


@generator('read-collide', 'PERF_SAMPLE_READ groups whose 32,000 counter ids are k<<48 (a multiplicative hash '
           'keeping the high bits of the product puts them in one slot)')
def read_collide(budget):
    nids = min(32000, budget // 4 // 8)
    a = plain(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_READ, read_format=FORMAT_GROUP | FORMAT_ID,
              ids=[k << 48 for k in range(1, nids + 1)])
    p = Perf([a])
    k, value = 0, 0
    for _ in range((budget - used(p)) // (32 + 64 * 16)):
        vals = []
        for _ in range(64):
            k = k % nids + 1
            value += 1
            vals.append((value, k << 48))
        p.sample(ip=0x400000, pid=1, tid=1, read=vals)
    return p.to_bytes()


@generator('dso-aliases', '9,400 MMAPs of /proc/self/exe, each spelled with other runs of slashes, a sample in '
           'each: a symbol table per spelling')
def dso_aliases(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'aliases')
    names = sorted((a + b + c, a, b, c) for a in range(1, 23) for b in range(1, 23) for c in range(1, 23))
    size = used(p)
    for _, a, b, c in names:
        name = b'/' * a + b'proc' + b'/' * b + b'self' + b'/' * c + b'exe'
        rec = p.mmap(1, 1, 0x400000, 0x100000, 0, name)
        size += len(rec) + 24
        if size > budget:
            p.records.pop()
            break
        p.sample(ip=0x401000, pid=1, tid=1)
    return p.to_bytes()


FIFO = b'contract-fifo'       # tests/contract.py makes it in the tools' working directory


@generator('mmap-fifo', 'an MMAP naming a FIFO (contract-fifo, relative: tests/contract.py makes one where the '
           'tools run) and a sample in it: opening the binary to read its symbols waits for a writer')
def mmap_fifo(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'fifo')
    p.mmap(1, 1, 0x400000, 0x1000, 0, FIFO)
    p.sample(ip=0x400100, pid=1, tid=1)
    return p.to_bytes()


# -- amplified output and loops ----------------------------------------------

@generator('report-wide', 'a 65,000-byte command name, then 40,000 samples at distinct addresses: every row of '
           'report is as wide as the widest name')
def report_wide(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'w' * 65000)
    for i in range((budget - used(p)) // 24):
        p.sample(ip=0x400000 + 16 * i, pid=1, tid=1)
    return p.to_bytes()


@generator('collapse-long-frames', 'two KSYMBOLs with 1,180-byte names and kernel callchains of 48 frames '
           'through them, each chain distinct: every folded stack is ~57 KB of text')
def collapse_long_frames(budget):
    p = Perf([plain(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_CALLCHAIN)])
    base = 0xffffffffa0000000
    p.ksymbol(base, 0x1000, b'a' * 1180)
    p.ksymbol(base + 0x1000, 0x1000, b'b' * 1180)
    for i in range((budget - used(p)) // (32 + 8 * 49)):
        chain = [CONTEXT_KERNEL] + [base + 0x10 + 0x1000 * ((i >> j) & 1) for j in range(48)]
        p.sample(ip=chain[1], pid=1, tid=1, misc=MISC_KERNEL, callchain=chain)
    return p.to_bytes()


@generator('callchain-8000', '16 samples with callchains of 8,000 distinct user addresses each')
def callchain_8000(budget):
    p = Perf([plain(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_CALLCHAIN)])
    for i in range((budget - used(p)) // (32 + 8 * 8000)):
        chain = [0x400000 + 16 * (j + i) for j in range(8000)]
        p.sample(ip=chain[0], pid=1, tid=1, callchain=chain)
    return p.to_bytes()


@generator('comm-chain', 'one thread renamed 21,000 times by COMMs, each name new, a sample after each')
def comm_chain(budget):
    p = Perf([plain()])
    for i in range((budget - used(p)) // 48):
        p.comm(1, 1, b'c%06d' % i)
        p.sample(ip=0x400000 + i, pid=1, tid=1)
    return p.to_bytes()


@generator('events-groups', '3,800 events in groups of two (GROUP_DESC) and 20,800 samples at distinct addresses '
           'spread over them: report\'s group view and one table per event')
def events_groups(budget):
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID
    nev = budget * 4 // 10 // 110
    p = Perf([plain(sample_type=st, ids=[i + 1]) for i in range(nev)])
    p.feature(FEAT_GROUP_DESC, p.group_desc_section([(b'g', 2 * g, 2) for g in range(nev // 2)]))
    for i in range((budget - used(p) - 24 * (nev // 2) - 16) // 32):
        p.sample(ip=0x400000 + 16 * i, pid=1, tid=1, id=i % nev + 1)
    return p.to_bytes()


@generator('cpu-map-range', '65,000 CPU_MAP records of the RANGE encoding, each cpus 0-65535')
def cpu_map_range(budget):
    p = Perf([plain()])
    for _ in range((budget - used(p)) // 16):
        p.cpu_map_range(0, 65535)
    return p.to_bytes()


@generator('info-numa', 'a NUMA_TOPOLOGY feature of 32,000 nodes, each with the cpu list 0-65535')
def info_numa(budget):
    p = Perf([plain()])
    p.sample(ip=0x400000, pid=1, tid=1)
    n = (budget - 4096) // 32
    p.feature(FEAT_NUMA_TOPOLOGY, p.numa_section([(i, 1 << 20, 1 << 19, b'0-65535') for i in range(n)]))
    return p.to_bytes()


@generator('info-bpf-btf', 'one BPF program of 65,000 sub-programs whose function info names the last of '
           '43,000 BTF types (the sub-programs\' arrays overlap: 8 bytes each): naming each sub-program walks the '
           'types from the first')
def info_bpf_btf(budget):
    p = Perf([plain()])
    p.sample(ip=0x400000, pid=1, tid=1)
    room = budget - 1024
    ntypes = room // 2 // 12
    nsub = (room - room // 2 - 256) // 8
    hdr = struct.pack('<HBBIIIII', 0xeb9f, 1, 0, 24, 0, 12 * ntypes, 12 * ntypes, 2)
    btf = hdr + struct.pack('<III', 1, 0, 0) * ntypes + b'\0f'
    p.feature(FEAT_BPF_BTF, p.u32(1) + p.u32(1) + p.u32(len(btf)) + btf)
    info = bytearray(192)
    for off, v in ((104, nsub), (108, nsub), (128, 1), (132, 8), (144, nsub), (180, nsub)):
        struct.pack_into('<I', info, off, v)
    # jited ksyms, func lens, tags and function info all at offset 0 of the
    # data: each 8-byte word is a func_info record {insn_off 0, type_id}
    data = struct.pack('<II', 0, ntypes) * nsub
    p.feature(FEAT_BPF_PROG_INFO, p.u32(1) + p.u32(len(info)) + p.u32(len(data)) + p.u64(0) + bytes(info) + data)
    return p.to_bytes()


@generator('threads-dir', 'a --threads directory of 40,000 data.N files, one sample in each')
def threads_dir(budget):
    p = Perf([plain()])
    p.comm(1, 1, b'threads')
    head = p.to_bytes()
    q = Perf([plain()])
    one = q.sample(ip=0x400000, pid=1, tid=1)
    n = (budget - len(head)) // len(one)
    files = {'data': head}
    for i in range(n):
        q.records.clear()
        files['data.%d' % i] = q.sample(ip=0x400000 + i, pid=1 + i % 64, tid=1 + i % 64)
    return files


# -- tracepoints (script formats them by their print fmt) ----------------------

TP_HEAD_PAGE = (b'\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
                b'\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n'
                b'\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n')
TP_FIELDS = (b'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
             b'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n'
             b'\tfield:unsigned long x;\toffset:8;\tsize:8;\tsigned:0;\n'
             b'\tfield:__data_loc char[] s;\toffset:16;\tsize:4;\tsigned:0;\n')
TP_SAMPLE = SAMPLE_IDENTIFIER | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_RAW   # what script -F trace asks


def tp_format_text(id, print_fmt, name=b'e', fields=TP_FIELDS):
    return b'name: %s\nID: %d\nformat:\n' % (name, id) + fields + b'\nprint fmt: ' + print_fmt + b'\n'


def tracing_data(files):
    """A TRACING_DATA section (version 0.6, little-endian) holding these
    format files in one event system."""
    out = b'\x17\x08\x44tracing0.6\0\0\x08' + struct.pack('<I', 4096)
    out += b'header_page\0' + struct.pack('<Q', len(TP_HEAD_PAGE)) + TP_HEAD_PAGE
    out += b'header_event\0' + struct.pack('<Q', 0)
    out += struct.pack('<I', 0) + struct.pack('<I', 1) + b'r\0' + struct.pack('<I', len(files))
    out += b''.join(struct.pack('<Q', len(f)) + f for f in files)
    return out + struct.pack('<IIQ', 0, 0, 0)


def tp_payload(x, s=b'abc'):
    """A RAW payload for TP_FIELDS: x, and s as the __data_loc string."""
    return struct.pack('<HHiQI', 1, 0, 1, x, (len(s) + 1) << 16 | 20) + s + b'\0'


def tp_file(section, configs, budget, x=1, per_event=False):
    """Tracepoint events with these attr.configs (one id each), the
    section as TRACING_DATA, then samples (round robin over the events
    when per_event) carrying tp_payload(x) until the budget is used."""
    p = Perf([plain(sample_type=TP_SAMPLE, type=2, config=c, period=1, ids=[i + 1]) for i, c in enumerate(configs)])
    p.feature(FEAT_TRACING_DATA, section)
    raw = tp_payload(x)
    one = len(p.sample(pid=1, tid=1, raw_data=raw))
    p.records.pop()
    room = budget - used(p) - len(section) - 64
    for k in range(max(0, room // one)):
        p.sample(pid=1, tid=1, time=k, raw_data=raw, id=(k % len(configs) if per_event else 0) + 1)
    return p.to_bytes()


@generator('tp-print-symbolic', 'a tracepoint whose print fmt is a __print_symbolic of 11,000 entries and a '
           '__print_flags of as many, then 8,000 samples whose value matches only the last entry of each: a '
           'linear scan reads every entry for every sample')
def tp_print_symbolic(budget):
    n = budget // 2 // 24
    sym = b', '.join(b'{ %d, "s%d" }' % (i + 2, i) for i in range(n // 2))
    flg = b', '.join(b'{ %d, "f" }' % (1 << 40 | i) for i in range(n // 2))
    fmt = (b'"%%s %%s", __print_symbolic(REC->x, %s, { 1, "last" }), __print_flags(REC->x, "|", %s, { 1, "one" })'
           % (sym, flg))
    return tp_file(tracing_data([tp_format_text(1, fmt)]), [1], budget)


@generator('tp-nested', 'three tracepoints whose print fmts nest parentheses, casts and unary minus 26,000 '
           'deep, ternaries 13,000 deep, and REC->x + REC->x + ... of 29,000 terms (grouped to the right as '
           'libtraceevent does: 29,000 deep); 7,800 samples of them')
def tp_nested(budget):
    k = budget // 4 // 10
    deep = b'"%d", ' + b'(' * k + b'(int)-REC->x' + b')' * k
    tern = b'"%d", ' + b'REC->x ? ' * (k // 2) + b'1' + b' : 2' * (k // 2)
    chain = b'"%d", ' + b' + '.join([b'REC->x'] * (budget // 4 // 9))
    files = [tp_format_text(1, deep), tp_format_text(2, tern), tp_format_text(3, chain)]
    return tp_file(tracing_data(files), [1, 2, 3], budget, per_event=True)


@generator('tp-many-formats', '9,600 tracepoint formats and 4,700 events naming the last 4,700 of them, then '
           'samples of each event in turn: finding each event\'s format by a walk over the files reads 4.5e7 of them')
def tp_many_formats(budget):
    nev = budget * 4 // 10 // 88
    files = []
    size = 0
    while size < budget * 45 // 100:
        f = tp_format_text(len(files) + 1, b'"x"', fields=b'')
        files.append(f)
        size += len(f) + 8
    # the events name the last formats, so each walk runs to its end
    nev = min(nev, len(files))
    return tp_file(tracing_data(files), [len(files) - i for i in range(nev)], budget, per_event=True)


@generator('tp-shared-format', 'one tracepoint format whose print fmt is a __print_symbolic of 33,000 entries '
           '(500 KB), 4,700 events naming it, 1,400 samples: a format compiled once per event parses 2.4 GB of '
           'text and keeps 4,700 copies')
def tp_shared_format(budget):
    nev = budget * 4 // 10 // 88
    entries = []
    size = 40
    while size < budget // 2:
        entries.append(b'{ %d, "s" }' % (len(entries) + 2))
        size += len(entries[-1]) + 2
    fmt = b'"%s", __print_symbolic(REC->x, ' + b', '.join(entries) + b', { 1, "one" })'
    return tp_file(tracing_data([tp_format_text(1, fmt)]), [1] * nev, budget, per_event=True)


@generator('tp-str-amplify', 'a tracepoint whose print fmt prints one __data_loc string 32,000 times, and '
           '8 samples whose string is 64 KB long: 2 GB of text per sample, where perf script would print it all')
def tp_str_amplify(budget):
    n = budget // 32
    fmt = b'"' + b'%s' * n + b'"' + b', __get_str(s)' * n
    section = tracing_data([tp_format_text(1, fmt)])
    p = Perf([plain(sample_type=TP_SAMPLE, type=2, config=1, period=1, ids=[1])])
    p.feature(FEAT_TRACING_DATA, section)
    room = budget - used(p) - len(section) - 64
    k = max(1, room // 65000)
    length = min(65400, room // k) - 80
    s = b'A' * length
    raw = struct.pack('<HHiQI', 1, 0, 1, 1, (len(s) + 1) << 16 | 20) + s + b'\0'
    for t in range(k):
        p.sample(pid=1, tid=1, time=t, raw_data=raw)
    return p.to_bytes()


def write(outdir, name, budget):
    """Writes NAME.data (a file or a directory) into outdir; returns its path."""
    data = GENERATORS[name][0](budget)
    path = os.path.join(outdir, name + '.data')
    if os.path.isdir(path):
        shutil.rmtree(path)
    if isinstance(data, dict):
        total = sum(len(v) for v in data.values())
        assert total <= budget, (name, total)
        os.makedirs(path)
        for f, b in data.items():
            with open(os.path.join(path, f), 'wb') as fp:
                fp.write(b)
    else:
        assert len(data) <= budget, (name, len(data))
        with open(path, 'wb') as fp:
            fp.write(data)
    return path


def main(argv):
    budget = LIMIT
    if argv[:1] == ['--list']:
        for name, (_, what) in GENERATORS.items():
            print(f'{name}: {what}')
        return 0
    if argv[:1] == ['--budget'] and len(argv) > 1:
        budget = int(argv[1])
        argv = argv[2:]
    if not argv or argv[0].startswith('-'):
        sys.stderr.write(__doc__)
        return 2
    outdir, names = argv[0], argv[1:] or list(GENERATORS)
    unknown = [n for n in names if n not in GENERATORS]
    if unknown:
        sys.stderr.write(f'gen_resources.py: no generator named {", ".join(unknown)} (--list)\n')
        return 2
    os.makedirs(outdir, exist_ok=True)
    for n in names:
        print(write(outdir, n, budget))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
