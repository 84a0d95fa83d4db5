#!/bin/sh
# record-tracepoints.sh - (re)create the tracepoint fixtures tp-*.data and
# their oracles (perf 6.1's own outputs) in this directory.
#
# Must run as root on Linux with perf installed (tracefs is mounted if
# needed), gcc, python3 and xz; the committed files were made with perf 6.1 on
# an x86_64 VM with 2 CPUs. See README.md, "Tracepoint fixtures".
#
# Usage:  sh tests/data/record-tracepoints.sh            # record + oracles
#         REBUILD=1 sh tests/data/record-tracepoints.sh  # also rebuild ./tp-workload
#         sh tests/data/record-tracepoints.sh oracles    # only the oracles
#
# The workload runs as /tmp/perfdata-tp/tp-workload (the path in the MMAP2
# records); it is tp-workload.c, built once and committed as ./tp-workload
# (rebuilding it changes its build-id: re-record everything then).
# Fixtures bigger than 128 KiB are committed xz-compressed (F.xz, like
# sys-g.data.xz), which keeps them out of the `*.data` sweeps of tests/run.sh;
# their oracles are still named after the unpacked F.
set -eu

cd "$(dirname "$0")"
D=/tmp/perfdata-tp
W=$D/tp-workload
export PERF_BUILDID_DIR=$D/.debug
export PERF_PAGER=cat
BIG=131072

if [ ! -x tp-workload ] || [ "${REBUILD:-0}" = 1 ]; then
	gcc -O1 -g -fno-omit-frame-pointer -o tp-workload tp-workload.c
	strip --strip-debug tp-workload
fi
rm -rf "$D" && mkdir -p "$D"
cp tp-workload "$W"

if [ ! -d /sys/kernel/tracing/events ]; then
	mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi

# tp-many: at least one tracepoint of each of these systems that fires for
# the workload (or, with -a, on the machine during its ~20 ms)
MANY=$(tr -d ' \n' <<'EOF'
sched:sched_switch,sched:sched_wakeup,sched:sched_waking,sched:sched_wakeup_new,
sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit,
sched:sched_process_wait,sched:sched_process_free,sched:sched_migrate_task,
sched:sched_stat_runtime,sched:sched_prepare_exec,
kmem:kmalloc,kmem:kmem_cache_alloc,kmem:mm_page_alloc,
syscalls:sys_enter_openat,syscalls:sys_exit_openat,syscalls:sys_enter_write,syscalls:sys_exit_write,
syscalls:sys_enter_fsync,syscalls:sys_exit_fsync,syscalls:sys_enter_close,syscalls:sys_exit_close,
syscalls:sys_enter_sendto,syscalls:sys_exit_sendto,syscalls:sys_enter_kill,syscalls:sys_exit_kill,
syscalls:sys_enter_clock_nanosleep,syscalls:sys_exit_clock_nanosleep,
syscalls:sys_enter_execve,syscalls:sys_exit_execve,
raw_syscalls:sys_enter,raw_syscalls:sys_exit,
irq:irq_handler_entry,irq:irq_handler_exit,irq:softirq_entry,irq:softirq_exit,irq:softirq_raise,
timer:hrtimer_setup,timer:hrtimer_start,timer:hrtimer_expire_entry,timer:hrtimer_expire_exit,
timer:hrtimer_cancel,timer:timer_start,timer:timer_expire_entry,timer:timer_expire_exit,
timer:timer_cancel,timer:itimer_state,timer:itimer_expire,
block:block_bio_queue,block:block_getrq,block:block_rq_insert,block:block_rq_issue,
block:block_rq_complete,block:block_plug,block:block_unplug,block:block_io_start,block:block_io_done,
signal:signal_generate,signal:signal_deliver,
workqueue:workqueue_queue_work,workqueue:workqueue_activate_work,
workqueue:workqueue_execute_start,workqueue:workqueue_execute_end,
writeback:writeback_dirty_inode_start,writeback:writeback_dirty_inode,
writeback:writeback_write_inode_start,writeback:writeback_write_inode,writeback:writeback_single_inode,
writeback:sb_mark_inode_writeback,writeback:sb_clear_inode_writeback,
net:net_dev_queue,net:net_dev_start_xmit,net:net_dev_xmit,net:netif_rx,net:netif_receive_skb,
skb:consume_skb,skb:kfree_skb,skb:skb_copy_datagram_iovec,
task:task_newtask,task:task_rename,
exceptions:page_fault_user,exceptions:page_fault_kernel
EOF
)
# tp-many-g: a few tracepoints with callchains, the workload only
FEW_G=sched:sched_switch,sched:sched_process_exec,task:task_newtask,syscalls:sys_enter_write,kmem:kmalloc,signal:signal_generate,signal:signal_deliver,timer:hrtimer_start,exceptions:page_fault_user,net:net_dev_xmit
# tp-pipe: pipe mode (tracing data in a HEADER_TRACING_DATA record)
FEW_PIPE=sched:sched_switch,sched:sched_process_fork,sched:sched_process_exec,sched:sched_process_exit,syscalls:sys_enter_openat,syscalls:sys_exit_openat,syscalls:sys_enter_write,syscalls:sys_exit_write,net:net_dev_queue,skb:consume_skb,signal:signal_generate,signal:signal_deliver,timer:hrtimer_start,irq:softirq_raise,block:block_rq_issue,task:task_rename

FIXTURES="tp-kmem-g.data tp-many.data tp-many-g.data tp-pipe.data"

record() {
	for f in $FIXTURES; do rm -f "$f" "$f.xz" "$f".*.xz "$f".header.txt; done
	set -x
	# -- the perf tutorial's system-wide kmalloc profile, with callchains
	perf record -e kmem:kmalloc -e kmem:kfree -e kmem:kmem_cache_alloc -a -g -o tp-kmem-g.data $W
	# -- many tracepoints system wide (without perf's own events: they feed back)
	perf record -a -e "$MANY" --exclude-perf -o tp-many.data $W
	# -- a few tracepoints with frame-pointer callchains, the workload only
	perf record -g -e "$FEW_G" -o tp-many-g.data $W
	# -- pipe mode
	perf record -e "$FEW_PIPE" -o - $W > tp-pipe.data
	set +x
	chmod 644 $FIXTURES
}

script_fields() {
	# as record.sh: perf script -F refuses fields the recording lacks; drop
	# them one at a time ("... Cannot print 'addr' field.").
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

# run perf, fail if it fails, xz its standard output into $1
xzout() {
	out=$1; shift
	"$@" 2>"$D/stderr" > "$D/out" || { echo "FAILED ($?): $*" >&2; cat "$D/stderr" >&2; exit 1; }
	[ -s "$D/out" ] || { echo "EMPTY: $*" >&2; exit 1; }
	xz -9 -c "$D/out" > "$out"
}

oracles() {
	for d in $FIXTURES; do
		[ -f "$d" ] || xz -dc "$d.xz" > "$d"
		echo "== oracles for $d" >&2
		xzout "$d.dump.xz" perf report -D -i "$d"
		perf report --header-only -I -i "$d" > "$d.header.txt" 2>/dev/null
		f=$(script_fields "$d")
		echo "   perf script -F $f" >&2
		xzout "$d.script.xz" perf script -i "$d" --show-task-events --show-mmap-events -F "$f"
		xzout "$d.script-trace.xz" perf script -i "$d" -F comm,tid,pid,time,cpu,event,trace
		xzout "$d.script-default.xz" perf script -i "$d"
	done
}

# Kernel symbols: the lines of /proc/kallsyms the fixtures need (as
# record-system.sh does it): every function symbol some kernel address falls
# in -- callchain entries, sample IPs, and the code addresses the trace
# fields print with %pS/%ps (seen as 0xffffffff... with an empty kallsyms) --
# the function symbol after each, and _text/_stext/_etext.
kallsyms() {
	: > "$D/empty"
	for d in $FIXTURES; do
		perf script -i "$d" --kallsyms /proc/kallsyms -F ip 2>/dev/null || true
		perf script -i "$d" --kallsyms "$D/empty" 2>/dev/null | grep -o '0xffffffff[0-9a-f]*' | sed 's/^0x//'
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
' > "$D/tp-kallsyms"
	xz -9e -c "$D/tp-kallsyms" > tp-kallsyms.xz
	# the extract (and a --symfs tree like tests/profile_diff.py's: the
	# workload at its recorded path, this machine's system directories)
	# must give the default perf script output the machine's files give
	S=$D/symfs
	rm -rf "$S" && mkdir -p "$S$D"
	cp tp-workload "$S$W"
	for x in usr bin lib lib64 sbin root; do
		[ -e /$x ] && ln -s /$x "$S/$x"
	done
	for d in $FIXTURES; do
		xz -dc "$d.script-default.xz" > "$D/full.txt"
		perf script -i "$d" --kallsyms "$D/tp-kallsyms" --symfs "$S" 2>/dev/null > "$D/part.txt"
		cmp "$D/full.txt" "$D/part.txt" || { echo "$d: kallsyms extract / symfs resolve differently" >&2; exit 1; }
	done
}

pack() {
	for d in $FIXTURES; do
		if [ "$(stat -c %s "$d")" -gt $BIG ]; then
			xz -9e -T1 -c "$d" > "$d.xz" && rm -f "$d"
		fi
	done
	ls -l tp-*
	echo "distinct tracepoints: $(for d in $FIXTURES; do xz -dc "$d.script.xz"; done |
		awk '{for (i = 1; i <= NF; i++) if ($i ~ /^[a-z_0-9]+:[a-z_0-9]+:$/) print $i}' | sort -u | wc -l)"
}

case "${1:-all}" in
all)     record; oracles; kallsyms; pack ;;
oracles) oracles; kallsyms; pack ;;
*)       echo "usage: $0 [all|oracles]" >&2; exit 2 ;;
esac
