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
"""
import struct

# sample_type bits
SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR = 1 << 0, 1 << 1, 1 << 2, 1 << 3
SAMPLE_READ, SAMPLE_CALLCHAIN, SAMPLE_ID, SAMPLE_CPU = 1 << 4, 1 << 5, 1 << 6, 1 << 7
SAMPLE_PERIOD, SAMPLE_STREAM_ID, SAMPLE_RAW = 1 << 8, 1 << 9, 1 << 10
SAMPLE_IDENTIFIER = 1 << 16
# attr.flags bits
FLAG_DISABLED, FLAG_INHERIT, FLAG_MMAP, FLAG_COMM = 1 << 0, 1 << 1, 1 << 8, 1 << 9
FLAG_FREQ, FLAG_SAMPLE_ID_ALL, FLAG_MMAP2, FLAG_COMM_EXEC = 1 << 10, 1 << 18, 1 << 23, 1 << 24
# record types
MMAP, LOST, COMM, EXIT, FORK, SAMPLE, MMAP2, KSYMBOL = 1, 2, 3, 4, 7, 9, 10, 17
HEADER_ATTR, FINISHED_ROUND, EVENT_UPDATE, HEADER_FEATURE = 64, 68, 78, 80
COMPRESSED, COMPRESSED2 = 81, 83
# misc cpumode
MISC_KERNEL, MISC_USER = 1, 2
# feature ids (enum HEADER_* of tools/perf/util/header.h)
FEAT_TRACING_DATA, FEAT_BUILD_ID, FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION = 1, 2, 3, 4, 5
FEAT_ARCH, FEAT_NRCPUS, FEAT_CPUDESC, FEAT_CPUID, FEAT_TOTAL_MEM, FEAT_CMDLINE = 6, 7, 8, 9, 10, 11
FEAT_EVENT_DESC, FEAT_CPU_TOPOLOGY, FEAT_NUMA_TOPOLOGY, FEAT_BRANCH_STACK = 12, 13, 14, 15
FEAT_PMU_MAPPINGS, FEAT_GROUP_DESC, FEAT_AUXTRACE, FEAT_STAT, FEAT_CACHE = 16, 17, 18, 19, 20
FEAT_SAMPLE_TIME, FEAT_MEM_TOPOLOGY, FEAT_CLOCKID, FEAT_DIR_FORMAT = 21, 22, 23, 24
FEAT_BPF_PROG_INFO, FEAT_BPF_BTF, FEAT_COMPRESSED, FEAT_CPU_PMU_CAPS = 25, 26, 27, 28
FEAT_CLOCK_DATA, FEAT_HYBRID_TOPOLOGY, FEAT_PMU_CAPS = 29, 30, 31


def pad8(b):
    """b, NUL-terminated and padded with NULs to a multiple of 8."""
    b = bytes(b) + b'\0'
    return b + b'\0' * (-len(b) % 8)


class Attr:
    """A perf_event_attr (128 bytes, PERF_ATTR_SIZE_VER7) and its ids."""

    def __init__(self, type=1, config=0, sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD,
                 read_format=0, flags=FLAG_SAMPLE_ID_ALL | FLAG_MMAP | FLAG_COMM | FLAG_MMAP2, period=4000,
                 ids=(), size=128):
        self.type, self.config, self.sample_type = type, config, sample_type
        self.read_format, self.flags, self.period = read_format, flags, period
        self.ids, self.size = list(ids), size

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
               raw_data=None, misc=MISC_USER, attr=0):
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
        if t & SAMPLE_CALLCHAIN:
            chain = list(callchain or [])
            b += self.u64(len(chain)) + b''.join(self.u64(x) for x in chain)
        if t & SAMPLE_RAW:
            r = bytes(raw_data or b'')
            r += b'\0' * (-(len(r) + 4) % 8)
            b += self.u32(len(r)) + r
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

    def compressed(self, payload):
        """A COMPRESSED record carrying one piece of the zstd stream."""
        return self.raw(COMPRESSED, payload)

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
        attr_size = 128 + 16
        attrs_off = 104
        ids_off = attrs_off + attr_size * len(self.attrs)
        ids_blob, attr_blob = b'', b''
        for a in self.attrs:
            ab = a.to_bytes(e)
            ab = ab + b'\0' * (128 - len(ab)) if len(ab) < 128 else ab[:128]
            attr_blob += ab + self.u64(ids_off + len(ids_blob)) + self.u64(8 * len(a.ids))
            ids_blob += b''.join(self.u64(i) for i in a.ids)
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
