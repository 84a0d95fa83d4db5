#!/usr/bin/env python3
"""gen_fs.py: perf.data inputs whose recorded paths point symbol lookup at
things that are not binaries (devices, FIFOs, sockets, paths with `..`),
and a tiny ELF to plant where such a path would lead.

    python3 tests/hostile/gen_fs.py     rewrites the committed inputs here

The committed inputs need no filesystem setup; tests/hostile_fs.py makes
the ones that do (a FIFO, a socket, a symlink, a build-id cache entry) at
run time in a temporary directory, with the functions below, and checks
that the committed files are what COMMITTED makes."""
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from perfgen import (Attr, Perf, FEAT_BUILD_ID, MISC_KERNEL, SAMPLE_IP, SAMPLE_TID,  # noqa: E402
                     SAMPLE_TIME, SAMPLE_PERIOD)

PID = 4242
COMM = b'hostile-fs'
MAP_START = 0x400000
MAP_LEN = 0x1000
KERNEL_START = 0xffffffff81000000

# the planted ELF: one function at FUNC_VADDR, FUNC_SIZE bytes long
ELF_NAME = 'hostile-fs.elf'
FUNC_NAME = 'hostile_fs_planted_function'
FUNC_VADDR = MAP_START + 0x80
FUNC_SIZE = 0x40
SAMPLE_IP_IN_FUNC = FUNC_VADDR + 0x10


def planted_elf():
    """An ELF64 x86-64 executable: one PT_LOAD (R+X) mapping the whole
    file at MAP_START, a .text of FUNC_SIZE `ret`s at file offset 0x80,
    and a .symtab naming the function FUNC_NAME."""
    text = b'\xc3' * FUNC_SIZE
    strtab = b'\0' + FUNC_NAME.encode() + b'\0'
    shstrtab = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
    symtab = bytes(24) + struct.pack('<IBBHQQ', 1, (1 << 4) | 2, 0, 1, FUNC_VADDR, FUNC_SIZE)
    text_off = 0x80
    symtab_off = text_off + len(text)
    strtab_off = symtab_off + len(symtab)
    shstrtab_off = strtab_off + len(strtab)
    shoff = (shstrtab_off + len(shstrtab) + 7) & ~7
    shnum = 5
    size = shoff + 64 * shnum
    ident = b'\x7fELF' + bytes([2, 1, 1, 0]) + bytes(8)
    ehdr = ident + struct.pack('<HHIQQQIHHHHHH', 2, 62, 1, FUNC_VADDR, 64, shoff, 0, 64, 56, 1, 64, shnum, 4)
    phdr = struct.pack('<IIQQQQQQ', 1, 5, 0, MAP_START, MAP_START, size, size, 0x1000)

    def shdr(name, type, flags, addr, off, n, link=0, info=0, align=1, entsize=0):
        return struct.pack('<IIQQQQIIQQ', name, type, flags, addr, off, n, link, info, align, entsize)
    shdrs = (bytes(64) +
             shdr(shstrtab.index(b'.text'), 1, 6, FUNC_VADDR, text_off, len(text), align=16) +
             shdr(shstrtab.index(b'.symtab'), 2, 0, 0, symtab_off, len(symtab), link=3, info=1, align=8, entsize=24) +
             shdr(shstrtab.index(b'.strtab'), 3, 0, 0, strtab_off, len(strtab)) +
             shdr(shstrtab.index(b'.shstrtab'), 3, 0, 0, shstrtab_off, len(shstrtab)))
    out = bytearray(size)
    out[0:64] = ehdr
    out[64:64 + 56] = phdr
    out[text_off:text_off + len(text)] = text
    out[symtab_off:symtab_off + len(symtab)] = symtab
    out[strtab_off:strtab_off + len(strtab)] = strtab
    out[shstrtab_off:shstrtab_off + len(shstrtab)] = shstrtab
    out[shoff:shoff + len(shdrs)] = shdrs
    return bytes(out)


def build_id_entry(p, build_id, name, misc):
    """One entry of the BUILD_ID feature (perf's build_id_event)."""
    body = p.u32(0xffffffff if misc == MISC_KERNEL else PID) + bytes(build_id).ljust(24, b'\0')
    name = bytes(name) + b'\0'
    name += b'\0' * (-len(name) % 64)
    return struct.pack('<IHH', 0, misc, 8 + len(body) + len(name)) + body + name


def profile(path, samples=3, build_id=None, kernel=False):
    """A process that maps `path` (bytes) and is sampled inside it; with
    build_id, the BUILD_ID feature records that id for the path; with
    kernel, a kernel map and a kernel sample too (kallsyms is then read)."""
    p = Perf([Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD)])
    p.comm(PID, PID, COMM, time=1)
    if kernel:
        p.mmap(0xffffffff, 0, KERNEL_START, 0x1000000, KERNEL_START, b'[kernel.kallsyms]_text', misc=MISC_KERNEL, time=1)
    p.mmap2(PID, PID, MAP_START, MAP_LEN, 0, path, time=2)
    for i in range(samples):
        p.sample(ip=SAMPLE_IP_IN_FUNC, pid=PID, tid=PID, time=10 + i, period=1000)
    if kernel:
        p.sample(ip=KERNEL_START + 0x100, pid=PID, tid=PID, time=20, period=1000, misc=MISC_KERNEL)
    if build_id:
        p.feature(FEAT_BUILD_ID, build_id_entry(p, build_id, path, 2))
    return p.to_bytes()


# committed inputs: name -> recorded mapping path. The devices are spelled
# so that a prefix test on "/dev/" misses them; the last climbs out of a
# --symfs directory to the planted ELF beside it (tests/hostile_fs.py
# plants it as outside/hostile-fs.elf next to symfs/).
COMMITTED = {
    'mmap2-dev-dot-slash.data': b'/./dev/null',
    'mmap2-dev-double-slash.data': b'//dev/zero',
    'mmap2-dev-dot-dot.data': b'/tmp/../dev/zero',
    'mmap2-symfs-escape.data': b'/../outside/' + ELF_NAME.encode(),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for name, path in sorted(COMMITTED.items()):
        with open(os.path.join(here, name), 'wb') as f:
            f.write(profile(path))
        print(name)


if __name__ == '__main__':
    main()
