#!/bin/sh
# i386_runner.sh - how i386 programs run here, and under which sanitizers.
# Builds two trivial programs with the i386 compiler, one with ASan, and runs
# them. Prints one line, MODE SAN [PREFIX...], and exits 0:
#   MODE    native: the kernel runs i386 programs itself; qemu: it cannot
#           (Exec format error), they run under qemu-user's qemu-i386
#   SAN     asan: ASan works through PREFIX (it caught the probe's
#           one-past-the-end write), build with -fsanitize=address,undefined;
#           ubsan: it does not, or the programs run under qemu, where ASan
#           aborts instead of failing an allocation once the 32-bit address
#           space runs out; build with -fsanitize=undefined only
#   PREFIX  the command to put before an i386 program: nothing natively;
#           under qemu, qemu-i386 [-L DIR], after
#           env ASAN_OPTIONS=detect_leaks=0 when SAN is asan (LeakSanitizer
#           hangs under qemu-user)
# e.g. "native asan", "qemu asan env ASAN_OPTIONS=detect_leaks=0 qemu-i386",
# "qemu ubsan qemu-i386". When i386 programs cannot be built or run, prints
# the reason and exits 1; on a PD_I386_RUNNER it does not know, exits 2.
#
#   PD_I386_RUNNER=native|qemu|qemu-ubsan   force a mode (still checked: a
#                  mode that cannot run is the reason, exit 1); qemu-ubsan
#                  also skips ASan, as where ASan does not run under qemu
#   PD_I386_CC="gcc -m32 ..."   the compiler (default: as tests/cross/cross.sh)
#
# Toolchain: libc6-dev-i386 lib32gcc-12-dev (never gcc-multilib); qemu-user
# for qemu-i386 (sh tests/cross/install.sh installs them).
cc=${PD_I386_CC:-gcc -m32 -msse2 -mfpmath=sse -isystem /usr/include/x86_64-linux-gnu}
want=${PD_I386_RUNNER:-auto}
case $want in
auto | native | qemu | qemu-ubsan) ;;
*) echo "PD_I386_RUNNER=$want: expected native, qemu or qemu-ubsan"; exit 2 ;;
esac

dir=$(mktemp -d "${TMPDIR:-/tmp}/i386_runner.XXXXXX") || { echo "mktemp failed"; exit 1; }
trap 'rm -rf "$dir"' EXIT
# prints 4 (only a 32-bit build does); given an argument, writes one byte
# past the end of a heap block, which ASan must report
cat > "$dir/t.c" << 'EOF'
#include <stdio.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    volatile char *p = (volatile char *)malloc(4);
    (void)argv;
    if (!p) return 2;
    p[argc + 2] = 1;
    printf("%d\n", (int)sizeof(void *));
    free((void *)p);
    return 0;
}
EOF
# the line of a compiler's log that says what went wrong
why_build() { grep -v collect2 "$dir/build.log" | grep -m 1 -E 'error|cannot find|undefined reference' || head -n 1 "$dir/build.log"; }
# shellcheck disable=SC2086
if ! $cc "$dir/t.c" -o "$dir/t" > "$dir/build.log" 2>&1; then
    echo "$cc cannot build a program ($(why_build); sh tests/cross/install.sh installs libc6-dev-i386 lib32gcc-12-dev)"
    exit 1
fi
runs() { # [PREFIX...]: the program runs and says it is 32-bit
    out=$("$@" "$dir/t" 2> "$dir/run.log")
    [ "$out" = 4 ] && return 0
    [ -s "$dir/run.log" ] || echo "it printed \"$out\", not 4" > "$dir/run.log"
    return 1
}

mode=''; prefix=''; note=''; aprefix=''
if [ "$want" = auto ] || [ "$want" = native ]; then
    if runs; then
        mode=native
    else
        why="this kernel cannot run i386 programs ($(head -n 1 "$dir/run.log"))"
        if [ "$want" = native ]; then echo "$why"; exit 1; fi
    fi
else
    why="PD_I386_RUNNER=$want"
fi
if [ -z "$mode" ]; then
    if ! command -v qemu-i386 > /dev/null 2>&1; then
        echo "$why; qemu-i386 is not installed (qemu-user; sh tests/cross/install.sh)"
        exit 1
    fi
    if runs qemu-i386; then
        prefix=qemu-i386
    else
        # the i386 loader and libraries elsewhere than the host's /lib32 and /lib
        for root in /usr/i686-linux-gnu /usr/i386-linux-gnu; do
            if [ -d "$root" ] && runs qemu-i386 -L "$root"; then prefix="qemu-i386 -L $root"; break; fi
        done
    fi
    if [ -z "$prefix" ]; then
        echo "$why; qemu-i386 cannot run it either ($(head -n 1 "$dir/run.log"))"
        exit 1
    fi
    mode=qemu
fi

# ASan: it builds, a clean run passes and the overflow is reported
san=ubsan
if [ "$want" = qemu-ubsan ]; then
    note="PD_I386_RUNNER=qemu-ubsan"
elif [ "$mode" = qemu ]; then
    # ASan's allocator under qemu-user fails its own CHECK (AddrIsInMem)
    # where the 32-bit address space runs out, instead of failing the
    # allocation: inputs that ask for large buffers abort there
    note="ASan under qemu-i386 aborts where the address space runs out"
elif [ "$mode" = native ]; then
    aprefix=
else
    aprefix="env ASAN_OPTIONS=detect_leaks=0 $prefix"
fi
# shellcheck disable=SC2086
if [ -n "$note" ]; then
    :
elif ! $cc -fsanitize=address "$dir/t.c" -o "$dir/ta" > "$dir/build.log" 2>&1; then
    note="no i386 ASan runtime ($(why_build))"
elif [ "$(timeout 60 $aprefix "$dir/ta" 2> "$dir/run.log")" != 4 ]; then
    note="an ASan program does not run${aprefix:+ under $prefix} ($(head -n 1 "$dir/run.log"))"
elif timeout 60 $aprefix "$dir/ta" overflow > /dev/null 2> "$dir/run.log" || ! grep -q 'AddressSanitizer: heap-buffer-overflow' "$dir/run.log"; then
    note="ASan misses a heap overflow${aprefix:+ under $prefix} ($(grep -m 1 . "$dir/run.log"))"
else
    san=asan
    prefix=$aprefix
fi
[ -n "$note" ] && echo "i386_runner.sh: UBSan only: $note" >&2
echo "$mode $san${prefix:+ $prefix}"
exit 0
