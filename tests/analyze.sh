#!/bin/sh
# tests/analyze.sh - `make analyze`: static analysis of the header's
# implementation (with and without PERFDATA_ZSTD), the tools and the
# examples with
#   cppcheck    --enable=warning,portability,performance (style is not
#               checked: C89-style declarations at the top of a block are
#               the project's choice, which its variableScope check flags)
#   clang-tidy  clang-analyzer-* (the Clang static analyzer; the
#               insecureAPI checks, which flag memcpy/fprintf use as such,
#               are off) and bugprone-* minus the purely stylistic ones
#   gcc         -fanalyzer (for the tools without -Wanalyzer-malloc-leak:
#               gcc 12 loses track of blocks stored in their hash tables
#               and reports each as a leak)
# One check per tool and source; every finding fails it. Ends with
# "N passed, N failed". An analyzer that is not installed is one failure:
# CI installs all three.
cd "$(dirname "$0")/.." || exit 2
B=build/analyze
mkdir -p $B
printf '#define PERFDATA_IMPLEMENTATION\n#include "perfdata.h"\n' > $B/impl.c
printf '#define PERFDATA_ZSTD\n#define PERFDATA_IMPLEMENTATION\n#include "perfdata.h"\n' > $B/impl_zstd.c
SOURCES="$B/impl.c $B/impl_zstd.c $(ls tools/*.c examples/*.c)"
TIDY='-*,clang-analyzer-*,-clang-analyzer-security.insecureAPI.*,bugprone-*,-bugprone-easily-swappable-parameters,-bugprone-narrowing-conversions,-bugprone-reserved-identifier,-bugprone-branch-clone,-bugprone-assignment-in-if-condition,-bugprone-implicit-widening-of-multiplication-result'
passed=0; failed=0

check() { # tool source command...
    tool=$1; src=$2; shift 2
    out=$B/$(echo "$tool-$src" | tr '/' '_').txt
    "$@" > "$out" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && ! grep -qE '(warning|error|style|portability|performance):' "$out"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        echo "FAIL $tool $src"
        grep -E '(warning|error|style|portability|performance):' "$out" | head -n 10 | sed 's/^/     /'
    fi
}

have() { command -v "$1" > /dev/null 2>&1; }
for t in cppcheck clang-tidy gcc; do have $t || { echo "FAIL $t not installed"; failed=$((failed + 1)); }; done

for src in $SOURCES; do
    if have cppcheck; then
        check cppcheck "$src" cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
            --std=c99 --inline-suppr --library=tests/analyze.cfg -D_GNU_SOURCE -DPERFDATA_ZSTD -I. -Itools "$src"
    fi
    if have clang-tidy; then
        check clang-tidy "$src" clang-tidy --quiet --warnings-as-errors='*' -header-filter='.*' -checks="$TIDY" "$src" \
            -- -std=c99 -D_GNU_SOURCE -I. -Itools
    fi
    if have gcc; then
        case $src in tools/*) noleak=-Wno-analyzer-malloc-leak ;; *) noleak= ;; esac
        check gcc-fanalyzer "$src" gcc -std=c99 -O1 -fanalyzer $noleak -D_GNU_SOURCE -I. -Itools -c "$src" -o $B/analyzed.o
    fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
