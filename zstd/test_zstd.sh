#!/bin/sh
# test_zstd.sh - build test_zstd.c with several compilers and run it against
# inputs produced by the zstd CLI and against real perf.data files.
# Usage: sh zstd/test_zstd.sh [--quick]   (from anywhere)
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
T=${TMPDIR:-/tmp}/pd_zstd_test.$$
mkdir -p "$T/gen"
trap 'rm -rf "$T"' EXIT
QUICK=0; [ "${1:-}" = "--quick" ] && QUICK=1
PASS=0; FAIL=0
SAN="-g -fsanitize=address,undefined -fno-sanitize-recover=all"
WARN="-Wall -Wextra -Wpedantic -Werror"
DEF="-D_POSIX_C_SOURCE=199309L"

build() { # name cmd...
    n=$1; shift
    if "$@" -o "$T/$n" "$HERE/test_zstd.c" 2>"$T/$n.log"; then echo "built $n"; else
        echo "BUILD FAILED: $n"; cat "$T/$n.log"; FAIL=$((FAIL+1)); fi
}
INC="-I$HERE/.."
build gcc     gcc -std=c99 $WARN $SAN $DEF $INC
build clang   clang -std=c99 $WARN $SAN $DEF $INC
build gxx     g++ -x c++ -std=c++11 $WARN $SAN $DEF $INC
build clangxx clang++ -x c++ -std=c++11 $WARN $SAN $DEF $INC
build opt     gcc -std=c99 $WARN -O2 $DEF $INC

run() { # binary args...  -> accumulate "N passed, N failed"
    _b=$1; shift
    [ -x "$T/$_b" ] || return
    _out=$("$T/$_b" "$@" 2>&1); _rc=$?
    _line=$(printf '%s\n' "$_out" | tail -n 1)
    _p=$(printf '%s' "$_line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\1/p')
    _f=$(printf '%s' "$_line" | sed -n 's/^\([0-9]*\) passed, \([0-9]*\) failed$/\2/p')
    if [ -z "$_p" ]; then _p=0; _f=1; fi
    if [ $_rc -ne 0 ] && [ "$_f" = 0 ]; then _f=1; fi
    PASS=$((PASS+_p)); FAIL=$((FAIL+_f))
    if [ "$_f" != 0 ]; then echo "[$_b] $* :"; printf '%s\n' "$_out" | tail -n 20; fi
    case "$1" in --perf|--unit|--expect-error) printf '%s\n' "$_out" | grep -v ' passed, ' | sed "s/^/[$_b] /";; esac
}

# ---- payloads
python3 - "$T/gen" <<'PY'
import os, random, sys
d = sys.argv[1]
r = random.Random(7)
def w(name, data):
    open(os.path.join(d, name), 'wb').write(data)
words = [''.join(r.choice('etaoinshrdlucmfwyp') for _ in range(r.randint(1, 9))) for _ in range(3000)]
def text(n):
    out = []; size = 0
    while size < n:
        s = ' '.join(r.choice(words) for _ in range(r.randint(3, 14))) + r.choice(['.\n', ', ', '; ', '!\n'])
        out.append(s); size += len(s)
    return ''.join(out).encode()[:n]
w('empty', b'')
w('one', b'x')
w('rand100', bytes(r.getrandbits(8) for _ in range(100)))
w('rand70k', os.urandom(0) + bytes(r.getrandbits(8) for _ in range(70000)))
w('rep300k', (b'abcabcabd' * 40000)[:300000])
w('zeros1m', b'\0' * 1000000)
w('text5k', text(5000))
w('text1m', text(1000000))
# mixed: text with random islands and long-distance repeats
t = text(600000); rb = bytes(r.getrandbits(8) for _ in range(200000))
w('mixed', t[:300000] + rb + t[:300000] + rb[:50000] + t[100000:400000])
# long-distance repeats for --long window tests (~6 MB, repeats at ~2-5MB)
base = text(2500000); rnd = bytes(r.getrandbits(8) for _ in range(1000000))
w('long6m', base + rnd + base[:1500000] + rnd[:500000])
PY
cd "$T/gen"

cmp_case() { # name src zstd-args...
    _name=$1; _src=$2; shift 2
    name=$_name; src=$_src
    if zstd -q -f "$@" "$src" -o "$T/$name.zst" 2>/dev/null; then
        zstd -q -d -c "$T/$name.zst" > "$T/$name.ref" || { echo "zstd -d failed on $name"; FAIL=$((FAIL+1)); return; }
        for b in $BINS; do run $b "$T/$name.zst" "$T/$name.ref"; done
        rm -f "$T/$name.ref"
    else
        echo "(zstd could not make $name: $*)"
    fi
}

BINS="gcc clang gxx clangxx"
[ $QUICK = 1 ] && BINS="gcc"
for b in $BINS; do run $b --unit; done

LEVELS="1 3 9 19"
for f in empty one rand100 rand70k rep300k zeros1m text5k text1m mixed; do
    for l in $LEVELS; do
        cmp_case "$f-$l" "$f" -$l
        cmp_case "$f-$l-nc" "$f" -$l --no-check
    done
    cmp_case "$f-22" "$f" --ultra -22
done
# content size absent (streamed through a pipe) + small block sizes
for f in text1m mixed one empty; do
    for l in 1 19; do
        if zstd -q -$l -c < "$f" > "$T/pipe-$f-$l.zst"; then
            zstd -q -d -c "$T/pipe-$f-$l.zst" > "$T/pipe.ref"
            for b in $BINS; do run $b "$T/pipe-$f-$l.zst" "$T/pipe.ref"; done
        fi
    done
done
cmp_case "text1m-tb" text1m -3 --zstd=tlen=4096,wlog=10
cmp_case "mixed-ws" mixed -3 --zstd=wlog=12
# window sizes via --long
for wl in 10 11 12 13 14 15 16 17 18 19 20 21 22 23; do
    cmp_case "long-$wl" long6m -3 --long=$wl
    [ $wl -ge 20 ] && cmp_case "long19-$wl" long6m -19 --long=$wl
done
# multiple frames + skippable frames
zstd -q -c -1 text5k > "$T/a.zst"; zstd -q -c -19 --no-check rand70k > "$T/b.zst"; zstd -q -c -3 empty > "$T/c.zst"
python3 - "$T/skip.bin" <<'PY'
import struct, sys
open(sys.argv[1], 'wb').write(struct.pack('<II', 0x184D2A53, 5) + b'hello' + struct.pack('<II', 0x184D2A5F, 0))
PY
cat "$T/a.zst" "$T/skip.bin" "$T/b.zst" "$T/c.zst" "$T/skip.bin" "$T/a.zst" > "$T/multi.zst"
cat text5k rand70k text5k > "$T/multi.ref"
for b in $BINS; do run $b "$T/multi.zst" "$T/multi.ref"; done
cat "$T/skip.bin" > "$T/onlyskip.zst"; : > "$T/onlyskip.ref"
for b in $BINS; do run $b "$T/onlyskip.zst" "$T/onlyskip.ref"; done

# hostile: mutated frames of several kinds
for z in text5k-19 mixed-1 rep300k-3 rand70k-3 text1m-tb multi; do
    [ -f "$T/$z.zst" ] || zstd -q -f -3 text5k -o "$T/$z.zst"
done
zstd -q -f -19 text5k -o "$T/h1.zst"; zstd -q -f -1 mixed -o "$T/h2.zst"; zstd -q -f -3 rep300k -o "$T/h3.zst"
zstd -q -f -9 --no-check text1m -o "$T/h4.zst"; zstd -q -f -1 one -o "$T/h5.zst"
for h in h1 h2 h3 h4 h5 multi; do run gcc --hostile "$T/$h.zst" $([ $QUICK = 1 ] && echo 100 || echo 400); done
[ $QUICK = 1 ] || for h in h1 h3 multi; do run clang --hostile "$T/$h.zst" 200; done
# corrupted checksum must fail
python3 - "$T/h1.zst" "$T/badck.zst" <<'PY'
import sys
b = bytearray(open(sys.argv[1], 'rb').read()); b[-1] ^= 1; open(sys.argv[2], 'wb').write(b)
PY
run gcc --expect-error "$T/badck.zst"

# perf files
for f in "$ROOT/tests/data/zstd.data" "$ROOT/tests/data/pipe-zstd.data" "$ROOT/tests/data/zstd-pipe.data" \
         /work/shared/corpus/public/linux-perf-data/*.compressed*.data /work/shared/corpus/recorded/zstd*.data; do
    [ -f "$f" ] || continue
    for b in $BINS; do run $b --perf "$f"; done
done

# throughput (informational)
if [ $QUICK = 0 ] && [ -x "$T/opt" ]; then
    python3 - "$T/bench.raw" <<'PY'
import sys, random
r = random.Random(3)
words = [''.join(r.choice('etaoinshrdlucmfwyp') for _ in range(r.randint(1, 9))) for _ in range(5000)]
out = []; n = 0
while n < 50_000_000:
    s = ' '.join(r.choice(words) for _ in range(12)) + '\n'; out.append(s); n += len(s)
open(sys.argv[1], 'w').write(''.join(out))
PY
    zstd -q -f -3 "$T/bench.raw" -o "$T/bench.zst"
    run opt --bench "$T/bench.zst" 5
    "$T/opt" --bench "$T/bench.zst" 5 | grep MB/s
    s=$(date +%s.%N); for i in 1 2 3 4 5; do zstd -q -d -c "$T/bench.zst" > /dev/null; done; e=$(date +%s.%N)
    python3 -c "import sys; s,e=float(sys.argv[1]),float(sys.argv[2]); n=__import__('os').path.getsize(sys.argv[3]); print('zstd -d -c >/dev/null: %.1f MB/s' % (n*5/(e-s)/1e6))" "$s" "$e" "$T/bench.raw"
fi

echo "$PASS passed, $FAIL failed"
[ $FAIL -eq 0 ]
