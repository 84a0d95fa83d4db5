"""perfgen: a small perf.data writer for crafted test inputs.

Builds file-mode or pipe-mode images of either byte order from attrs,
records and feature sections, so tests can make what perf never writes
(hostile sizes, counts, names and shapes) without perf. Only the layout is
checked here; the values are whatever the test asks for.

    from perfgen import Attr, Perf, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME
    p = Perf([Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME, ids=[1])])
    p.comm(10, 10, b'worker')
    p.mmap2(10, 10, 0x400000, 0x1000, 0, b'/bin/true')
    p.sample(ip=0x400100, pid=10, tid=10, time=1)
    open('x.data', 'wb').write(p.to_bytes())

Layouts follow include/uapi/linux/perf_event.h and tools/perf/util/header.c.

File mode lays the attrs out with the size of the first one (all must have
the same size, 64 to 128 here); an attr made with share_ids=K points its id
array at attr K's, as a hostile file may. The zstd helpers at the end build
frames without a compressor: raw, RLE, and compressed blocks of literals
and one match (a periodic output of any period, ~11,000:1).
"""
import struct

# sample_type bits
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
SAMPLE_READ, SAMPLE_CALLCHAIN, SAMPLE_ID, SAMPLE_CPU = 1 << 4, 1 << 5, 1 << 6, 1 << 7
SAMPLE_PERIOD, SAMPLE_STREAM_ID, SAMPLE_RAW = 1 << 8, 1 << 9, 1 << 10
SAMPLE_BRANCH_STACK, SAMPLE_REGS_USER, SAMPLE_STACK_USER, SAMPLE_IDENTIFIER = 1 << 11, 1 << 12, 1 << 13, 1 << 16
# read_format bits
FORMAT_TOTAL_TIME_ENABLED, FORMAT_TOTAL_TIME_RUNNING, FORMAT_ID, FORMAT_GROUP = 1, 2, 4, 8
# branch_sample_type bits the sample layout depends on
BRANCH_ANY, BRANCH_HW_INDEX = 1 << 3, 1 << 17
# attr.flags bits
FLAG_DISABLED, FLAG_INHERIT, FLAG_MMAP, FLAG_COMM = 1 << 0, 1 << 1, 1 << 8, 1 << 9
FLAG_FREQ, FLAG_SAMPLE_ID_ALL, FLAG_MMAP2, FLAG_COMM_EXEC = 1 << 10, 1 << 18, 1 << 23, 1 << 24
FLAG_EXCLUDE_CALLCHAIN_USER = 1 << 22
# record types
MMAP, LOST, COMM, EXIT, FORK, SAMPLE, MMAP2, KSYMBOL = 1, 2, 3, 4, 7, 9, 10, 17
HEADER_ATTR, FINISHED_ROUND, ID_INDEX, THREAD_MAP, CPU_MAP = 64, 68, 69, 73, 74
EVENT_UPDATE, HEADER_FEATURE = 78, 80
COMPRESSED, COMPRESSED2 = 81, 83
# misc cpumode, and MMAP/MMAP2's bit for a mapping that is not executable
MISC_KERNEL, MISC_USER, MISC_MMAP_DATA = 1, 2, 1 << 13
# regs_user.abi (PERF_SAMPLE_REGS_ABI_*)
REGS_ABI_NONE, REGS_ABI_32, REGS_ABI_64 = 0, 1, 2
# feature ids (enum HEADER_* of tools/perf/util/header.h)
FEAT_TRACING_DATA, FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION = 1, 2, 3, 4, 5
FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC, FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_CMDLINE = 6, 7, 8, 9, 10, 11
FEAT_EVENT_DESC, FEAT_CPU_TOPOLOGY, FEAT_NUMA_TOPOLOGY, FEAT_BRANCH_STACK = 12, 13, 14, 15
FEAT_PMU_MAPPINGS, FEAT_GROUP_DESC, FEAT_AUXTRACE, FEAT_STAT, FEAT_CACHE = 16, 17, 18, 19, 20
FEAT_SAMPLE_TIME, FEAT_MEM_TOPOLOGY, FEAT_CLOCKID, FEAT_DIR_FORMAT = 21, 22, 23, 24
FEAT_BPF_PROG_INFO, FEAT_BPF_BTF, FEAT_COMPRESSED, FEAT_CPU_PMU_CAPS = 25, 26, 27, 28
FEAT_CLOCK_DATA, FEAT_HYBRID_TOPOLOGY, FEAT_PMU_CAPS = 29, 30, 31
# perf's kernel callchain context marker
CONTEXT_KERNEL = (1 << 64) - 128


def pad8(b):
    """b, NUL-terminated and padded with NULs to a multiple of 8."""
    b = bytes(b) + b'\0'
    return b + b'\0' * (-len(b) % 8)


class Attr:
    """A perf_event_attr (128 bytes, PERF_ATTR_SIZE_VER7) and its ids."""

    def __init__(self, type=1, config=0, sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD,
                 read_format=0, flags=FLAG_SAMPLE_ID_ALL | FLAG_MMAP | FLAG_COMM | FLAG_MMAP2, period=4000,
                 ids=(), size=128, branch_sample_type=0, share_ids=None, sample_regs_user=0,
                 sample_stack_user=0):
        self.type, self.config, self.sample_type = type, config, sample_type
        self.read_format, self.flags, self.period = read_format, flags, period
        self.ids, self.size = list(ids), size
        self.branch_sample_type = branch_sample_type  # at offset 72 (attr size 80 and up)
        self.share_ids = share_ids    # file mode: index of the attr whose id array this one uses
        self.sample_regs_user = sample_regs_user    # at offset 80 (attr size 96 and up)
        self.sample_stack_user = sample_stack_user  # u32 at offset 88

    def to_bytes(self, e):
        b = bytearray(max(self.size, 64))
        struct.pack_into(e + 'IIQQQQQ', b, 0, self.type, self.size, self.config, self.period,
                         self.sample_type, self.read_format, 0)
        # the flag bit-field: bit i of the little-endian numbering; a
        # big-endian writer's bits run the other way within each byte
        # (precise_ip's two bits are not mirrored here)
        for i in range(8):
            byte = (self.flags >> (8 * i)) & 0xff
            b[40 + i] = int('{:08b}'.format(byte)[::-1], 2) if e == '>' else byte
        if self.size >= 80:
            struct.pack_into(e + 'Q', b, 72, self.branch_sample_type)
        if self.size >= 96:
            struct.pack_into(e + 'QI', b, 80, self.sample_regs_user, self.sample_stack_user)
        return bytes(b[:self.size])


class Perf:
    """Records appended in order; to_bytes() lays out the image."""

    def __init__(self, attrs, big_endian=False, pipe=False):
        self.attrs = list(attrs)
        self.e = '>' if big_endian else '<'
        self.pipe = pipe
        self.records = []         # bytes of each record, header included
        self.features = {}        # feature id -> section bytes
        self.pipe_prefix = []     # pipe mode: HEADER_ATTR records before the others

    # -- encoding helpers
    def u32(self, v):
        return struct.pack(self.e + 'I', v & 0xffffffff)

    def u64(self, v):
        return struct.pack(self.e + 'Q', v & 0xffffffffffffffff)

    def raw(self, type, body, misc=0, size=None):
        """Any record; `size` overrides header.size (for hostile sizes)."""
        if size is None and 8 + len(body) > 0xffff:
            raise ValueError('record of %d bytes: header.size is 16 bits (pass size= to force one)' % (8 + len(body)))
        n = 8 + len(body) if size is None else size
        rec = struct.pack(self.e + 'IHH', type, misc, n & 0xffff) + bytes(body)
        self.records.append(rec)
        return rec

    def trailer(self, pid=0, tid=0, time=0, id=None, cpu=0):
        """The sample_id_all trailer of the first attr, when it asks for one."""
        a = self.attrs[0] if self.attrs else None
        if not a or not (a.flags & FLAG_SAMPLE_ID_ALL):
            return b''
        t, out = a.sample_type, b''
        if t & SAMPLE_TID:
            out += self.u32(pid) + self.u32(tid)
        if t & SAMPLE_TIME:
            out += self.u64(time)
        if t & SAMPLE_ID:
            out += self.u64(id if id is not None else (a.ids[0] if a.ids else 0))
        if t & SAMPLE_STREAM_ID:
            out += self.u64(0)
        if t & SAMPLE_CPU:
            out += self.u32(cpu) + self.u32(0)
        if t & SAMPLE_IDENTIFIER:
            out += self.u64(id if id is not None else (a.ids[0] if a.ids else 0))
        return out

    # -- kernel records
    def mmap(self, pid, tid, start, length, pgoff, filename, misc=MISC_USER, time=0):
        body = self.u32(pid) + self.u32(tid) + self.u64(start) + self.u64(length) + self.u64(pgoff)
        return self.raw(MMAP, body + pad8(filename) + self.trailer(pid, tid, time), misc)

    def mmap2(self, pid, tid, start, length, pgoff, filename, prot=5, flags=2, misc=MISC_USER, time=0):
        body = (self.u32(pid) + self.u32(tid) + self.u64(start) + self.u64(length) + self.u64(pgoff) +
                self.u32(8) + self.u32(1) + self.u64(1234) + self.u64(0) + self.u32(prot) + self.u32(flags))
        return self.raw(MMAP2, body + pad8(filename) + self.trailer(pid, tid, time), misc)

    def comm(self, pid, tid, name, exec=False, time=0):
        body = self.u32(pid) + self.u32(tid) + pad8(name) + self.trailer(pid, tid, time)
        return self.raw(COMM, body, (1 << 13) if exec else 0)

    def fork(self, pid, ppid, tid, ptid, time=0):
        body = self.u32(pid) + self.u32(ppid) + self.u32(tid) + self.u32(ptid) + self.u64(time)
        return self.raw(FORK, body + self.trailer(pid, tid, time))

    def exit(self, pid, ppid, tid, ptid, time=0):
        body = self.u32(pid) + self.u32(ppid) + self.u32(tid) + self.u32(ptid) + self.u64(time)
        return self.raw(EXIT, body + self.trailer(pid, tid, time))

    def ksymbol(self, addr, length, name, ktype=1, flags=0, time=0):
        body = self.u64(addr) + self.u32(length) + struct.pack(self.e + 'HH', ktype, flags) + pad8(name)
        return self.raw(KSYMBOL, body + self.trailer(0, 0, time))

    def sample(self, ip=0, pid=0, tid=0, time=0, period=1, callchain=None, id=None, cpu=0, addr=0,
               raw_data=None, misc=MISC_USER, attr=0, read=None, branches=None, regs_user=None,
               stack_user=None):
        """read: (value, id) pairs, laid out as the attr's read_format says
        (GROUP: all of them, else the first; times enabled and running 0);
        branches: (from, to, flags) triples (hw_idx 0 first when the attr's
        branch_sample_type has HW_INDEX); regs_user: (abi, values), one
        value per set bit of the attr's sample_regs_user (none for abi 0);
        stack_user: the bytes copied from the stack pointer up, written as
        the kernel does: size (the attr's sample_stack_user, or the copy
        rounded up to 8), the copy padded to it, then dyn_size (the copy's
        length); size 0 alone where there is no copy and no size asked."""
        a = self.attrs[attr]
        t, b = a.sample_type, b''
        sid = id if id is not None else (a.ids[0] if a.ids else 0)
        if t & SAMPLE_IDENTIFIER:
            b += self.u64(sid)
        if t & SAMPLE_IP:
            b += self.u64(ip)
        if t & SAMPLE_TID:
            b += self.u32(pid) + self.u32(tid)
        if t & SAMPLE_TIME:
            b += self.u64(time)
        if t & SAMPLE_ADDR:
            b += self.u64(addr)
        if t & SAMPLE_ID:
            b += self.u64(sid)
        if t & SAMPLE_STREAM_ID:
            b += self.u64(sid)
        if t & SAMPLE_CPU:
            b += self.u32(cpu) + self.u32(0)
        if t & SAMPLE_PERIOD:
            b += self.u64(period)
        if t & SAMPLE_READ:
            values = list(read or [(0, sid)])
            rf = a.read_format
            if rf & FORMAT_GROUP:
                b += self.u64(len(values))
            else:
                values = values[:1]
            if rf & FORMAT_TOTAL_TIME_ENABLED:
                b += self.u64(0)
            if rf & FORMAT_TOTAL_TIME_RUNNING:
                b += self.u64(0)
            for value, vid in values:
                b += self.u64(value) + (self.u64(vid) if rf & FORMAT_ID else b'')
        if t & SAMPLE_CALLCHAIN:
            chain = list(callchain or [])
            b += self.u64(len(chain)) + b''.join(self.u64(x) for x in chain)
        if t & SAMPLE_RAW:
            r = bytes(raw_data or b'')
            r += b'\0' * (-(len(r) + 4) % 8)
            b += self.u32(len(r)) + r
        if t & SAMPLE_BRANCH_STACK:
            br = list(branches or [])
            b += self.u64(len(br))
            if a.branch_sample_type & BRANCH_HW_INDEX:
                b += self.u64(0)
            b += b''.join(self.u64(f) + self.u64(to) + self.u64(fl) for f, to, fl in br)
        if t & SAMPLE_REGS_USER:
            abi, values = regs_user or (REGS_ABI_NONE, [])
            b += self.u64(abi)
            if abi != REGS_ABI_NONE:
                assert len(values) == bin(a.sample_regs_user).count('1'), 'one value per bit of sample_regs_user'
                b += b''.join(self.u64(v) for v in values)
        if t & SAMPLE_STACK_USER:
            copy = bytes(stack_user or b'')
            size = a.sample_stack_user or (len(copy) + 7) & ~7
            assert len(copy) <= size
            b += self.u64(size)
            if size:
                b += copy + b'\0' * (size - len(copy)) + self.u64(len(copy))
        return self.raw(SAMPLE, b, misc)

    # -- perf tool records
    def finished_round(self):
        return self.raw(FINISHED_ROUND, b'')

    def header_attr(self, attr):
        """Pipe mode: the attr and its ids as a HEADER_ATTR record."""
        body = attr.to_bytes(self.e) + b''.join(self.u64(i) for i in attr.ids)
        return self.raw(HEADER_ATTR, body)

    def header_feature(self, feat, data):
        return self.raw(HEADER_FEATURE, self.u64(feat) + bytes(data))

    def event_update_name(self, id, name):
        """EVENT_UPDATE of type NAME (2): the event with this id is renamed."""
        return self.raw(EVENT_UPDATE, self.u64(2) + self.u64(id) + pad8(name))

    def id_index(self, entries):
        """ID_INDEX: (id, idx, cpu, tid) per entry."""
        body = self.u64(len(entries)) + b''.join(b''.join(self.u64(v) for v in e) for e in entries)
        return self.raw(ID_INDEX, body)

    def thread_map(self, entries):
        """THREAD_MAP: (pid, comm) per entry, comm cut to 15 bytes."""
        body = self.u64(len(entries))
        for pid, comm in entries:
            c = bytes(comm)[:15]
            body += self.u64(pid) + c + b'\0' * (16 - len(c))
        return self.raw(THREAD_MAP, body)

    def cpu_map_range(self, start, end, any_cpu=0):
        """CPU_MAP with the RANGE_CPUS encoding: cpus start..end."""
        body = struct.pack(self.e + 'HBBHH', 2, any_cpu, 0, start, end)
        return self.raw(CPU_MAP, body + b'\0' * (-len(body) % 8))

    def compressed(self, payload):
        """A COMPRESSED record carrying one piece of the zstd stream."""
        return self.raw(COMPRESSED, payload)

    def compressed_stream(self, stream, piece=65000):
        """A zstd stream cut into COMPRESSED records of at most `piece`
        bytes, as perf writes a stream that runs through many records."""
        for i in range(0, len(stream), piece):
            self.compressed(stream[i:i + piece])

    # -- feature sections (file mode)
    def feature(self, feat, data):
        self.features[feat] = bytes(data)

    def string_feature(self, feat, text):
        """HOSTNAME, OSRELEASE, ...: u32 length (padded to 64 bytes, as
        perf's do_write_string), then the NUL-terminated text."""
        s = bytes(text) + b'\0'
        s += b'\0' * (-len(s) % 64)
        self.features[feat] = self.u32(len(s)) + s

    def perf_string(self, text):
        """A perf_header_string as feature sections hold them."""
        s = bytes(text) + b'\0'
        s += b'\0' * (-len(s) % 8)
        return self.u32(len(s)) + s

    def event_desc_section(self, entries, attr_size=64):
        """EVENT_DESC: (Attr, name, ids) per entry, each attr cut or padded
        to attr_size bytes."""
        out = self.u32(len(entries)) + self.u32(attr_size)
        for a, name, ids in entries:
            ab = a.to_bytes(self.e)[:attr_size]
            out += ab + b'\0' * (attr_size - len(ab)) + self.u32(len(ids)) + self.perf_string(name)
            out += b''.join(self.u64(i) for i in ids)
        return out

    def group_desc_section(self, groups):
        """GROUP_DESC: (name, leader_idx, nr_members) per group."""
        return self.u32(len(groups)) + b''.join(self.perf_string(n) + self.u32(l) + self.u32(m) for n, l, m in groups)

    def numa_section(self, nodes):
        """NUMA_TOPOLOGY: (node, mem_total, mem_free, cpu list text) per node."""
        return self.u32(len(nodes)) + b''.join(self.u32(n) + self.u64(t) + self.u64(f) + self.perf_string(c)
                                                for n, t, f, c in nodes)

    def compressed_section(self, mmap_len, level=1, ratio=1):
        """COMPRESSED: version 1, zstd (type 1), level, ratio, mmap_len."""
        return self.u32(1) + self.u32(1) + self.u32(level) + self.u32(ratio) + self.u32(mmap_len)

    # -- layout
    def to_bytes(self):
        e = self.e
        data = b''.join(self.records)
        if self.pipe:
            head = b'PERFILE2' if e == '<' else b'2ELIFREP'
            attrs = b''
            for a in self.attrs:
                body = a.to_bytes(e) + b''.join(self.u64(i) for i in a.ids)
                attrs += struct.pack(e + 'IHH', HEADER_ATTR, 0, 8 + len(body)) + body
            return head + self.u64(16) + attrs + data
        asz = self.attrs[0].size if self.attrs else 128
        assert all(a.size == asz for a in self.attrs), 'file mode: every attr of one size'
        attr_size = asz + 16
        attrs_off = 104
        ids_off = attrs_off + attr_size * len(self.attrs)
        parts, where = [], []         # id arrays, and each attr's (offset, size)
        ids_len = 0
        for a in self.attrs:
            if a.share_ids is not None:
                where.append(where[a.share_ids])
                continue
            blob = b''.join(self.u64(i) for i in a.ids)
            where.append((ids_off + ids_len, len(blob)))
            parts.append(blob)
            ids_len += len(blob)
        ids_blob = b''.join(parts)
        attr_blob = b''.join(a.to_bytes(e) + self.u64(off) + self.u64(n) for a, (off, n) in zip(self.attrs, where))
        data_off = ids_off + len(ids_blob)
        feats = sorted(self.features)
        index_off = data_off + len(data)
        sec_off = index_off + 16 * len(feats)
        index, secs = b'', b''
        for f in feats:
            index += self.u64(sec_off + len(secs)) + self.u64(len(self.features[f]))
            secs += self.features[f]
        bits = [0, 0, 0, 0]
        for f in feats:
            bits[f // 64] |= 1 << (f % 64)
        head = b'PERFILE2' if e == '<' else b'2ELIFREP'
        head += self.u64(104) + self.u64(attr_size)
        head += self.u64(attrs_off) + self.u64(attr_size * len(self.attrs))
        head += self.u64(data_off) + self.u64(len(data))
        head += self.u64(0) + self.u64(0)
        head += b''.join(self.u64(b) for b in bits)
        assert len(head) == 104
        return head + attr_blob + ids_blob + data + index + secs


# -- zstd frames built by hand (raw and RLE blocks need no compressor)
def zstd_frame_header(window_log=17):
    """A frame header with no content size, no checksum, no dictionary,
    and a window of 2**window_log bytes (10 <= window_log <= 41)."""
    return struct.pack('<I', 0xFD2FB528) + bytes([0x00, (window_log - 10) << 3])


def zstd_raw_block(data, last=False):
    return struct.pack('<I', (len(data) << 3) | int(last))[:3] + bytes(data)


def zstd_rle_block(byte, n, last=False):
    """n copies of byte (n <= 128 KiB and <= the window)."""
    return struct.pack('<I', (n << 3) | (1 << 1) | int(last))[:3] + bytes([byte])


# Literals_Length and Match_Length codes (RFC 8878, 3.1.1.3.2.1.1): the
# baseline of each code and its number of extra bits.
_LL_BASE = list(range(16)) + [16, 18, 20, 22, 24, 28, 32, 40, 48, 64, 128, 256, 512, 1024, 2048, 4096, 8192,
                              16384, 32768, 65536]
_LL_BITS = [0] * 16 + [1, 1, 1, 1, 2, 2, 3, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]
_ML_BASE = list(range(3, 35)) + [35, 37, 39, 41, 43, 47, 51, 59, 67, 83, 99, 131, 259, 515, 1027, 2051, 4099,
                                 8195, 16387, 32771, 65539]
_ML_BITS = [0] * 32 + [1, 1, 1, 1, 2, 2, 3, 3, 4, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]


def _zstd_code(value, base, bits):
    """(code, extra value, extra bits) of a literals or match length."""
    for code in range(len(base) - 1, -1, -1):
        if value >= base[code]:
            assert value - base[code] < 1 << bits[code], value
            return code, value - base[code], bits[code]
    raise ValueError(value)


def zstd_seq_block(literals, match_len, offset, last=False):
    """A compressed block: `literals` (raw, at most 128 KiB in all with the
    match) then one match of match_len (>= 3) bytes from `offset` bytes
    back, which may overlap what it writes: literals of a record of P bytes
    and a match at offset P repeat the record. With no literals the match
    repeats the last `offset` bytes of earlier blocks of the frame. The one
    sequence's codes are given in RLE mode, so no FSE table is needed."""
    lit = bytes(literals)
    n = len(lit)
    assert n + match_len <= 1 << 17 and match_len >= 3 and 0 < offset
    if n < 32:
        head = bytes([n << 3])                                   # raw, 5-bit size
    elif n < 4096:
        head = bytes([(1 << 2) | ((n & 15) << 4), n >> 4])       # raw, 12-bit size
    else:
        head = bytes([(3 << 2) | ((n & 15) << 4), (n >> 4) & 0xff, n >> 12])  # raw, 20-bit size
    ll_code, ll_extra, ll_bits = _zstd_code(n, _LL_BASE, _LL_BITS)
    ml_code, ml_extra, ml_bits = _zstd_code(match_len, _ML_BASE, _ML_BITS)
    of_value = offset + 3                                        # > 3: a new offset, not a repeat
    of_code = of_value.bit_length() - 1
    # the bitstream is read backwards: offset, match and literals extra bits
    # (the states take no bits in RLE mode), so they are written the other
    # way round, then the end marker
    acc, pos = 0, 0
    for value, bits in ((ll_extra, ll_bits), (ml_extra, ml_bits), (of_value - (1 << of_code), of_code)):
        acc |= value << pos
        pos += bits
    acc |= 1 << pos
    stream = acc.to_bytes(pos // 8 + 1, 'little')
    # one sequence; Literals_Length, Offset and Match_Length codes in RLE mode
    seqs = bytes([1, 0x54, ll_code, of_code, ml_code]) + stream
    body = head + lit + seqs
    return struct.pack('<I', (len(body) << 3) | (2 << 1) | int(last))[:3] + body
