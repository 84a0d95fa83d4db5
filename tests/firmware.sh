#!/bin/sh
# Firmware that profiles itself (examples/firmware/fw_profile.c): a Cortex-M0
# program under qemu-system-arm -M microbit samples its PC from SysTick and
# streams pipe-mode perf.data over semihosting with perfdata.h's writer.
#  1. it builds (clang armv6m + lld, two links: the second gives the program
#     its code's offset in the ELF file) and runs, exit 0, within 60 s;
#  2. with -icount the run is deterministic: two runs, the same bytes;
#  3. perfdata report --symfs and perf report --symfs (where perf is) name
#     hot_a, hot_b and hot_c with shares within 5 points of the designed
#     50/30/20; perfdata dump and perf report -D read every record;
#  4. the writer's size on ARMv6-M (-Os, --gc-sections) for a firmware that
#     only emits samples: the pipe-only writer without messages
#     (PERFDATA_WRITER_PIPE_ONLY, PERFDATA_NO_ERROR_STRINGS) at most 4 KiB,
#     the whole writer held to a budget (figures in docs/firmware.md).
# Usage: sh tests/firmware.sh PERFDATA_BINARY. Ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
TOOL=${1:-build/perfdata}
B=build/fw
mkdir -p $B/symfs
READELF=$(command -v llvm-readelf-14 || command -v llvm-readelf || command -v readelf)
SIZE=$(command -v llvm-size-14 || command -v llvm-size || command -v size)
EMITTER_BUDGET=5800   # bytes of .text of the whole writer (file and pipe modes, messages)
EMITTER_TARGET=4096   # ... of a pipe-only writer without messages, as a firmware builds it
M0="clang --target=armv6m-none-eabi -mthumb -Os -std=c99 -Wall -Wextra -Wpedantic -Werror -ffreestanding -nostdlib -fuse-ld=lld -Wl,-e,reset_handler -Wl,--gc-sections -ffunction-sections -fdata-sections -I."
FW="$M0 -Wl,-T,examples/firmware/fw.ld -Wl,--build-id=sha1 examples/firmware/fw_profile.c examples/baremetal/m0_rt.c"
passed=0; failed=0
ok() { echo "ok   $1"; passed=$((passed + 1)); }
bad() { echo "FAIL $1"; failed=$((failed + 1)); }
finish() { echo "$passed passed, $failed failed"; [ "$failed" -eq 0 ]; exit $?; }

# 1. build, twice
if ! $FW -Wl,--defsym=__fw_code_offset=0 -o $B/fw_profile.elf > $B/build.txt 2>&1; then
    bad "fw_profile builds"; sed 's/^/     /' $B/build.txt | tail -n 20; finish
fi
off=$($READELF -l $B/fw_profile.elf | awk '$1 == "LOAD" { print $2; exit }')
if [ -z "$off" ] || ! $FW -Wl,--defsym=__fw_code_offset=$off -o $B/fw_profile.elf > $B/build.txt 2>&1; then
    bad "fw_profile builds with its code offset ($off)"; sed 's/^/     /' $B/build.txt | tail -n 20; finish
fi
off2=$($READELF -l $B/fw_profile.elf | awk '$1 == "LOAD" { print $2; exit }')
[ "$off" = "$off2" ] && ok "fw_profile builds (code at file offset $off, the same in both links)" || bad "the code moved between the links: $off, $off2"
cp $B/fw_profile.elf $B/symfs/fw_profile.elf

# 2. run, twice
run() {
    rm -f $B/fw.data
    (cd $B && timeout 60 qemu-system-arm -M microbit -nographic -monitor none -serial none -icount shift=6 \
        -semihosting-config enable=on,target=native -kernel fw_profile.elf) > $B/run.txt 2>&1
}
if run && [ -s $B/fw.data ]; then
    ok "fw_profile runs on qemu-system-arm microbit and writes fw.data ($(wc -c < $B/fw.data) bytes)"
else
    bad "fw_profile run (exit $?)"; sed 's/^/     /' $B/run.txt | tail -n 10; finish
fi
cp $B/fw.data $B/fw-1.data
if run && cmp -s $B/fw.data $B/fw-1.data; then ok "two runs write the same bytes (-icount)"; else bad "two runs differ"; fi

# 3. the profile, read on the host
shares() { # report text on stdin: "hot_a hot_b hot_c" percentages
    awk '$NF == "hot_a" || $NF == "hot_b" || $NF == "hot_c" { sub(/%/, "", $1); p[$NF] = $1 }
         END { printf "%s %s %s\n", p["hot_a"], p["hot_b"], p["hot_c"] }'
}
near() { # "a b c": each within 5 points of 50 30 20
    echo "$1" | awk '{ if (NF != 3) exit 1; d1 = $1 - 50; d2 = $2 - 30; d3 = $3 - 20;
        if (d1 < -5 || d1 > 5 || d2 < -5 || d2 > 5 || d3 < -5 || d3 > 5) exit 1 }'
}
if $TOOL report --symfs $B/symfs $B/fw.data > $B/report.txt 2> $B/report-err.txt; then
    s=$(shares < $B/report.txt)
    if near "$s"; then ok "perfdata report names hot_a, hot_b, hot_c: $s% (designed 50 30 20)"
    else bad "perfdata report shares: '$s'"; sed 's/^/     /' $B/report.txt | tail -n 12; fi
else
    bad "perfdata report (exit $?)"; sed 's/^/     /' $B/report-err.txt
fi
if $TOOL dump $B/fw.data > /dev/null 2> $B/dump-err.txt && [ ! -s $B/dump-err.txt ]; then ok "perfdata dump reads every record"
else bad "perfdata dump"; sed 's/^/     /' $B/dump-err.txt; fi
if command -v perf > /dev/null 2>&1; then
    if perf report -i $B/fw.data --symfs $B/symfs --stdio > $B/perf.txt 2> $B/perf-err.txt; then
        s=$(shares < $B/perf.txt)
        if near "$s"; then ok "perf report names hot_a, hot_b, hot_c: $s% (designed 50 30 20)"
        else bad "perf report shares: '$s'"; sed 's/^/     /' $B/perf.txt | tail -n 12; fi
    else
        bad "perf report (exit $?)"; sed 's/^/     /' $B/perf-err.txt | tail -n 5
    fi
    if perf report -D -i $B/fw.data > $B/perf-d.txt 2>&1 && ! grep -q "failed to process\|Can't parse" $B/perf-d.txt; then
        ok "perf report -D reads every record ($(grep -c 'PERF_RECORD_SAMPLE' $B/perf-d.txt) samples)"
    else
        bad "perf report -D"; grep "failed\|Can't" $B/perf-d.txt | head -3 | sed 's/^/     /'
    fi
else
    echo "skip perf report of fw.data: perf not installed"
fi

# 4. the emitter's size: the whole writer, and the pipe-only one without messages
size_of() { # extra cflags: bytes the writer adds
    $M0 -Wl,-T,examples/baremetal/m0.ld $1 examples/firmware/emitter_size.c examples/baremetal/m0_rt.c -o $B/size0.elf > $B/size.txt 2>&1 &&
    $M0 -Wl,-T,examples/baremetal/m0.ld $1 -DWITH_EMITTER examples/firmware/emitter_size.c examples/baremetal/m0_rt.c -o $B/size1.elf >> $B/size.txt 2>&1 || return 1
    echo $(( $($SIZE $B/size1.elf | awk 'NR == 2 { print $1 }') - $($SIZE $B/size0.elf | awk 'NR == 2 { print $1 }') ))
}
if d=$(size_of ""); then
    [ "$d" -le "$EMITTER_BUDGET" ] && ok "sample-only emitter, the whole writer: $d bytes of ARMv6-M .text (-Os, --gc-sections; budget $EMITTER_BUDGET)" ||
        bad "sample-only emitter, the whole writer: $d bytes of ARMv6-M .text, over the budget of $EMITTER_BUDGET"
else
    bad "emitter size build"; sed 's/^/     /' $B/size.txt | tail -n 10
fi
if d=$(size_of "-DPERFDATA_WRITER_PIPE_ONLY -DPERFDATA_NO_ERROR_STRINGS"); then
    [ "$d" -le "$EMITTER_TARGET" ] && ok "sample-only emitter, pipe only, no messages: $d bytes of ARMv6-M .text (at most $EMITTER_TARGET)" ||
        bad "sample-only emitter, pipe only, no messages: $d bytes of ARMv6-M .text, over $EMITTER_TARGET"
else
    bad "emitter size build (PERFDATA_WRITER_PIPE_ONLY)"; sed 's/^/     /' $B/size.txt | tail -n 10
fi
finish
