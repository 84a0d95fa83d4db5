#!/bin/sh
# The tools built with ThreadSanitizer (clang), then tests/jobs_same.py with
# that build on the inputs given (-j 2 = -j 1) and tests/zahead_same.py
# (-z chunks decompressed in helper threads = -j 1), and no report of a race.
# ThreadSanitizer refuses to start on some kernels (address-space layout
# randomisation wider than it supports: "unexpected memory mapping"); then
# it runs with randomisation off (setarch -R), and if that cannot be done
# either, the step says "skip" and why.
# Usage: sh tests/jobs_tsan.sh OUT_BINARY INPUT...
out=$1; shift
command -v clang > /dev/null 2>&1 || { echo "skip: clang is not installed"; echo "0 passed, 0 failed, 1 skipped"; exit 0; }
src=$(sed -n 's/^TOOLSRC *= *//p' Makefile)
# shellcheck disable=SC2086
clang -std=c99 -Wall -Wextra -Wpedantic -Werror -D_GNU_SOURCE -O1 -g -fsanitize=thread -pthread -I. -Itools $src \
    -o "$out" || { echo "0 passed, 1 failed"; exit 1; }
run=""
if ! "$out" version > /dev/null 2> "$out.err"; then
    if command -v setarch > /dev/null 2>&1 && setarch "$(uname -m)" -R "$out" version > /dev/null 2>&1; then
        run="setarch $(uname -m) -R"
    else
        echo "skip: the ThreadSanitizer build does not start here: $(head -n 1 "$out.err")"
        echo "0 passed, 0 failed, 1 skipped"
        exit 0
    fi
fi
runner=$out
if [ -n "$run" ]; then
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$run" "$out" > "$out.sh" && chmod +x "$out.sh"
    runner=$out.sh
fi
# -j 2 = -j 1 on the inputs, then -z chunks decompressed in helper threads
# (-j 4) = -j 1 on crafted -z files; the counts of both
python3 tests/jobs_same.py "$runner" "$@" > "$out.same.txt" 2>&1; rc1=$?
python3 tests/zahead_same.py "$runner" "$out.zahead" > "$out.zahead.txt" 2>&1; rc2=$?
cat "$out.same.txt" "$out.zahead.txt" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
p=0 f=0
for log in "$out.same.txt" "$out.zahead.txt"; do
    line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | tail -n 1)
    [ -n "$line" ] || { f=$((f + 1)); continue; }
    p=$((p + $(echo "$line" | sed -E 's/^([0-9]+) passed.*/\1/')))
    f=$((f + $(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')))
done
echo "$p passed, $f failed"
[ $rc1 -eq 0 ] && [ $rc2 -eq 0 ] && [ $f -eq 0 ]
