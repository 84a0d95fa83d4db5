#!/bin/sh
# collapse puts off the names that wait for the read-ahead thread (the
# kernel's symbols, an object's inlined frames) and fills them in at the
# end. Built with a bound of 2 pending frames (so that the bound is
# reached and the rest are waited for), it must print what one thread
# (-j 1: no read-ahead, nothing put off) prints, on every call-graph
# fixture; and the default build too.
# usage: collapse_pending.sh PERFDATA BUILD_DIR DATA_DIR
set -u
PD=$1 B=$2 D=$3
CC=${CC:-cc}
SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
mkdir -p "$B/pending"
SRC=$(sed -n 's/^TOOLSRC *= *//p' Makefile)
$CC -std=c99 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -O1 -g $SAN -DPENDING_MAX=2 -pthread -I. -Itools $SRC -o "$B/pending/perfdata" -lm || { echo "FAIL build"; exit 1; }
pass=0 fail=0
for f in "$D"/*dwarf*.data "$D"/*-g.data; do
    [ -f "$f" ] || continue
    for opts in "" "--kernel --mark-inlined" "--with-pid --period"; do
        # shellcheck disable=SC2086
        "$PD" collapse -j 1 $opts "$f" > "$B/pending/one.txt" 2> "$B/pending/one.err"; rc1=$?
        for run in "$B/pending/perfdata" "$PD"; do
            # shellcheck disable=SC2086
            "$run" collapse -j 2 $opts "$f" > "$B/pending/two.txt" 2> "$B/pending/two.err"; rc2=$?
            if [ $rc1 -ne $rc2 ] || ! cmp -s "$B/pending/one.txt" "$B/pending/two.txt" || ! cmp -s "$B/pending/one.err" "$B/pending/two.err" ||
               grep -E 'runtime error|Sanitizer' "$B/pending/two.err"; then
                echo "FAIL $run collapse $opts $f (exit $rc1, $rc2)"
                diff "$B/pending/one.txt" "$B/pending/two.txt" | head -5
                fail=$((fail + 1))
            else
                pass=$((pass + 1))
            fi
        done
    done
done
[ $pass -gt 0 ] || { echo "FAIL no call-graph fixture in $D"; fail=$((fail + 1)); }
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
