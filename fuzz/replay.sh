#!/bin/sh
# replay.sh TARGET... - run by `make fuzz-replay` from the repository root:
# build/fuzz/replay_TARGET (the target without libFuzzer, under ASan+UBSan)
# over its seeds fuzz/corpus/fuzz_TARGET/* and over every reproducer in
# tests/hostile/ (all targets; notes *.txt and *.md and generators *.py
# are skipped). Each target runs once over all its inputs; if that fails,
# input by input to name the culprits. Ends with "N passed, N failed"
# (one check per target and input).
pass=0
fail=0
for t in "$@"; do
    bin=build/fuzz/replay_$t
    files=$({ find fuzz/corpus/fuzz_$t -maxdepth 1 -type f; find tests/hostile -maxdepth 1 -type f ! -name "*.txt" ! -name "*.md" ! -name "*.py"; } 2>/dev/null | sort)
    n=$(printf '%s\n' "$files" | grep -c .)
    if [ "$n" -eq 0 ]; then continue; fi
    # shellcheck disable=SC2086
    if "$bin" $files >/dev/null 2>build/fuzz/replay_$t.log; then
        pass=$((pass + n))
        continue
    fi
    for f in $files; do
        if "$bin" "$f" >/dev/null 2>build/fuzz/replay_$t.one.log; then
            pass=$((pass + 1))
        else
            fail=$((fail + 1))
            echo "FAIL replay_$t $f"
            grep -E 'ERROR: |SUMMARY: |runtime error' build/fuzz/replay_$t.one.log | head -n 3 | sed 's/^/    /'
        fi
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
