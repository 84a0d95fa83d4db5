"""gen_text: perf.data files whose names would forge output structure.

Command names (COMM), mapping file names (MMAP, MMAP2), symbol names (an
ELF under --symfs, a kallsyms file, KSYMBOL records), event names
(EVENT_DESC) and a group name (GROUP_DESC) hold newlines, tabs, carriage
returns, terminal escape sequences (ESC [2J, an OSC title, a UTF-8 C1 CSI),
DEL, the folded-stack separators ';' and ' ', CSV separators (commas,
quotes) and leading '=', '+', '-', '@'. The tracepoint files add a
TRACING_DATA section whose formats (their system and event names, print
fmts and __print_symbolic/__print_flags strings) and RAW payloads (char
arrays, __data_loc strings) hold the same.

    python3 tests/hostile/gen_text.py DIR      writes the .data files to DIR
    python3 tests/hostile/gen_text.py --check  compares them with the
                                               committed tests/hostile/ ones

The symbols need the ELF and the kallsyms file too: write_symfs(DIR) makes
DIR/<the ELF's mapped path> and DIR/kallsyms (tests/hostile_text.py does,
then runs the tools with --symfs DIR --kallsyms DIR/kallsyms).
tests/hostile_text.py imports the names and the expected rows from here.
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
from perfgen import (Attr, Perf, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_PERIOD,  # noqa: E402
                     SAMPLE_CALLCHAIN, SAMPLE_IDENTIFIER, SAMPLE_CPU, SAMPLE_RAW, MISC_KERNEL, MISC_USER, SAMPLE,
                     FEAT_TRACING_DATA, FEAT_HOSTNAME)

# tools/perf/util/header.h's feature ids (as perfdata.h's PERFDATA_FEAT_*)
FEAT_EVENT_DESC, FEAT_BRANCH_STACK, FEAT_GROUP_DESC = 12, 15, 17
SAMPLE_BRANCH_STACK = 1 << 11
CONTEXT_KERNEL = (1 << 64) - 128
CONTEXT_USER = (1 << 64) - 512

# the processes: pid 100 + i is named COMMS[i]
COMMS = [
    b'x\nforged;frame 999999',
    b'\x1b[2J\x1b]0;title\x07esc',
    b'=HYPERLINK("http://x")',
    b'+plus,comma"quote',
    b'-minus\ttab\rcr',
    b'@at\xc2\x9bcsi\x7fdel',
]
# the ELF every process maps (found below --symfs), and a file that is missing
ELF_PATH = b'/hostile/=lib\n;x\t\x1b[31m\xc2\x9b,".so'
MISSING_PATH = b'/missing/@miss\x1b]0;t\x07;x\n1.so'
# the ELF's function symbols (at ELF_TEXT + i * ELF_STRIDE, ELF_STRIDE long)
SYMS = [
    b'sym\nforged;frame 1',
    b'sym\x1b]0;title\x07',
    b'=SUM(A1:A2)',
    b'+sym,comma"q\'',
    b'-sym\ttab',
    b'@sym\xc2\x9b\x7f',
    b'semi;colon',
    b'plain_function',
]
# kallsyms text symbols (a kallsyms name holds no blank and no newline)
KSYMS = [b'k\x1b[2Jclear', b'k;semi', b'=kform', b'k\xc2\x85nel', b'k\x7fdel', b'k\rcr']
# KSYMBOL records (BPF programs): any bytes
BPF_SYMS = [b'bpf\nforged;frame 7\t\x1b[2J', b'-bpf,"x"']
# a kernel module (shown as [evil\n;mod\x1b[0m])
MODULE_PATH = b'/lib/modules/6.1.0/kernel/evil\n;mod\x1b[0m.ko'
MODULE_NAME = b'[evil\n;mod\x1b[0m]'
EVENT_NAME = b'cyc\x1b[2J\nles;=x,"q"'
GROUP_NAME = b'=grp\x1b]0;t\x07\n'
GROUP_EVENTS = [b'-ev1\x1b[1m', b'ev2\n;x']

USER_BASE = 0x7f0000000000
ELF_TEXT, ELF_STRIDE = 0x1000, 0x100
MISSING_BASE = 0x7f1000000000
UNMAPPED = 0x5000
KERNEL_START, KERNEL_LEN = 0xffffffff81000000, 0x1000000
KSYM_BASE = KERNEL_START + 0x100
MODULE_START, MODULE_LEN = 0xffffffffc0000000, 0x10000
BPF_BASE = 0xffffffffa0000000


def elf_ip(i):
    return USER_BASE + ELF_TEXT + (i % len(SYMS)) * ELF_STRIDE + 0x10


def ksym_ip(i):
    return KSYM_BASE + (i % len(KSYMS)) * 0x100 + 8


def bpf_ip(i):
    return BPF_BASE + (i % len(BPF_SYMS)) * 0x1000 + 4


def make_elf():
    """A minimal ELF64 shared object: one PT_LOAD over the whole file,
    .text, .symtab, .strtab, .shstrtab; SYMS as global functions."""
    text = b'\x90' * (len(SYMS) * ELF_STRIDE)
    strtab = b'\0'
    names = []
    for s in SYMS:
        names.append(len(strtab))
        strtab += s + b'\0'
    symtab = b'\0' * 24
    for i, off in enumerate(names):
        # st_name, st_info (GLOBAL FUNC), st_other, st_shndx (.text), st_value, st_size
        symtab += struct.pack('<IBBHQQ', off, 0x12, 0, 1, ELF_TEXT + i * ELF_STRIDE, ELF_STRIDE)
    shstrtab = b'\0.text\0.symtab\0.strtab\0.shstrtab\0'
    sym_off = ELF_TEXT + len(text)
    str_off = sym_off + len(symtab)
    shstr_off = str_off + len(strtab)
    sh_off = (shstr_off + len(shstrtab) + 7) & ~7
    size = sh_off + 5 * 64
    ehdr = struct.pack('<4sBBBBB7sHHIQQQIHHHHHH', b'\x7fELF', 2, 1, 1, 0, 0, b'\0' * 7,
                       3, 62, 1, 0, 64, sh_off, 0, 64, 56, 1, 64, 5, 4)
    phdr = struct.pack('<IIQQQQQQ', 1, 5, 0, 0, 0, size, size, 0x1000)

    def shdr(name, type, flags, addr, off, sz, link=0, info=0, align=1, entsize=0):
        return struct.pack('<IIQQQQIIQQ', name, type, flags, addr, off, sz, link, info, align, entsize)
    sections = (b'\0' * 64 +
                shdr(1, 1, 6, ELF_TEXT, ELF_TEXT, len(text), align=16) +
                shdr(7, 2, 0, 0, sym_off, len(symtab), link=3, info=1, align=8, entsize=24) +
                shdr(15, 3, 0, 0, str_off, len(strtab)) +
                shdr(23, 3, 0, 0, shstr_off, len(shstrtab)))
    out = bytearray(size)
    out[0:64] = ehdr
    out[64:64 + 56] = phdr
    out[ELF_TEXT:ELF_TEXT + len(text)] = text
    out[sym_off:sym_off + len(symtab)] = symtab
    out[str_off:str_off + len(strtab)] = strtab
    out[shstr_off:shstr_off + len(shstrtab)] = shstrtab
    out[sh_off:] = sections
    return bytes(out)


def kallsyms_text():
    lines = [b'%016x T %s' % (KSYM_BASE + i * 0x100, s) for i, s in enumerate(KSYMS)]
    lines.append(b'%016x T _etext' % (KSYM_BASE + len(KSYMS) * 0x100))
    return b'\n'.join(lines) + b'\n'


def write_symfs(d):
    """DIR/<ELF_PATH> (the ELF) and DIR/kallsyms."""
    path = os.path.join(os.fsencode(d), ELF_PATH.lstrip(b'/'))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, 'wb') as f:
        f.write(make_elf())
    with open(os.path.join(d, 'kallsyms'), 'wb') as f:
        f.write(kallsyms_text())


def event_desc(p, attrs, names):
    """EVENT_DESC: u32 nr, u32 attr size, then per event the attr, u32
    nr_ids, the name as a perf string, the ids."""
    out = p.u32(len(attrs)) + p.u32(128)
    for a, name in zip(attrs, names):
        ab = a.to_bytes(p.e)
        out += ab + b'\0' * (128 - len(ab)) + p.u32(len(a.ids)) + p.perf_string(name)
        out += b''.join(p.u64(i) for i in a.ids)
    return out


def kernel_maps(p):
    p.mmap(-1, 0, KERNEL_START, KERNEL_LEN, KERNEL_START, b'[kernel.kallsyms]_text', misc=MISC_KERNEL)
    p.mmap(-1, 0, MODULE_START, MODULE_LEN, 0, MODULE_PATH, misc=MISC_KERNEL)
    for i, name in enumerate(BPF_SYMS):
        p.ksymbol(BPF_BASE + i * 0x1000, 0x100, name)


def process(p, i, time):
    pid = 100 + i
    p.comm(pid, pid, COMMS[i], time=time)
    p.mmap2(pid, pid, USER_BASE, 0x10000, 0, ELF_PATH, time=time)
    p.mmap2(pid, pid, MISSING_BASE, 0x10000, 0, MISSING_PATH, time=time)


def kernel_chain(i):
    """The kernel sample's callchain, leaf first: a kallsyms symbol, the
    module, a BPF program, then user frames: an ELF symbol, the missing
    file, an unmapped address."""
    return [CONTEXT_KERNEL, ksym_ip(i), MODULE_START + 0x40, bpf_ip(i), CONTEXT_USER, elf_ip(i),
            MISSING_BASE + 0x100, UNMAPPED]


def user_chain(i):
    return [CONTEXT_USER, elf_ip(i + 1), elf_ip(i + 2)]


def user_repeats(i):
    """How many times process i's user stack is sampled."""
    return i + 1


def names_file(pipe=False):
    """Every process: one kernel sample, user_repeats(i) user samples."""
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | SAMPLE_CALLCHAIN)
    p = Perf([a], pipe=pipe)
    if pipe:
        p.header_feature(FEAT_EVENT_DESC, event_desc(p, [a], [EVENT_NAME]))
    else:
        p.feature(FEAT_EVENT_DESC, event_desc(p, [a], [EVENT_NAME]))
    kernel_maps(p)
    t = 1000
    for i in range(len(COMMS)):
        process(p, i, t)
    for i in range(len(COMMS)):
        pid = 100 + i
        t += 10
        p.sample(ip=ksym_ip(i), pid=pid, tid=pid, time=t, period=1000, callchain=kernel_chain(i), misc=MISC_KERNEL)
        for _ in range(user_repeats(i)):
            t += 10
            p.sample(ip=elf_ip(i + 1), pid=pid, tid=pid, time=t, period=1000, callchain=user_chain(i))
    p.finished_round()
    return p.to_bytes()


def group_file():
    """Two events in a group with a hostile name: report's group view."""
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD
    attrs = [Attr(sample_type=st, ids=[11]), Attr(sample_type=st, ids=[12])]
    p = Perf(attrs)
    p.feature(FEAT_EVENT_DESC, event_desc(p, attrs, GROUP_EVENTS))
    p.feature(FEAT_GROUP_DESC, p.u32(1) + p.perf_string(GROUP_NAME) + p.u32(0) + p.u32(2))
    kernel_maps(p)
    t = 1000
    for i in range(len(COMMS)):
        process(p, i, t)
    for i in range(len(COMMS)):
        pid = 100 + i
        t += 10
        p.sample(ip=elf_ip(i), pid=pid, tid=pid, time=t, period=100, attr=0)
        p.sample(ip=elf_ip(i), pid=pid, tid=pid, time=t + 1, period=100, attr=1)
    p.finished_round()
    return p.to_bytes()


def branch_entries(i):
    """(from, to) of process i's branch stack."""
    return [(elf_ip(i), elf_ip(i + 3)), (ksym_ip(i), bpf_ip(i)), (MISSING_BASE + 0x200, UNMAPPED)]


def branch_file():
    """Branch stacks between hostile symbols: report's branch mode."""
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | SAMPLE_BRANCH_STACK)
    p = Perf([a])
    p.feature(FEAT_EVENT_DESC, event_desc(p, [a], [EVENT_NAME]))
    p.feature(FEAT_BRANCH_STACK, b'')
    kernel_maps(p)
    t = 1000
    for i in range(len(COMMS)):
        process(p, i, t)
    for i in range(len(COMMS)):
        pid = 100 + i
        t += 10
        entries = branch_entries(i)
        body = (p.u64(elf_ip(i)) + p.u32(pid) + p.u32(pid) + p.u64(t) + p.u64(1000) + p.u64(len(entries)) +
                b''.join(p.u64(f) + p.u64(to) + p.u64(0) for f, to in entries))
        p.raw(SAMPLE, body, MISC_USER)
    p.finished_round()
    return p.to_bytes()


# a thread first named CUT_COMM (at its sample), then CUT_LATER: report
# sizes its Command column by the later name and cuts the first at that
# width, where an escape starts
CUT_COMM, CUT_LATER = b'abcd\x1bZZZ', b'ab'


def cut_file():
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD)
    p = Perf([a])
    p.comm(200, 200, CUT_COMM, time=1)
    p.mmap2(200, 200, USER_BASE, 0x10000, 0, ELF_PATH, time=1)
    p.sample(ip=elf_ip(7), pid=200, tid=200, time=2, period=1000)
    p.comm(200, 200, CUT_LATER, time=3)
    p.finished_round()
    return p.to_bytes()


# commands perf script and stackcollapse-perf.pl keep as they are (no
# control character, no ';'): the root of a folded stack is the command
# with spaces as '_', nothing cut ("(sd-pam)" is systemd's)
ORACLE_COMMS = [b'(sd-pam)', b'a\'b"c d', b'x(y)z', b'=plain', b'kworker/0:1-events']


def oracle_file():
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | SAMPLE_CALLCHAIN)
    p = Perf([a])
    for i, c in enumerate(ORACLE_COMMS):
        pid = 300 + i
        p.comm(pid, pid, c, time=1)
        p.mmap2(pid, pid, MISSING_BASE, 0x10000, 0, b'/nonexistent/lib(q) "x".so', time=1)
        p.sample(ip=MISSING_BASE + 0x100, pid=pid, tid=pid, time=2 + i, period=1,
                 callchain=[CONTEXT_USER, MISSING_BASE + 0x100, MISSING_BASE + 0x200, UNMAPPED])
    p.finished_round()
    return p.to_bytes()


# -- tracepoints ------------------------------------------------------------

# TRACING_DATA: one event system; the formats' text is perf's (a field
# line per field, then the print fmt). TP_SYSTEM and TP_NAMES[5] hold an
# escape: a pipe's events (no EVENT_DESC) are named "system:name" from them.
TP_SYSTEM = b'hostile\x1b[1m'
TP_COMMON = (b'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
             b'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
             b'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
             b'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n')
# (ID, name, fields after the common ones, print fmt)
TP_FORMATS = [
    (1001, b'str_array',
     b'\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
     b'\tfield:int value;\toffset:24;\tsize:4;\tsigned:1;\n',
     b'"comm=%s value=%d", REC->comm, REC->value'),
    (1002, b'data_loc',
     b'\tfield:__data_loc char[] msg;\toffset:8;\tsize:4;\tsigned:0;\n'
     b'\tfield:unsigned int len;\toffset:12;\tsize:4;\tsigned:0;\n',
     b'"msg=%s len=%u", __get_str(msg), REC->len'),
    # the strings of the tables hold raw ESC and BEL bytes, and "\n" and
    # "\t", which libtraceevent unescapes in the print fmt's own text only:
    # they print as a backslash and a letter
    (1003, b'symbolic',
     b'\tfield:unsigned long state;\toffset:8;\tsize:8;\tsigned:0;\n',
     b'"state=%s flags=%s", __print_symbolic(REC->state, { 1, "one\\nforged line 1" }, '
     b'{ 3, "\x1b[2Jclear" }), __print_flags(REC->state, "|", { 1, "A\\tB" }, { 2, "\x1b]0;t\x07" })'),
    # the print fmt's own text: "\n", "\t", "\r" and raw ESC, CSI (C1), DEL
    (1004, b'fmt_text',
     b'\tfield:int value;\toffset:8;\tsize:4;\tsigned:1;\n',
     b'"line\\nforged line 2\\t%d\\r\x1b[2J\xc2\x9b\x7f", REC->value'),
    # a helper libtraceevent does not know: perf prints "[FAILED TO PARSE]"
    # and every field as name=value, the strings raw
    (1005, b'failed',
     b'\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
     b'\tfield:__data_loc char[] msg;\toffset:24;\tsize:4;\tsigned:0;\n',
     b'"%s", __no_such_helper(REC->comm)'),
    (1006, b'name\x1b]0;title\x07\xc2\x9b',
     b'\tfield:__data_loc char[] msg;\toffset:8;\tsize:4;\tsigned:0;\n',
     b'"%s", __get_str(msg)'),
]
TP_NAMES = [f[1] for f in TP_FORMATS]
# names EVENT_DESC gives the events of the little-endian file
TP_EVENT_NAMES = [b'tp:' + n + b'\n\x1b[2J' for n in TP_NAMES]
# the payloads' strings
TP_COMM = b'c\n\x1b[2J\t\x7f\xc2\x9bx'                   # fits comm[16] with its NUL
TP_COMM_FULL = b'\x1b]0;t\x07\nfull\xc2\x85sixteen'[:16]  # 16 bytes, no NUL
TP_MSG = b'line one\nforged line 3\r\x1b[2J\x1b]0;title\x07\t\xc2\x9b\x7fend'
TP_STATE = 3                                            # "\x1b[2Jclear", "A\\tB|\x1b]0;t\x07"


def tracing_section(big):
    """The TRACING_DATA section, version 0.6, in the given byte order."""
    e = '>' if big else '<'
    hp = (b'\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n'
          b'\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n'
          b'\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n')
    he = b'# compressed entry header\n\ttype_len    :    5 bits\n'
    files = [b'name: %s\nID: %d\nformat:\n' % (name, i) + TP_COMMON + fields + b'\nprint fmt: ' + fmt + b'\n'
             for i, name, fields, fmt in TP_FORMATS]
    out = b'\x17\x08\x44tracing0.6\0' + bytes([1 if big else 0, 8]) + struct.pack(e + 'I', 4096)
    out += b'header_page\0' + struct.pack(e + 'Q', len(hp)) + hp
    out += b'header_event\0' + struct.pack(e + 'Q', len(he)) + he
    out += struct.pack(e + 'I', 0)                       # no ftrace formats
    out += struct.pack(e + 'I', 1) + TP_SYSTEM + b'\0' + struct.pack(e + 'I', len(files))
    out += b''.join(struct.pack(e + 'Q', len(f)) + f for f in files)
    ks = b''
    out += struct.pack(e + 'I', len(ks)) + ks + struct.pack(e + 'I', 0) + struct.pack(e + 'Q', 0)
    return out


def tp_payload(e, index, pid, variant):
    """The RAW payload of a sample of format `index` (variant 0: the
    strings as they are; 1: comm without a NUL, a __data_loc string
    reaching past the payload's end)."""
    head = struct.pack(e + 'HBBi', TP_FORMATS[index][0], 0, 0, pid)
    if index == 0:
        comm = TP_COMM_FULL if variant else TP_COMM
        return head + comm + b'\0' * (16 - len(comm)) + struct.pack(e + 'i', -7)
    if index == 1:
        # variant 1: no NUL, and a length reaching 64 bytes past the payload
        msg = TP_MSG if variant else TP_MSG + b'\0'
        loc = (len(msg) + 64 if variant else len(msg)) << 16 | 16
        return head + struct.pack(e + 'II', loc, len(TP_MSG)) + msg
    if index == 2:
        return head + struct.pack(e + 'Q', TP_STATE)
    if index == 3:
        return head + struct.pack(e + 'i', 42)
    if index == 4:
        msg = TP_MSG + b'\0'
        comm = TP_COMM_FULL if variant else TP_COMM
        return head + comm + b'\0' * (16 - len(comm)) + struct.pack(e + 'I', len(msg) << 16 | 28) + msg
    msg = TP_MSG + b'\0'
    return head + struct.pack(e + 'I', len(msg) << 16 | 12) + msg


def tp_trace_text(index, variant=0):
    """What perf prints as the trace field of format `index`'s sample
    (None: not checked to the byte, only for structure)."""
    if variant:
        return None
    return [b'comm=' + TP_COMM + b' value=-7', b'msg=' + TP_MSG + b' len=%d' % len(TP_MSG),
            b'state=\x1b[2Jclear flags=A\\tB|\x1b]0;t\x07', b'line\nforged line 2\t42\r\x1b[2J\xc2\x9b\x7f',
            None, TP_MSG][index]


def tp_file(big=False, pipe=False):
    """Every format sampled twice (variants 0 and 1) in each process of
    COMMS, with kernel callchains through the hostile kallsyms names; the
    events named by EVENT_DESC (little-endian file) or by their formats (the
    big-endian file, the pipe)."""
    st = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_CPU | SAMPLE_PERIOD | SAMPLE_RAW
    attrs = [Attr(type=2, config=f[0], sample_type=st | SAMPLE_CALLCHAIN, period=1, ids=[50 + i])
             for i, f in enumerate(TP_FORMATS)]
    p = Perf(attrs, big_endian=big, pipe=pipe)
    sec = tracing_section(big)
    if pipe:
        # HEADER_TRACING_DATA: the section follows the record, padded to 8
        padded = sec + b'\0' * (-len(sec) % 8)
        p.raw(66, p.u32(len(padded)) + p.u32(0))
        p.records.append(padded)
    else:
        p.feature(FEAT_TRACING_DATA, sec)
        # a byte-swapped file without HOSTNAME has, for perf, only BUILD_ID
        p.string_feature(FEAT_HOSTNAME, b'hostile')
        if not big:
            p.feature(FEAT_EVENT_DESC, event_desc(p, attrs, TP_EVENT_NAMES))
    kernel_maps(p)
    t = 1000
    for i in range(len(COMMS)):
        p.comm(100 + i, 100 + i, COMMS[i], time=t)
    for i in range(len(COMMS)):
        pid = 100 + i
        for k in range(len(TP_FORMATS)):
            for variant in (0, 1):
                t += 10
                p.sample(ip=ksym_ip(i), pid=pid, tid=pid, time=t, period=1, attr=k, cpu=i % 4,
                         callchain=[CONTEXT_KERNEL, ksym_ip(i), ksym_ip(i + 1)], misc=MISC_KERNEL,
                         raw_data=tp_payload(p.e, k, pid, variant))
    p.finished_round()
    return p.to_bytes()


FILES = {
    'text-names.data': lambda: names_file(),
    'text-names-pipe.data': lambda: names_file(pipe=True),
    'text-group.data': group_file,
    'text-branch.data': branch_file,
    'text-cut.data': cut_file,
    'text-oracle-comms.data': oracle_file,
    'text-tracepoint.data': lambda: tp_file(),
    'text-tracepoint-be.data': lambda: tp_file(big=True),
    'text-tracepoint-pipe.data': lambda: tp_file(pipe=True),
}


def main(argv):
    if argv[1:] == ['--check']:
        bad = [n for n, make in FILES.items()
               if not os.path.exists(os.path.join(HERE, n)) or open(os.path.join(HERE, n), 'rb').read() != make()]
        for n in bad:
            print('differs from gen_text.py:', n)
        print('%d passed, %d failed' % (len(FILES) - len(bad), len(bad)))
        return 1 if bad else 0
    if len(argv) != 2:
        print(__doc__)
        return 2
    os.makedirs(argv[1], exist_ok=True)
    for n, make in FILES.items():
        with open(os.path.join(argv[1], n), 'wb') as f:
            f.write(make())
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
