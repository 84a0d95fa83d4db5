#!/usr/bin/env python3
"""Test-only writer: rewrite a little-endian perf.data (file or pipe mode) as
the big-endian file a big-endian machine would have written, field by field
(what perfdata.h must undo on read). Layouts as in
include/uapi/linux/perf_event.h and tools/perf/util/header.c.

Byte strings, build ids, RAW payloads and user-stack dumps are copied as
they are (they are bytes either way). The attr flag bit-field is laid out as
a big-endian compiler does (per byte, first field in bit 7), precise_ip's
two bits mirrored with it; branch-entry flags likewise from the MSB down.
Compressed payloads cannot be converted without recompressing: such files
are refused (exit 3).

Usage: swap_endian.py IN OUT
"""
import struct
import sys

LE, BE = '<', '>'


class Swapper:
    def __init__(self, data):
        self.src = data
        self.out = bytearray(data)

    # copy a field at `off` from LE to BE
    def sw(self, off, fmt):
        size = struct.calcsize(fmt)
        if off < 0 or off + size > len(self.src):
            raise ValueError(f'field at {off:#x} out of range')
        vals = struct.unpack_from(LE + fmt, self.src, off)
        struct.pack_into(BE + fmt, self.out, off, *vals)
        return vals

    def u64(self, off):
        return self.sw(off, 'Q')[0]

    def u32(self, off):
        return self.sw(off, 'I')[0]

    def u16(self, off):
        return self.sw(off, 'H')[0]

    def le64(self, off):
        return struct.unpack_from('<Q', self.src, off)[0]

    def le32(self, off):
        return struct.unpack_from('<I', self.src, off)[0]


def bitrev8(b):
    return int(f'{b:08b}'[::-1], 2)


def swap_attr_flags(s, off):
    flags = s.le64(off)
    pi = (flags >> 15) & 3
    flags = (flags & ~(3 << 15)) | (((pi & 1) << 1 | (pi >> 1)) << 15)  # mirrored 2-bit field
    for i in range(8):
        s.out[off + i] = bitrev8((flags >> (8 * i)) & 0xff)


# offsets and widths of perf_event_attr fields after `flags`
ATTR_FIELDS = [(48, 'I'), (52, 'I'), (56, 'Q'), (64, 'Q'), (72, 'Q'), (80, 'Q'), (88, 'I'), (92, 'i'), (96, 'Q'),
               (104, 'I'), (108, 'H'), (110, 'H'), (112, 'I'), (116, 'I'), (120, 'Q'), (128, 'Q'), (136, 'Q')]


def swap_attr(s, off):
    """Returns (attr dict, size)."""
    typ, size = s.le32(off), s.le32(off + 4)
    real = size or 64
    a = dict(type=typ, size=real, sample_type=s.le64(off + 24), read_format=s.le64(off + 32),
             flags=s.le64(off + 40), branch_sample_type=s.le64(off + 72) if real >= 80 else 0,
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


def branch_flags_be(v):
    """LE bit-field layout -> the u64 a BE compiler stores (fields from the MSB)."""
    widths = [1, 1, 1, 1, 16, 4, 2, 4, 3, 31]
    out, lo, hi = 0, 0, 64
    for w in widths:
        hi -= w
        out |= ((v >> lo) & ((1 << w) - 1)) << hi
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


def swap_sample(s, a, pos, end):
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
        size = s.u32(pos); pos += 4 + size
    if t & (1 << 11):
        nr = q()
        if a['branch_sample_type'] & (1 << 17): q()
        for _ in range(nr):
            q(); q()
            v = s.le64(pos)
            struct.pack_into('>Q', s.out, pos, branch_flags_be(v)); pos += 8
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


class Converter:
    def __init__(self, data):
        self.s = Swapper(data)
        self.attrs = []      # list of (attr, ids)
        self.pipe = False

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
        rtype, misc, size = struct.unpack_from('<IHH', s.src, off)
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
            swap_sample(s, a, body, end)
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
            size = struct.unpack_from('<H', self.s.src, pos + 6)[0]
            if size < 8:
                break
            pos += self.record(pos)

    def string_feature(self, off):
        self.s.u32(off)

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
        magic, hsize = struct.unpack_from('<QQ', s.src, 0)
        if magic != 0x32454c4946524550:
            raise ValueError('not a little-endian PERFILE2 file')
        s.u64(0); s.u64(8)
        if hsize == 16:
            self.pipe = True
            self.walk(16, len(s.src))
            return bytes(s.out)
        attr_size, ao, asz, do, dsz = struct.unpack_from('<QQQQQ', s.src, 16)
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
        self.walk(do, do + dsz)
        self.features(do + dsz, bits)
        return bytes(s.out)


def main():
    data = open(sys.argv[1], 'rb').read()
    try:
        out = Converter(data).convert()
    except NotImplementedError as e:
        print(f'{sys.argv[1]}: {e}', file=sys.stderr)
        return 3
    open(sys.argv[2], 'wb').write(out)
    return 0


if __name__ == '__main__':
    sys.exit(main())
