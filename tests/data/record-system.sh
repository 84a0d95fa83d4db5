#!/bin/sh
# record-system.sh - (re)create the system-wide fixtures sys-g.data.xz,
# sys-pipe.data.xz and sys-inject.data.xz, the programs they ran
# (sys-bins.tar.xz) and the kernel symbols they need (sys-kallsyms.xz).
#
# Must run as root on Linux with perf installed, python3, gcc and xz; the
# committed files were made with perf 6.1 on an x86_64 VM with 2 CPUs and no
# hardware PMU (cpu-clock). See README.md, "System-wide fixtures".
#
# Usage:  sh tests/data/record-system.sh
#
# The workload runs from /tmp/perfdata-system (that path is in the MMAP2
# records); tests/profile_diff.py puts sys-bins.tar.xz back there through a
# --symfs tree. Re-recording rebuilds the programs (new build-ids), so the
# tarball, the fixtures and the kallsyms extract are always replaced together.
set -eu

cd "$(dirname "$0")"
HERE=$(pwd)
D=/tmp/perfdata-system
NLIB=60     # generated shared libraries, libpdhotNN.so
NCMD=110    # distinct command names, all the same program (pd-cmd-NNN)
export PERF_BUILDID_DIR=$D/.debug
export PERF_PAGER=cat

build() {
	rm -rf "$D" && mkdir -p "$D/src" "$D/lib" "$D/bin" "$D/cmd"
	cat > "$D/src/burn.c" <<'CEOF'
/* burn LIB...: spin ~10 ms here, then ~25 ms in hot_NN of each LIB
 * (dlopen'ed libpdhotNN.so), reading the clock through the vDSO. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}
__attribute__((noinline)) unsigned long main_work(unsigned long x)
{
	for (int i = 0; i < 20000; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	return x;
}
__attribute__((noinline)) unsigned long spin_main(double ms)
{
	double end = now_ms() + ms;
	unsigned long x = 1;
	while (now_ms() < end)
		x = main_work(x);
	return x;
}
__attribute__((noinline)) unsigned long run_lib(const char *path, double ms)
{
	void *h = dlopen(path, RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return 0;
	}
	const char *base = strrchr(path, '/');
	char name[32];
	snprintf(name, sizeof name, "hot_%.2s", (base ? base + 1 : path) + 8);
	unsigned long (*fn)(double, double (*)(void)) =
		(unsigned long (*)(double, double (*)(void)))dlsym(h, name);
	return fn ? fn(ms, now_ms) : 0;
}
int main(int argc, char **argv)
{
	unsigned long x = spin_main(10);
	for (int i = 1; i < argc; i++)
		x += run_lib(argv[i], 25);
	return (int)(x & 1) * 0;
}
CEOF
	gcc -O1 -fno-omit-frame-pointer -o "$D/bin/burn" "$D/src/burn.c"
	i=0
	while [ $i -lt $NLIB ]; do
		n=$(printf %02d $i)
		cat > "$D/src/hot$n.c" <<CEOF
__attribute__((noinline)) unsigned long step_$n(unsigned long x)
{
	for (int i = 0; i < 20000; i++)
		x = x * 2862933555777941757UL + $((i * 2 + 1))UL;
	return x;
}
unsigned long hot_$n(double ms, double (*now)(void))
{
	double end = now() + ms;
	unsigned long x = $i;
	while (now() < end)
		x = step_$n(x);
	return x;
}
CEOF
		gcc -O1 -fno-omit-frame-pointer -shared -fPIC -o "$D/lib/libpdhot$n.so" "$D/src/hot$n.c"
		i=$((i + 1))
	done
	i=0
	while [ $i -lt $NCMD ]; do
		ln -s ../bin/burn "$D/cmd/pd-cmd-$(printf %03d $i)"
		i=$((i + 1))
	done
}

# The workload: NCMD short-lived processes with distinct names, each in two
# of the libraries (so every library is hit twice), then ordinary commands.
workload() {
	n=$1
	cat > "$D/workload.sh" <<WEOF
i=0
while [ \$i -lt $n ]; do
	$D/cmd/pd-cmd-\$(printf %03d \$i) $D/lib/libpdhot\$(printf %02d \$((i % $NLIB))).so $D/lib/libpdhot\$(printf %02d \$(((i + 7) % $NLIB))).so
	i=\$((i + 1))
done
ls -lR /usr/lib > /dev/null 2>&1
find /usr/share -type f 2>/dev/null | sort | cat > /dev/null
sh -c 'seq 1 200000 | sort -r | tail -n 1' > /dev/null
gzip -c /bin/bash | cat > /dev/null
WEOF
	echo "$D/workload.sh"
}

record() {
	rm -f sys-g.data.xz sys-pipe.data.xz sys-inject.data.xz sys-bins.tar.xz sys-kallsyms.xz
	set -x
	# -- (a) system-wide, frame-pointer callchains, all NCMD commands
	perf record -a -g -F 250 -o "$D/sys-g.data" -- sh "$(workload $NCMD)"
	# -- (b) the same in pipe mode, 40 commands
	perf record -a -g -F 250 -o - -- sh "$(workload 40)" > "$D/sys-pipe.data"
	# -- (c) a pipe through perf inject -b (build-ids of the hit objects), two
	#    events (cpu-clock and page-faults), 40 commands
	perf record -a -g -e cpu-clock -e page-faults -F 250 -o - -- sh "$(workload 40)" \
		| perf inject -b -o "$D/sys-inject.data"
	set +x
}

# Kernel symbols: of /proc/kallsyms only the function symbols some kernel
# address in the fixtures falls in, and the function symbol after each
# (where perf ends it), plus _text/_stext (perf's relocation reference).
kallsyms() {
	for f in sys-g sys-pipe sys-inject; do
		perf script -i "$D/$f.data" --kallsyms /proc/kallsyms -F ip 2>/dev/null
	done | python3 -c '
import bisect, sys
addrs = {int(w, 16) for line in sys.stdin for w in line.split()[:1] if all(c in "0123456789abcdef" for c in w)}
lines = [l.split() for l in open("/proc/kallsyms")]
funcs = sorted({int(l[0], 16) for l in lines if l[1] in "tTwW" and len(l) == 3})
keep = set()
for a in addrs:
    i = bisect.bisect_right(funcs, a) - 1
    if i >= 0 and a >= 0xffff000000000000:
        keep.update(funcs[i:i + 2])
for l in lines:
    if int(l[0], 16) in keep or (len(l) == 3 and l[2] in ("_text", "_stext", "_etext")):
        print(" ".join(l))
' > "$D/sys-kallsyms"
	# the extract must resolve everything as the full table does
	for f in sys-g sys-pipe sys-inject; do
		perf script -i "$D/$f.data" --kallsyms /proc/kallsyms -F ip,sym,dso 2>/dev/null > "$D/full.txt"
		perf script -i "$D/$f.data" --kallsyms "$D/sys-kallsyms" -F ip,sym,dso 2>/dev/null > "$D/part.txt"
		cmp "$D/full.txt" "$D/part.txt" || { echo "$f: kallsyms extract resolves differently" >&2; exit 1; }
	done
}

pack() {
	for f in sys-g sys-pipe sys-inject; do
		chmod 644 "$D/$f.data"
		xz -9e -T1 -c "$D/$f.data" > "$f.data.xz"
	done
	xz -9e -c "$D/sys-kallsyms" > sys-kallsyms.xz
	tar -C / --owner=0 --group=0 --numeric-owner -cf - \
		"${D#/}/bin" "${D#/}/lib" "${D#/}/cmd" | xz -9e > sys-bins.tar.xz
	ls -l sys-*.xz
}

case "${1:-all}" in
all)  build; record; kallsyms; pack ;;
*)    echo "usage: $0" >&2; exit 2 ;;
esac
