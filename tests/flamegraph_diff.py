#!/usr/bin/env python3
"""`perfdata flamegraph` against flamegraph.pl --hash (the FlameGraph
script, FLAMEGRAPH, by default ../shared/tools/flamegraph/flamegraph.pl).

For every profile given (files and directories of *.data, and *.data.xz
unpacked: the system-wide fixtures) its folded
stacks are made with `perfdata collapse --all --mark-inlined` (the marks
flamegraph colours by), and for a set of hand-written folded texts that
reach the layout's corners (fractional, zero and two-column counts, empty
and marked frames, lines that are not stacks, odd whitespace, names with
XML's special characters), each with the options
    (none), --inverted, --reverse, --minwidth 0.5%, --width 800 --minwidth 2,
    --title/--subtitle, --countname
both programs draw the same folded text; every rectangle must be in both,
with the same name (its title, counts included), x, width, y and height.
Our SVG must also be well-formed XML whatever the names, and:
  - `perfdata flamegraph PROFILE` is byte for byte the SVG of its folded
    stacks given with --folded, and the same read from standard input
    (perf.data bytes and folded text are told apart by themselves);
  - lines that are not "STACK COUNT" are left out and said on stderr
    (exit 3); no stacks at all is an error (exit 1); a bad option value
    a usage error (exit 2); a write error an error (exit 1).
Without perl or the script the comparisons are skipped (and said so); the
checks of our own output still run.

With --quick (the corpus run) the profiles are drawn with no options and
with --inverted only, and neither the marks nor standard input are
tried again: tests/data takes those.

Usage: flamegraph_diff.py PERFDATA [-v] [--quick] DIR_OR_FILE...
"""
import lzma
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from oracles import run_tool

FLAMEGRAPH = os.environ.get('FLAMEGRAPH', '../shared/tools/flamegraph/flamegraph.pl')
RECT = re.compile(r'<g\s*>\s*<title>(.*?)</title>\s*<rect x="([^"]*)" y="([^"]*)" width="([^"]*)" height="([^"]*)"'
                  r' fill="([^"]*)"', re.S)
OPTIONS = [[], ['--inverted'], ['--reverse'], ['--minwidth', '0.5%'], ['--width', '800', '--minwidth', '2'],
           ['--title', 'T & <t>', '--subtitle', 'sub'], ['--countname', 'ms']]

# folded texts for the layout's corners: name -> (text, lines that are not stacks)
CORNERS = {
    'fractions': ('a;b 1.5\na;c 2.25\na 0.125\nd;e;f 10.\n', 0),
    'zeros': ('a;b 0\na;b;c 3\nx 0\ny;z 2\n', 0),
    'two-columns': ('a;b 3 5\na;c 4 1\nd 0 2\nd;e 2 2\n', 0),
    'empty-frames': ('a;;b 2\n;a;b 3\na;b; 4\n;;; 1\n 5\n', 0),
    'marks': ('a_[k];b_[j];c_[i];d_[w] 4\na;b_[k] 3\n', 0),
    'not-stacks': ('a;b 3\njunk\na;c 1x\n\na;d 2\nno-count \n', 4),
    'whitespace': ('a;b  3\na;c\t4\na b;c 5\na;b 1\r\na;d 2\n', 1),
    'duplicates': ('a;b 1\na;b 1\na;b;c 1\na;b;c 2\na 1\n', 0),
    'xml': ('a&b;<c>;"d";e\'f 6\n', 0),
    'wide': (''.join('root;f%03d;g 1\n' % i for i in range(300)) + 'root;big 9000\n', 0),
    'deep': (';'.join('f%d' % i for i in range(400)) + ' 7\n', 0),
    'no-trailing-newline': ('a;b 2\na;c 3', 0),
    'huge-counts': ('a;b 4294967296\na;c 18446744073709551616\na;d 1' + '0' * 80 + '\n', 0),
    # a key (name;depth;end) met twice: Perl's hash keeps the last, narrow
    # or wide (frames too narrow to draw are not kept as they come)
    'same-key': ('a;b 3\nc;b 0\nd;e 2\nf;e 0\n' + ''.join('g;h%d 1\n' % i for i in range(2000)), 0),
    'negative': ('a;b 5\nc;b -5\nc;d 7\ne;b 5\n', 1),  # no sign in flamegraph.pl's count
    'narrow-many': (''.join('r;n%04d;x 1\n' % i for i in range(5000)) + 'r;wide;x 20000\n', 0),
}
# --diff: (before, after) folded texts
DIFFS = {
    'grew-and-shrank': ('main;a;x 10\nmain;a;y 5\nmain;b 20\nold;gone 4\n', 'main;a;x 30\nmain;a;y 1\nmain;b 20\nnew;f 7\n'),
    'fractions-hex': ('m;f 0x1f;g 1.5\nm;h 2\n', 'm;f 0x2e;g 3\nm;h 2.5\nm;k 0x10 1\n'),
    'same': ('a;b 3\na;c 4\n', 'a;b 3\na;c 4\n'),
}
DIFF_OPTIONS = [[], ['--normalize'], ['--strip-hex'], ['--normalize', '--strip-hex', '--inverted']]
# profiles of the same program, recorded both ways: their --diff
DIFF_PAIRS = [('cxx-g.data', 'cxx-dwarf.data'), ('rust-g.data', 'rust-dwarf.data'), ('callchain-fp.data', 'callchain-dwarf.data')]


def difffolded_flags(args):
    return (['-n'] if '--normalize' in args else []) + (['-s'] if '--strip-hex' in args else [])


def judge(what, run, theirs_svg, fill, oracle_name, verbose):
    """(passed, failed, skipped) of one of our runs against the oracle's SVG
    (None: no oracle): exit, XML, every rectangle"""
    problems = list(run.problems)
    bad_xml = well_formed(run.out)
    if bad_xml:
        problems.append(f'not well-formed XML: {bad_xml}')
    if theirs_svg is not None:
        a, b = rects(theirs_svg, fill), rects(run.out, fill)
        if not a:
            problems.append(f'{oracle_name} drew no frames')
        elif a != b:
            only_a, only_b = sorted(set(a) - set(b)), sorted(set(b) - set(a))
            problems.append(f'{len(a)} rectangles by {oracle_name}, {len(b)} ours; theirs only: {only_a[:2]}; '
                            f'ours only: {only_b[:2]}')
    if problems:
        print(f'FAIL {what}: ' + '; '.join(problems))
        return 0, 1, theirs_svg is None
    if verbose:
        print(f'ok   {what}: {len(rects(run.out))} rectangles')
    return 1, 0, theirs_svg is None


def compare_diff(perfdata, name, before, after, have_oracle, verbose):
    """(passed, failed, skipped): --diff before after under each option set, against
    difffolded.pl | flamegraph.pl --hash, colours included"""
    passed = failed = skipped = 0
    for args in DIFF_OPTIONS:
        r = run_tool([perfdata, 'flamegraph'] + args + ['--diff', before, after])
        theirs_svg = None
        if have_oracle:
            d = subprocess.run(['perl', os.path.join(os.path.dirname(FLAMEGRAPH), 'difffolded.pl')] +
                               difffolded_flags(args) + [before, after], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            fg = subprocess.run(['perl', FLAMEGRAPH, '--hash'] + [a for a in args if a == '--inverted'],
                                input=d.stdout, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            theirs_svg = fg.stdout.decode('utf-8', 'surrogateescape')
        p, f, s = judge(f'--diff {name} {" ".join(args)}'.strip(), r, theirs_svg, True,
                        'difffolded.pl | flamegraph.pl', verbose)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    return passed, failed, skipped


def profiles(paths):
    """*.data files, and --threads directories (*.data/), under paths"""
    for p in paths:
        if p.endswith('.data') and (os.path.isfile(p) or os.path.isdir(p)):
            yield p
            continue
        for root, dirs, files in os.walk(p):
            dirs.sort()
            for d in dirs:
                if d.endswith('.data'):
                    yield os.path.join(root, d)
            dirs[:] = [d for d in dirs if not d.endswith('.data')]
            for name in sorted(files):
                if name.endswith('.data'):
                    yield os.path.join(root, name)


def rects(svg, fill=False):
    """(title, x, y, width, height[, fill]) of every frame"""
    return sorted(m.groups()[:6 if fill else 5] for m in RECT.finditer(svg))


def well_formed(svg):
    try:
        ET.fromstring(svg.encode('utf-8', 'surrogateescape'))
        return None
    except ET.ParseError as e:
        return str(e)


def ours(perfdata, args, folded_path, expect_rc=0):
    return run_tool([perfdata, 'flamegraph', '--folded'] + args + [folded_path], expect_rc=expect_rc)


def theirs(args, folded_path):
    p = subprocess.run(['perl', FLAMEGRAPH, '--hash'] + args + [folded_path], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE)
    return p.stdout.decode('utf-8', 'surrogateescape')


def compare(perfdata, name, folded_path, expect_rc, have_oracle, verbose, options=None):
    """(passed, failed, skipped) of one folded text under every option set"""
    passed = failed = skipped = 0
    for args in options or OPTIONS:
        r = ours(perfdata, args, folded_path, expect_rc)
        p, f, s = judge(f'{name} {" ".join(args)}'.strip(), r, theirs(args, folded_path) if have_oracle else None,
                        False, 'flamegraph.pl', verbose)
        passed, failed, skipped = passed + p, failed + f, skipped + s
    return passed, failed, skipped


def main(argv):
    verbose = '-v' in argv
    quick = '--quick' in argv
    argv = [a for a in argv if a not in ('-v', '--quick')]
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    perfdata, paths = argv[0], argv[1:]
    have_oracle = bool(shutil.which('perl')) and os.path.exists(FLAMEGRAPH)
    if not have_oracle:
        print(f'skip the comparisons with flamegraph.pl: perl or {FLAMEGRAPH} missing')
    passed = failed = skipped = 0
    tmp = tempfile.mkdtemp(prefix='pd-flamegraph-')
    try:
        for name, (text, bad) in sorted(CORNERS.items()):
            path = os.path.join(tmp, name + '.folded')
            with open(path, 'w', encoding='utf-8', newline='') as f:
                f.write(text)
            p, fl, s = compare(perfdata, 'folded ' + name, path, 3 if bad else 0, have_oracle, verbose)
            passed, failed, skipped = passed + p, failed + fl, skipped + s
            if bad:  # said on stderr, with the count
                r = ours(perfdata, [], path, 3)
                if f'{bad} line' not in r.err:
                    failed += 1
                    print(f'FAIL folded {name}: stderr does not say {bad} lines were left out: {r.err.strip()[:200]}')
                else:
                    passed += 1
        for name, (before, after) in sorted(DIFFS.items()):
            paths_ = []
            for side, text in (('before', before), ('after', after)):
                paths_.append(os.path.join(tmp, f'{name}.{side}.folded'))
                with open(paths_[-1], 'w') as f:
                    f.write(text)
            p, fl, s = compare_diff(perfdata, name, paths_[0], paths_[1], have_oracle, verbose)
            passed, failed, skipped = passed + p, failed + fl, skipped + s
        # names that are no text: control characters and bytes that are not UTF-8
        hostile = os.path.join(tmp, 'hostile.folded')
        with open(hostile, 'wb') as f:
            f.write(b'a\x01b;c\xff\xfe;d\x1b[31m;e\xc3 4\n]]>;<![CDATA[ 2\n')
        r = ours(perfdata, [], hostile)
        bad_xml = well_formed(r.out) if not r.problems else None
        if r.problems or bad_xml:
            failed += 1
            print(f'FAIL hostile names: {r.problems or bad_xml}')
        else:
            passed += 1
        # refusals
        for args, rc, what in ((['--width', '0'], 2, 'a width of 0'), (['--minwidth', 'x'], 2, 'a bad --minwidth'),
                               (['--colors', 'pink'], 2, 'an unknown palette')):
            r = run_tool([perfdata, 'flamegraph', '--folded'] + args + [hostile], expect_rc=rc)
            if r.problems or not r.err.strip():
                failed += 1
                print(f'FAIL {what}: {r.problems or "nothing said on stderr"}')
            else:
                passed += 1
        empty = os.path.join(tmp, 'empty.folded')
        open(empty, 'w').close()
        r = run_tool([perfdata, 'flamegraph', '--folded', empty], expect_rc=1)
        if r.problems or 'no stacks' not in r.err:
            failed += 1
            print(f'FAIL no stacks: {r.problems or r.err.strip()[:200]}')
        else:
            passed += 1
        if os.path.exists('/dev/full'):
            with open('/dev/full', 'w') as full:
                p = subprocess.run([perfdata, 'flamegraph', '--folded', hostile], stdout=full, stderr=subprocess.PIPE)
            if p.returncode != 1 or not p.stderr.strip():
                failed += 1
                print(f'FAIL a write error: exit {p.returncode}, stderr {p.stderr[:200]!r}')
            else:
                passed += 1

        inputs = [d for d in profiles(paths) if os.path.isdir(d) or os.path.getsize(d) < (64 << 20)]
        # the system-wide fixtures, committed compressed (many processes, short-lived ones)
        for p in paths:
            for root, _, files in os.walk(p):
                for n in sorted(files):
                    if n.endswith('.data.xz') and os.path.getsize(os.path.join(root, n)) < (8 << 20):
                        out = os.path.join(tmp, n[:-3])
                        with lzma.open(os.path.join(root, n)) as src, open(out, 'wb') as dst:
                            dst.write(src.read())
                        inputs.append(out)
        for data in inputs:
            name = os.path.relpath(data)
            folded = os.path.join(tmp, 'profile.folded')
            c = subprocess.run([perfdata, 'collapse', '--all', '--mark-inlined', data], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
            if c.returncode not in (0, 3):
                skipped += 1
                if verbose:
                    print(f'skip {name}: collapse exit {c.returncode}')
                continue
            with open(folded, 'wb') as f:
                f.write(c.stdout)
            if not quick:  # (the corpus run: the profiles' own graphs only)
                # the marks: --all is --kernel --jit (no JIT map among these), --mark-inlined only adds _[i]
                k = subprocess.run([perfdata, 'collapse', '--kernel', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                al = subprocess.run([perfdata, 'collapse', '--all', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
                unmarked = re.sub(rb'_\[i\](?=[; ])', b'', c.stdout)
                if k.stdout != al.stdout or (b'_[j]' not in k.stdout and al.stdout.count(b'_[j]')) or \
                        sorted(unmarked.splitlines()) != sorted(al.stdout.splitlines()):
                    failed += 1
                    print(f'FAIL {name}: collapse --all is not --kernel, or --mark-inlined does more than add _[i]')
                else:
                    passed += 1
            if not c.stdout.strip():  # no samples: said, exit 1
                r = run_tool([perfdata, 'flamegraph', data], expect_rc=1)
                if r.problems or 'no stacks' not in r.err:
                    failed += 1
                    print(f'FAIL {name} (no stacks): {r.problems or r.err.strip()[:200]}')
                else:
                    passed += 1
                continue
            p, fl, s = compare(perfdata, name, folded, 0, have_oracle, verbose,
                               [[], ['--inverted']] if quick else None)
            passed, failed, skipped = passed + p, failed + fl, skipped + s
            # the profile itself, and both kinds of input on standard input
            want = ours(perfdata, [], folded).out
            direct = run_tool([perfdata, 'flamegraph', data], expect_rc=c.returncode)
            problems = list(direct.problems)
            if direct.out != want:
                problems.append('the SVG of the profile differs from that of its folded stacks')
            if quick:
                if problems:
                    failed += 1
                    print(f'FAIL {name} (profile): ' + '; '.join(problems))
                else:
                    passed += 1
                continue
            if os.path.isdir(data):  # a directory has no standard-input form
                piped = subprocess.run([perfdata, 'flamegraph', data], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            else:
                with open(data, 'rb') as f:
                    piped = subprocess.run([perfdata, 'flamegraph', '-'], stdin=f, stdout=subprocess.PIPE,
                                           stderr=subprocess.PIPE)
            # through a pipe: standard input when no FILE is named (perf's rule)
            folded_in = subprocess.run([perfdata, 'flamegraph'], input=c.stdout, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
            for args in (['--reverse'], ['--inverted', '--minwidth', '1%']):
                a = run_tool([perfdata, 'flamegraph'] + args + [data], expect_rc=c.returncode)
                b = ours(perfdata, args, folded)
                if a.problems or a.out != b.out:
                    problems.append(f'with {" ".join(args)}: the SVG of the profile differs from that of its folded stacks'
                                    f' {a.problems or ""}')
            if piped.returncode != c.returncode or piped.stdout.decode('utf-8', 'surrogateescape') != want:
                problems.append(f'the profile on standard input: exit {piped.returncode}, '
                                f'{"same" if piped.stdout.decode("utf-8", "surrogateescape") == want else "another"} SVG')
            if folded_in.returncode != 0 or folded_in.stdout.decode('utf-8', 'surrogateescape') != want:
                problems.append(f'folded text on standard input: exit {folded_in.returncode}')
            if problems:
                failed += 1
                print(f'FAIL {name} (profile, stdin): ' + '; '.join(problems))
            else:
                passed += 1
        if not inputs:
            failed += 1
            print('FAIL no profile found: nothing was compared')
        # --diff of two profiles = --diff of their folded stacks
        byname = {os.path.basename(d): d for d in inputs}
        for a, b in DIFF_PAIRS:
            if a not in byname or b not in byname:
                continue
            folded = []
            for d in (byname[a], byname[b]):
                folded.append(os.path.join(tmp, os.path.basename(d) + '.folded'))
                with open(folded[-1], 'wb') as f:
                    f.write(subprocess.run([perfdata, 'collapse', '--all', '--mark-inlined', d],
                                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL).stdout)
            p, fl, s = compare_diff(perfdata, f'{a} {b}', folded[0], folded[1], have_oracle, verbose)
            passed, failed, skipped = passed + p, failed + fl, skipped + s
            direct = run_tool([perfdata, 'flamegraph', '--diff', byname[a], byname[b]])
            want = run_tool([perfdata, 'flamegraph', '--diff', folded[0], folded[1]])
            if direct.problems or direct.out != want.out:
                failed += 1
                print(f'FAIL --diff {a} {b}: the profiles\' graph is not their folded stacks\' '
                      f'{direct.problems or ""}')
            else:
                passed += 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
