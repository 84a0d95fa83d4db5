#!/bin/sh
# `make test-matrix`: compiles tests/compile_impl.c (the implementation) and
# examples/quickstart.c with gcc and clang as C99, C11, C17, C2x, C++11 and
# C++20, each at -O0, -O2 and -Os, with strict warnings as errors. One line
# per failing combination (first warnings in build/matrix/), then
# "N passed, N failed". MATRIX_JOBS (default 2) compiles run in parallel.
cd "$(dirname "$0")/../.." || exit 2
B=build/matrix
FLAGS="-Wall -Wextra -Wpedantic -Wshadow -Wcast-align -Wcast-qual -Wconversion -Werror"
one() { # cc std opt src
    cc=$1; std=$2; o=$3; src=$4
    tag="$cc-$std$o-$(basename $src .c)"
    case $std in c++*) drv=$( [ $cc = gcc ] && echo g++ || echo clang++ ); lang="-x c++";; *) drv=$cc; lang="";; esac
    if $drv $lang -std=$std $o $FLAGS -I. -c $src -o $B/$tag.o > $B/$tag.txt 2>&1; then
        echo "ok   $drv -std=$std $o $src"
    else
        n=$(grep -c 'error:' $B/$tag.txt)
        echo "FAIL $drv -std=$std $o $src ($n errors; first: $(grep -m1 'error:' $B/$tag.txt | sed 's/^[^ ]* //'))"
    fi
}
if [ "$1" = one ]; then shift; one "$@"; exit 0; fi
rm -rf $B; mkdir -p $B
for cc in gcc clang; do
    for std in c99 c11 c17 c2x c++11 c++20; do
        for o in -O0 -O2 -Os; do
            for src in tests/compile_impl.c examples/quickstart.c; do
                echo "$cc $std $o $src"
            done
        done
    done
done > $B/list.txt
xargs -P "${MATRIX_JOBS:-2}" -L 1 sh tests/cross/matrix.sh one < $B/list.txt > $B/results.txt
sort -k2 $B/results.txt | grep -v '^ok' 
p=$(grep -c '^ok' $B/results.txt); f=$(grep -c '^FAIL' $B/results.txt)
echo "$p passed, $f failed"
[ "$f" -eq 0 ]
