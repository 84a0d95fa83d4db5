#!/usr/bin/env python3
"""Test-only writer: rewrite a little-endian perf.data (file or pipe mode) as
the big-endian file a big-endian machine would have written, field by field
(what perfdata.h must undo on read), or a big-endian one back as little-endian
(the inverse, so converting twice gives back the original bytes). Layouts as
in include/uapi/linux/perf_event.h and tools/perf/util/header.c.

Byte strings, build ids and user-stack dumps are copied as they are (they
are bytes either way). The attr flag bit-field is laid out as a big-endian
compiler does (per byte, first field in bit 7), precise_ip's two bits
mirrored with it; branch-entry flags likewise from the MSB down.

Tracepoints: the TRACING_DATA block (file-mode feature section, pipe-mode
PERF_RECORD_HEADER_TRACING_DATA; layout of tools/perf/util/trace-event-read.c)
gets its numbers (page size, section sizes and counts) in the target order
and its endian byte set to match (1 = big-endian); the texts are copied.
Each PERF_SAMPLE_RAW payload of a tracepoint event (attr.type 2) is
converted per the event format whose ID is attr.config: integer fields of
size 2, 4 or 8 and each element of fixed arrays of such, __data_loc and
__rel_loc u32 words, and the elements of dynamic arrays of known integer
types; char arrays, strings and 1-byte fields are copied. RAW payloads of
other events, or of formats the block lacks, are copied as they are.

Compressed payloads cannot be converted without recompressing: such files
are refused (exit 3).

Usage: swap_endian.py IN OUT
       swap_endian.py --roundtrip-check FILE...
           convert each FILE to the other byte order and back; exit 1 if the
           result is not byte-identical to FILE (3 if a file is refused)
"""
import re
import struct
import sys

LE, BE = '<', '>'
PERFILE2 = 0x32454c4946524550          # b'PERFILE2' read little-endian
PERFILE2_SWAPPED = 0x50455246494c4532  # the same written big-endian


class Swapper:
    def __init__(self, data, src=LE):
        self.src = data
        self.out = bytearray(data)
        self.i = src                          # byte order of the input
        self.o = BE if src == LE else LE      # byte order written

    # copy a field at `off` from the input order to the other one
    def sw(self, off, fmt):
        size = struct.calcsize(fmt)
        if off < 0 or off + size > len(self.src):
            raise ValueError(f'field at {off:#x} out of range')
        vals = struct.unpack_from(self.i + fmt, self.src, off)
        struct.pack_into(self.o + fmt, self.out, off, *vals)
        return vals

    def u64(self, off):
        return self.sw(off, 'Q')[0]

    def u32(self, off):
        return self.sw(off, 'I')[0]

    def u16(self, off):
        return self.sw(off, 'H')[0]

    # read (no conversion) in the input's order
    def rd(self, off, fmt):
        return struct.unpack_from(self.i + fmt, self.src, off)[0]

    def le64(self, off):
        return self.rd(off, 'Q')

    def le32(self, off):
        return self.rd(off, 'I')


def bitrev8(b):
    return int(f'{b:08b}'[::-1], 2)


def mirror_precise_ip(flags):
    pi = (flags >> 15) & 3
    return (flags & ~(3 << 15)) | (((pi & 1) << 1 | (pi >> 1)) << 15)  # mirrored 2-bit field


def attr_flags(s, off):
    """The flags u64 as a little-endian machine has it."""
    if s.i == LE:
        return s.le64(off)
    flags = sum(bitrev8(s.src[off + i]) << (8 * i) for i in range(8))
    return mirror_precise_ip(flags)


def swap_attr_flags(s, off):
    if s.i == LE:
        flags = mirror_precise_ip(s.le64(off))
        for i in range(8):
            s.out[off + i] = bitrev8((flags >> (8 * i)) & 0xff)
    else:
        struct.pack_into('<Q', s.out, off, attr_flags(s, off))


# offsets and widths of perf_event_attr fields after `flags`
ATTR_FIELDS = [(48, 'I'), (52, 'I'), (56, 'Q'), (64, 'Q'), (72, 'Q'), (80, 'Q'), (88, 'I'), (92, 'i'), (96, 'Q'),
               (104, 'I'), (108, 'H'), (110, 'H'), (112, 'I'), (116, 'I'), (120, 'Q'), (128, 'Q'), (136, 'Q')]


def swap_attr(s, off):
    """Returns (attr dict, size)."""
    typ, size = s.le32(off), s.le32(off + 4)
    real = size or 64
    a = dict(type=typ, size=real, config=s.le64(off + 8), sample_type=s.le64(off + 24), read_format=s.le64(off + 32),
             flags=attr_flags(s, off + 40), branch_sample_type=s.le64(off + 72) if real >= 80 else 0,
             regs_user=s.le64(off + 80) if real >= 88 else 0, regs_intr=s.le64(off + 96) if real >= 104 else 0)
    s.u32(off); s.u32(off + 4)
    for o in (8, 16, 24, 32):
        s.u64(off + o)
    swap_attr_flags(s, off + 40)
    for o, f in ATTR_FIELDS:
        if o + struct.calcsize(f) <= real:
            s.sw(off + o, f)
    a['sample_id_all'] = (a['flags'] >> 18) & 1
    return a, real


def trailer_size(a):
    if not a['sample_id_all']:
        return 0
    t = a['sample_type']
    return 8 * sum(1 for b in (1, 2, 6, 9, 7, 16) if t & (1 << b))


def swap_trailer(s, a, end):
    """sample_id trailer ends at `end`; swap backwards like perf parses it."""
    if not a or not a['sample_id_all']:
        return
    t, at = a['sample_type'], end
    for bit, kind in ((16, 'Q'), (7, 'II'), (9, 'Q'), (6, 'Q'), (2, 'Q'), (1, 'II')):
        if t & (1 << bit):
            at -= 8
            s.sw(at, kind)


BRANCH_FLAG_WIDTHS = [1, 1, 1, 1, 16, 4, 2, 4, 3, 31]


def branch_flags_be(v):
    """LE bit-field layout -> the u64 a BE compiler stores (fields from the MSB)."""
    out, lo, hi = 0, 0, 64
    for w in BRANCH_FLAG_WIDTHS:
        hi -= w
        out |= ((v >> lo) & ((1 << w) - 1)) << hi
        lo += w
    return out


def branch_flags_le(v):
    """The inverse of branch_flags_be."""
    out, lo, hi = 0, 0, 64
    for w in BRANCH_FLAG_WIDTHS:
        hi -= w
        out |= ((v >> hi) & ((1 << w) - 1)) << lo
        lo += w
    return out


def swap_read(s, pos, fmt):
    if fmt & 8:  # GROUP
        nr = s.u64(pos); pos += 8
        for bit in (1, 2):
            if fmt & bit:
                s.u64(pos); pos += 8
        per = 1 + bool(fmt & 4) + bool(fmt & 16)
        for _ in range(nr * per):
            s.u64(pos); pos += 8
        return pos
    for _ in range(1 + bool(fmt & 1) + bool(fmt & 2) + bool(fmt & 4) + bool(fmt & 16)):
        s.u64(pos); pos += 8
    return pos


def swap_sample(s, a, pos, end, tracing=None):
    t = a['sample_type']
    def q():
        nonlocal pos
        v = s.u64(pos); pos += 8
        return v
    if t & (1 << 16): q()
    if t & (1 << 0): q()
    if t & (1 << 1): s.sw(pos, 'II'); pos += 8
    if t & (1 << 2): q()
    if t & (1 << 3): q()
    if t & (1 << 6): q()
    if t & (1 << 9): q()
    if t & (1 << 7): s.sw(pos, 'II'); pos += 8
    if t & (1 << 8): q()
    if t & (1 << 4): pos = swap_read(s, pos, a['read_format'])
    if t & (1 << 5):
        nr = q()
        for _ in range(nr): q()
    if t & (1 << 10):
        size = s.u32(pos)
        if tracing is not None and a['type'] == 2:
            tracing.swap_raw(s, a['config'], pos + 4, pos + 4 + size)
        pos += 4 + size
    if t & (1 << 11):
        nr = q()
        if a['branch_sample_type'] & (1 << 17): q()
        for _ in range(nr):
            q(); q()
            v = s.le64(pos)
            if s.i == LE:
                struct.pack_into('>Q', s.out, pos, branch_flags_be(v))
            else:
                struct.pack_into('<Q', s.out, pos, branch_flags_le(v))
            pos += 8
        if a['branch_sample_type'] & (1 << 19):
            for _ in range(nr): q()
    if t & (1 << 12):
        abi = q()
        if abi:
            for _ in range(bin(a['regs_user']).count('1')): q()
    if t & (1 << 13):
        size = q()
        if size:
            pos += size  # stack bytes: memory as the machine had it
            q()
    if t & ((1 << 14) | (1 << 24)): q()
    if t & (1 << 15): q()
    if t & (1 << 17): q()
    if t & (1 << 18):
        abi = q()
        if abi:
            for _ in range(bin(a['regs_intr']).count('1')): q()
    for bit in (19, 21, 22, 23):
        if t & (1 << bit): q()
    if t & (1 << 20):
        size = q(); pos += size


def swap_cpu_map_data(s, pos):
    typ = s.u16(pos)
    if typ == 0:
        nr = s.u16(pos + 2)
        for i in range(nr): s.u16(pos + 4 + 2 * i)
    elif typ == 1:
        nr, long_size = s.u16(pos + 2), s.u16(pos + 4)
        base = pos + 6 + (4 if long_size == 8 else 0)  # u32 pad before u64 words
        for i in range(nr): s.sw(base + long_size * i, 'Q' if long_size == 8 else 'I')
    elif typ == 2:
        s.u16(pos + 4); s.u16(pos + 6)


# element sizes of dynamic (__data_loc TYPE[]) arrays whose elements are
# integers; 'long' means the block's long size. Others (char, u8, structs,
# unknown typedefs) are copied as bytes.
DYN_ELEM = {'short': 2, 'unsigned short': 2, 's16': 2, 'u16': 2, '__s16': 2, '__u16': 2,
            'int': 4, 'unsigned int': 4, 'unsigned': 4, 's32': 4, 'u32': 4, '__s32': 4, '__u32': 4,
            'pid_t': 4, 'int32_t': 4, 'uint32_t': 4,
            'long long': 8, 'unsigned long long': 8, 's64': 8, 'u64': 8, '__s64': 8, '__u64': 8,
            'int64_t': 8, 'uint64_t': 8, 'long': 'long', 'unsigned long': 'long'}

FIELD_RE = re.compile(rb'field:([^;]*);\s*offset:(\d+);\s*size:(\d+);')
ID_RE = re.compile(rb'^ID:\s*(\d+)', re.M)


def parse_format(text, long_size):
    """-> (id or None, [(kind, offset, size, elem)]) from an event format text.
    kind: 'int' (swap `size` bytes), 'array' (elements of `elem` bytes),
    'loc'/'relloc' (u32 word; elem = dynamic element size or 0)."""
    m = ID_RE.search(text)
    fields = []
    for decl, off, size in FIELD_RE.findall(text):
        decl, off, size = decl.decode('latin-1').strip(), int(off), int(size)
        loc = decl.startswith('__data_loc') or decl.startswith('__rel_loc')
        if loc:
            kind = 'relloc' if decl.startswith('__rel_loc') else 'loc'
            typ = decl.split(None, 1)[1] if ' ' in decl else ''
            typ = typ[:typ.rfind('[')] if '[' in typ else typ.rsplit(None, 1)[0] if ' ' in typ else ''
            typ = ' '.join(w for w in typ.split() if w not in ('const', 'volatile'))
            elem = DYN_ELEM.get(typ, 0)
            if elem == 'long':
                elem = long_size
            if size == 4:
                fields.append((kind, off, 4, elem))
            continue
        am = re.search(r'\[(\d+)\]\s*$', decl)
        if am:
            n = int(am.group(1))
            if n and size % n == 0 and size // n in (2, 4, 8):
                fields.append(('array', off, size, size // n))
            continue
        if '[' in decl:          # array of a size not given as a number
            continue
        if size in (2, 4, 8):
            fields.append(('int', off, size, size))
    return (int(m.group(1)) if m else None), fields


class Tracing:
    """The event formats of a TRACING_DATA block, and the RAW converter."""
    MAGIC = b'\x17\x08\x44tracing'

    def __init__(self):
        self.formats = {}     # id -> fields
        self.raw_samples = 0
        self.long_size = 8

    def convert_block(self, s, start, end):
        """Convert the block at [start, end); returns its parsed length."""
        if s.src[start:start + 10] != self.MAGIC:
            raise ValueError(f'tracing data at {start:#x}: bad magic')
        p = start + 10
        nul = s.src.index(b'\0', p, end)
        version = s.src[p:nul].decode('latin-1')
        p = nul + 1
        # the block's own byte order is its endian byte (perf's writer sets it
        # to the machine's, i.e. the file's)
        order = BE if s.src[p] else LE
        out = BE if order == LE else LE
        s.out[p] = 1 if out == BE else 0
        self.long_size = s.src[p + 1]
        p += 2

        def num(fmt):
            nonlocal p
            if p + struct.calcsize(fmt) > end:
                raise ValueError(f'tracing data at {start:#x}: truncated at {p:#x}')
            v = struct.unpack_from(order + fmt, s.src, p)[0]
            struct.pack_into(out + fmt, s.out, p, v)
            p += struct.calcsize(fmt)
            return v

        def text(size):
            nonlocal p
            if p + size > end:
                raise ValueError(f'tracing data at {start:#x}: section overruns at {p:#x}')
            t = bytes(s.src[p:p + size])
            p += size
            return t

        num('I')                                   # page size
        for name in (b'header_page\0', b'header_event\0'):
            if s.src[p:p + len(name)] != name:
                raise ValueError(f'tracing data at {start:#x}: no {name[:-1].decode()}')
            p += len(name)
            text(num('Q'))
        for _ in range(num('I')):                  # ftrace formats
            self.add_format(text(num('Q')))
        for _ in range(num('I')):                  # systems
            nul = s.src.index(b'\0', p, end)
            p = nul + 1
            for _ in range(num('I')):
                self.add_format(text(num('Q')))
        text(num('I'))                             # kallsyms
        text(num('I'))                             # printk formats
        try:
            new_cmdlines = float(version) >= 0.6
        except ValueError:
            new_cmdlines = False
        if new_cmdlines:
            text(num('Q'))                         # saved cmdlines
        return p - start

    def add_format(self, t):
        ident, fields = parse_format(t, self.long_size)
        if ident is not None:
            self.formats[ident] = fields

    def swap_raw(self, s, config, start, end):
        """The tracepoint record at [start, end) (the RAW bytes after the u32 size)."""
        fields = self.formats.get(config)
        if fields is None:
            return
        self.raw_samples += 1
        n = end - start
        for kind, off, size, elem in fields:
            if off + size > n:
                continue
            at = start + off
            if kind == 'int':
                s.sw(at, {2: 'H', 4: 'I', 8: 'Q'}[size])
            elif kind == 'array':
                f = {2: 'H', 4: 'I', 8: 'Q'}[elem]
                for i in range(size // elem):
                    s.sw(at + i * elem, f)
            else:
                word = s.u32(at)
                doff, dlen = word & 0xffff, word >> 16
                if kind == 'relloc':
                    doff += off + size
                if elem in (2, 4, 8) and doff + dlen <= n:
                    f = {2: 'H', 4: 'I', 8: 'Q'}[elem]
                    for i in range(dlen // elem):
                        s.sw(start + doff + i * elem, f)


class Converter:
    def __init__(self, data):
        magic = struct.unpack_from('<Q', data, 0)[0] if len(data) >= 8 else 0
        if magic == PERFILE2:
            src = LE
        elif magic == PERFILE2_SWAPPED:
            src = BE
        else:
            raise ValueError('not a PERFILE2 file')
        self.s = Swapper(data, src)
        self.attrs = []      # list of (attr, ids)
        self.pipe = False
        self.tracing = Tracing()

    def event_of(self, rtype, body, end):
        if len(self.attrs) == 1:
            return self.attrs[0][0]
        if not self.attrs:
            return None
        a0 = self.attrs[0][0]
        t = a0['sample_type']
        if rtype == 9:
            if t & (1 << 16): pos = 0
            elif t & (1 << 6): pos = sum(1 for b in (0, 1, 2, 3) if t & (1 << b))
            else: return a0
            ident = self.s.le64(body + 8 * pos)
        else:
            if not a0['sample_id_all']: return a0
            if t & (1 << 16): back = 1
            elif t & (1 << 6): back = 1 + sum(1 for b in (7, 9) if t & (1 << b))
            else: return a0
            ident = self.s.le64(body + 8 * ((end - body) // 8 - back))
        if ident == 0:
            return a0
        for a, ids in self.attrs:
            if ident in ids:
                return a
        return None

    def record(self, off):
        s = self.s
        rtype, misc, size = struct.unpack_from(s.i + 'IHH', s.src, off)
        s.u32(off); s.u16(off + 4); s.u16(off + 6)
        body, end = off + 8, off + size
        extra = 0
        if rtype < 64 and rtype != 9:
            a = self.event_of(rtype, body, end)
            ts = trailer_size(a) if a else 0
            kend = end - ts
            self.kernel(rtype, misc, body, kend)
            swap_trailer(s, a, end)
        elif rtype == 9:
            a = self.event_of(rtype, body, end)
            if a is None:
                raise ValueError(f'sample at {off:#x} matches no event')
            swap_sample(s, a, body, end, self.tracing)
        else:
            extra = self.user(rtype, misc, body, end)
        return size + extra

    def kernel(self, t, misc, b, e):
        s = self.s
        if t in (1, 10):
            s.sw(b, 'IIQQQ')
            if t == 10:
                if not misc & (1 << 14): s.sw(b + 32, 'IIQQ')
                s.sw(b + 56, 'II')
        elif t in (2,): s.sw(b, 'QQ')
        elif t in (3, 12, 15): s.sw(b, 'II')
        elif t in (4, 7): s.sw(b, 'IIIIQ')
        elif t in (5, 6): s.sw(b, 'QQQ')
        elif t == 8:
            s.sw(b, 'II')
            a = None
            p = b + 8
            while p + 8 <= e: s.u64(p); p += 8
        elif t == 11: s.sw(b, 'QQQ')
        elif t in (13, 21): s.u64(b)
        elif t == 16:
            s.sw(b, 'II'); nr = s.u64(b + 8)
            for i in range(2 * nr): s.u64(b + 16 + 8 * i)
        elif t == 17: s.sw(b, 'QIHH')
        elif t == 18: s.sw(b, 'HHI')
        elif t == 19: s.u64(b)
        elif t == 20: s.sw(b, 'QHH')
        elif t == 22:
            s.u64(b); nr = s.u64(b + 8)
            for i in range(nr): s.u64(b + 16 + 8 * i)

    def user(self, t, misc, b, e):
        s = self.s
        if t == 64:
            a, real = swap_attr(s, b)
            ids = []
            p = b + real
            while p + 8 <= e:
                ids.append(s.u64(p)); p += 8
            self.attrs.append((a, set(ids)))
        elif t == 65: s.u64(b)
        elif t == 66:
            size = s.u32(b)
            # the block follows the record (perf pads it to 8 bytes)
            start = e if e - b - 4 < size else b + 4
            if size:
                self.tracing.convert_block(s, start, start + size)
            return size if e - b - 4 < size else 0
        elif t == 67: s.u32(b)
        elif t == 69:
            nr = s.u64(b)
            for i in range(4 * nr): s.u64(b + 8 + 8 * i)
            p = b + 8 + 32 * nr
            while p + 8 <= e: s.u64(p); p += 8
        elif t == 70:
            s.u32(b); s.u32(b + 4)
            p = b + 8
            while p + 8 <= e: s.u64(p); p += 8
        elif t == 71:
            size = s.u64(b); s.sw(b + 8, 'QQIIII')
            return size
        elif t == 72:
            s.sw(b, 'IIIIIIQQ')
            fmt = s.le32(b + 20)
            if fmt >= 2: s.sw(b + 48 + 64, 'II')
        elif t == 73:
            nr = s.u64(b)
            for i in range(nr): s.u64(b + 8 + 24 * i)
        elif t == 74: swap_cpu_map_data(s, b)
        elif t == 75:
            nr = s.u64(b)
            for i in range(2 * nr): s.u64(b + 8 + 8 * i)
        elif t == 76: s.sw(b, 'QIIQQQ')
        elif t == 77: s.sw(b, 'QQ')
        elif t == 78:
            typ = s.u64(b); s.u64(b + 8)
            if typ == 1: s.u64(b + 16)
            elif typ == 3: swap_cpu_map_data(s, b + 16)
        elif t == 79:
            s.sw(b, 'QQQ')
            if e - b >= 40: s.sw(b + 24, 'QQ')
        elif t == 80:
            s.u64(b)  # the feature body: the features' own readers (not converted)
        elif t in (81, 83):
            raise NotImplementedError('compressed payloads cannot be converted')
        return 0

    def walk(self, pos, end):
        while pos + 8 <= end:
            size = struct.unpack_from(self.s.i + 'H', self.s.src, pos + 6)[0]
            if size < 8:
                break
            pos += self.record(pos)

    def string_feature(self, off):
        self.s.u32(off)

    def tracing_feature(self, data_end, bits):
        """Convert HEADER_TRACING_DATA (bit 1) first: the samples need its formats."""
        if bits & 2:
            idx = data_end + 16 * bin(bits & 1).count('1')
            foff, fsize = self.s.le64(idx), self.s.le64(idx + 8)
            if fsize:
                self.tracing.convert_block(self.s, foff, foff + fsize)

    def features(self, data_end, bits):
        s = self.s
        idx = data_end
        for bit in range(256):
            if not bits >> bit & 1:
                continue
            foff, fsize = s.le64(idx), s.le64(idx + 8)
            s.u64(idx); s.u64(idx + 8)
            idx += 16
            if bit in (3, 4, 5, 6, 8, 9):
                self.string_feature(foff)
            elif bit == 12:  # EVENT_DESC
                nr, asz = s.u32(foff), s.u32(foff + 4)
                p = foff + 8
                for _ in range(nr):
                    swap_attr(s, p); p += asz
                    nids = s.u32(p); ln = s.u32(p + 4); p += 8 + ln
                    for _ in range(nids): s.u64(p); p += 8

    def convert(self):
        s = self.s
        hsize = s.le64(8)
        s.u64(0); s.u64(8)
        if hsize == 16:
            self.pipe = True
            self.walk(16, len(s.src))
            return bytes(s.out)
        attr_size, ao, asz, do, dsz = struct.unpack_from(s.i + 'QQQQQ', s.src, 16)
        for o in range(16, 72, 8): s.u64(o)
        bits = 0
        for i in range(4):
            bits |= s.u64(72 + 8 * i) << (64 * i)
        p = ao
        while p < ao + asz:
            a, real = swap_attr(s, p)
            ioff, isz = s.le64(p + real), s.le64(p + real + 8)
            s.u64(p + real); s.u64(p + real + 8)
            ids = [s.u64(ioff + 8 * i) for i in range(isz // 8)]
            self.attrs.append((a, set(ids)))
            p += real + 16
        self.tracing_feature(do + dsz, bits)
        self.walk(do, do + dsz)
        self.features(do + dsz, bits)
        return bytes(s.out)


def roundtrip(path):
    """-> (ok, message)"""
    data = open(path, 'rb').read()
    c1 = Converter(data)
    other = c1.convert()
    back = Converter(other).convert()
    if back == data:
        return True, (f'{path}: ok ({len(data)} bytes, {c1.tracing.raw_samples} tracepoint RAW '
                      f'payloads converted, {len(c1.tracing.formats)} formats)')
    at = next(i for i in range(min(len(back), len(data))) if back[i] != data[i]) \
        if len(back) == len(data) else min(len(back), len(data))
    return False, f'{path}: converted twice differs from the original at byte {at:#x}'


def main():
    args = sys.argv[1:]
    if args and args[0] == '--roundtrip-check':
        if len(args) < 2:
            print(__doc__, file=sys.stderr)
            return 2
        status = 0
        for path in args[1:]:
            try:
                ok, msg = roundtrip(path)
            except NotImplementedError as e:
                print(f'{path}: refused: {e}', file=sys.stderr)
                status = status or 3
                continue
            print(msg, file=sys.stdout if ok else sys.stderr)
            if not ok:
                status = 1
        return status
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    data = open(args[0], 'rb').read()
    try:
        out = Converter(data).convert()
    except NotImplementedError as e:
        print(f'{args[0]}: {e}', file=sys.stderr)
        return 3
    open(args[1], 'wb').write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
