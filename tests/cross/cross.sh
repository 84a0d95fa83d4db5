#!/bin/sh
# `make test-cross`: the unit tests that need no command-line files
# (test_core.c, test_features.c, test_names.c with no arguments) built for
#   s390x  (64-bit big-endian)  s390x-linux-gnu-gcc -static, run by qemu-s390x;
#          again with gcc -fsanitize=undefined (full runtime, dynamic, -L sysroot)
#   mips   (32-bit big-endian, traps on misaligned loads) mips-linux-gnu-gcc
#          -static, run by qemu-mips; again with UBSan in trap mode
#   i386   (32-bit little-endian) gcc -m32, plain and ASan+UBSan, run natively
# Run from the repository root (test_features.c globs tests/data/*.data; qemu-user
# passes file access through). Ends with one "N passed, N failed" line summing
# every binary's own counts; a build failure or a crash counts as one failure.
# Toolchains: tests/cross/install.sh. binfmt_misc is not assumed: qemu is
# called explicitly.
cd "$(dirname "$0")/../.." || exit 2
B=build/cross
mkdir -p $B
# -Wno-dangling-pointer: gcc 12 at -O1/-O2 flags tests/test_features.c:2321
# (test_set_context() keeps a pointer to a local buffer); test code, not the
# header, and `make test` builds at -O0 where it does not fire.
W="-std=c99 -Wall -Wextra -Wpedantic -Werror -Wno-dangling-pointer -g"
# i386 uses SSE2 for double: with x87 and -std=c99 (FLT_EVAL_METHOD 2),
# tests/test_core.c:3397 `u.scale == TEST_SCALE` compares a double with a
# long-double-precision literal and fails (the header's value is right: the
# scale_bits check beside it passes).
I386="gcc -m32 -msse2 -mfpmath=sse"
UBSAN="-fsanitize=undefined -fno-sanitize-recover=all"
ASAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
TESTS="test_core test_features test_names"
passed=0; failed=0

# run NAME BUILD-CMD RUN-PREFIX : build $B/<test>.NAME for each test, run it.
run() {
    name=$1; build=$2; prefix=$3
    for t in $TESTS; do
        exe=$B/$t.$name
        out=$B/$t.$name.out
        if ! sh -c "$build -I. tests/$t.c -o $exe" > $out 2>&1; then
            echo "FAIL $name $t: build failed"; sed 's/^/     /' $out | tail -n 15
            failed=$((failed + 1)); continue
        fi
        if sh -c "$prefix $exe" > $out 2>&1; then rc=0; else rc=$?; fi
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' $out | tail -n 1)
        if [ -n "$line" ]; then
            p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}
        else
            p=0; f=0
        fi
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
        passed=$((passed + p)); failed=$((failed + f))
        if [ "$rc" -eq 0 ]; then echo "ok   $name $t ($p passed, $f failed)"
        else echo "FAIL $name $t (exit $rc; $p passed, $f failed)"; sed 's/^/     /' $out | tail -n 15; fi
    done
}

have() { command -v "$1" > /dev/null 2>&1; }
missing() { echo "FAIL $1: $2 not installed (run tests/cross/install.sh)"; failed=$((failed + 1)); }

if have s390x-linux-gnu-gcc && have qemu-s390x; then
    run s390x       "s390x-linux-gnu-gcc $W -O2 -static" "qemu-s390x"
    run s390x-ubsan "s390x-linux-gnu-gcc $W -O1 $UBSAN" "qemu-s390x -L /usr/s390x-linux-gnu"
else missing s390x "s390x-linux-gnu-gcc/qemu-s390x"; fi

if have mips-linux-gnu-gcc && have qemu-mips; then
    run mips        "mips-linux-gnu-gcc $W -O2 -static" "qemu-mips"
    run mips-ubtrap "mips-linux-gnu-gcc $W -O1 -static -fsanitize=undefined -fsanitize-undefined-trap-on-error" "qemu-mips"
else missing mips "mips-linux-gnu-gcc/qemu-mips"; fi

run i386      "$I386 $W -O2" ""
run i386-asan "$I386 $W -O1 $ASAN" ""

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
