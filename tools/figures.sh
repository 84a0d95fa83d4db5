#!/bin/sh
# tools/figures.sh - prints the figures quoted in docs/portability.md (markdown):
# code size of the implementation (x86-64 and Cortex-M0, -Os), what a minimal
# bare-metal "iterate samples" program keeps of it (--gc-sections), the largest
# stack frame of a public function (gcc -fstack-usage, x86-64 -O2), and the
# hosts and toolchains the portability suite runs on.
# Usage: sh tools/figures.sh   (or `make figures`); run from anywhere.
cd "$(dirname "$0")/.." || exit 2
B=build/figures
mkdir -p $B
NM=$(command -v llvm-nm-14 || command -v llvm-nm)
SIZE=$(command -v llvm-size-14 || command -v llvm-size)
printf '#define PERFDATA_IMPLEMENTATION\n#include "perfdata.h"\n' > $B/impl.c
text() { $SIZE -A "$1" | awk '$1 ~ /^\.text/ { s += $2 } END { print s + 0 }'; }
W="-std=c99 -ffreestanding -I."
M0="clang --target=armv6m-none-eabi -mthumb -ffreestanding -nostdlib"

echo "## Size and portability figures"
echo
echo "Measured by \`tools/figures.sh\` on $(date -u +%Y-%m-%d) from perfdata.h $(sed -n 's/^#define PERFDATA_VERSION_STRING "\(.*\)"/\1/p' perfdata.h)."
echo
echo "### Code size (.text, bytes, -Os)"
echo
echo "| build | .text |"
echo "|---|---|"
gcc $W -Os -c $B/impl.c -o $B/x64-gcc.o && echo "| whole library, x86-64, gcc $(gcc -dumpversion) | $(text $B/x64-gcc.o) |"
clang $W -Os -c $B/impl.c -o $B/x64-clang.o && echo "| whole library, x86-64, clang $(clang -dumpversion) | $(text $B/x64-clang.o) |"
$M0 -std=c99 -Os -I. -c $B/impl.c -o $B/m0.o && echo "| whole library, Cortex-M0 (Thumb-1), clang $(clang -dumpversion) | $(text $B/m0.o) |"
# the bare-metal example, linked with --gc-sections: what of the library it keeps
if $M0 -std=c99 -Os -fuse-ld=lld -Wl,-T,examples/baremetal/m0.ld -Wl,-e,reset_handler -Wl,--gc-sections \
       -ffunction-sections -fdata-sections -I. examples/baremetal/m0_samples.c examples/baremetal/m0_rt.c \
       -o $B/m0_samples.elf 2> $B/m0_build.txt; then
    $NM --print-size $B/m0_samples.elf > $B/m0_syms.txt
    symsum() { python3 -c "import re,sys
print(sum(int(f[1], 16) for f in (l.split() for l in open(sys.argv[1])) if len(f) == 4 and f[2] in 'tT' and re.match(sys.argv[2], f[3])))" $B/m0_syms.txt "$1"; }
    lib=$(symsum '^perfdata')
    rt=$(symsum '^(__aeabi|m0_)')
    nfun=$(awk 'NF == 4 && $3 ~ /[tT]/ && $4 ~ /^perfdata/' $B/m0_syms.txt | wc -l)
    echo "| Cortex-M0 \"iterate samples\" program (examples/baremetal, --gc-sections): library code kept | $lib ($nfun functions) |"
    echo "| the same program: compiler helpers it needs (__aeabi_* in m0_rt.c) | $rt |"
    echo "| the same program: whole flash image (code, strings, the embedded $(sed -n 's/^#define SAMPLE_DATA_SIZE \([0-9]*\)u/\1/p' examples/baremetal/sample_data.h)-byte perf.data) / RAM (.bss) | $(text $B/m0_samples.elf) / $($SIZE -A $B/m0_samples.elf | awk '$1 == ".bss" { print $2 }') |"
fi
echo
echo "### Stack"
echo
gcc -std=c99 -O2 -fstack-usage -I. -c $B/impl.c -o $B/su.o
# public functions: perfdata_* (internal helpers are perfdata__*)
echo "Largest stack frames of public functions (gcc $(gcc -dumpversion) -O2 -fstack-usage, x86-64; own frame, callees not included):"
echo
awk -F'\t' '{ n = $1; sub(/.*:/, "", n); if (n ~ /^perfdata_[^_]/ || n ~ /^perfdata_$/) print $2 "\t" n "\t" $3 }' $B/su.su 2>/dev/null \
    | sort -rn | head -5 | awk -F'\t' '{ printf "- `%s`: %s bytes (%s)\n", $2, $1, $3 }'
echo
echo "### Where the suite runs"
echo
echo "| target | how | make target |"
echo "|---|---|---|"
echo "| x86-64 Linux (host: $(. /etc/os-release 2>/dev/null; echo "$PRETTY_NAME"), $(uname -m)) | gcc $(gcc -dumpversion), clang $(clang -dumpversion); ASan+UBSan | \`make test\` |"
echo "| i386 (32-bit LE) | gcc -m32, native; plain and ASan+UBSan | \`make test-cross\` |"
q=$(qemu-s390x --version 2>/dev/null | head -n 1 | sed 's/.*version \([^ ]*\).*/\1/')
echo "| s390x (64-bit BE) | $(s390x-linux-gnu-gcc -dumpversion 2>/dev/null | sed 's/^/s390x-linux-gnu-gcc /') -static, qemu-s390x ${q}; plus gcc UBSan | \`make test-cross\` |"
echo "| mips o32 (32-bit BE, traps on misaligned loads) | $(mips-linux-gnu-gcc -dumpversion 2>/dev/null | sed 's/^/mips-linux-gnu-gcc /') -static, qemu-mips ${q}; plus UBSan trap mode | \`make test-cross\` |"
qs=$(qemu-system-arm --version 2>/dev/null | head -n 1 | sed 's/.*version \([^ ]*\).*/\1/')
echo "| Cortex-M0 bare metal (BBC micro:bit) | clang $(clang -dumpversion) --target=armv6m-none-eabi + lld, qemu-system-arm ${qs} -M microbit, semihosting | \`make test-m0\` |"
echo "| compile matrix | gcc, clang x C99, C11, C17, C2x, C++11, C++20 x -O0, -O2, -Os | \`make test-matrix\` |"
