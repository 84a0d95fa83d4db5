#!/bin/sh
# record-lang.sh - (re)create the C++ and Rust fixtures, cxx-g.data and
# rust-g.data, and their oracles (perf 6.1's own outputs) in this directory.
#
# Must run as root on Linux with perf, g++, rustc and xz. The workloads are
# cxx-workload.cpp (g++ -O2, frame pointers, libstdc++ linked in so that its
# symbols come from the committed binary, with its debug info) and
# rust-workload.rs (rustc -O, frame pointers, debug info stripped: std's
# would make it megabytes). Both are committed xz-compressed, as built once:
# rebuilding them (REBUILD=1) changes their build ids, so re-record then.
# They run as /tmp/perfdata-lang/NAME (the path in the MMAP2 records).
# Samples are user-mode only (cpu-clock:u), so no kernel symbols are needed.
#
# Usage:  sh tests/data/record-lang.sh            # record + oracles (all four fixtures)
#         REBUILD=1 sh tests/data/record-lang.sh  # also rebuild the workloads
#         sh tests/data/record-lang.sh oracles    # only the oracles
set -eu

cd "$(dirname "$0")"
D=/tmp/perfdata-lang
export PERF_BUILDID_DIR=$D/.debug
export PERF_PAGER=cat

if [ ! -f cxx-workload.xz ] || [ ! -f rust-workload.xz ] || [ "${REBUILD:-0}" = 1 ]; then
	g++ -O2 -g -fno-omit-frame-pointer -ffunction-sections -fdata-sections -Wl,--gc-sections \
		-static-libstdc++ -static-libgcc -o cxx-workload cxx-workload.cpp
	rustc -O -g -C force-frame-pointers=yes -o rust-workload rust-workload.rs
	strip --strip-debug rust-workload
	xz -9 -f cxx-workload rust-workload
fi
rm -rf "$D" && mkdir -p "$D"
for w in cxx-workload rust-workload; do
	xz -dc $w.xz > "$D/$w"
	chmod 755 "$D/$w"
done

FIXTURES="cxx-g.data rust-g.data cxx-dwarf.data rust-dwarf.data"

record() {
	for f in $FIXTURES; do rm -f "$f" "$f".*; done
	set -x
	# -- C++: templates, lambdas, a virtual call, libstdc++ streams; frame-pointer call chains
	perf record -e cpu-clock:u -g -F 2999 -o cxx-g.data "$D/cxx-workload" 400
	# -- Rust: generics, closures, a trait object, std (v0 names) and the crate (legacy names)
	perf record -e cpu-clock:u -g -F 2999 -o rust-g.data "$D/rust-workload" 400
	# -- the same with DWARF call chains (2 KiB of stack a sample: perf unwinds them, inlined frames included)
	perf record -e cpu-clock:u --call-graph dwarf,2048 -F 499 -o cxx-dwarf.data "$D/cxx-workload" 400
	perf record -e cpu-clock:u --call-graph dwarf,2048 -F 499 -o rust-dwarf.data "$D/rust-workload" 400
	set +x
	chmod 644 $FIXTURES
}

# run perf, fail if it fails, xz its standard output into $1
xzout() {
	out=$1; shift
	"$@" 2>"$D/stderr" > "$D/out" || { echo "FAILED ($?): $*" >&2; cat "$D/stderr" >&2; exit 1; }
	[ -s "$D/out" ] || { echo "EMPTY: $*" >&2; exit 1; }
	xz -9 -c "$D/out" > "$out"
}

oracles() {
	for d in $FIXTURES; do
		echo "== oracles for $d" >&2
		xzout "$d.dump.xz" perf report -D -i "$d"
		perf report --header-only -I -i "$d" > "$d.header.txt" 2>/dev/null
		xzout "$d.script-lang.xz" perf script -i "$d"
		xzout "$d.script-lang-mangled.xz" perf script -i "$d" --no-demangle
		perf report --stdio --no-children --sort dso,sym -i "$d" > "$d.report-lang.txt" 2>/dev/null
		# source lines (perf runs binutils' addr2line; libc's come from libc6-dbg)
		xzout "$d.script-srcline.xz" perf script -F +srcline -i "$d"
		xzout "$d.script-srcline-G.xz" perf script -G -F comm,tid,ip,sym,symoff,dso,srcline -i "$d"
		perf report --stdio --no-children --sort srcline -g none -i "$d" > "$d.report-srcline.txt" 2>/dev/null
		perf report --stdio --no-children --sort sym,srcline -g none -i "$d" > "$d.report-sym-srcline.txt" 2>/dev/null
	done
}

case "${1:-all}" in
all) record; oracles ;;
oracles) oracles ;;
*) echo "usage: $0 [oracles]" >&2; exit 2 ;;
esac
