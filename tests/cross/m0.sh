#!/bin/sh
# `make test-m0`: Cortex-M0 bare metal (clang --target=armv6m-none-eabi + lld,
# qemu-system-arm -M microbit, semihosting). Checks:
#  1. examples/baremetal/m0_samples.c builds, runs and exits 0 within 20 s;
#  2. its per-event sample counts equal the ones the host tool's dump gives
#     (tests/cross/m0_expected.py over build/perfdata);
#  3. freestanding gate: `llvm-nm -u` of an ARMv6-M object holding only the
#     implementation of perfdata.h (-O2 and -Os, with and without
#     PERFDATA_ZSTD) names only the run-time helpers the README documents
#     (HELPERS below; examples/baremetal/m0_rt.c supplies them): no libc
#     function, nothing new. Lists each helper and the functions calling it.
# Ends with "N passed, N failed".
cd "$(dirname "$0")/../.." || exit 2
B=build/m0
mkdir -p $B
NM=$(command -v llvm-nm-14 || command -v llvm-nm)
OBJDUMP=$(command -v llvm-objdump-14 || command -v llvm-objdump)
W="-std=c99 -Wall -Wextra -Wpedantic -Werror"
M0="clang --target=armv6m-none-eabi -mthumb $W -ffreestanding -nostdlib"
FILE=tests/data/two-events.data
passed=0; failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }

# 1+2. run the example (-Os as shipped, and -O0), compare with the host tool
python3 tests/cross/m0_expected.py build/perfdata $FILE > $B/want.txt || bad "expected counts from build/perfdata"
for O in -Os -O0; do
    elf=$B/m0_samples$O.elf
    if $M0 $O -fuse-ld=lld -Wl,-T,examples/baremetal/m0.ld -Wl,-e,reset_handler -Wl,--gc-sections \
           -ffunction-sections -fdata-sections -I. examples/baremetal/m0_samples.c examples/baremetal/m0_rt.c \
           -o $elf > $B/build.txt 2>&1; then
        ok "m0_samples $O builds (clang armv6m + lld)"
        if timeout 20 qemu-system-arm -M microbit -nographic -monitor none -serial none \
               -semihosting-config enable=on,target=native -kernel $elf > $B/run$O.txt 2>&1; then
            ok "m0_samples $O runs on qemu-system-arm microbit, exit 0"
        else
            bad "m0_samples $O run (exit $?)"
        fi
        sed 's/^/     /' $B/run$O.txt
        grep '^event ' $B/run$O.txt > $B/got$O.txt
        if [ -s $B/want.txt ] && cmp -s $B/got$O.txt $B/want.txt; then
            ok "m0_samples $O per-event sample counts = build/perfdata dump $FILE"
        else
            bad "m0_samples $O per-event sample counts differ from build/perfdata dump"; diff $B/want.txt $B/got$O.txt | sed 's/^/     /'
        fi
    else
        bad "m0_samples $O build"; sed 's/^/     /' $B/build.txt | tail -n 20
    fi
done

# 3. freestanding gate on the ARMv6-M object of the implementation alone.
# ARMv6-M has no 64-bit shifts or multiplies and no divide instruction, and
# clang turns 8-byte-aligned struct copies and zeroing into calls: these
# helpers come with every ARM toolchain's libgcc or compiler-rt.
HELPERS="__aeabi_llsl __aeabi_llsr __aeabi_lmul __aeabi_memclr8 __aeabi_memcpy8 __aeabi_uidiv __aeabi_uidivmod __aeabi_uldivmod"
for cfg in "-O2" "-Os" "-O2 -DPERFDATA_ZSTD" "-Os -DPERFDATA_ZSTD"; do
    printf '#define PERFDATA_IMPLEMENTATION\n#include "perfdata.h"\n' > $B/impl_only.c
    if $M0 $cfg -I. -c $B/impl_only.c -o $B/impl_only.o 2> $B/impl.txt; then
        $NM -u $B/impl_only.o | awk '{print $2}' > $B/undef.txt
        extra=""
        for sym in $(cat $B/undef.txt); do
            case " $HELPERS " in *" $sym "*) ;; *) extra="$extra $sym" ;; esac
        done
        if [ -z "$extra" ]; then
            ok "ARMv6-M implementation object ($cfg) needs only the documented helpers: $(tr '\n' ' ' < $B/undef.txt)"
        else
            bad "ARMv6-M implementation object ($cfg) needs undocumented symbols:$extra"
        fi
    else
        bad "ARMv6-M compile of the implementation ($cfg)"; tail -n 20 $B/impl.txt
    fi
done
# which functions call each helper: relocations inside each function's disassembly
$OBJDUMP -d -r --no-show-raw-insn $B/impl_only.o | awk '
    /^[0-9a-f]+ <[^$>][^>]*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
    /R_ARM_THM_CALL|R_ARM_THM_JUMP|R_ARM_ABS32/ { s = $NF; if (s ~ /^(__aeabi_|mem|__)/) seen[s] = seen[s] (index(seen[s], " " fn ",") ? "" : " " fn ",") }
    END { for (s in seen) { n = split(seen[s], a, ","); printf "     %s: %d functions\n", s, n - 1 } }' | sort
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
