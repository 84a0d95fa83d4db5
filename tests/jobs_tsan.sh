#!/bin/sh
# The tools built with ThreadSanitizer (clang), then tests/jobs_same.py with
# that build on the inputs given: -j 2 = -j 1, and no report of a race.
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
if [ -n "$run" ]; then
    printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$run" "$out" > "$out.sh" && chmod +x "$out.sh"
    exec python3 tests/jobs_same.py "$out.sh" "$@"
fi
exec python3 tests/jobs_same.py "$out" "$@"
