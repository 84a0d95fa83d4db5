#!/usr/bin/env python3
"""The tools against a hostile filesystem, in a temporary directory:

- recorded mapping paths that name a FIFO, a UNIX socket or a device,
  however spelled (/./dev/x, //dev/x, /tmp/../dev/x, a symlink to one),
  and a FIFO in the build-id cache, in --symdir and as --kallsyms: report
  and collapse neither hang nor open them (checked with strace when it is
  installed: no open/openat of a device, FIFO or socket);
- recorded paths with `..` under --symfs DIR: an ELF planted beside DIR is
  never read, while symlinks the user made inside DIR are still followed;
- a `perf record --threads` directory whose data.N is a symlink to
  /dev/zero, a FIFO or a directory: a quick, clear error naming the file;
- report --csv and stat --csv with a symlink or a FIFO planted at an output
  name: the link's target is untouched, nothing blocks or is written to the
  FIFO, and the command fails with a message.

Every command runs under a timeout (a hang is a failure), and its exit
status, stderr and sanitizer output are checked. The committed inputs of
tests/hostile/gen_fs.py are checked to be what it makes.

Usage: hostile_fs.py PERFDATA_BINARY
"""
import os
import re
import resource
import shutil
import socket
import stat
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, 'hostile'))
import gen_fs  # noqa: E402
from oracles import SANITIZER  # noqa: E402

TIMEOUT = 20
passed = failed = skipped = 0


def check(name, cond, detail=''):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print(f'FAIL {name}' + (f'\n     {detail.strip()[-1500:]}' if detail else ''))
    return cond


def skip(name, why):
    global skipped
    skipped += 1
    print(f'skip {name}: {why}')


class Tool:
    def __init__(self, path):
        self.path = os.path.abspath(path)
        with open(self.path, 'rb') as f:
            self.asan = b'__asan_init' in f.read()

    def env(self, extra=None):
        env = dict(os.environ)
        if self.asan:
            # a reader that does not stop at the end of a device would grow
            # without bound: end it at 1 GiB rather than exhaust the machine
            env['ASAN_OPTIONS'] = (env.get('ASAN_OPTIONS', '') + ':hard_rss_limit_mb=1024').lstrip(':')
        env.update(extra or {})
        return env

    def limits(self):
        if not self.asan:  # ASan reserves terabytes of address space up front
            resource.setrlimit(resource.RLIMIT_AS, (1 << 31, 1 << 31))

    def run(self, args, env=None, prefix=()):
        """-> (exit status or 'hang', stdout, stderr)"""
        try:
            p = subprocess.run(list(prefix) + [self.path] + args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=TIMEOUT, env=self.env(env), preexec_fn=self.limits)
        except subprocess.TimeoutExpired as e:
            return 'hang', (e.stdout or b'').decode('utf-8', 'replace'), (e.stderr or b'').decode('utf-8', 'replace')
        return p.returncode, p.stdout.decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace')


def expect(name, result, rc, err_has=(), err_empty=False, out_has=(), out_lacks=()):
    """One check: the exit status, what stderr and stdout hold, no sanitizer."""
    got, out, err = result
    why = []
    if got != rc:
        why.append(f'exit status {got}, expected {rc}')
    for s in err_has:
        if s not in err:
            why.append(f'stderr lacks {s!r}')
    if err_empty and err.strip():
        why.append('stderr is not empty')
    for s in out_has:
        if s not in out:
            why.append(f'stdout lacks {s!r}')
    for s in out_lacks:
        if s in out:
            why.append(f'stdout has {s!r}')
    if SANITIZER.search(err):
        why.append('sanitizer or C library report on stderr')
    return check(name, not why, '; '.join(why) + f'\n     stdout: {out[-600:]!r}\n     stderr: {err[-900:]!r}')


def write(path, data):
    with open(path, 'wb') as f:
        f.write(data)
    return path


def unix_socket(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(path)
    return s


# --------------------------------------------------------------- strace

STRACE = shutil.which('strace')
OPEN_LINE = re.compile(r'\bopen(?:at)?\((?:[^,"]*, )?"((?:[^"\\]|\\.)*)"')


def special(path):
    """Whether path (followed through symlinks) is a device, FIFO or socket."""
    try:
        m = os.stat(path).st_mode
    except OSError:
        return False
    return stat.S_ISCHR(m) or stat.S_ISBLK(m) or stat.S_ISFIFO(m) or stat.S_ISSOCK(m)


def strace_opens(tool, args, work, env=None):
    """(result, [paths opened or tried]) of the tool under strace."""
    log = os.path.join(work, 'strace.log')
    if os.path.exists(log):
        os.unlink(log)
    extra = dict(env or {})
    if tool.asan:  # LeakSanitizer does not run under ptrace
        extra['ASAN_OPTIONS'] = (os.environ.get('ASAN_OPTIONS', '') + ':detect_leaks=0').lstrip(':')
    result = tool.run(args, env=extra, prefix=(STRACE, '-f', '-qq', '-e', 'trace=open,openat', '-o', log))
    try:
        with open(log, encoding='utf-8', errors='replace') as f:
            text = f.read()
    except OSError:
        text = ''
    paths = [m.group(1).encode().decode('unicode_escape') for m in OPEN_LINE.finditer(text)]
    return result, paths


def check_opens(name, tool, args, work, input_path, forbidden, env=None):
    """Under strace: the input was opened (so the trace works) and nothing
    that is a device, FIFO or socket, nor any of the forbidden spellings."""
    if not STRACE:
        skip(f'{name} (strace)', 'strace is not installed')
        return
    result, paths = strace_opens(tool, args, work, env)
    real = {os.path.realpath(p) for p in forbidden}
    bad = sorted({p for p in paths if p in forbidden or os.path.realpath(p) in real or special(p)})
    check(f'{name}: strace saw the input opened, and no device, FIFO or socket',
          result[0] != 'hang' and input_path in paths and not bad,
          f'exit {result[0]}; opened {bad}; input seen: {input_path in paths}; {len(paths)} opens\n     {result[2][-600:]}')


# -------------------------------------------------------------- the cases

def committed_inputs():
    """tests/hostile holds exactly what gen_fs.py makes."""
    n = 0
    for name, path in sorted(gen_fs.COMMITTED.items()):
        f = os.path.join(HERE, 'hostile', name)
        have = open(f, 'rb').read() if os.path.exists(f) else None
        check(f'tests/hostile/{name} is what gen_fs.py makes (python3 tests/hostile/gen_fs.py)',
              have == gen_fs.profile(path))
        n += 1
    check('gen_fs.py names committed inputs', n > 0)


def mapping_targets(tool, work):
    """Mappings of things that are not files: no hang, exit 0, no symbols,
    the dso named as perf names it (the basename), and no open."""
    fifo = os.path.join(work, 'fifo')
    os.mkfifo(fifo)
    sock_path = os.path.join(work, 'sock')
    sock = unix_socket(sock_path)
    zero_link = os.path.join(work, 'zero-link')
    os.symlink('/dev/zero', zero_link)
    fifo_link = os.path.join(work, 'fifo-link')
    os.symlink(fifo, fifo_link)
    climb = work + '/../' + os.path.basename(work) + '/./fifo'
    # (what, recorded path, input file or None, the refusal is said on stderr)
    cases = [('a FIFO', fifo, None, True),
             ('a UNIX socket', sock_path, None, True),
             ('a symlink to /dev/zero', zero_link, None, True),
             ('a symlink to a FIFO', fifo_link, None, True),
             ('a FIFO reached through ..', climb, None, True)]
    for name, path in sorted(gen_fs.COMMITTED.items()):
        if path.startswith(b'/') and b'/dev/' in path:
            cases.append((path.decode(), path.decode(), os.path.join(HERE, 'hostile', name), False))
    forbidden = {fifo, sock_path, zero_link, fifo_link, climb, '/dev/null', '/dev/zero'}
    for what, path, data, said in cases:
        if data is None:
            data = write(os.path.join(work, 'map-%s.data' % re.sub(r'\W+', '-', what)), gen_fs.profile(path.encode()))
        base = path.rstrip('/').rsplit('/', 1)[-1]
        err_has = ('not a regular file',) if said else ()
        expect(f'report, mapping of {what}', tool.run(['report', data]), 0, err_has=err_has, err_empty=not said,
               out_has=(f'  {base} ', '[.] 0x'), out_lacks=(gen_fs.FUNC_NAME,))
        expect(f'collapse, mapping of {what}', tool.run(['collapse', data]), 0, err_has=err_has, err_empty=not said,
               out_has=(gen_fs.COMM.decode() + ';',))
        check_opens(f'report, mapping of {what}', tool, ['report', data], work, data, forbidden)
    sock.close()


def symfs_escape(tool, work):
    """`..` in a recorded path stays inside --symfs DIR."""
    top = os.path.join(work, 'esc')
    symfs, outside = os.path.join(top, 'symfs'), os.path.join(top, 'outside')
    os.makedirs(symfs)
    os.makedirs(outside)
    elf = write(os.path.join(outside, gen_fs.ELF_NAME), gen_fs.planted_elf())
    func = gen_fs.FUNC_NAME
    # the planted ELF resolves when named as it is: the checks below can fail
    direct = write(os.path.join(top, 'direct.data'), gen_fs.profile(elf.encode()))
    expect('report names the planted function by its own path', tool.run(['report', direct]), 0, err_empty=True,
           out_has=(f'[.] {func}',))
    expect('collapse names the planted function by its own path', tool.run(['collapse', direct]), 0, err_empty=True,
           out_has=(f';{func} 3',))
    committed = os.path.join(HERE, 'hostile', 'mmap2-symfs-escape.data')
    deep = write(os.path.join(top, 'deep.data'), gen_fs.profile(b'/..' * 40 + elf.encode()))
    inner = write(os.path.join(top, 'inner.data'), gen_fs.profile(b'/no-such-dir/../../outside/' + gen_fs.ELF_NAME.encode()))
    for what, data in (('/../outside/ELF', committed), ('/../../...ELF\'s absolute path', deep),
                       ('/no-such-dir/../../outside/ELF', inner)):
        for cmd in ('report', 'collapse'):
            expect(f'{cmd} --symfs DIR, recorded {what}: the ELF beside DIR is not read',
                   tool.run([cmd, '--symfs', symfs, data]), 0, out_lacks=(func,), out_has=(gen_fs.COMM.decode(),))
        check_opens(f'report --symfs DIR, recorded {what}', tool, ['report', '--symfs', symfs, data], work, data, {elf})
    # symlinks made inside DIR by the user are followed, as the tests' trees need
    linked = os.path.join(top, 'symfs-linked')
    os.makedirs(linked)
    os.symlink(outside, os.path.join(linked, 'opt'))
    for what, path in (('/opt/ELF', b'/opt/'), ('//opt/./ELF', b'//opt/./')):
        data = write(os.path.join(top, 'linked.data'), gen_fs.profile(path + gen_fs.ELF_NAME.encode()))
        expect(f'report --symfs DIR follows a symlink inside DIR: recorded {what}',
               tool.run(['report', '--symfs', linked, data]), 0, err_empty=True, out_has=(f'[.] {func}',))
        expect(f'collapse --symfs DIR follows a symlink inside DIR: recorded {what}',
               tool.run(['collapse', '--symfs', linked, data]), 0, err_empty=True, out_has=(f';{func} 3',))


def by_build_id(tool, work):
    """FIFOs where the build-id cache, --symdir and --kallsyms lead."""
    top = os.path.join(work, 'bid')
    home = os.path.join(top, 'home')
    bid = bytes(range(0x40, 0x54))
    hexid = bid.hex()
    cache = os.path.join(home, '.debug', '.build-id', hexid[:2], hexid[2:])
    os.makedirs(cache)
    cache_fifo = os.path.join(cache, 'elf')
    os.mkfifo(cache_fifo)
    symdir = os.path.join(top, 'symdir')
    os.makedirs(os.path.join(symdir, 'sub'))
    os.mkfifo(os.path.join(symdir, 'fifo'))
    os.mkfifo(os.path.join(symdir, 'sub', 'fifo'))
    os.symlink('/dev/zero', os.path.join(symdir, 'zero-link'))
    os.symlink(os.path.join(symdir, 'fifo'), os.path.join(symdir, 'fifo-link'))
    sock = unix_socket(os.path.join(symdir, 'sock'))
    data = write(os.path.join(top, 'bid.data'), gen_fs.profile(b'/hostile-fs/no-such-binary', build_id=bid))
    env = {'HOME': home}
    for cmd in ('report', 'collapse'):
        expect(f'{cmd}: a FIFO in the build-id cache is not opened', tool.run([cmd, data], env=env), 0,
               err_has=(cache_fifo, 'not a regular file'))
        expect(f'{cmd} --symdir: FIFOs, a socket and device links below DIR are not opened',
               tool.run([cmd, '--symdir', symdir, data], env=env), 0, err_has=('not a regular file',))
    forbidden = {cache_fifo} | {os.path.join(symdir, n) for n in ('fifo', 'sub/fifo', 'zero-link', 'fifo-link', 'sock')}
    check_opens('report --symdir with the build-id cache', tool, ['report', '--symdir', symdir, data], work, data,
                forbidden, env=env)
    sock.close()
    # --kallsyms: the kernel sample makes report read it
    kdata = write(os.path.join(top, 'kernel.data'), gen_fs.profile(b'/hostile-fs/no-such-binary', kernel=True))
    fifo = os.path.join(top, 'kallsyms-fifo')
    os.mkfifo(fifo)
    for ks in (fifo, '/dev/null'):
        for cmd in ('report', 'collapse'):
            expect(f'{cmd} --kallsyms {"a FIFO" if ks == fifo else ks}: refused, not read',
                   tool.run([cmd, '--kallsyms', ks, kdata]), 0, err_has=(ks, 'not a regular file'))
    check_opens('report --kallsyms FIFO', tool, ['report', '--kallsyms', fifo, kdata], work, kdata, {fifo})


def threads_dir(tool, work):
    """data.N of a --threads directory: regular files or a clear error."""
    top = os.path.join(work, 'threads')
    profile = gen_fs.profile(b'/hostile-fs/no-such-binary')

    def make(name, setup):
        d = os.path.join(top, name)
        os.makedirs(d)
        write(os.path.join(d, 'data'), profile)
        setup(d)
        return d
    ok = make('empty-stream', lambda d: write(os.path.join(d, 'data.0'), b''))
    for cmd in ('report', 'collapse', 'stat', 'dump'):
        expect(f'{cmd}: a directory with an empty data.0 is read', tool.run([cmd, ok]), 0)
    special = 'not a regular file'
    cases = [('data.0 a symlink to /dev/zero', 'data.0', special,
              lambda d: os.symlink('/dev/zero', os.path.join(d, 'data.0'))),
             ('data.1 a FIFO', 'data.1', special,
              lambda d: (write(os.path.join(d, 'data.0'), b''), os.mkfifo(os.path.join(d, 'data.1')))),
             ('data.0 a directory', 'data.0', special, lambda d: os.mkdir(os.path.join(d, 'data.0'))),
             ('data.0 a dangling symlink', 'data.0', 'No such file',
              lambda d: os.symlink(os.path.join(d, 'gone'), os.path.join(d, 'data.0'))),
             ('data.2 but no data.1', 'data.2', 'data.1 is missing',
              lambda d: (write(os.path.join(d, 'data.0'), b''), write(os.path.join(d, 'data.2'), b''))),
             ('data a FIFO', 'data', special, None)]
    for i, (what, bad, said, setup) in enumerate(cases):
        if setup is None:
            d = os.path.join(top, f'case{i}')
            os.makedirs(d)
            os.mkfifo(os.path.join(d, 'data'))
        else:
            d = make(f'case{i}', setup)
        for cmd in ('report', 'collapse', 'stat', 'dump'):
            expect(f'{cmd}: a --threads directory with {what}', tool.run([cmd, d]), 1,
                   err_has=(os.path.join(d, bad) + ':', said))


def csv_outputs(tool, work):
    """report --csv and stat --csv never follow a planted symlink nor write
    to a planted FIFO."""
    top = os.path.join(work, 'csv')
    os.makedirs(top)
    data = write(os.path.join(top, 'in.data'), gen_fs.profile(b'/hostile-fs/no-such-binary'))
    names = ('stat.csv', 'overview.csv', 'processes.csv', 'results.csv')
    good = os.path.join(top, 'good')
    expect('report --csv DIR writes its files', tool.run(['report', '--csv', good, data]), 0, err_empty=True)
    mask = os.umask(0)
    os.umask(mask)
    for n in names:
        p = os.path.join(good, n)
        m = os.lstat(p).st_mode if os.path.lexists(p) else None
        check(f'report --csv made {n}, a regular file of mode 0666 & ~umask',
              m is not None and stat.S_ISREG(m) and stat.S_IMODE(m) == 0o666 & ~mask, f'mode {m and oct(m)}')
    precious = b'precious: must stay as it is\n'
    cases = [('report', n) for n in names] + [('stat', 'stat.csv')]
    for i, (cmd, n) in enumerate(cases):
        d = os.path.join(top, f'link{i}')
        os.makedirs(d)
        victim = write(os.path.join(top, f'victim{i}'), precious)
        os.symlink(victim, os.path.join(d, n))
        expect(f'{cmd} --csv DIR with a symlink planted at {n}: refused', tool.run([cmd, '--csv', d, data]), 1,
               err_has=(n,))
        check(f'{cmd} --csv DIR with a symlink planted at {n}: its target is untouched',
              open(victim, 'rb').read() == precious and os.path.islink(os.path.join(d, n)))
        # a dangling link: its target must not be created
        d = os.path.join(top, f'dangling{i}')
        os.makedirs(d)
        target = os.path.join(top, f'created{i}')
        os.symlink(target, os.path.join(d, n))
        expect(f'{cmd} --csv DIR with a dangling symlink at {n}: refused', tool.run([cmd, '--csv', d, data]), 1,
               err_has=(n,))
        check(f'{cmd} --csv DIR with a dangling symlink at {n}: its target is not created', not os.path.lexists(target))
    for i, (cmd, n) in enumerate(cases):
        for reader in (False, True):
            d = os.path.join(top, f'fifo{i}{"r" if reader else ""}')
            os.makedirs(d)
            fifo = os.path.join(d, n)
            os.mkfifo(fifo)
            # with a reader, an open for writing would succeed at once
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK) if reader else None
            what = f'{cmd} --csv DIR with a FIFO at {n}{" (a reader waiting)" if reader else ""}'
            expect(f'{what}: no hang, refused', tool.run([cmd, '--csv', d, data]), 1, err_has=(n,))
            if fd is not None:
                try:
                    got = os.read(fd, 4096)
                except BlockingIOError:
                    got = b''
                os.close(fd)
                check(f'{what}: nothing written to it', got == b'', repr(got[:80]))


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split('\n')[-1], file=sys.stderr)
        return 2
    tool = Tool(sys.argv[1])
    os.chdir(os.path.dirname(HERE))
    os.umask(0o022)
    work = tempfile.mkdtemp(prefix='perfdata-hostile-fs-')
    try:
        committed_inputs()
        mapping_targets(tool, work)
        symfs_escape(tool, work)
        by_build_id(tool, work)
        threads_dir(tool, work)
        csv_outputs(tool, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if passed + failed == 0:
        check('any check ran', False)
    print(f'{passed} passed, {failed} failed' + (f', {skipped} skipped' if skipped else ''))
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
