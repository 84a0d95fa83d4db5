#!/usr/bin/env python3
"""-z chunks decompressed ahead of the reader, in threads of their own
(-j 3 and more; by default on three CPUs or more), print what one thread prints
(-j 1, where the reader decodes each chunk itself): the same output, the
same messages, the same exit status, for dump, report, script and collapse,
on crafted -z files of either byte order:

  frames     every chunk a whole zstd frame
  split      one frame cut into pieces of 1000 bytes (the stream is inside a
             frame at most chunk boundaries, as in perf's own files: perf
             flushes one frame for the whole recording); one helper decodes
             them in turn
  bad-frame  a chunk in the middle that is no zstd frame
  bad-block  a block in the middle of a split frame that cannot be decoded
  oversize   a chunk decoding to more than the reader's room
  rle        two chunks of runs, 4 MiB each from a few hundred bytes, the
             second cut inside a record
  cut        the last chunk ends inside a record
  aux        split, after an AUXTRACE record whose payload, read as
             records, would end the walk
  dir        a --threads directory: the data section and data.0, data.1,
             each its own frame cut into pieces (one helper decodes them in
             turn, a decoder set up afresh for each)
  dir-bad    the same with a block that cannot be decoded in data.0

usage: zahead_same.py PERFDATA WORKDIR
"""
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import perfgen  # noqa: E402

passed = failed = 0


def records(big, n, seed):
    """n samples of one process (a COMM, an MMAP2, FINISHED_ROUNDs), as bytes"""
    a = perfgen.Attr(sample_type=perfgen.SAMPLE_IP | perfgen.SAMPLE_TID | perfgen.SAMPLE_TIME |
                     perfgen.SAMPLE_PERIOD | perfgen.SAMPLE_CALLCHAIN, ids=[1])
    q = perfgen.Perf([a], big_endian=big)
    out = [q.comm(100 + seed, 100 + seed, b'zwork%d' % seed, time=1),
           q.mmap2(100 + seed, 100 + seed, 0x400000, 0x10000, 0, b'/nonexistent/zwork', time=1)]
    for i in range(n):
        ips = [0x400000 + ((i * 7 + k * 13 + seed) % 97) * 16 for k in range(1 + i % 5)]
        out.append(q.sample(ip=ips[0], pid=100 + seed, tid=100 + seed, time=10 + i, period=1 + i % 3,
                            callchain=ips))
        if i % 40 == 39:
            out.append(q.finished_round())
    return a, b''.join(out)


def blocks(data, last=True):
    """raw blocks of at most 100 KiB"""
    out = b''
    for i in range(0, len(data), 100000):
        out += perfgen.zstd_raw_block(data[i:i + 100000], last=last and i + 100000 >= len(data))
    return out


AUXTRACE = 71


def build(kind, big):
    a, recs = records(big, 3000, 0 if kind != 'split' else 1)
    p = perfgen.Perf([perfgen.Attr(sample_type=a.sample_type, ids=[1])], big_endian=big)
    e = '>' if big else '<'
    mmap_len = 65536
    extra = []
    # whole records per chunk: cut at record boundaries, about 8 KiB each
    pieces, at = [], 0
    while at < len(recs):
        end = at
        while end < len(recs) and end - at < 8192:
            end += struct.unpack(e + 'H', recs[end + 6:end + 8])[0]
        pieces.append(recs[at:end])
        at = end
    if kind in ('frames', 'bad-frame', 'oversize', 'rle', 'cut'):
        window = 22 if kind == 'rle' else 17  # the first frame's window is the decoder's
        chunks = [perfgen.zstd_frame_header(window) + blocks(piece) for piece in pieces]
        if kind == 'bad-frame':
            chunks[len(chunks) // 2] = b'\x00\x01\x02\x03 no zstd frame here'
        if kind == 'oversize':  # 18 MiB of 2056-byte records from RLE blocks
            big_frame = perfgen.zstd_frame_header(24)
            for i in range(144):
                big_frame += perfgen.zstd_rle_block(8, 131072, last=(i == 143))
            chunks.insert(len(chunks) // 2, big_frame)
            mmap_len = 4096
            extra = ['--max-ratio', '0']
        if kind == 'rle':  # 4 MiB each from a few hundred bytes
            rle = perfgen.zstd_frame_header(22)
            for i in range(32):
                rle += perfgen.zstd_rle_block(8, 131072, last=(i == 31))
            tail = (4 << 20) % 2056
            rle_end = rle[:-4] + perfgen.zstd_rle_block(8, 131072) + perfgen.zstd_rle_block(8, 2056 - tail, last=True)
            chunks[len(chunks) // 2:len(chunks) // 2] = [rle, rle_end]
            mmap_len = (4 << 20) + 4096
        if kind == 'cut':
            rounds = struct.pack(e + 'IHH', 68, 0, 8) * 3
            chunks.append(perfgen.zstd_frame_header() + perfgen.zstd_raw_block(rounds + rounds[:4], last=True))
        for c in chunks:
            p.compressed(c)
    else:  # one frame, cut anywhere
        stream = perfgen.zstd_frame_header() + blocks(recs)
        if kind == 'aux':  # an AUXTRACE record and its payload (zeros) first
            p.raw(AUXTRACE, struct.pack(e + 'QQQIIII', 64, 0, 0, 0, 0, 0, 0))
            p.records.append(b'\0' * 64)
        if kind == 'bad-block':  # a reserved block type two thirds in
            at = len(stream) * 2 // 3
            stream = stream[:at] + b'\x06\x00\x00' + stream[at:]
        for i in range(0, len(stream), 1000):
            p.compressed(stream[i:i + 1000])
    p.feature(perfgen.FEAT_COMPRESSED, struct.pack(e + 'IIIII', 0, 1, 1, 1, mmap_len))
    return p.to_bytes(), extra


def build_dir(kind, big, path):
    """A --threads directory at path: data (the header, a few chunks of its
    own) and data.0, data.1 (records only), each its own zstd stream"""
    e = '>' if big else '<'
    parts = []
    for seed in range(3):
        a, recs = records(big, 600 + 300 * seed, 10 + seed)
        stream = perfgen.zstd_frame_header() + blocks(recs, last=False)
        if kind == 'dir-bad' and seed == 1:
            at = len(stream) // 2
            stream = stream[:at] + b'\x06\x00\x00' + stream[at:]
        q = perfgen.Perf([perfgen.Attr(sample_type=a.sample_type, ids=[1])], big_endian=big)
        for i in range(0, len(stream), 1000):
            q.compressed(stream[i:i + 1000])
        parts.append(q)
    main = parts[0]
    main.feature(perfgen.FEAT_COMPRESSED, struct.pack(e + 'IIIII', 0, 1, 1, 1, 65536))
    main.feature(perfgen.FEAT_DIR_FORMAT, struct.pack(e + 'Q', 1))
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, 'data'), 'wb') as f:
        f.write(main.to_bytes())
    for i, q in enumerate(parts[1:]):
        with open(os.path.join(path, 'data.%d' % i), 'wb') as f:
            f.write(b''.join(q.records))


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return r.returncode, r.stdout, r.stderr


def main():
    global passed, failed
    tool, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    commands = [['dump'], ['dump', '--ordered'], ['report'], ['script'], ['collapse']]
    for kind in ('frames', 'split', 'aux', 'bad-frame', 'bad-block', 'oversize', 'rle', 'cut', 'dir', 'dir-bad'):
        for big in (False, True):
            path = os.path.join(work, 'zahead-%s-%s.data' % (kind, 'be' if big else 'le'))
            if kind.startswith('dir'):
                build_dir(kind, big, path)
                extra = []
            else:
                data, extra = build(kind, big)
                with open(path, 'wb') as f:
                    f.write(data)
            for cmd in commands:
                one = run([tool] + cmd + extra + ['-j', '1', path])
                two = run([tool] + cmd + extra + ['-j', '4', path])
                name = '%s %s %s' % (kind, 'be' if big else 'le', ' '.join(cmd))
                why = None
                if one != two:
                    why = 'exit %d/%d, stdout %s, stderr %r / %r' % (
                        one[0], two[0], 'same' if one[1] == two[1] else 'differs', one[2][:300], two[2][:300])
                elif not one[1]:
                    why = 'no output'
                elif kind in ('frames', 'split', 'aux', 'dir') and (one[0] != 0 or one[2]):
                    why = 'exit %d: %r' % (one[0], one[2][:300])
                elif kind in ('bad-frame', 'bad-block', 'oversize', 'rle', 'cut', 'dir-bad') and (one[0] != 3 or not one[2]):
                    why = 'a damaged file read without saying so: exit %d' % one[0]
                if why:
                    failed += 1
                    print('FAIL', name, why)
                else:
                    passed += 1
            if os.path.isdir(path):
                shutil.rmtree(path)
            else:
                os.unlink(path)
    print('%d passed, %d failed' % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == '__main__':
    sys.exit(main())
