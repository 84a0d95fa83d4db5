"""unwind_arch_perf.py - tests/unwind_arch.sh's captures (aarch64, arm32 ARM
and Thumb, under qemu-user) as users meet them: each capture becomes a
perf.data written with perfgen, the way `perf record --call-graph dwarf`
on that machine writes it, and `perfdata script` and `perfdata collapse`
must show every sample's chain as `unwind_arch_check --print` unwinds it
from the same registers and stack.

    python3 tests/unwind_arch_perf.py PERFDATA CHECK DIR [VARIANT...]

DIR (build/test/unwind_arch) holds each variant's static binary NAME and
its capture NAME.cap; CHECK is unwind_arch_check. A VARIANT is NAME, or
NAME@aarch64: an arm32 NAME as a 32-bit task under an aarch64 kernel.
Per variant, in DIR/perf/:

  NAME.data   a cpu-clock attr as perf's evsel__config_callchain makes it
              for dwarf: sample_type IP, TID, TIME, PERIOD, CALLCHAIN (the
              kernel's part only: empty), REGS_USER and STACK_USER;
              sample_regs_user perf's of the kernel (aarch64 x0-x30, sp,
              pc; arm r0-r15); sample_stack_user 20 KiB. Feature
              HEADER_ARCH "aarch64" or "armv7l" (uname -m). A COMM; an
              MMAP2 for each PT_LOAD's file pages at its own address (the
              binaries are static, not PIE), named /opt/unwind_arch/NAME
              and found under --symfs DIR/perf/symfs, and its bss
              anonymous. One SAMPLE per capture record: ip the pc,
              regs_user of ABI 64 or 32 (arm's 32-bit values in 64-bit
              fields), the stack copy: chain.c's, which ends at the top of
              its stack, and the zeros after it up to the end of the page,
              as the kernel copies it.
  NAME.cap    the capture with those stack copies, for CHECK --print.

Both commands must exit 0 with nothing on standard error; script's
call-chain lines (-F comm,tid,ip,sym,dso) must name each sample's chain
(innermost first, up to _start) and collapse's folded stacks must be the
same chains folded (comm, outermost first, ';', count). Where --print
knows only the sampled function (.ARM.exidx on a function's first
instruction) it must be the first frame, and some stack must end in it.
A variant without samples fails. Without clang, ld.lld, qemu-aarch64 or
qemu-arm (the captures cannot be made) it prints the reason and counts
one skip. Ends with "N passed, N failed, N skipped": two checks (script,
collapse) per variant.
"""
import collections
import os
import shutil
import struct
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from perfgen import (Attr, Perf, FEAT_ARCH, FLAG_COMM, FLAG_COMM_EXEC, FLAG_EXCLUDE_CALLCHAIN_USER,  # noqa: E402
                     FLAG_FREQ, FLAG_MMAP, FLAG_MMAP2, FLAG_SAMPLE_ID_ALL, MISC_MMAP_DATA, MISC_USER, REGS_ABI_32,
                     REGS_ABI_64, SAMPLE_CALLCHAIN, SAMPLE_IP, SAMPLE_PERIOD, SAMPLE_REGS_USER, SAMPLE_STACK_USER,
                     SAMPLE_TID, SAMPLE_TIME)

VARIANTS = ['a64-fp', 'a64-nofp', 'a64-O0', 'a64-debug-frame', 'a64-pac', 'arm-fp', 'arm-nofp', 'thumb-fp',
            'thumb-nofp', 'thumb-O0', 'arm-exidx', 'thumb-exidx', 'arm-fp@aarch64', 'thumb-exidx@aarch64']
EM_ARM, EM_AARCH64 = 40, 183
STACK_CAP = 16384      # chain.c's: no copy is longer
STACK_DUMP = STACK_CAP + 4096  # the attr's sample_stack_user (--call-graph dwarf,20480)
PID = 4242
MAP_DIR = '/opt/unwind_arch'


def load_segments(path):
    """e_machine, and (vaddr, filesz, memsz, offset, p_flags) of each
    PT_LOAD, of a little-endian ELF."""
    with open(path, 'rb') as f:
        img = f.read()
    if img[:4] != b'\x7fELF' or img[5] != 1 or img[4] not in (1, 2):
        raise ValueError('%s: not a little-endian ELF' % path)
    elf64 = img[4] == 2
    machine, = struct.unpack_from('<H', img, 18)
    phoff, = struct.unpack_from('<Q' if elf64 else '<I', img, 32 if elf64 else 28)
    phentsize, phnum = struct.unpack_from('<HH', img, 54 if elf64 else 42)
    segs = []
    for i in range(phnum):
        if elf64:
            p_type, p_flags, off, vaddr, _, filesz, memsz, _ = struct.unpack_from('<2I6Q', img,
                                                                                  phoff + i * phentsize)
        else:
            p_type, off, vaddr, _, filesz, memsz, p_flags, _ = struct.unpack_from('<8I', img, phoff + i * phentsize)
        if p_type == 1:
            segs.append((vaddr, filesz, memsz, off, p_flags))
    return machine, segs


def read_capture(path, machine):
    """chain.c's records: (its 48-byte head, registers, stack copy) each."""
    with open(path, 'rb') as f:
        buf = f.read()
    out, off = [], 0
    while off < len(buf):
        head = buf[off:off + 48]
        magic, mach, nregs, sp, stack_n, _ = struct.unpack_from('<6Q', buf, off)
        if magic != 0x31434155 or mach != machine or nregs != (33 if machine == EM_AARCH64 else 16):
            raise ValueError('%s: a malformed record at offset %d' % (path, off))
        regs = list(struct.unpack_from('<%dQ' % nregs, buf, off + 48))
        off += 48 + 8 * nregs
        stack = buf[off:off + stack_n]
        if len(stack) != stack_n or stack_n > STACK_CAP:
            raise ValueError('%s: a truncated record at offset %d' % (path, off))
        off += stack_n
        out.append((head, regs, stack))
    return out


def compat(regs):
    """arm's r0-r15 as an aarch64 kernel samples a 32-bit task's (perf_reg_value
    of arch/arm64: x0-x15 are r0-r15, lr r14, sp r13, pc r15; x16-x29 0)"""
    return regs[:16] + [0] * 14 + [regs[14], regs[13], regs[15]]


def write_perf(name, binary, capture, arch, out, out_capture):
    """NAME's perf.data as `perf record --call-graph dwarf` on `arch` writes
    it, and the capture as its samples hold it (the same stack copies);
    returns the samples' pcs."""
    machine, segs = load_segments(binary)
    samples = read_capture(capture, machine)
    a64 = machine == EM_AARCH64
    # perf's evsel__config_callchain for dwarf: the kernel's chain (empty
    # for a user-mode sample), without its user part, and what to unwind
    attr = Attr(type=1, config=0, period=4000,  # PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_CLOCK, -F 4000
                sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | SAMPLE_CALLCHAIN |
                SAMPLE_REGS_USER | SAMPLE_STACK_USER,
                flags=FLAG_SAMPLE_ID_ALL | FLAG_MMAP | FLAG_COMM | FLAG_MMAP2 | FLAG_COMM_EXEC | FLAG_FREQ |
                FLAG_EXCLUDE_CALLCHAIN_USER,
                sample_regs_user=(1 << 33) - 1 if a64 or arch == b'aarch64' else (1 << 16) - 1,
                sample_stack_user=STACK_DUMP)
    p = Perf([attr])
    p.string_feature(FEAT_ARCH, arch)
    comm = name.encode()[:15]
    p.comm(PID, PID, comm, exec=True, time=1000)
    path = ('%s/%s' % (MAP_DIR, name)).encode()
    for vaddr, filesz, memsz, off, flags in segs:
        # the file's pages, and the rest of the segment anonymous, as
        # `perf record -d` shows what the kernel's ELF loader maps
        prot = (1 if flags & 4 else 0) | (2 if flags & 2 else 0) | (4 if flags & 1 else 0)
        misc = MISC_USER | (0 if prot & 4 else MISC_MMAP_DATA)
        start, file_end, end = vaddr & ~4095, (vaddr + filesz + 4095) & ~4095, (vaddr + memsz + 4095) & ~4095
        if filesz:
            p.mmap2(PID, PID, start, file_end - start, off & ~4095, path, prot=prot, misc=misc, time=1000)
        else:
            file_end = start
        if end > file_end:
            p.mmap2(PID, PID, file_end, end - file_end, 0, b'//anon', prot=prot, flags=0x22, misc=misc, time=1000)
    cap, pcs = b'', []
    seg_end = max(vaddr + memsz for vaddr, _, memsz, _, _ in segs)
    for i, (head, regs, stack) in enumerate(samples):
        pc, sp = (regs[32], regs[31]) if a64 else (regs[15], regs[13])
        pcs.append(pc)
        # chain.c copies up to its stack's top, the end of the last
        # segment; the kernel goes on to the end of that page (zeros).
        # Without that, perf reads the copy's last word, the outermost
        # saved lr on arm, as 0.
        if stack and sp + len(stack) == seg_end:
            stack += bytes(min(-seg_end % 4096, STACK_DUMP - len(stack)))
        values = compat(regs) if not a64 and arch == b'aarch64' else regs
        p.sample(ip=pc, pid=PID, tid=PID, time=2000 + i * 1000, period=250000, callchain=[],
                 regs_user=(REGS_ABI_64 if a64 else REGS_ABI_32, values), stack_user=stack)
        cap += head[:32] + struct.pack('<Q', len(stack)) + head[40:] + b''.join(struct.pack('<Q', r) for r in regs)
        cap += stack
    with open(out, 'wb') as f:
        f.write(p.to_bytes())
    with open(out_capture, 'wb') as f:
        f.write(cap)
    return pcs


def script_samples(text):
    """(sample line, [(address, symbol)...] innermost first) of each sample
    of `script -F comm,tid,ip,sym,dso`: its line, its chain's lines
    ("address symbol (dso)") after a tab, a blank line."""
    out = []
    for line in text.splitlines():
        if not line.strip():
            continue
        if line[0] != '\t':
            out.append((line, []))
        elif out:
            fields = line.split()
            out[-1][1].append((fields[0], fields[1] if len(fields) > 2 else ''))
        else:
            out.append(('(a call-chain line before any sample)', []))
    return out


def run(cmd):
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
    return r.returncode, r.stdout, r.stderr


def outcome(name, what, problem, cmd):
    if problem:
        print('%s: %s: %s\n    (%s)' % (name, what, problem, ' '.join(cmd)))
    return (0, 1) if problem else (1, 0)


def check_variant(perfdata, check, d, variant):
    """(checks passed, checks failed) of NAME, or NAME@aarch64: an arm32
    NAME as a 32-bit task on an aarch64 kernel"""
    name, _, kernel = variant.partition('@')
    binary, capture = os.path.join(d, name), os.path.join(d, name + '.cap')
    if not os.path.exists(binary) or not os.path.exists(capture):
        print('%s: no binary or capture in %s (run tests/unwind_arch.sh)' % (variant, d))
        return 0, 2
    arch = kernel.encode() or (b'aarch64' if name.startswith('a64') else b'armv7l')
    out = os.path.join(d, 'perf')
    symfs = os.path.join(out, 'symfs')
    os.makedirs(symfs + MAP_DIR, exist_ok=True)
    shutil.copyfile(binary, symfs + MAP_DIR + '/' + name)
    stem = os.path.join(out, variant.replace('@', '.'))
    data, data_capture = stem + '.data', stem + '.cap'
    pcs = write_perf(name, binary, capture, arch, data, data_capture)

    # the chains, from the stacks the samples hold; ?? is script's
    # [unknown]; "- F": only the sampled function F is known (.ARM.exidx
    # on a function's first instruction, see unwind_arch_check.c)
    rc, text, err = run([check, '--print', binary, data_capture])
    want = [['[unknown]' if f == '??' else f for f in line.split()] for line in text.splitlines()]
    if rc != 0 or err or len(want) != len(pcs) or not pcs or any(w[:1] == ['-'] and len(w) != 2 for w in want):
        print('%s: %s --print %s %s: exit status %d, %d chains for %d samples%s' %
              (variant, check, binary, data_capture, rc, len(want), len(pcs), err and ':\n' + err.rstrip()))
        return 0, 2
    entry = sum(1 for w in want if w[0] == '-')

    def right(frames, w):
        syms = [sym for _, sym in frames]
        return syms[:1] == w[1:] if w[0] == '-' else syms == w

    # script: every sample's chain, in the order written (time order)
    cmd = [perfdata, 'script', '--symfs', symfs, '-F', 'comm,tid,ip,sym,dso', data]
    rc, text, err = run(cmd)
    got = script_samples(text)
    same = sum(1 for (_, g), w in zip(got, want) if right(g, w))
    problem = None
    if rc != 0 or err:
        problem = 'exit status %d, standard error:\n%s' % (rc, err.rstrip())
    elif len(got) != len(pcs):
        problem = '%d samples shown, %d written' % (len(got), len(pcs))
    elif same != len(pcs):
        i = next(i for i, ((_, g), w) in enumerate(zip(got, want)) if not right(g, w))
        problem = 'sample %d (pc 0x%x) differs:\n    script: %s\n    check:  %s' % (
            i, pcs[i], ' '.join('%s@%s' % (sym, addr) for addr, sym in got[i][1]) or '(no frames)', ' '.join(want[i]))
    at_entry = ' (%d on a function\'s first instruction by that function only)' % entry if entry else ''
    print('%s: script: %d of %d samples matched%s' % (variant, same, len(pcs), at_entry))
    passed, failed = outcome(variant, 'script', problem, cmd)

    # collapse: the same chains folded (comm, outermost first); a "- F"
    # sample's stack is any that ends in F
    folded = collections.Counter(';'.join([name[:15]] + w[::-1]) for w in want if w[0] != '-')
    cmd = [perfdata, 'collapse', '--symfs', symfs, data]
    rc, text, err = run(cmd)
    got_folded = collections.Counter()
    problem = None
    for line in text.splitlines():
        stack, _, count = line.rpartition(' ')
        if not stack or not count.isdigit():
            problem = problem or 'not a folded stack: %r' % line
        else:
            got_folded[stack] += int(count)
    # the stacks of the chains, then those of the "- F" samples by F
    ends = collections.Counter(w[1] for w in want if w[0] == '-')
    matched = sum(min(got_folded[k], n) for k, n in folded.items())
    for k, n in sorted((got_folded - folded).items()):
        f = k.rpartition(';')[2]
        m = min(n, ends[f]) if k.startswith(name[:15] + ';') else 0
        ends[f] -= m
        matched += m
    if rc != 0 or err:
        problem = 'exit status %d, standard error:\n%s' % (rc, err.rstrip())
    elif not problem and (matched != len(pcs) or sum(got_folded.values()) != len(pcs)):
        k = min(set(got_folded) | set(folded), key=lambda k: (got_folded[k] == folded[k], k))
        problem = 'stack %s: %d in collapse, %d in the chains%s' % (
            k, got_folded[k], folded[k], ' (and %d ending in a function\'s first instruction)' % entry if entry else '')
    print('%s: collapse: %d of %d samples matched' % (variant, matched, len(pcs)))
    p, f = outcome(variant, 'collapse', problem, cmd)
    return passed + p, failed + f


def main():
    if len(sys.argv) < 4:
        print('usage: unwind_arch_perf.py PERFDATA CHECK DIR [VARIANT...]')
        return 2
    perfdata, check, d = sys.argv[1:4]
    for tool in ('clang', 'ld.lld', 'qemu-aarch64', 'qemu-arm'):
        if not shutil.which(tool):
            print('skip: %s not installed' % tool)
            print('0 passed, 0 failed, 1 skipped')
            return 0
    passed = failed = 0
    for name in sys.argv[4:] or VARIANTS:
        try:
            p, f = check_variant(perfdata, check, d, name)
        except (OSError, ValueError, struct.error) as e:
            print('%s: %s' % (name, e))
            p, f = 0, 2
        passed += p
        failed += f
    print('%d passed, %d failed, 0 skipped' % (passed, failed))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
