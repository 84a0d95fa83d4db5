#!/bin/sh
# tests/test_elf.sh - the ELF resolver's tests (tests/test_elf.c with
# tools/pd_elf.c), built with gcc and with clang under ASan+UBSan and run,
# plus a C++11 compile of both files. Prints each run's notes and failures,
# then one summed "N passed, N failed[, N skipped]" line; exits non-zero on
# any failure. A compiler that is not installed counts as one skip.
cd "$(dirname "$0")/.." || exit 2
OUT=${OUT:-build/test}
mkdir -p "$OUT" || exit 2
FLAGS="-std=c99 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -Itools"
passed=0
failed=0
skipped=0

for cc in gcc clang; do
    if ! command -v "$cc" >/dev/null 2>&1; then
        echo "skip: $cc not found; its run is skipped"
        skipped=$((skipped + 1))
        continue
    fi
    if ! $cc $FLAGS tests/test_elf.c tools/pd_elf.c -o "$OUT/test_elf_$cc"; then
        echo "FAIL: $cc could not build the tests"
        failed=$((failed + 1))
        continue
    fi
    if "$OUT/test_elf_$cc" > "$OUT/test_elf_$cc.txt" 2>&1; then rc=0; else rc=$?; fi
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$OUT/test_elf_$cc.txt" | tail -n 1)
    grep -vE '^[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$' "$OUT/test_elf_$cc.txt" | sed "s/^/[$cc] /"
    if [ -z "$line" ]; then
        echo "FAIL: $cc build ended without a summary (exit $rc)"
        failed=$((failed + 1))
        continue
    fi
    echo "[$cc] $line"
    passed=$((passed + ${line%% passed*}))
    f=${line#*passed, }
    failed=$((failed + ${f%% failed*}))
    case $line in *skipped) s=${line##*failed, }; skipped=$((skipped + ${s%% skipped})) ;; esac
    if [ "$rc" -ne 0 ] && [ "${f%% failed*}" -eq 0 ]; then failed=$((failed + 1)); fi
done

# the header and the tests are C++-clean too, as the project's tests are
if command -v c++ >/dev/null 2>&1; then
    if c++ -x c++ -std=c++11 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -Itools -c tests/test_elf.c -o "$OUT/test_elf_cxx.o" &&
        c++ -x c++ -std=c++11 -D_GNU_SOURCE -Wall -Wextra -Wpedantic -Werror -Itools -c tools/pd_elf.c -o "$OUT/pd_elf_cxx.o"; then
        passed=$((passed + 1))
    else
        echo "FAIL: C++11 compile"
        failed=$((failed + 1))
    fi
else
    echo "skip: no c++ compiler; the C++ compile check is skipped"
    skipped=$((skipped + 1))
fi

if [ "$skipped" -gt 0 ]; then echo "$passed passed, $failed failed, $skipped skipped"; else echo "$passed passed, $failed failed"; fi
[ "$failed" -eq 0 ]
