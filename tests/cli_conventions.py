#!/usr/bin/env python3
"""perf's command-line conventions on every perfdata subcommand: the input
as -i FILE, --input FILE, --input=FILE or a bare FILE, ./perf.data without
one, '-' for standard input; unknown options and missing values a usage
error (exit 2, the usage on stderr); -h/--help the usage on stdout (exit 0);
--opt=value as --opt value; every option in the top-level synopsis;
report --csv DIR creating DIR. Then report's filters against perf 6.1:
`perfdata report OPTS F` and `perf report --stdio --no-children -g none
OPTS F` on tests/data fixtures, line for line (perf's random tip line and
blank lines left out). The fixtures and filters are chosen so that no line
depends on this machine: kernel samples print as raw addresses on both
sides (the fixtures' kernel is not this one), the workload's symbols come
from tests/data/workload through --symfs. collapse's filters and --event
are checked for consistency with its unfiltered output.

Usage: cli_conventions.py PERFDATA
"""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from report_diff import symbol_options  # noqa: E402

COMMANDS = ('dump', 'info', 'report', 'collapse', 'flamegraph', 'script', 'stat')
DATA = 'tests/data'
passed = failed = skipped = 0


def check(name, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {name} {detail}'[:2000])


def run(args, cwd=None, stdin=subprocess.DEVNULL, env=None):
    p = subprocess.run(args, cwd=cwd, stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300,
                       env=env)
    return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def options_of(usage):
    """The --long options a usage text describes."""
    opts = set()
    for line in usage.split('\n'):
        words = line.strip().replace(',', ' ').split()
        for w in words[:2]:
            if w.startswith('--') and len(w) > 2:
                opts.add(w.split('=')[0])
    return opts


def synopsis(text, start):
    """The line starting with `start` and the more indented lines after it."""
    lines, out = text.split('\n'), []
    for i, line in enumerate(lines):
        if line.startswith(start):
            out.append(line)
            for more in lines[i + 1:]:
                if not more.startswith(' ' * 5):
                    break
                out.append(more)
            break
    return '\n'.join(out)


def conventions(tool):
    data = os.path.join(DATA, 'plain.data')
    rc, top, _ = run([tool, '--help'])
    check('perfdata --help', rc == 0 and top.startswith('usage: perfdata'), top)
    for cmd in COMMANDS:
        rc, out, err = run([tool, cmd, '--bogus', data])
        check(f'{cmd} --bogus: exit 2', rc == 2, f'rc {rc}')
        check(f'{cmd} --bogus: says so, then its usage on stderr',
              "unknown option '--bogus'" in err and f'usage: perfdata {cmd}' in err and not out, err)
        rc, out, err = run([tool, cmd, '-Q', data])
        check(f'{cmd} -Q: exit 2', rc == 2 and "unknown option '-Q'" in err, err)
        for h in ('-h', '--help'):
            rc, out, err = run([tool, cmd, h])
            check(f'{cmd} {h}', rc == 0 and out.startswith(f'usage: perfdata {cmd}') and not err, out + err)
        rc, usage, _ = run([tool, cmd, '--help'])
        section = synopsis(top, f'  {cmd} ')
        own = synopsis(usage, f'usage: perfdata {cmd} ')
        for opt in sorted(options_of(usage) - {'--help', '--input'}):
            check(f'{cmd} {opt} in the top-level synopsis', f'[{opt}' in section, section)
            check(f'{cmd} {opt} in its own synopsis', f'[{opt}' in own, own)
        # the input: bare, -i, --input, --input=, -iFILE, the same output
        rc, ref, err = run([tool, cmd, data])
        check(f'{cmd} FILE', rc == 0 and ref, err)
        for form in (['-i', data], ['--input', data], [f'--input={data}'], [f'-i{data}'], ['--', data]):
            rc, out, err = run([tool, cmd] + form)
            check(f'{cmd} {" ".join(form)}', rc == 0 and out == ref, err)
        rc, out, err = run([tool, cmd, '-i', data, data])
        check(f'{cmd}: two inputs are a usage error', rc == 2 and 'more than one input' in err, err)
        # no input: ./perf.data, as perf
        with tempfile.TemporaryDirectory() as tmp:
            rc, out, err = run([os.path.abspath(tool), cmd], cwd=tmp)
            check(f'{cmd} without FILE in an empty directory: ./perf.data missing',
                  rc == 1 and 'perf.data' in err and 'No such file' in err, f'rc {rc} {err}')
            shutil.copy(data, os.path.join(tmp, 'perf.data'))
            rc, out, err = run([os.path.abspath(tool), cmd], cwd=tmp)
            rc2, ref2, _ = run([os.path.abspath(tool), cmd, 'perf.data'], cwd=tmp)
            check(f'{cmd} without FILE reads ./perf.data', rc == 0 and out == ref2, err)
    # diff takes two inputs (tests/diff_diff.py checks their defaults)
    other = os.path.join(DATA, 'tasks.data')
    rc, out, err = run([tool, 'diff', '--bogus', data, other])
    check('diff --bogus: exit 2, says so, then its usage',
          rc == 2 and "unknown option '--bogus'" in err and 'usage: perfdata diff' in err and not out, err)
    for h in ('-h', '--help'):
        rc, out, err = run([tool, 'diff', h])
        check(f'diff {h}', rc == 0 and out.startswith('usage: perfdata diff') and '[OLD] [NEW]' in out and not err,
              out + err)
    rc, usage, _ = run([tool, 'diff', '--help'])
    section, own = synopsis(top, '  diff '), synopsis(usage, 'usage: perfdata diff ')
    for opt in sorted(options_of(usage) - {'--help', '--input'}):
        check(f'diff {opt} in the top-level synopsis', f'[{opt}' in section, section)
        check(f'diff {opt} in its own synopsis', f'[{opt}' in own, own)
    rc, ref, err = run([tool, 'diff', data, other])
    check('diff OLD NEW', rc == 0 and ref.startswith("# Event '"), err)
    for form in (['-i', data, other], ['--', data, other], [f'--input={data}', other]):
        rc, out, err = run([tool, 'diff'] + form)
        check(f'diff {" ".join(form)}', rc == 0 and out == ref, err)
    rc, ref, _ = run([tool, 'diff', '-c', 'delta', data, other])
    for form in (['--compute', 'delta'], ['--compute=delta'], ['-cdelta']):
        rc, out, err = run([tool, 'diff'] + form + [data, other])
        check(f'diff {" ".join(form)}', rc == 0 and out == ref and '  Delta  ' in out, err)
    # '-' is standard input; and a pipe on standard input is the default
    pipe = os.path.join(DATA, 'pipe.data')
    rc, ref, _ = run([tool, 'dump', pipe])
    with open(pipe, 'rb') as f:
        rc, out, err = run([tool, 'dump', '-'], stdin=f)
    check("dump - reads standard input", rc == 0 and out == ref, err)
    with open(pipe, 'rb') as f:
        p = subprocess.run(f'cat {pipe} | {tool} dump', shell=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    check('dump with a pipe and no FILE reads the pipe, as perf', p.returncode == 0 and p.stdout.decode() == ref,
          p.stderr.decode())
    # values: --opt=value, --opt value, short forms; missing values; flags with values
    rc, ref, _ = run([tool, 'report', '--sort', 'dso,sym', data])
    for form in (['--sort=dso,sym'], ['-s', 'dso,sym'], ['-sdso,sym']):
        rc, out, err = run([tool, 'report'] + form + [data])
        check(f'report {" ".join(form)}', rc == 0 and out == ref, err)
    rc, ref, _ = run([tool, 'dump', '--type', 'SAMPLE', data])
    rc, out, err = run([tool, 'dump', '--type=SAMPLE', data])
    check('dump --type=SAMPLE', rc == 0 and out == ref and 'PERF_RECORD_SAMPLE' in out, err)
    rc, out, err = run([tool, 'report', data, '--sort'])
    check('report --sort without a value: exit 2', rc == 2 and 'needs a value' in err and 'usage:' in err, err)
    rc, out, err = run([tool, 'dump', '--raw=1', data])
    check('dump --raw=1: exit 2', rc == 2 and 'takes no value' in err, err)
    rc, out, err = run([tool, 'report', '--percent-limit', 'abc', data])
    check('report --percent-limit abc: exit 2', rc == 2 and 'usage:' in err, err)
    rc, out, err = run([tool, 'report', '--cpu', 'x', data])
    check('report --cpu x: exit 2', rc == 2, err)
    rc, out, err = run([tool, 'report', '--time', '5', data])
    check('report --time 5 (no comma): invalid, exit 1', rc == 1 and 'invalid time' in err, err)
    # report's accepted no-ops and aliases
    rc, ref, _ = run([tool, 'report', data])
    rc, out, err = run([tool, 'report', '--stdio', '--no-children', data])
    check('report --stdio --no-children: accepted, no effect', rc == 0 and out == ref, err)
    rc, ref, _ = run([tool, 'report', '-n', data])
    rc, out, err = run([tool, 'report', '--show-nr-samples', data])
    check('report -n = --show-nr-samples', rc == 0 and out == ref and 'Samples  ' in out, err)
    rc, ref, _ = run([tool, 'report', '--symbols', 'handle_amd', data])
    rc, out, err = run([tool, 'report', '--sym=handle_amd', data])
    check('report --sym = --symbols', rc == 0 and out == ref and 'symbol: handle_amd' in out, err)
    rc, out, err = run([tool, 'report', '--cpu', '0', data])
    check('report --cpu on samples without the cpu: exit 1', rc == 1 and 'cpu' in err, err)
    rc, out, err = run([tool, 'report', '--cpu', '0,3', os.path.join(DATA, 'many-fields.data')])
    check('report --cpu past the recording machine\'s cpus: exit 1', rc == 1 and 'cpu 3' in err, err)
    # --csv DIR is created, with its parents; a file in the way is an error
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, 'a', 'b')
        rc, out, err = run([tool, 'report', '--csv', d, data])
        check('report --csv creates DIR', rc == 0 and os.path.exists(os.path.join(d, 'results.csv')), err)
        rc, out, err = run([tool, 'report', f'--csv={d}', data])
        check('report --csv= an existing DIR', rc == 0, err)
        blocker = os.path.join(tmp, 'file')
        open(blocker, 'w').close()
        rc, out, err = run([tool, 'report', '--csv', os.path.join(blocker, 'x'), data])
        check('report --csv under a file: exit 1 with a message', rc == 1 and 'file' in err, err)
        rc, out, err = run([tool, 'stat', '--csv', os.path.join(tmp, 'c', 'd'), data])
        check('stat --csv creates DIR', rc == 0 and os.path.exists(os.path.join(tmp, 'c', 'd', 'stat.csv')), err)


def folded(text):
    out = {}
    for line in text.split('\n'):
        if line:
            stack, n = line.rsplit(' ', 1)
            out[stack] = int(n)
    return out


def collapse_checks(tool):
    two = os.path.join(DATA, 'two-events.data')
    rc, out, err = run([tool, 'collapse', two])
    first = sum(folded(out).values())
    check('collapse of two events: one event, and says which', rc == 0 and first in (30, 6) and 'folding' in err,
          f'{first} {err}')
    rc, out, err = run([tool, 'collapse', '--event', 'page-faults', two])
    check('collapse --event page-faults: its 6 samples', rc == 0 and sum(folded(out).values()) == 6 and not err, err)
    rc, out, err = run([tool, 'collapse', '--event=cpu-clock', two])
    check('collapse --event=cpu-clock: its 30 samples', rc == 0 and sum(folded(out).values()) == 30, err)
    rc, out, err = run([tool, 'collapse', '--event', 'cycles', two])
    check('collapse --event of no event: exit 1, the events listed', rc == 1 and 'page-faults' in err, err)
    mf = os.path.join(DATA, 'many-fields.data')
    rc, ref, _ = run([tool, 'collapse', mf])
    total = sum(folded(ref).values())
    rc, out, err = run([tool, 'collapse', '--cpu', '0', mf])
    check('collapse --cpu 0 (every sample)', rc == 0 and out == ref, err)
    rc, out, err = run([tool, 'collapse', '--cpu', '1', mf])
    check('collapse --cpu 1 (no sample)', rc == 0 and out == '', err)
    rc, a, _ = run([tool, 'collapse', '--time', ',308.74', mf])
    rc, b, err = run([tool, 'collapse', '--time', '308.740000001,', mf])
    na, nb = sum(folded(a).values()), sum(folded(b).values())
    check('collapse --time: two halves add up', rc == 0 and na and nb and na + nb == total, f'{na}+{nb} != {total}')
    rc, out, err = run([tool, 'collapse', '--comm', 'nobody', mf])
    check('collapse --comm of no command', rc == 0 and out == '', err)
    rc, out, err = run([tool, 'collapse', '--percent-limit', '10', mf])
    kept = folded(out)
    check('collapse --percent-limit 10', rc == 0 and kept and all(n * 10 >= total for n in kept.values())
          and all(s in folded(ref) for s in kept), out)


# (fixture, options): perf report and perfdata report take the same options
# except --sym, which perf 6.1 refuses as ambiguous (--symbols, --symfs,
# --symbol-filter): ours is compared with perf's --symbols.
REPORT_CASES = [
    ('plain.data', ['--comm', 'workload']),
    ('plain.data', ['--comm', 'nobody']),
    ('plain.data', ['--dso', 'workload']),
    ('plain.data', ['--dso', '[kernel.kallsyms]']),
    ('plain.data', ['--dso', 'workload,ld-linux-x86-64.so.2']),
    ('plain.data', ['--symbols', 'handle_amd']),
    ('plain.data', ['--sym', 'handle_amd,nothing']),
    ('plain.data', ['--percent-limit', '1']),
    ('plain.data', ['--percent-limit=13.04']),
    ('plain.data', ['--time', '10%']),
    ('plain.data', ['--time', '10%/3']),
    ('plain.data', ['--time', '0%-20%,50%-60%']),
    ('tasks.data', ['--pid', '7412,7413']),
    ('tasks.data', ['--tid', '7413']),
    ('tasks.data', ['--comm', 'workload', '--dso', 'workload']),
    ('threads.data', ['--tid', '24001']),
    ('threads.data', ['--pid=23998']),
    ('two-events.data', ['--percent-limit', '5']),
    ('two-events.data', ['--dso', 'workload']),
    ('many-fields.data', ['--cpu', '0']),
    ('many-fields.data', ['--cpu', '0-1']),
    ('many-fields.data', ['--cpu', '1']),
    ('many-fields.data', ['--time', '308.74,']),
    ('many-fields.data', ['--time', ',308.75']),
    ('many-fields.data', ['--time', '308.735144,308.745']),
    ('many-fields.data', ['--time', '308.733,308.74 308.75,308.76']),
    ('many-fields.data', ['--time=308.74,', '--cpu', '0', '--percent-limit', '5']),
    ('sample-id.data', ['--time', '25%-75%']),
    ('callchain-fp.data', ['--symbols', 'hot_a,hot_c']),
    ('callchain-fp.data', ['--symbols', 'hot_b']),
    ('callchain-fp.data', ['--dso', 'workload', '--symbols', 'hot_a']),
    ('callchain-fp.data', ['--time', '303.23,303.24']),
    ('callchain-fp.data', ['--percent-limit', '30']),
]


def comparable(text):
    return [l for l in text.split('\n') if l.strip() and not l.startswith('# (Tip')]


def against_perf(tool):
    global skipped
    if not shutil.which('perf'):
        skipped += len(REPORT_CASES)
        print('skip the comparisons with perf report: perf not installed')
        return
    with tempfile.TemporaryDirectory() as buildids:
        env = dict(os.environ, PERF_BUILDID_DIR=buildids)
        for fixture, opts in REPORT_CASES:
            data = os.path.join(DATA, fixture)
            syms = symbol_options(data) if fixture.startswith('callchain') else []
            perf_opts = ['--symbols' if o == '--sym' else o.replace('--sym=', '--symbols=') for o in opts]
            perf_syms = syms[:2]  # perf takes --symfs, not --symdir
            rc, theirs, perr = run(['perf', 'report', '--stdio', '--no-children', '-g', 'none', '-i', data]
                                   + perf_syms + perf_opts, env=env)
            rc2, ours, err = run([tool, 'report'] + syms + opts + [data])
            t, o = comparable(theirs), comparable(ours)
            name = f'report {" ".join(opts)} {fixture} = perf report'
            if rc != 0 or not t:
                skipped += 1
                print(f'skip {name}: perf failed: {perr.strip()[:200]}')
                continue
            diff = [f'perf: {a!r}\n     ours: {b!r}' for a, b in zip(t, o) if a != b]
            check(name, rc2 == 0 and t == o,
                  f'rc {rc2} {err.strip()}; {len(t)} lines vs {len(o)}\n     ' + '\n     '.join(diff[:4]))


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..'))
    conventions(tool)
    collapse_checks(tool)
    against_perf(tool)
    print(f'{passed} passed, {failed} failed, {skipped} skipped')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
