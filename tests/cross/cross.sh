#!/bin/sh
# `make test-cross`: the test suite on other hosts. Part 1, the unit tests
# (test_core.c, test_features.c, test_names.c, test_order.c, test_writer.c, the zstd
# decoder's test_zstd.c --unit and over the compressed fixtures, the ELF
# resolver's test_elf.c and the process state's test_state.c), built for
#   s390x  (64-bit big-endian)  s390x-linux-gnu-gcc -static, run by qemu-s390x;
#          again with gcc -fsanitize=undefined (full runtime, dynamic, -L sysroot)
#   mips   (32-bit big-endian, traps on misaligned loads) mips-linux-gnu-gcc
#          -static, run by qemu-mips; again with UBSan in trap mode
#   i386   (32-bit little-endian) gcc -m32, plain and ASan+UBSan, run natively
#          or under qemu-i386 (then UBSan only)
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
# scale_bits check beside it passes). -isystem: -m32 without gcc-multilib
# finds no <asm/errno.h> (tests/cross portability notes: the x86-64 one is
# the same file).
I386="gcc -m32 -msse2 -mfpmath=sse -isystem /usr/include/x86_64-linux-gnu"
UBSAN="-fsanitize=undefined -fno-sanitize-recover=all"
ASAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
TESTS="test_core test_features test_names test_order test_zstd test_elf test_state test_writer"
FIXTURES=$(find tests/data -name '*.data' -type f | sort | tr '\n' ' ')
# arguments of each unit test binary (test_zstd's file lives in zstd/)
args_of() {
    case $1 in
    test_order) echo "$FIXTURES" ;;
    test_zstd) echo "--unit" ;;
    *) echo "" ;;
    esac
}
extra_of() {
    case $1 in
    test_zstd) echo "-D_POSIX_C_SOURCE=199309L" ;;
    test_elf) echo "-D_GNU_SOURCE tools/pd_elf.c" ;;
    test_state) echo "-D_GNU_SOURCE" ;;
    *) echo "" ;;
    esac
}
src_of() { case $1 in test_zstd) echo zstd/test_zstd.c ;; *) echo tests/$1.c ;; esac; }
passed=0; failed=0

# run NAME BUILD-CMD RUN-PREFIX : build $B/<test>.NAME for each test, run it.
run() {
    name=$1; build=$2; prefix=$3
    for t in $TESTS; do
        exe=$B/$t.$name
        out=$B/$t.$name.out
        if ! sh -c "$build -I. -Itools $(src_of $t) $(extra_of $t) -o $exe" > $out 2>&1; then
            echo "FAIL $name $t: build failed"; sed 's/^/     /' $out | tail -n 15
            failed=$((failed + 1)); continue
        fi
        if sh -c "$prefix $exe $(args_of $t)" > $out 2>&1; then rc=0; else rc=$?; fi
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

# i386 natively, or under qemu-i386 where this kernel cannot run i386
# programs (Exec format error); ASan where it works there, else UBSan only
# (tests/cross/i386_runner.sh decides and says which)
I386_MODE=''; I386_SAN=''; I386_PREFIX=''; I386_QEMU=''
if r=$(PD_I386_CC="$I386" sh tests/cross/i386_runner.sh); then
    set -- $r
    I386_MODE=$1; I386_SAN=$2; shift 2; I386_PREFIX="$*"
    # the plain build runs under qemu without the ASan environment
    [ "$I386_MODE" = qemu ] && I386_QEMU=$(echo "$I386_PREFIX" | sed 's/^env ASAN_OPTIONS=[^ ]* //')
    # under qemu-i386, ASan's allocator fails its own check on test_elf's
    # sweeps (a region mapped at 0): UBSan only there
    if [ "$I386_MODE" = qemu ]; then I386_SAN=ubsan; I386_PREFIX=$I386_QEMU; fi
    if [ "$I386_SAN" = asan ]; then I386_SANFLAGS=$ASAN; I386_SANNAME=i386-asan
    else I386_SANFLAGS=$UBSAN; I386_SANNAME=i386-ubsan; fi
    echo "i386 programs run $I386_MODE${I386_PREFIX:+ ($I386_PREFIX)}, sanitizers: $I386_SAN"
    run i386 "$I386 $W -O2" "$I386_QEMU"
    run $I386_SANNAME "$I386 $W -O1 $I386_SANFLAGS" "$I386_PREFIX"
else
    echo "FAIL i386: $r"; failed=$((failed + 1))
fi

# Part 2: the perfdata command built for each target and checked against
# perf's own outputs on tests/data exactly as on the host: python runs the
# diff scripts here, the tool runs under qemu through a wrapper script.
DIFFS="dump_diff info_diff stat_diff order_diff report_diff collapse_diff"
tool() { # name build-cmd run-prefix
    name=$1; build=$2; prefix=$3
    exe=$B/perfdata.$name; wrap=$B/perfdata-$name; out=$B/tool.$name.out
    if ! sh -c "$build -D_GNU_SOURCE -I. -Itools tools/*.c -o $exe" > $out 2>&1; then
        echo "FAIL $name perfdata: build failed"; sed 's/^/     /' $out | tail -n 15
        failed=$((failed + 1)); return
    fi
    printf '#!/bin/sh\nexec %s %s "$@"\n' "$prefix" "$(pwd)/$exe" > $wrap
    chmod +x $wrap
    for d in $DIFFS byte_order; do
        if [ $d = byte_order ]; then cmd="sh tests/byte_order.sh $wrap $B/be-$name tests/data"
        elif [ $d = collapse_diff ]; then cmd="python3 tests/$d.py $wrap --expect tests/expected/collapse.txt tests/data"
        else cmd="python3 tests/$d.py $wrap tests/data"; fi
        if $cmd > $out 2>&1; then rc=0; else rc=$?; fi
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' $out | tail -n 1)
        if [ -n "$line" ]; then p=${line%% passed*}; f=${line#*passed, }; f=${f%% failed*}; else p=0; f=0; fi
        [ "$rc" -ne 0 ] && [ "$f" -eq 0 ] && f=1
        passed=$((passed + p)); failed=$((failed + f))
        if [ "$rc" -eq 0 ]; then echo "ok   $name perfdata $d ($p passed, $f failed)"
        else echo "FAIL $name perfdata $d (exit $rc; $p passed, $f failed)"; sed 's/^/     /' $out | tail -n 15; fi
    done
}
if have s390x-linux-gnu-gcc && have qemu-s390x; then
    tool s390x "s390x-linux-gnu-gcc $W -O2 -static" "qemu-s390x"
fi
if have mips-linux-gnu-gcc && have qemu-mips; then
    tool mips "mips-linux-gnu-gcc $W -O2 -static" "qemu-mips"
fi
[ -n "$I386_MODE" ] && tool $I386_SANNAME "$I386 $W -O1 $I386_SANFLAGS" "$I386_PREFIX"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
