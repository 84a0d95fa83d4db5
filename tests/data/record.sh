#!/bin/sh
# record.sh - (re)create the perf.data test fixtures in this directory.
#
# Must run as root (or with perf_event_paranoid <= -1) on Linux with perf
# installed; the fixtures in git were made with perf 6.1 on an x86_64 VM
# without a hardware PMU (so the default "cycles" falls back to cpu-clock).
#
# Usage:  sh tests/data/record.sh            # record everything + oracles
#         REBUILD=1 sh tests/data/record.sh  # also rebuild ./workload
#         sh tests/data/record.sh oracles    # only regenerate perf's outputs
#
# The workload is always run from /tmp/perfdata-fixture/workload so that
# this fixed path is what the MMAP records and build-id table store.
# NB: rebuilding the workload changes its build-id; the committed binary
# must be the one the committed recordings were made with.
set -eu

cd "$(dirname "$0")"
WDIR=/tmp/perfdata-fixture
W=$WDIR/workload
# keep perf's build-id cache out of $HOME
export PERF_BUILDID_DIR=$WDIR/.debug
export PERF_PAGER=cat

if [ ! -x workload ] || [ "${REBUILD:-0}" = 1 ]; then
	gcc -O1 -g -fno-omit-frame-pointer -o workload workload.c -lpthread
	strip --strip-debug workload
fi
mkdir -p "$WDIR"
cp workload "$W"

# tracepoint fixtures need tracefs
if [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

record() {
	rm -rf threads.data
	rm -f *.data *.data.dump.xz *.data.header.txt *.data.script.xz \
	      *.data.report.txt *.data.report-T.txt
	set -x
	# -- file mode, default event (cycles -> cpu-clock:ppp), default 4000 Hz
	perf record -o plain.data $W -d 30
	# -- pipe mode written to a file
	perf record -o - $W -d 30 > pipe.data
	# -- extra threads + a forked child: FORK/EXIT/COMM, several pids/tids
	perf record -F 999 -o tasks.data $W -d 20 -t 2 -f 1
	# -- frame-pointer callchains
	perf record -g -F 999 -o callchain-fp.data $W -d 30
	# -- DWARF callchains: user regs + 1 KiB user stack per sample
	perf record --call-graph dwarf,1024 -F 499 -o callchain-dwarf.data $W -d 30
	# -- two events (two attrs, ids, sample_id_all matching)
	perf record -e cpu-clock,page-faults -F 999 -o two-events.data $W -d 30 -m 256
	# -- event group with leader sampling: PERF_SAMPLE_READ | PERF_FORMAT_GROUP
	perf record -e '{cpu-clock,task-clock}:S' -F 999 -o group-read.data $W -d 30
	# -- CPU + TIME + IDENTIFIER sample fields
	perf record --sample-cpu -T --sample-identifier -F 999 -o sample-id.data $W -d 30
	# -- many sample fields: ADDR DATA_SRC PHYS_ADDR DATA/CODE_PAGE_SIZE WEIGHT CGROUP
	perf record -d --sample-cpu --phys-data --data-page-size --code-page-size \
		--weight --all-cgroups --sample-identifier -F 999 \
		-o many-fields.data $W -d 30 -m 128
	# -- per-thread counts: PERF_RECORD_READ at thread exit, inherit_stat
	perf record -s -F 999 -o stat-threads.data $W -d 20 -t 2
	# -- context switch records (sleep at the end forces switches)
	perf record --switch-events -F 999 -o switch.data $W -d 20 -s 5
	# -- PERF_RECORD_NAMESPACES
	perf record --namespaces -F 999 -o namespaces.data $W -d 20
	# -- tracepoint with raw samples (PERF_SAMPLE_RAW, HEADER_TRACING_DATA)
	perf record -R -e sched:sched_switch -c 1 -o tracepoint-raw.data $W -d 5 -t 2 -s 2
	# -- syscall tracepoint, one sample per write(2)
	perf record -e syscalls:sys_enter_write -c 1 -o syscall-write.data $W -d 1 -w 8
	# -- zstd compressed records (PERF_RECORD_COMPRESSED), file and pipe mode
	perf record -z -F 999 -o zstd.data $W -d 30
	perf record -z -F 999 -o - $W -d 30 > pipe-zstd.data
	# -- the highest level: a 128 MiB zstd window (windowLog 27)
	perf record --compression-level=22 -F 999 -o zstd-22.data $W -d 30
	# -- sampled user and interrupt registers (all registers)
	perf record --user-regs --intr-regs -F 499 -o regs.data $W -d 30
	# -- every page fault, with data addresses
	perf record -c 1 -e page-faults -d -o page-faults.data $W -d 1 -m 64
	# -- system wide, kernel only (idle CPUs give no cpu-clock samples in this
	#    tickless VM, so the workload faults in 16 MiB to spend time in the kernel)
	perf record -a -e cpu-clock:k -c 250000 -o kernel-a.data $W -d 5 -m 16384
	# -- perf record --threads: a directory (data + one data.N per writer thread)
	perf record --threads -F 499 -o threads.data $W -d 20 -t 1
	# -- --threads with -z: one zstd stream per data.N file (re-run until
	#    both data.0 and data.1 are non-empty)
	perf record --threads -z -F 999 -o threads-zstd.data $W -d 60 -t 1
	set +x
	chmod 644 *.data 2>/dev/null
	chmod 755 threads.data threads-zstd.data && chmod 644 threads.data/* threads-zstd.data/*
}

script_fields() {
	# perf script -F with fields the recording lacks is refused; drop them
	# one at a time ("... Cannot print 'addr' field.").
	f=comm,tid,pid,time,cpu,event,ip,period,addr
	while :; do
		if err=$(perf script -i "$1" --show-task-events --show-mmap-events \
				-F "$f" 2>&1 >/dev/null); then
			echo "$f"; return 0
		fi
		bad=$(printf '%s\n' "$err" | sed -n "s/.*Cannot print '\([a-z_]*\)' field.*/\1/p" | head -n1)
		[ -n "$bad" ] || { printf '%s\n' "$err" >&2; return 1; }
		f=$(printf '%s\n' "$f" | tr , '\n' | grep -vx "$bad" | paste -sd, -)
	done
}

oracles() {
	for d in *.data; do
		echo "== oracles for $d" >&2
		perf report -D -i "$d" 2>/dev/null | xz -9 > "$d.dump.xz"
		perf report --header-only -I -i "$d" > "$d.header.txt" 2>/dev/null
		f=$(script_fields "$d")
		echo "   perf script -F $f" >&2
		perf script -i "$d" --show-task-events --show-mmap-events -F "$f" \
			2>/dev/null | xz -9 > "$d.script.xz.tmp"
		mv "$d.script.xz.tmp" "$d.script.xz"
		perf report -i "$d" --stdio --sort dso,sym > "$d.report.txt" 2>/dev/null
	done
	# callchains with symbols: the reference folding for `perfdata collapse`
	perf script -i callchain-fp.data -F comm,pid,tid,period,ip,sym,dso \
		2>/dev/null | xz -9 > callchain-fp.data.script-sym.xz
	# per-thread counts from the PERF_RECORD_READ records
	perf report -i stat-threads.data --stdio -T --sort comm,dso \
		> stat-threads.data.report-T.txt 2>/dev/null
}

case "${1:-all}" in
all)     record; oracles ;;
record)  record ;;
oracles) oracles ;;
*)       echo "usage: $0 [all|record|oracles]" >&2; exit 2 ;;
esac
