#!/bin/sh
# The test runner behind `make test`. Each step either prints its own
# "N passed, N failed[, N skipped]" line (those counts are added up) or
# counts as one check. A step that cannot run here (a tool or ../shared
# missing) prints "skip" with the reason and counts as one skip, never as a
# pass. Ends with the total line "N passed, N failed[, N skipped]".
#
#   sh tests/run.sh             every step (what `make test` runs)
#   sh tests/run.sh NAME...     only the steps whose name contains one of
#                               the NAMEs, e.g. `sh tests/run.sh collapse`
#                               or `sh tests/run.sh "dump = perf"`
#
# Build the tools first (`make && make asan`): a filtered run does not.
# The C unit tests take name filters too: build/test/test_core iter_ sample_
# runs only the tests whose function name contains one of them.
cd "$(dirname "$0")/.." || exit 2
CC=${CC:-cc}
CORPUS=${CORPUS:-../shared/corpus}
WARN="-std=c99 -Wall -Wextra -Wpedantic -Werror"
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
B=build/test
mkdir -p $B
passed=0; failed=0; skipped=0; steps=0
log=$B/log.txt; : > $log

wanted() { # step name: is it selected by the NAME arguments?
    [ $# -gt 0 ] || return 1
    [ -z "$FILTERS" ] && return 0
    for f in $FILTERS; do
        case $1 in *"$(echo "$f" | tr '\037' ' ')"*) return 0 ;; esac
    done
    return 1
}
# the NAME arguments, spaces inside one kept as \037
FILTERS=
for a in "$@"; do FILTERS="$FILTERS $(printf '%s' "$a" | tr ' ' '\037')"; done

count() { # step name, command...: run, add its counts or 1 pass/fail
    name=$1; shift
    wanted "$name" || return 0
    steps=$((steps + 1))
    out=$B/out.txt
    if "$@" > $out 2>&1; then rc=0; else rc=$?; fi
    line=$(grep -E '^[A-Za-z]*:? ?[0-9]+ passed, [0-9]+ failed' $out | tail -n 1)
    if [ -n "$line" ]; then
        p=$(echo "$line" | sed -E 's/^[^0-9]*([0-9]+) passed.*/\1/'); f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
        s=$(echo "$line" | sed -nE 's/.* ([0-9]+) skipped.*/\1/p')
        passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + ${s:-0}))
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi
    elif [ "$rc" -eq 0 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
    if [ "$rc" -eq 0 ]; then echo "ok   $name ${line:+($line)}"; else echo "FAIL $name ${line:+($line)}"; sed 's/^/     /' $out | tail -n 25; fi
    cat $out >> $log
}
skip() {
    wanted "$1" || return 0
    steps=$((steps + 1))
    echo "skip $1: $2"; skipped=$((skipped + 1))
}

# 1. unit tests on synthetic buffers, both byte orders, C and C++, sanitized
count "core tests (C, ASan+UBSan)" sh -c "$CC $WARN -g $SAN -I. tests/test_core.c -o $B/test_core && $B/test_core"
count "core tests (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -g -I. tests/test_core.c -o $B/test_core_cxx && $B/test_core_cxx"
count "feature decoders (C, ASan+UBSan)" sh -c "$CC $WARN -g $SAN -I. tests/test_features.c -o $B/test_features && $B/test_features"
count "feature decoders (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -g -I. tests/test_features.c -o $B/test_features_cxx && $B/test_features_cxx"
count "writer: what it writes reads back as given (file and pipe, both byte orders, every sample field), samples rewritten in the other order; every buffer size leaves whole records; failing sinks; bad arguments (C, ASan+UBSan)" sh -c "$CC $WARN -g $SAN -I. tests/test_writer.c -o $B/test_writer && $B/test_writer"
count "writer (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -g -I. tests/test_writer.c -o $B/test_writer_cxx && $B/test_writer_cxx"
count "event names as perf 6.1 builds them" sh -c "$CC $WARN -g $SAN -I. tests/test_names.c -o $B/test_names && $B/test_names \$(find tests/data -name '*.data' -type f | sort) \$( [ -d $CORPUS/recorded ] && find $CORPUS/recorded -name '*.data' -type f | sort)"
count "reorder window: grown on demand = sized by the hint" sh -c "$CC $WARN -g -O1 $SAN -I. tests/test_order.c -o $B/test_order && $B/test_order \$(find tests/data -name '*.data' -type f | sort) \$( [ -d $CORPUS/recorded ] && find $CORPUS/recorded -name '*.data' -type f | sort)"
count "perfdata_reader: records pushed in pieces of 1 byte to 1 MiB = the whole buffer's, plain and in time order; memory handed back (ASan+UBSan)" sh -c "$CC $WARN -g -O1 $SAN -I. tests/test_reader.c -o $B/test_reader && $B/test_reader \$(find tests/data -name '*.data' -type f | sort) \$( [ -d $CORPUS ] && find $CORPUS -type f \\( -name '*.data' -o -name '*.perf' -o -name 'perf.data*' \\) ! -name '*.xz' -size -32M | sort)"
count "ELF resolver (gcc and clang, ASan+UBSan; C++)" sh tests/test_elf.sh
count "DWARF (2, 4, 5; 32- and 64-bit; both byte orders; zlib and zstd sections): lines = binutils addr2line at every third .text address (and of libc6-dbg's ld.so and libc), functions and inline chains = llvm-addr2line at every address the debug information holds (ASan+UBSan; compiles as C++; the unwinder too, and freestanding)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -I. -Itools -c tools/pd_dwarf.c -o $B/pd_dwarf_cxx.o && c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -Itools -c tools/pd_inflate.c -o $B/pd_inflate_cxx.o && c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -Itools -c tools/pd_unwind.c -o $B/pd_unwind_cxx.o && $CC $WARN -ffreestanding -Itools -c tools/pd_unwind.c -o $B/pd_unwind_freestanding.o && $CC $WARN -D_GNU_SOURCE -g -O1 $SAN -I. -Itools tests/dwarf_lines_cli.c tools/pd_dwarf.c tools/pd_elf.c tools/pd_inflate.c tools/pd_intern.c -o $B/dwarf_lines_cli && $CC $WARN -D_GNU_SOURCE -g -O1 $SAN -I. -Itools tests/dwarf_frames_cli.c tools/pd_dwarf.c tools/pd_elf.c tools/pd_inflate.c tools/pd_demangle.c tools/pd_intern.c -o $B/dwarf_frames_cli && python3 tests/dwarf_test.py $B/dwarf_lines_cli $B/dwarf_frames_cli"
count "zlib inflate (compressed debug sections) = zlib and the bit-at-a-time decoder it replaced: every level and strategy, every SHF_COMPRESSED zlib section of /usr/lib/debug and of workload.c -g (64, 32-bit), streams with incomplete, over-subscribed and 15-bit codes, truncated and bit-flipped streams, cap too small, no buffer (ASan+UBSan)" sh tests/inflate_test.sh
step="aarch64 and arm32 unwinding: every sample of programs run under qemu-user unwinds to a path of their call graph (.eh_frame, .debug_frame, .ARM.exidx; frame pointers or not; ARM, Thumb; pointer authentication), crafted EHABI tables (ASan+UBSan)"
if command -v clang >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 && command -v qemu-aarch64 >/dev/null 2>&1 && command -v qemu-arm >/dev/null 2>&1; then count "$step" sh tests/unwind_arch.sh; else skip "$step" "clang, ld.lld, qemu-aarch64 or qemu-arm not installed"; fi
count "FDE index: lookups through pd_cfi_index = a pass over .eh_frame (no .eh_frame_hdr) and .debug_frame, on the unwinding fixtures' workloads, libc, ld.so, perfdata and the aarch64/arm test programs (ASan+UBSan)" sh -c "$CC $WARN -D_GNU_SOURCE -g -O1 $SAN -I. -Itools tests/cfi_index_test.c tools/pd_unwind.c tools/pd_elf.c -o $B/cfi_index_test && for w in unwind-c unwind-cxx libuwfix.so cxx-workload; do xz -dc tests/data/\$w.xz > $B/cfi-\$w || exit 1; done && $B/cfi_index_test $B/cfi-unwind-c $B/cfi-unwind-cxx $B/cfi-libuwfix.so $B/cfi-cxx-workload build/perfdata \$(ls /lib/x86_64-linux-gnu/libc.so.6 /lib64/ld-linux-x86-64.so.2 $B/unwind_arch/a64-debug-frame $B/unwind_arch/arm-fp $B/unwind_arch/thumb-nofp 2>/dev/null)"
count "demangling = c++filt (libstdc++, the C++ and Rust fixtures' workloads, a table) and perf 6.1's names; hostile names (ASan+UBSan; compiles as C++)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -Itools -c tools/pd_demangle.c -o $B/pd_demangle_cxx.o && $CC $WARN -g -O1 $SAN -Itools tests/demangle_cli.c tools/pd_demangle.c -o $B/demangle_cli && python3 tests/demangle_test.py $B/demangle_cli"
count "tracepoint formats (C, ASan+UBSan)" sh -c "$CC $WARN -g $SAN -I. tests/test_tracing.c -o $B/test_tracing && $B/test_tracing \$(find tests/data -name '*.data' -type f | sort) \$( [ -d $CORPUS ] && find $CORPUS -type f \\( -name '*.data' -o -name 'perf.data*' -o -name 'probe.data.*' \\) ! -name '*.xz' ! -name '*.txt' -size -32M | sort)"
count "tracepoint formats (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -g -I. tests/test_tracing.c -o $B/test_tracing_cxx && $B/test_tracing_cxx \$(find tests/data -name '*.data' -type f | sort)"
count "tracepoint trace text = perf script's (C, ASan+UBSan)" sh -c "$CC $WARN -D_GNU_SOURCE -g $SAN -I. -Itools tests/test_tpfmt.c -o $B/test_tpfmt && if [ -d $CORPUS ]; then $B/test_tpfmt --corpus $CORPUS; else $B/test_tpfmt; fi"
count "tracepoint trace text (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -g -I. -Itools tests/test_tpfmt.c -o $B/test_tpfmt_cxx && $B/test_tpfmt_cxx"
count "process state: persistent maps, kernel symbols, keyed hashes (C, ASan+UBSan)" sh -c "$CC $WARN -D_GNU_SOURCE -g $SAN -I. -Itools tests/test_state.c -o $B/test_state && $B/test_state"
count "process state (C++11)" sh -c "c++ -x c++ -std=c++11 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -g -I. -Itools tests/test_state.c -o $B/test_state_cxx && $B/test_state_cxx"
count "ABI constants vs <linux/perf_event.h>" sh -c "$CC $WARN -I. tests/test_abi_constants.c -o $B/test_abi && $B/test_abi"

# hostile input: truncations, flips and hostile size/count fields, fully
# decoded under ASan+UBSan with a hang check
count "mutation sweep over tests/data (ASan+UBSan)" sh -c "$CC $WARN -g -O1 $SAN -I. tests/mutate.c -o $B/mutate && $B/mutate \$(find tests/data -type f -name '*.data' | sort)"
if [ -d "$CORPUS" ]; then
    count "mutation sweep over corpus files under 64 KiB (ASan+UBSan)" sh -c "$CC $WARN -g -O1 $SAN -I. tests/mutate.c -o $B/mutate && $B/mutate \$(find $CORPUS -type f -size -64k ! -name '*.xz' ! -name '*.txt' ! -name '*.json' ! -name '*.md' ! -name '*.c' ! -name '*.py' ! -name '*.sh' ! -name '*.tsv' ! -name '*.buildids' ! -name workload | sort)"
else
    skip "mutation sweep over corpus files under 64 KiB (ASan+UBSan)" "$CORPUS not found"
fi

count "crafted worst cases for the process state and hashes: 10 s, 1 s of CPU, 256 MB each (release build)" python3 tests/state_limits.py build/perfdata
count "resource contract: every command on worst-case inputs of <= 1 MB within 10 s and 256 MB (release build)" python3 tests/contract.py build/perfdata
count "streaming: CMD - as the stream arrives, equal to the saved file, first record before the writer ends, <= 64 MB on a 1 GiB stream (release build)" python3 tests/stream.py build/perfdata build/test/stream
count "every tests/hostile input through every command (ASan build)" python3 tests/hostile_run.py build/asan/perfdata build/perfdata

count "info on hostile feature sections: tests/hostile/info-*, and 1 MB inputs against time and output (ASan build)" python3 tests/hostile_info.py build/asan/perfdata
count "fuzz targets replay their corpora and tests/hostile (ASan+UBSan)" make -s fuzz-replay
# the same through gcc -m32: natively, or under qemu-i386 where this kernel
# cannot run i386 programs; ASan+UBSan where ASan runs, else UBSan only
# (tests/cross/i386_runner.sh; PD_I386_RUNNER=native|qemu|qemu-ubsan forces one)
step="fuzz targets replay their corpora and tests/hostile on i386"
if wanted "$step"; then
    if r=$(sh tests/cross/i386_runner.sh 2>/dev/null); then rc=0; else rc=$?; fi
    if [ $rc -eq 0 ]; then
        case $r in "native asan"*) m="native, ASan+UBSan" ;; native*) m="native, UBSan only" ;;
        "qemu asan"*) m="under qemu-i386, ASan+UBSan" ;; *) m="under qemu-i386, UBSan only" ;; esac
        count "$step ($m)" make -s fuzz-replay-i386
    elif [ $rc -eq 1 ]; then
        skip "$step" "$r"
    else
        count "$step" sh tests/cross/i386_runner.sh
    fi
fi
count "hostile filesystem: devices, FIFOs, sockets and .. in recorded paths, --threads dirs, --csv outputs (ASan build)" python3 tests/hostile_fs.py build/asan/perfdata
count "script's fuzz findings in tests/hostile are what tests/hostile/gen_script.py makes" python3 tests/hostile/gen_script.py --check
count "hostile names: no comm, file, symbol, event name or tracepoint payload forges output structure (ASan build)" python3 tests/hostile_text.py build/asan/perfdata
count "zstd decoder = zstd -d, byte for byte (quick set; full: sh zstd/test_zstd.sh)" sh zstd/test_zstd.sh --quick

# 2. compile gates
count "header compiles as C99/C11/C17, gcc and clang, -Wshadow, with and without PERFDATA_ZSTD" sh -c "for d in -DPERFDATA_NONE -DPERFDATA_ZSTD; do for c in gcc clang; do for s in c99 c11 c17; do \$c -std=\$s -Wall -Wextra -Wpedantic -Wshadow -Werror \$d -I. -c tests/compile_impl.c -o $B/impl.o || exit 1; done; done; done"
count "header compiles as C++11 and C++20, with and without PERFDATA_ZSTD" sh -c "for d in -DPERFDATA_NONE -DPERFDATA_ZSTD; do for s in c++11 c++20; do g++ -x c++ -std=\$s -Wall -Wextra -Wpedantic -Werror \$d -I. -c tests/compile_impl.c -o $B/implxx.o || exit 1; clang++ -x c++ -std=\$s -Wall -Wextra -Wpedantic -Werror \$d -I. -c tests/compile_impl.c -o $B/implxx.o || exit 1; done; done"
count "included twice; two units with PERFDATA_STATIC" sh -c "$CC $WARN -I. tests/compile_static_a.c tests/compile_static_b.c -o $B/static2"
count "PERFDATA_NO_ERROR_STRINGS: codes kept, messages empty" sh -c "$CC $WARN -I. tests/compile_noerr.c -o $B/noerr && $B/noerr"
count "freestanding object has no undefined symbols (also with PERFDATA_ZSTD; gcc and clang, -O1 to -O3, -Os)" sh -c "for cc in $CC \$(command -v clang); do for o in -O1 -O2 -O3 -Os; do for d in -DPERFDATA_NONE -DPERFDATA_ZSTD; do \$cc $WARN \$o -ffreestanding -nostdlib \$d -I. -c tests/compile_impl.c -o $B/fs.o && test -z \"\$(nm -u $B/fs.o)\" || { echo \"\$cc \$o \$d: \$(nm -u $B/fs.o)\"; exit 1; }; done; done; done"
count "examples compile" sh -c "for e in examples/*.c; do $CC $WARN -I. \$e -o $B/\$(basename \$e .c) || exit 1; done"
count "README quick start is examples/quickstart.c" python3 tests/check_quickstart.py
count "API reference is current; tools and examples touch only public fields" python3 tests/api_reference.py --check docs/reference.md
count "quickstart runs on a fixture" sh -c "$CC $WARN -I. examples/quickstart.c -o $B/quickstart && $B/quickstart tests/data/callchain-fp.data | grep -q '^pid '"
count "features example names host, kernel and events" sh -c "$CC $WARN -I. examples/features.c -o $B/features && $B/features tests/data/two-events.data | grep -q '^event 1 *page-faults' && $B/features tests/data/pipe.data | grep -q '^host'"
count "compressed example: as many samples inside the chunks as perf finds" sh -c "$CC $WARN -I. examples/compressed.c -o $B/compressed && for f in tests/data/zstd.data tests/data/pipe-zstd.data; do n=\$(xz -dc \$f.dump.xz | grep -c 'PERF_RECORD_SAMPLE'); $B/compressed \$f | grep -q \", \$n samples\$\" || exit 1; done"
count "compressed example, giving exactly the memory the reader asks for, reads every pipe without running out" sh -c "$CC $WARN -I. examples/compressed.c -o $B/compressed && for f in \$(find tests/data $CORPUS -name '*pipe*' -type f ! -name '*.xz' ! -name '*.txt' 2>/dev/null | sort); do timeout 60 $B/compressed \$f > /dev/null 2> $B/compressed-err.txt; rc=\$?; if [ \$rc -gt 1 ] || grep -q 'out of memory' $B/compressed-err.txt; then echo \"\$f: exit \$rc\"; cat $B/compressed-err.txt; exit 1; fi; done"
count "ordered example: comm and mmaps in time order" sh -c "$CC $WARN -I. examples/ordered.c -o $B/ordered && $B/ordered tests/data/tasks.data > $B/ordered.txt && grep -q 'comm .* workload' $B/ordered.txt && awk '\$1 != 0 { if (\$1 < last) exit 1; last = \$1 }' $B/ordered.txt"

# portability: the compile matrix always; the unit tests on big-endian and
# 32-bit hosts (s390x, mips under qemu-user; i386) when the toolchains are
# installed (tests/cross/install.sh; .ci/run installs them)
count "compile matrix: gcc/clang x C99..C2x, C++11/20 x -O0/-O2/-Os, strict warnings" sh tests/cross/matrix.sh
if command -v s390x-linux-gnu-gcc >/dev/null 2>&1 && command -v mips-linux-gnu-gcc >/dev/null 2>&1 && command -v qemu-s390x >/dev/null 2>&1; then
    count "unit and differential tests on s390x, mips (big-endian) and i386" sh tests/cross/cross.sh
else
    skip "unit and differential tests on s390x, mips (big-endian) and i386" "cross toolchains not installed (sh tests/cross/install.sh)"
fi
if command -v qemu-system-arm >/dev/null 2>&1 && command -v ld.lld >/dev/null 2>&1 && command -v clang >/dev/null 2>&1; then
    count "Cortex-M0 bare metal under qemu-system-arm, and the ARMv6-M helper gate" sh tests/cross/m0.sh
    count "firmware that profiles itself: a Cortex-M0 program streams pipe-mode perf.data of its own PC samples over semihosting; perf report and perfdata report name its hot functions at their designed shares" sh tests/firmware.sh build/perfdata
else
    skip "Cortex-M0 bare metal under qemu-system-arm, and the ARMv6-M helper gate" "qemu-system-arm, lld or clang not installed (sh tests/cross/install.sh)"
    skip "firmware that profiles itself: a Cortex-M0 program streams pipe-mode perf.data of its own PC samples over semihosting; perf report and perfdata report name its hot functions at their designed shares" "qemu-system-arm, lld or clang not installed (sh tests/cross/install.sh)"
fi

# static analysis and valgrind: clean, or the step fails
if command -v cppcheck >/dev/null 2>&1 && command -v clang-tidy >/dev/null 2>&1; then
    count "static analysis: cppcheck, clang-tidy (analyzer, bugprone), gcc -fanalyzer" sh tests/analyze.sh
else
    skip "static analysis: cppcheck, clang-tidy (analyzer, bugprone), gcc -fanalyzer" "cppcheck or clang-tidy not installed"
fi
if command -v valgrind >/dev/null 2>&1; then
    count "valgrind memcheck over the tools on tests/data" sh tests/valgrind.sh build/perfdata
    count "valgrind memcheck over the process-state tests (reference counts, leaks)" sh -c "$CC $WARN -D_GNU_SOURCE -g -O1 -I. -Itools tests/test_state.c -o $B/test_state_vg && valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite $B/test_state_vg"
else
    skip "valgrind memcheck over the tools on tests/data" "not installed"
    skip "valgrind memcheck over the process-state tests (reference counts, leaks)" "not installed"
fi
if command -v clang >/dev/null 2>&1 && echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }' | clang -x c -fsanitize=fuzzer - -o $B/has_libfuzzer 2>/dev/null; then
    count "fuzz smoke: every libFuzzer target for ${FUZZ_SMOKE_SECONDS:-15} s" make -s fuzz FUZZ_SECONDS=${FUZZ_SMOKE_SECONDS:-15}
else
    skip "fuzz smoke: every libFuzzer target for ${FUZZ_SMOKE_SECONDS:-15} s" "clang with libFuzzer not installed"
fi

# 3. the command as a user meets it (errors, stdin, FIFO, options, 100 MB RSS)
count "perfdata command line (ASan build for the chunk-buffer checks)" python3 tests/tool_cli.py build/perfdata $B/cli build/asan/perfdata
count "perf's command-line conventions; report's filters = perf report's (ASan build)" python3 tests/cli_conventions.py build/asan/perfdata

# 4. differential tests against perf's own output
count "dump = perf report -D on tests/data fixtures" python3 tests/dump_diff.py build/perfdata tests/data
count "dump = perf report -D on tests/data (ASan build)" python3 tests/dump_diff.py build/asan/perfdata tests/data
count "big-endian copies of tests/data dump as perf dumps the originals" sh tests/byte_order.sh build/perfdata $B/be tests/data
count "dump --ordered = perf's delivery order on tests/data" python3 tests/order_diff.py build/perfdata tests/data
count "stat = perf's Aggregated stats on tests/data" python3 tests/stat_diff.py build/perfdata tests/data
count "report = perf report --stdio on tests/data (workload entries, 0.01%)" python3 tests/report_diff.py build/perfdata tests/data
count "collapse = folding of perf script's callchains" python3 tests/collapse_diff.py build/perfdata --expect tests/expected/collapse.txt tests/data
count "report = perf report --stdio on tests/data (ASan build)" python3 tests/report_diff.py build/asan/perfdata tests/data
count "collapse = folding of perf script's callchains (ASan build)" python3 tests/collapse_diff.py build/asan/perfdata --expect tests/expected/collapse.txt tests/data
count "-z chunks decompressed ahead in threads of their own (-j 4) = -j 1 (dump, dump --ordered, report, script, collapse; output, messages, exit status) on crafted -z files: whole frames, a frame cut anywhere, damaged frames and blocks, a chunk past the reader's room, runs of 4 MiB, a cut record, an AUXTRACE payload before the chunks, --threads directories (each data.N a stream of its own; one damaged); both byte orders" python3 tests/zahead_same.py build/perfdata $B/zahead
count "-z chunks decoded ahead, below the command line: perf's one frame through every chunk is decoded in turn by one helper; the reader taking over from it decodes again what it took, in a --threads directory that part's alone, and sets a decoder up afresh at the next part; the walk steps over AUXTRACE payloads as the reader does (C, ASan+UBSan)" sh -c "$CC $WARN -D_GNU_SOURCE -g -pthread $SAN -I. -Itools tests/test_zahead.c -o $B/test_zahead && $B/test_zahead"
count "collapse with names put off until the read-ahead thread has them, and a bound of 2 reached (ASan+UBSan) = collapse -j 1 on every call-graph fixture" sh tests/collapse_pending.sh build/perfdata $B tests/data
count "flamegraph = flamegraph.pl --hash: every frame's name, x, width, depth on tests/data and hand-made folded stacks, with the options; --diff = difffolded.pl | flamegraph.pl, colours included; well-formed XML whatever the names" python3 tests/flamegraph_diff.py build/perfdata tests/data
count "flamegraph on tests/data (ASan build)" python3 tests/flamegraph_diff.py build/asan/perfdata tests/data
step="flamegraph in a browser (headless Chromium through ChromeDriver): hover shows the title, a click zooms (callers full width, the rest hidden), Reset Zoom, search marks the matches and gives their share, ic ignores case"
if command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1; then
    count "$step" sh -c "xz -dc tests/data/sys-g.data.xz > $B/sys-g.data && python3 tests/flamegraph_browser.py build/perfdata tests/data/cxx-g.data $B/sys-g.data"
else
    skip "$step" "chromium or chromedriver not installed (Debian: chromium chromium-driver)"
fi
if [ -d "$CORPUS" ]; then
    count "flamegraph = flamegraph.pl --hash on ../shared/corpus" python3 tests/flamegraph_diff.py build/perfdata --quick "$CORPUS"
else
    skip "flamegraph = flamegraph.pl --hash on ../shared/corpus" "no $CORPUS"
fi
count "collapse --kernel and stat --csv on tests/data (ASan build): exit 0, nothing from the sanitizers" sh -c "for f in tests/data/*.data; do build/asan/perfdata collapse --kernel \$f > /dev/null 2> $B/asan-err.txt && build/asan/perfdata stat --csv $B \$f > /dev/null 2>> $B/asan-err.txt || { echo \"\$f: exit status \$?\"; cat $B/asan-err.txt; exit 1; }; if grep -E 'runtime error|Sanitizer|ERROR: ' $B/asan-err.txt; then echo \"\$f: sanitizer output\"; exit 1; fi; done"
count "report --children = perf report --children -g none (live): the call-chain fixtures, the system-wide ones under 14 sort orders, -n, --percent-limit, --comm; pipes through their file-mode twins for perf; no call chains: the Self view (ASan build)" python3 tests/children_diff.py build/asan/perfdata
count "diff = perf diff (live), byte for byte: every pair of the workload fixtures, the system-wide ones (pipes through their file-mode twins); the command line (ASan build)" python3 tests/diff_diff.py build/asan/perfdata
if [ -d "$CORPUS" ]; then
    count "diff = perf diff (live) on ../shared/corpus/recorded, each profile against the next" python3 tests/diff_diff.py build/perfdata --corpus "$CORPUS"
else
    skip "diff = perf diff (live) on ../shared/corpus/recorded, each profile against the next" "no $CORPUS"
fi
count "report and collapse = perf report, perf script | stackcollapse-perf.pl (live) on system-wide profiles (ASan build)" python3 tests/profile_diff.py build/asan/perfdata tests/data/sys-g.data.xz tests/data/sys-pipe.data.xz tests/data/sys-inject.data.xz
count "cut files: every command reads up to the cut, dump prints the whole records (ASan build)" python3 tests/cut_test.py build/asan/perfdata tests/data/*.data
count "script = perf script on tests/data, byte for byte; big-endian twins print the same; stackcollapse-perf.pl of script = collapse" python3 tests/script_diff.py build/perfdata --collapse --expect tests/expected/script-data.txt tests/data
count "script = perf script (live): -F lists (kinds, +-fields), filters, side-band events, refusals; --filter selects what its expression says" python3 tests/script_live.py build/perfdata
count "reading ahead in a second thread: -j 2 = -j 1 (output, messages, exit) for every ordered command on tests/data, and -z chunks decompressed in helper threads (-j 4) = -j 1 on crafted -z files, under ThreadSanitizer" sh tests/jobs_tsan.sh $B/perfdata_tsan tests/data
if [ -d "$CORPUS" ]; then
    count "reading ahead in a second thread: -j 2 = -j 1 on ../shared/corpus (release build)" python3 tests/jobs_same.py build/perfdata "$CORPUS"
else
    skip "reading ahead in a second thread: -j 2 = -j 1 on ../shared/corpus (release build)" "no $CORPUS"
fi
count "C++ and Rust names and unwound stacks as perf shows them: script (and --no-demangle, --no-inline), report, collapse = perf's on tests/data/cxx-*, rust-* and unwind-* (ASan build)" python3 tests/lang_diff.py build/asan/perfdata
count "source lines as perf shows them: report --sort srcline, script -F +srcline = perf's on tests/data/cxx-*, rust-* and unwind-*; separate debug files by build id and .gnu_debuglink; results.csv's file:line = addr2line (ASan build)" python3 tests/srcline_diff.py build/asan/perfdata
count "call chains with a context perf 6.1 does not know (guest, -1): dropped whole by script and collapse, as perf does" python3 tests/callchain_contexts.py build/asan/perfdata
count "script = perf script on tests/data (ASan build)" python3 tests/script_diff.py build/asan/perfdata --expect tests/expected/script-data.txt tests/data
count "convert (perfdata.h's writer): to a pipe, to a file, decompressed, to the other byte order and back; each read back = the input record for record, by our dump and by perf report -D (tests/data)" python3 tests/convert_roundtrip.py build/perfdata tests/data
count "convert on tests/data (ASan build)" python3 tests/convert_roundtrip.py build/asan/perfdata --no-perf tests/data
if [ -d "$CORPUS" ]; then
    count "convert on ../shared/corpus: every input read back = the input, by our dump and by perf report -D" python3 tests/convert_roundtrip.py build/perfdata "$CORPUS"
else
    skip "convert on ../shared/corpus: every input read back = the input, by our dump and by perf report -D" "no $CORPUS"
fi
count "info = perf report --header-only -I on tests/data fixtures" python3 tests/info_diff.py build/perfdata tests/data
count "info = perf report --header-only -I (ASan build)" python3 tests/info_diff.py build/asan/perfdata tests/data
if [ -d "$CORPUS" ]; then
    count "dump = perf report -D on ../shared/corpus" python3 tests/dump_diff.py build/perfdata --expect tests/expected/dump.txt "$CORPUS"
    count "dump --ordered = perf's delivery order on ../shared/corpus" python3 tests/order_diff.py build/perfdata --expect tests/expected/order.txt "$CORPUS"
    count "stat = perf's Aggregated stats on ../shared/corpus" python3 tests/stat_diff.py build/perfdata --expect tests/expected/stat.txt "$CORPUS"
    count "report = perf report --stdio on the corpus recordings" python3 tests/report_diff.py build/perfdata --expect tests/expected/report.txt "$CORPUS/recorded"
    count "report on the corpus recordings under ASan+UBSan" python3 tests/report_diff.py build/asan/perfdata --expect tests/expected/report.txt "$CORPUS/recorded"
    count "report = perf report --stdio (live), every line, on every corpus profile perf reports" python3 tests/report_live.py build/perfdata --expect tests/expected/report-live.txt "$CORPUS"
    count "report in branch mode = perf report --stdio, line for line, on the corpus branch stacks (ASan+UBSan)" python3 tests/branch_diff.py build/asan/perfdata "$CORPUS"
    count "info = perf report --header-only -I on ../shared/corpus" python3 tests/info_diff.py build/perfdata --expect tests/expected/info.txt "$CORPUS"
    count "script = perf script on ../shared/corpus, byte for byte" python3 tests/script_diff.py build/perfdata --expect tests/expected/script.txt "$CORPUS"
    count "script on ../shared/corpus under ASan+UBSan" python3 tests/script_diff.py build/asan/perfdata --expect tests/expected/script.txt "$CORPUS"
    count "big-endian copies of the corpus dump as perf dumps the originals" sh tests/byte_order.sh build/perfdata $B/be-corpus "$CORPUS" tests/expected/dump.txt tests/expected/byte_order.txt
    count "every corpus input: clean error or full decode (ASan build)" python3 tests/corpus_sane.py build/asan/perfdata "$CORPUS"
else
    for step in "dump = perf report -D on ../shared/corpus" "dump --ordered = perf's delivery order on ../shared/corpus" \
        "stat = perf's Aggregated stats on ../shared/corpus" "report = perf report --stdio on the corpus recordings" \
        "script = perf script on ../shared/corpus, byte for byte" "script on ../shared/corpus under ASan+UBSan" \
        "report on the corpus recordings under ASan+UBSan" "info = perf report --header-only -I on ../shared/corpus" \
        "big-endian copies of the corpus dump as perf dumps the originals" \
        "every corpus input: clean error or full decode (ASan build)"; do
        skip "$step" "$CORPUS not found"
    done
fi

echo
if [ "$steps" -eq 0 ]; then
    echo "no step name contains:$(echo "$FILTERS" | tr '\037' ' ')"
    failed=$((failed + 1))
fi
if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
