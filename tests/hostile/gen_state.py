#!/usr/bin/env python3
"""gen_state.py: crafted perf.data files aimed at the tools' process state,
lookups and hash tables (tools/pd_state.c, pd_intern.c and the tables of
report.c, collapse.c, report_branch.c, pd_sym.c).

One function per input; each returns the file's bytes. The large ones (up
to 1 MB: the worst a file of that size can ask of a structure) are made at
test time by tests/state_limits.py; the small ones, which pin down
semantics, are committed next to this script (README.md says which).

    python3 tests/hostile/gen_state.py OUTDIR [NAME...]   writes NAME.data
    python3 tests/hostile/gen_state.py --list             the names
"""
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
from perfgen import (Attr, Perf, FLAG_MMAP, FLAG_COMM, FLAG_MMAP2, FLAG_SAMPLE_ID_ALL, MISC_KERNEL,  # noqa: E402
                     SAMPLE, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_CALLCHAIN, SAMPLE_READ,
                     SAMPLE_IDENTIFIER)

# No sample_id_all and no time: the records are as small as they can be
# (MMAP 48 bytes, FORK 32, SAMPLE 24), so that 1 MB holds the most of them,
# and every command delivers them in file order.
FLAGS = FLAG_MMAP | FLAG_COMM | FLAG_MMAP2
PLAIN = SAMPLE_IP | SAMPLE_TID
FORMAT_ID, FORMAT_GROUP = 1 << 2, 1 << 3
CONTEXT_KERNEL = (1 << 64) - 128
FEAT_GROUP_DESC = 17  # HEADER_GROUP_DESC (tools/perf/util/header.h), PERFDATA_FEAT_GROUP_DESC


def plain(sample_type=PLAIN, **kw):
    return Perf([Attr(sample_type=sample_type, flags=FLAGS, **kw)])


def fork_storm(maps=10000, children=4000):
    """One process maps `maps` objects; it forks `children` processes; each
    child maps one object over the middle of one of its parent's, and is
    sampled in it and in an inherited map. Forks that copy the parent's
    maps cost maps x children; shared, each child costs the path its one
    change copies."""
    p = plain()
    parent = 100
    p.comm(parent, parent, b'parent')
    for i in range(maps):
        p.mmap(parent, parent, 0x10000000 + i * 0x10000, 0x8000, 0, b'/x/p')
    for c in range(children):
        child = 1000 + c
        p.fork(child, parent, child, parent)
    for c in range(children):
        child = 1000 + c
        at = 0x10000000 + (c * 7919 % maps) * 0x10000 + 0x4000
        p.mmap(child, child, at, 0x8000, 0, b'/x/c')
        p.sample(ip=at + 0x10, pid=child, tid=child)
    for c in range(0, children, 4):
        child = 1000 + c
        p.sample(ip=0x10000000 + (c * 31 % maps) * 0x10000 + 0x100, pid=child, tid=child)
    return p.to_bytes()


def mmap_storm(ordered=16000, overlapping=4000, samples=1000):
    """One process: `ordered` disjoint maps at falling addresses (each goes
    to the front of a sorted array, past every map there), then
    `overlapping` maps each over parts of three (cut at both ends) among
    the lowest, then samples over the whole range."""
    p = plain()
    pid = 100
    p.comm(pid, pid, b'storm')
    base = 0x7f0000000000
    for i in range(ordered):
        p.mmap(pid, pid, base + (ordered - 1 - i) * 0x4000, 0x3000, i * 0x1000, b'/x/o')
    for i in range(overlapping):
        k = (i * 37) % 500
        p.mmap(pid, pid, base + k * 0x4000 + 0x1800, 0x9000, 0x100000, b'/x/v')
    for i in range(samples):
        k = (i * 613) % ordered
        p.sample(ip=base + k * 0x4000 + 0x800 + (i % 7) * 0x400, pid=pid, tid=pid)
    return p.to_bytes()


def tids_shift17(threads=32767, again=10000):
    """Threads whose tids are k << 17 (all 32767 of them): a table hashing
    the tid by a multiplication and its low bits puts them all in one slot.
    Each is sampled, then the first `again` of them once more."""
    p = plain()
    tids = [(k + 1) << 17 for k in range(threads)]
    for t in tids + tids[:again]:
        p.sample(ip=0x400000, pid=t, tid=t)
    return p.to_bytes()


def ids_high_bits(ids=43000, per_sample=500, passes=1):
    """Counter ids that differ only above bit 45 (k << 49), read by group
    samples (PERF_SAMPLE_READ), each value's id looked up in report's table
    of last values; the samples' ips differ only above bit 45 too."""
    id_list = [(k + 1) << 49 for k in range(ids)]
    attr = Attr(sample_type=SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_READ, flags=FLAGS,
                read_format=FORMAT_GROUP | FORMAT_ID, ids=id_list)
    p = Perf([attr])
    n = 0
    for rnd in range(passes):
        for start in range(0, ids, per_sample):
            group = id_list[start:start + per_sample]
            body = p.u64(id_list[0]) + p.u64((n % 4096) << 46 | 0x1000) + p.u32(100) + p.u32(100)
            body += p.u64(len(group)) + b''.join(p.u64(rnd * 10 + 5) + p.u64(i) for i in group)
            p.raw(SAMPLE, body, 2)
            n += 1
    return p.to_bytes()


def many_pids(samples=40000):
    """One sample for each of `samples` processes: report --csv keeps a row
    per process, found by pid for every record."""
    p = plain()
    for k in range(samples):
        p.sample(ip=0x400000 + k, pid=10 + k, tid=10 + k)
    return p.to_bytes()


def ksym_storm(small=8000, nested=8000, samples=1000, depth=60):
    """`small` disjoint KSYMBOLs, then `nested` ones each over all of them,
    then kernel samples whose callchains lie outside every one (each
    address looked up in the kernel symbols, for every frame)."""
    p = plain(sample_type=PLAIN | SAMPLE_CALLCHAIN)
    base = 0xffffffffc0000000
    for i in range(small):
        p.ksymbol(base + i * 0x100, 0x80, b'bpf_s')
    for i in range(nested):
        p.ksymbol(base - (i + 1) * 0x10, small * 0x100 + (i + 1) * 0x20, b'bpf_n')
    out = 0xffffffff81000000
    for i in range(samples):
        chain = [CONTEXT_KERNEL] + [out + ((i * depth + d) * 0x40) for d in range(depth - 1)]
        p.sample(ip=chain[1], pid=0, tid=0, misc=MISC_KERNEL, callchain=chain)
    return p.to_bytes()


def group_overlap(events=200, samples=28000):
    """GROUP_DESC with a group of 32 at every event: each event in 32 groups,
    each group's view linking its members' rows into its leader's tree."""
    attrs = [Attr(sample_type=SAMPLE_IDENTIFIER | PLAIN, flags=FLAGS, config=i, ids=[i + 1]) for i in range(events)]
    p = Perf(attrs)
    for k in range(samples):
        p.sample(ip=0x1000 + k * 0x10, pid=100, tid=100, attr=k % events)
    desc = p.u32(events - 31)
    for leader in range(events - 31):
        desc += p.perf_string(b'{anon_group}') + p.u32(leader) + p.u32(32)
    p.feature(FEAT_GROUP_DESC, desc)
    return p.to_bytes()


# --- small inputs that pin down semantics (committed) ---------------------

def remap():
    """A process maps /x/old at 0x400000 and is sampled there; an MMAP of
    /x/new replaces it and the same address is sampled again: the second
    sample is in /x/new, though a cache of frames by address space holds
    the first."""
    p = Perf([Attr(sample_type=PLAIN | SAMPLE_TIME, flags=FLAGS | FLAG_SAMPLE_ID_ALL)])
    p.comm(50, 50, b'remap', time=1)
    p.mmap(50, 50, 0x400000, 0x10000, 0, b'/x/old', time=2)
    p.sample(ip=0x401000, pid=50, tid=50, time=3)
    p.mmap(50, 50, 0x400000, 0x10000, 0, b'/x/new', time=4)
    p.sample(ip=0x401000, pid=50, tid=50, time=5)
    return p.to_bytes()


def fork_isolation():
    """A parent with /x/a at 0x400000 forks two children; the first maps
    /x/b over the middle of it. The parent and the second child still see
    /x/a there; the first child sees /x/a below, /x/b in the middle and the
    rest of /x/a above."""
    p = plain()
    p.comm(10, 10, b'parent')
    p.mmap(10, 10, 0x400000, 0x30000, 0, b'/x/a')
    p.fork(11, 10, 11, 10)
    p.fork(12, 10, 12, 10)
    p.comm(11, 11, b'child1')
    p.comm(12, 12, b'child2')
    p.mmap(11, 11, 0x410000, 0x10000, 0, b'/x/b')
    for pid in (10, 11, 12):
        for ip in (0x400100, 0x410100, 0x420100):
            p.sample(ip=ip, pid=pid, tid=pid)
    return p.to_bytes()


def ksym_first_wins():
    """Two KSYMBOLs over the same addresses and one inside both: a kernel
    sample there takes the first recorded (bpf_first), one beyond the first's
    end the second's (bpf_second)."""
    p = plain()
    base = 0xffffffffc0001000
    p.ksymbol(base, 0x100, b'bpf_first')
    p.ksymbol(base - 0x80, 0x400, b'bpf_second')
    p.ksymbol(base + 0x10, 0x20, b'bpf_third')
    p.sample(ip=base + 0x18, pid=0, tid=0, misc=MISC_KERNEL)
    p.sample(ip=base + 0x200, pid=0, tid=0, misc=MISC_KERNEL)
    return p.to_bytes()


LARGE = [fork_storm, mmap_storm, tids_shift17, ids_high_bits, many_pids, ksym_storm, group_overlap]
SMALL = [remap, fork_isolation, ksym_first_wins]
ALL = {f.__name__.replace('_', '-'): f for f in LARGE + SMALL}


def main(argv):
    if argv[1:2] == ['--list']:
        print('\n'.join(ALL))
        return 0
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    out, names = argv[1], argv[2:] or list(ALL)
    os.makedirs(out, exist_ok=True)
    for name in names:
        if name not in ALL:
            print('gen_state.py: no input named %s' % name, file=sys.stderr)
            return 2
        data = ALL[name]()
        with open(os.path.join(out, name + '.data'), 'wb') as f:
            f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
