#!/bin/sh
# replay.sh [--bin PREFIX] [--runner CMD] TARGET... - run by `make fuzz-replay`
# and `make fuzz-replay-i386` from the repository root: PREFIXTARGET (the
# target built without libFuzzer, under sanitizers; PREFIX defaults to
# build/fuzz/replay_) over its seeds fuzz/corpus/fuzz_TARGET/* and over every
# reproducer in tests/hostile/ (all targets; notes *.txt and *.md and
# generators *.py are skipped), started as CMD PREFIXTARGET (CMD e.g.
# qemu-i386; none by default). Each target runs once over all its inputs; if
# that fails, input by input to name the culprits. An input passes when the
# run exits 0, says it ran that input, and prints no sanitizer report. A
# target without inputs fails. Ends with "N passed, N failed" (one check per
# target and input). REPLAY_TIMEOUT (seconds, default 600) bounds each run.
bin=build/fuzz/replay_
runner=
while [ $# -gt 0 ]; do
    case $1 in
    --bin) bin=$2; shift 2 ;;
    --runner) runner=$2; shift 2 ;;
    *) break ;;
    esac
done
if [ $# -eq 0 ]; then echo "replay.sh: no targets"; echo "0 passed, 1 failed"; exit 1; fi
limit=${REPLAY_TIMEOUT:-600}
pass=0
fail=0
# replay LOG FILE...: run the target over FILEs; pass if it exits 0, ran
# each of them and printed no sanitizer report (the reason goes to LOG)
replay() {
    log=$1; shift
    # shellcheck disable=SC2086
    timeout "$limit" $runner "$b" "$@" > "$log.out" 2> "$log"
    rc=$?
    ran=$(grep -c '^ran ' "$log.out")
    if [ "$rc" -eq 124 ]; then echo "timed out after $limit s" >> "$log"; return 1; fi
    if [ "$rc" -ne 0 ]; then echo "exit status $rc" >> "$log"; return 1; fi
    if [ "$ran" -ne $# ]; then echo "ran $ran of $# inputs" >> "$log"; return 1; fi
    ! grep -qE 'runtime error|Sanitizer|ERROR: ' "$log"
}
for t in "$@"; do
    b=$bin$t
    files=$({ find "fuzz/corpus/fuzz_$t" -maxdepth 1 -type f; find tests/hostile -maxdepth 1 -type f ! -name "*.txt" ! -name "*.md" ! -name "*.py"; } 2>/dev/null | sort)
    n=$(printf '%s\n' "$files" | grep -c .)
    if [ "$n" -eq 0 ]; then
        fail=$((fail + 1))
        echo "FAIL $b: no inputs (fuzz/corpus/fuzz_$t/ and tests/hostile/ are empty)"
        continue
    fi
    # shellcheck disable=SC2086
    if replay "$b.log" $files; then
        pass=$((pass + n))
        continue
    fi
    before=$fail
    for f in $files; do
        if replay "$b.one.log" "$f"; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL ${runner:+$runner }$b $f"
            grep -E 'ERROR: |SUMMARY: |runtime error|^ran [0-9]+ of|^timed out|^exit status' "$b.one.log" | head -n 4 | sed 's/^/    /'
        fi
    done
    if [ "$fail" -eq "$before" ]; then
        # each input passes alone: the failure needs several (or is a hang)
        pass=$((pass - 1)); fail=$((fail + 1))
        echo "FAIL ${runner:+$runner }$b over all $n inputs at once (each passes alone; see $b.log)"
        grep -E 'ERROR: |SUMMARY: |runtime error|^ran [0-9]+ of|^timed out|^exit status' "$b.log" | head -n 4 | sed 's/^/    /'
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
