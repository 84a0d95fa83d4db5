#!/bin/sh
# Byte-order property test: every little-endian profile in the given
# directories is rewritten as big-endian by tests/swap_endian.py, and our
# dump of the big-endian copy must equal perf's dump of the original (the
# oracle beside it). Compressed files are skipped (they would need
# recompressing). Usage: byte_order.sh PERFDATA OUTDIR DIR [EXPECTED]
# EXPECTED: tests/dump_expected.txt-style list relative to DIR (known,
# explained differences with perf); its paths are flattened like ours.
perfdata=$1; out=$2; dir=$3; expected=${4:-}
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
    sed -E '/^[^#]/s#/#_#g' "$expected" > "$out/expected.txt"
    python3 tests/dump_diff.py "$perfdata" --expect "$out/expected.txt" "$out"
else
    python3 tests/dump_diff.py "$perfdata" "$out"
fi
