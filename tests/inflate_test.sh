#!/bin/sh
# inflate_test.sh - run by tests/run.sh: builds tests/inflate_test.c with
# tools/pd_inflate.c under ASan+UBSan (links the system zlib: the test's
# oracle and encoder) and runs it over every ELF file of
# /usr/lib/debug/.build-id (libc6-dbg and others, where installed) and over
# tests/data/workload.c built with -g, 64- and 32-bit, its debug sections
# compressed by objcopy (zlib). Without zlib.h prints a skip.
cd "$(dirname "$0")/.." || exit 2
CC=${CC:-cc}
B=build/test
mkdir -p $B
if ! printf '#include <zlib.h>\n' | $CC -E - >/dev/null 2>&1; then
    echo "skip: zlib.h not installed (zlib1g-dev)"
    echo "0 passed, 0 failed, 1 skipped"
    exit 0
fi
$CC -std=c99 -Wall -Wextra -Wpedantic -Werror -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all \
    -fno-omit-frame-pointer -Itools tests/inflate_test.c tools/pd_inflate.c -lz -o $B/inflate_test || exit 1
set --
for m in 64 32; do
    if gcc -m$m -O2 -g tests/data/workload.c -o $B/inflate_workload$m -lpthread 2>/dev/null &&
        objcopy --compress-debug-sections=zlib $B/inflate_workload$m $B/inflate_workload$m.z; then
        set -- "$@" $B/inflate_workload$m.z
    else
        echo "note: no $m-bit workload with zlib sections (gcc -m$m or objcopy cannot)"
    fi
done
[ -d /usr/lib/debug/.build-id ] && set -- "$@" $(find /usr/lib/debug/.build-id -type f -name '*.debug' | sort)
exec $B/inflate_test "$@"
