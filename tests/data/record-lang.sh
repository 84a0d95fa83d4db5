#!/bin/sh
# record-lang.sh - (re)create the C++, Rust and unwinding fixtures and their
# oracles (perf 6.1's own outputs) in this directory.
#
# Must run as root on Linux with perf, gcc, g++, rustc and xz. The workloads:
#   cxx-workload.cpp  g++ -O2, frame pointers, libstdc++ linked in so that its
#                     symbols come from the committed binary, with its debug info
#   rust-workload.rs  rustc -O -g, frame pointers; std's debug info comes with
#                     it: 4.5 MB, 0.8 MB xz-compressed
#   unwind-c.c        gcc -O2 without frame pointers: threads, recursion, calls
#                     through the PLT into libuwfix.so (unwind-lib.c) and back,
#                     qsort calling back from libc
#   unwind-cxx.cpp    g++ -O2 without frame pointers: exceptions thrown through
#                     frames, inlined templates and lambdas, libstdc++ linked in
# All are committed xz-compressed, as built once: rebuilding a group
# (REBUILD=cxx, rust or unwind) changes its build ids, so its fixtures are
# re-recorded then. They run as /tmp/perfdata-lang/NAME (the path in the
# MMAP2 records). Samples are user-mode only (cpu-clock:u), so no kernel
# symbols are needed.
#
# Usage:  sh tests/data/record-lang.sh                 # record + oracles (every fixture)
#         REBUILD=rust sh tests/data/record-lang.sh    # rebuild one group, record its fixtures
#         ONLY=cxx sh tests/data/record-lang.sh        # record one group's fixtures
#         sh tests/data/record-lang.sh oracles         # only the oracles
set -eu

cd "$(dirname "$0")"
D=/tmp/perfdata-lang
export PERF_PAGER=cat
# perf's build-id cache: its --buildid-dir (perf ignores PERF_BUILDID_DIR,
# which it only sets for its children); else ~/.debug would keep the copy
# of an earlier build with the same build id (stripping keeps the id)
perf() { command perf --buildid-dir "$D/.debug" "$@"; }

case "${REBUILD:-}" in
cxx)
	g++ -O2 -g -fno-omit-frame-pointer -ffunction-sections -fdata-sections -Wl,--gc-sections \
		-static-libstdc++ -static-libgcc -o cxx-workload cxx-workload.cpp
	xz -9 -f cxx-workload ;;
rust)
	rustc -O -g -C force-frame-pointers=yes -o rust-workload rust-workload.rs
	xz -9 -f rust-workload ;;
unwind)
	gcc -O2 -g -fomit-frame-pointer -fPIC -shared -o libuwfix.so unwind-lib.c
	gcc -O2 -g -fomit-frame-pointer -o unwind-c unwind-c.c -L. -luwfix -Wl,-rpath,'$ORIGIN' -pthread
	g++ -O2 -g -fomit-frame-pointer -ffunction-sections -fdata-sections -Wl,--gc-sections \
		-static-libstdc++ -static-libgcc -o unwind-cxx unwind-cxx.cpp
	xz -9 -f unwind-c libuwfix.so unwind-cxx ;;
'') ;;
*) echo "REBUILD: cxx, rust or unwind" >&2; exit 2 ;;
esac
ONLY=${ONLY:-${REBUILD:-}}
rm -rf "$D" && mkdir -p "$D"
for w in cxx-workload rust-workload unwind-c libuwfix.so unwind-cxx; do
	xz -dc $w.xz > "$D/$w"
	chmod 755 "$D/$w"
done

case "${ONLY:-}" in
cxx|rust) FIXTURES="$ONLY-g.data $ONLY-dwarf.data" ;;
unwind) FIXTURES="unwind-c-dwarf.data unwind-cxx-dwarf.data" ;;
'') FIXTURES="cxx-g.data rust-g.data cxx-dwarf.data rust-dwarf.data unwind-c-dwarf.data unwind-cxx-dwarf.data" ;;
*) echo "ONLY: cxx, rust or unwind" >&2; exit 2 ;;
esac

record() {
	for f in $FIXTURES; do rm -f "$f" "$f".*; done
	set -x
	case "$FIXTURES" in *cxx-g.data*)
	# -- C++: templates, lambdas, a virtual call, libstdc++ streams; frame-pointer call chains
	perf record -e cpu-clock:u -g -F 2999 -o cxx-g.data "$D/cxx-workload" 400
	# -- the same with DWARF call chains (2 KiB of stack a sample: perf unwinds them, inlined frames included)
	perf record -e cpu-clock:u --call-graph dwarf,2048 -F 499 -o cxx-dwarf.data "$D/cxx-workload" 400
	esac
	case "$FIXTURES" in *rust-g.data*)
	# -- Rust: generics, closures, a trait object, std (v0 names) and the crate (legacy names)
	perf record -e cpu-clock:u -g -F 2999 -o rust-g.data "$D/rust-workload" 400
	perf record -e cpu-clock:u --call-graph dwarf,2048 -F 499 -o rust-dwarf.data "$D/rust-workload" 400
	esac
	case "$FIXTURES" in *unwind-c-dwarf.data*)
	# -- no frame pointers: 3 KiB of stack a sample, unwound by the binaries' CFI only
	perf record -e cpu-clock:u --call-graph dwarf,3072 -F 499 -o unwind-c-dwarf.data "$D/unwind-c" 300
	perf record -e cpu-clock:u --call-graph dwarf,3072 -F 499 -o unwind-cxx-dwarf.data "$D/unwind-cxx" 400
	esac
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
		case $d in *-dwarf.data) # unwound stacks without their inlined frames
			xzout "$d.script-noinline.xz" perf script --no-inline -i "$d" ;;
		esac
	done
}

case "${1:-all}" in
all) record; oracles ;;
oracles) oracles ;;
*) echo "usage: $0 [oracles]" >&2; exit 2 ;;
esac
