"""gen_script: inputs on which `perfdata script` once went wrong (fuzz_tools
findings and what was found beside them), each made here from a few
records so what it holds can be read.

    python3 tests/hostile/gen_script.py DIR      writes the .data files to DIR
    python3 tests/hostile/gen_script.py --check  compares them with the
                                                 committed tests/hostile/ ones

Like every file of tests/hostile, they are replayed through every fuzz
target (make fuzz-replay) and run through every command under ASan and
under the resource contract (tests/hostile_run.py); README.md says what
each one broke.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
from perfgen import (Attr, Perf, SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_PERIOD,  # noqa: E402
                     SAMPLE_CALLCHAIN)
import gen_resources as r  # noqa: E402


def empty_callchain():
    """Samples whose call chain has no entry (nr 0): script's cache of
    call chain texts copied zero bytes to and from NULL pointers
    (memcpy(NULL, ..., 0), memcmp(..., NULL, 0): undefined behaviour,
    UBSan's report under fuzz_tools). Now such a chain is not cached."""
    a = Attr(sample_type=SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | SAMPLE_CALLCHAIN)
    p = Perf([a])
    p.comm(1, 1, b'empty', time=1)
    p.sample(ip=0x400100, pid=1, tid=1, time=2, period=1, callchain=[])
    p.sample(ip=0x400100, pid=1, tid=1, time=3, period=1, callchain=[])
    p.finished_round()
    return p.to_bytes()


# REC->x + REC->x + ... groups to the right in libtraceevent: a sum of
# TERMS terms is a tree TERMS deep, past pd_tpfmt's depth limit (200)
TERMS = 250


def tp_deep_sum():
    """Three tracepoints printing a sum of TERMS times REC->x (x = 1): as
    "%d", as the key of a __print_symbolic whose only entry is TERMS, and
    as a ternary's condition. perf prints 250, "right" and "yes"; script
    printed 199, 0xc6 and "no" with nothing on stderr and exit status 0:
    evaluation past the depth limit read the deeper terms as 0. Now the
    compile refuses such a print fmt, says so on stderr, and the events
    print as perf prints one it cannot parse ([FAILED TO PARSE])."""
    total = b' + '.join([b'REC->x'] * TERMS)
    fmts = [b'"%d", ' + total,
            b'"%s", __print_symbolic(' + total + b', { ' + b'%d' % TERMS + b', "right" })',
            b'"%s", (' + total + b') == ' + b'%d' % TERMS + b' ? "yes" : "no"']
    section = r.tracing_data([r.tp_format_text(i + 1, f) for i, f in enumerate(fmts)])
    return r.tp_file(section, [1, 2, 3], len(section) + 2048, per_event=True)


FILES = {
    'script-empty-callchain.data': empty_callchain,
    'script-tp-deep-sum.data': tp_deep_sum,
}


def main(argv):
    if argv[1:] == ['--check']:
        bad = [n for n, make in FILES.items()
               if not os.path.exists(os.path.join(HERE, n)) or open(os.path.join(HERE, n), 'rb').read() != make()]
        for n in bad:
            print('differs from gen_script.py:', n)
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
