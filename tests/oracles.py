"""What the differential tests share: finding inputs that have a perf oracle
beside them, reading the list of explained differences, and the command
line (PERFDATA [-v] [--expect FILE] DIR_OR_FILE...)."""
import os
import sys


def find_inputs(paths, suffix):
    """(data file, oracle) pairs: DIR/NAME with DIR/NAME<suffix> beside it.
    A --threads directory's own files (inside *.data/) are not inputs."""
    for p in paths:
        if os.path.isfile(p) and p.endswith(suffix):
            yield p[:-len(suffix)], p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            if root.endswith('.data'):
                continue
            for name in sorted(files):
                if name.endswith(suffix):
                    data = os.path.join(root, name[:-len(suffix)])
                    if os.path.exists(data):
                        yield data, os.path.join(root, name)


def load_expected(path):
    """NAME COUNT lines ('#' starts a comment): differences explained."""
    exp = {}
    if path and os.path.exists(path):
        for line in open(path):
            line = line.split('#', 1)[0].strip()
            if line:
                name, n = line.rsplit(None, 1)
                exp[name] = int(n)
    return exp


def parse_args(argv=None):
    """-> (binary, paths, verbose, expected dict)"""
    args = list(sys.argv[1:] if argv is None else argv)
    verbose = '-v' in args
    args = [a for a in args if a != '-v']
    expect = None
    if '--expect' in args:
        i = args.index('--expect')
        expect = args[i + 1]
        del args[i:i + 2]
    return args[0], args[1:], verbose, load_expected(expect)
