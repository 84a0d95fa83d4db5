#!/bin/sh
# tests/valgrind.sh PERFDATA - valgrind memcheck over the tool (a plain,
# unsanitized build) on every fixture in tests/data: dump, dump --ordered,
# info, stat, report, collapse; flamegraph, report --children and diff on
# a few. Any memcheck error (invalid read or
# write, use of uninitialised values, a definitely lost block) fails that
# run. One check per command and fixture; ends with "N passed, N failed".
cd "$(dirname "$0")/.." || exit 2
exe=${1:-build/perfdata}
B=build/test/valgrind
mkdir -p $B
command -v valgrind > /dev/null 2>&1 || { echo "valgrind not installed"; echo "0 passed, 1 failed"; exit 1; }
passed=0; failed=0
default_ifs=$IFS
for f in $(find tests/data -name '*.data' ! -path '*.data/*' | sort); do
    cmds="dump|dump --ordered|info|stat|report --symdir tests/data|collapse --symdir tests/data"
    # their own code: a few inputs (diff: the input against plain.data)
    case $f in */callchain-*|*/cxx-*|*/two-events*|*/group-read*)
        cmds="$cmds|flamegraph --symdir tests/data|report --children --symdir tests/data|diff --symdir tests/data tests/data/plain.data" ;;
    esac
    IFS='|'
    for cmd in $cmds; do
        IFS=$default_ifs
        log=$B/$(basename "$f")-$(echo "$cmd" | cut -d' ' -f1-2 | tr ' -' '__').txt
        # shellcheck disable=SC2086
        if valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
            "$exe" $cmd "$f" > /dev/null 2> "$log"; then rc=0; else rc=$?; fi
        if [ $rc -eq 99 ]; then
            failed=$((failed + 1))
            echo "FAIL valgrind perfdata $cmd $f"
            head -n 15 "$log" | sed 's/^/     /'
        else
            passed=$((passed + 1))
        fi
        IFS='|'
    done
    IFS=$default_ifs
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
