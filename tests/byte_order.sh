#!/bin/sh
# Byte-order property test: every little-endian profile in the given
# directories is rewritten as big-endian by tests/swap_endian.py, and our
# dump of the big-endian copy must equal perf's dump of the original (the
# oracle beside it). Compressed files are skipped (they would need
# recompressing).
# Usage: byte_order.sh PERFDATA OUTDIR DIR [EXPECTED [OVERRIDES]]
# EXPECTED: tests/expected/dump.txt-style list relative to DIR (known,
# explained differences with perf, and exit statuses); its paths are
# flattened like ours and only the lines of converted files are kept (the
# others would be stale lines for dump_diff.py).
# OVERRIDES (tests/expected/byte_order.txt): lines in the same form, with
# flattened names, that replace EXPECTED's line for a big-endian copy.
perfdata=$1; out=$2; dir=$3; expected=${4:-}; overrides=${5:-/dev/null}
rm -rf "$out"; mkdir -p "$out"
n=0
    for oracle in $(find "$dir" -name '*.dump.xz' | sort); do
        data=${oracle%.dump.xz}
        [ -f "$data" ] || continue
        name=$(echo "${data#$dir/}" | tr '/' '_')
        if python3 tests/swap_endian.py "$data" "$out/$name" 2>/dev/null; then
            ln -sf "$(cd "$(dirname "$oracle")" && pwd)/$(basename "$oracle")" "$out/$name.dump.xz"
            n=$((n + 1))
        fi
    done
echo "converted $n files to big-endian"
if [ -n "$expected" ]; then
    ls "$out" | grep -v '\.dump\.xz$' > "$out/converted.txt"
    sed -E '/^[^#]/s#/#_#g' "$expected" | awk 'FILENAME == ARGV[1] { have[$1] = 1; next }
        FILENAME == ARGV[2] { if (/^[^#]/ && NF) over[$1] = 1; next }
        /^[^#]/ && NF && (!($1 in have) || ($1 in over)) { next } { print }' "$out/converted.txt" "$overrides" - > "$out/expected.txt"
    cat "$overrides" >> "$out/expected.txt"
    python3 tests/dump_diff.py "$perfdata" --expect "$out/expected.txt" "$out"
else
    python3 tests/dump_diff.py "$perfdata" "$out"
fi
