#!/bin/sh
# tests/unwind_arch.sh - tools/pd_unwind.c on aarch64 and arm32 against real
# captures: builds tests/unwind_arch/chain.c with clang and ld.lld (no C
# library, static) in several ways, runs each under qemu-user, where its
# SIGPROF handler writes the interrupted registers and stack, and checks
# every sample's unwound chain with tests/unwind_arch_check.c (ASan+UBSan).
# Then the same captures as users meet them: tests/unwind_arch_perf.py
# writes each as a perf.data (--call-graph dwarf on aarch64 or armv7l) and
# checks that `perfdata script` and `perfdata collapse` (PERFDATA, default
# build/asan/perfdata: build it first) show the checker's chains.
# Everything goes to build/test/unwind_arch. Without clang, ld.lld,
# qemu-aarch64 or qemu-arm it prints the reason and counts one skip.
#
#   aarch64: frame pointers or not, -O0 and -O2; .eh_frame (with and
#            without .eh_frame_hdr); .debug_frame alone; pointer
#            authentication (pac-ret+leaf, under qemu -cpu max)
#   arm32:   ARM and Thumb, frame pointers or not: .ARM.exidx/.ARM.extab
#            and .debug_frame from the same binary; and .ARM.exidx alone
cd "$(dirname "$0")/.." || exit 2
CC=${CC:-cc}
B=build/test/unwind_arch
for tool in clang ld.lld qemu-aarch64 qemu-arm; do
    if ! command -v $tool > /dev/null 2>&1; then
        echo "skip: $tool not installed"
        echo "0 passed, 0 failed, 1 skipped"
        exit 0
    fi
done
mkdir -p $B
rm -f $B/*.cap
$CC -std=c99 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -g -O1 \
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer \
    -Itools tests/unwind_arch_check.c tools/pd_unwind.c tools/pd_elf.c -o $B/check || exit 1
c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -Itools -c tests/unwind_arch_check.c \
    -o $B/check_cxx.o || exit 1

FLAGS="-nostdlib -static -fuse-ld=lld -ffreestanding -fno-optimize-sibling-calls -Wall -Wextra -Werror"
A64="--target=aarch64-linux-gnu"
ARM="--target=armv7a-linux-gnueabihf"
args=
fail=0
# name, qemu, check's option (or -), clang's arguments...
variant() {
    name=$1 qemu=$2 opt=$3; shift 3
    case $qemu in qemu-aarch64*) start=tests/unwind_arch/start_aarch64.S ;; *) start=tests/unwind_arch/start_arm.S ;; esac
    if ! clang $FLAGS "$@" tests/unwind_arch/chain.c $start -o $B/$name; then
        echo "$name: build failed: clang $*"; fail=1; return
    fi
    if ! timeout 120 $qemu $B/$name > $B/$name.cap; then
        echo "$name: $qemu exited with $?"; fail=1; return
    fi
    if [ "$opt" = - ]; then args="$args $B/$name $B/$name.cap"; else args="$args $opt $B/$name $B/$name.cap"; fi
}
variant a64-fp qemu-aarch64 - $A64 -O2 -fno-omit-frame-pointer -fasynchronous-unwind-tables
variant a64-nofp qemu-aarch64 - $A64 -O2 -fomit-frame-pointer -fasynchronous-unwind-tables
variant a64-O0 qemu-aarch64 - $A64 -O0 -fasynchronous-unwind-tables
variant a64-debug-frame qemu-aarch64 - $A64 -O2 -fomit-frame-pointer -g -fno-asynchronous-unwind-tables -fno-unwind-tables -DUNWIND_DEBUG_FRAME
variant a64-pac "qemu-aarch64 -cpu max" --pac $A64 -O2 -fomit-frame-pointer -mbranch-protection=pac-ret+leaf -fasynchronous-unwind-tables
variant arm-fp qemu-arm - $ARM -marm -O2 -fno-omit-frame-pointer -g -funwind-tables -DUNWIND_DEBUG_FRAME
variant arm-nofp qemu-arm - $ARM -marm -O2 -fomit-frame-pointer -g -funwind-tables -DUNWIND_DEBUG_FRAME
variant thumb-fp qemu-arm - $ARM -mthumb -O2 -fno-omit-frame-pointer -g -funwind-tables -DUNWIND_DEBUG_FRAME
variant thumb-nofp qemu-arm - $ARM -mthumb -O2 -fomit-frame-pointer -g -funwind-tables -DUNWIND_DEBUG_FRAME
variant thumb-O0 qemu-arm - $ARM -mthumb -O0 -g -funwind-tables -DUNWIND_DEBUG_FRAME
variant arm-exidx qemu-arm - $ARM -marm -O2 -fomit-frame-pointer -funwind-tables
variant thumb-exidx qemu-arm - $ARM -mthumb -O2 -fomit-frame-pointer -funwind-tables
# shellcheck disable=SC2086
$B/check $args > $B/check.txt; rc=$?
cat $B/check.txt
# the tables each variant was checked with (the checker names those it found)
for v in a64-fp:.eh_frame a64-pac:.eh_frame a64-debug-frame:.debug_frame arm-fp:.ARM.exidx arm-fp:.debug_frame \
         thumb-O0:.debug_frame thumb-nofp:.ARM.exidx arm-exidx:.ARM.exidx; do
    if [ -f $B/${v%%:*} ] && ! grep -q "^$B/${v%%:*}: .* ${v#*:} [0-9]* right" $B/check.txt; then
        echo "$B/${v%%:*}: not checked with ${v#*:}"; fail=1
    fi
done
for v in a64-debug-frame:.eh_frame arm-exidx:.debug_frame; do
    if grep -q "^$B/${v%%:*}: .* ${v#*:} [0-9]* right" $B/check.txt; then echo "$B/${v%%:*}: has ${v#*:}"; fail=1; fi
done
# the captures through perf.data files and the commands
PERFDATA=${PERFDATA:-build/asan/perfdata}
if [ -x "$PERFDATA" ]; then
    python3 tests/unwind_arch_perf.py "$PERFDATA" $B/check $B > $B/perf.txt; prc=$?
else
    echo "$PERFDATA: not built (make asan, or set PERFDATA)" > $B/perf.txt; prc=1
fi
cat $B/perf.txt
# one count for both: the checker's and the perf.data checks
counts() { # file: "passed failed" of its last count line (0 0 without one)
    sed -nE 's/^([0-9]+) passed, ([0-9]+) failed.*/\1 \2/p' "$1" | tail -n 1 | grep . || echo "0 0"
}
set -- $(counts $B/check.txt) $(counts $B/perf.txt)
f1=$2; f2=$4
if [ $rc -ne 0 ] && [ "$f1" -eq 0 ]; then f1=1; fi
if [ $prc -ne 0 ] && [ "$f2" -eq 0 ]; then f2=1; fi
echo "$(($1 + $3)) passed, $((f1 + f2 + fail)) failed"
[ $((f1 + f2 + fail)) -eq 0 ]
