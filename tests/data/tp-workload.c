/*
 * tp-workload.c - small deterministic workload that fires many kinds of
 * tracepoints, for the tp-*.data fixtures (see record-tracepoints.sh).
 *
 * Build:  gcc -O1 -g -fno-omit-frame-pointer -o tp-workload tp-workload.c
 *
 * One run, in this order (each step a noinline function, so -g callchains
 * name it):
 *   do_rename   prctl(PR_SET_NAME, "tp-worker")          task:task_rename
 *   do_memory   malloc + touch 256 KiB, free             exceptions:page_fault_user, kmem:*
 *   do_files    2 x (openat, 4 x write 16 KiB, fsync, close, unlink)
 *                                                        syscalls, block:*, writeback:*, ext4
 *   do_udp      8 UDP datagrams to 127.0.0.1, received, 1 to a closed port
 *                                                        net:*, skb:kfree_skb, irq:softirq_*
 *   do_tcp      a loopback TCP connection, 2 x 64 bytes  skb:consume_skb, skb_copy_datagram_iovec
 *   do_signals  kill(self, SIGUSR1) x 3, setitimer 2 ms + pause
 *                                                        signal:*, timer:itimer_*, hrtimer_*
 *   do_sleep    nanosleep 1 ms x 3                       timer:hrtimer_*, sched:sched_switch
 *   do_fork     fork; the child re-executes this program with "-c"
 *               (a short loop, 2 writes to /dev/null), the parent waits
 *                                                        sched:sched_process_*, task:task_newtask
 * Around all of it, one nice-19 spinner child per online CPU keeps the CPUs
 * busy: on the recording VM perf gets no tracepoint events that fire in the
 * idle task (e.g. the block completion interrupts), so they must interrupt a
 * running task instead. The spinners are killed (SIGKILL) at the end.
 * Options: -c  child mode (see above); -n N  repeat the whole run N times.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define DIR "/tmp/perfdata-tp"

volatile unsigned long sink;
static volatile sig_atomic_t nsig;

static void on_signal(int sig)
{
	nsig += sig;
}

__attribute__((noinline)) void do_rename(void)
{
	prctl(PR_SET_NAME, "tp-worker", 0, 0, 0);
}

__attribute__((noinline)) void do_memory(void)
{
	size_t n = 256 * 1024;
	char *p = malloc(n);
	if (!p)
		return;
	for (size_t i = 0; i < n; i += 4096)
		p[i] = (char)i;
	sink += (unsigned char)p[n / 2];
	free(p);
}

__attribute__((noinline)) void do_files(void)
{
	static char buf[16384];
	memset(buf, 'x', sizeof buf);
	for (int f = 0; f < 2; f++) {
		char path[64];
		snprintf(path, sizeof path, DIR "/file%d", f);
		int fd = open(path, O_CREAT | O_TRUNC | O_WRONLY, 0644);
		if (fd < 0)
			continue;
		for (int i = 0; i < 4; i++)
			if (write(fd, buf, sizeof buf) < 0)
				break;
		fsync(fd);
		close(fd);
		unlink(path);
	}
}

__attribute__((noinline)) void do_udp(void)
{
	int rx = socket(AF_INET, SOCK_DGRAM, 0), tx = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	char msg[64] = "perfdata tracepoint fixture";
	if (rx < 0 || tx < 0)
		goto out;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(rx, (struct sockaddr *)&a, sizeof a) < 0 ||
	    getsockname(rx, (struct sockaddr *)&a, &len) < 0)
		goto out;
	for (int i = 0; i < 8; i++) {
		sendto(tx, msg, sizeof msg, 0, (struct sockaddr *)&a, sizeof a);
		recv(rx, msg, sizeof msg, 0);
	}
	/* the port is closed now: the datagram is dropped (ICMP unreachable) */
	close(rx);
	rx = -1;
	sendto(tx, msg, sizeof msg, 0, (struct sockaddr *)&a, sizeof a);
out:
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
}

__attribute__((noinline)) void do_tcp(void)
{
	int ls = socket(AF_INET, SOCK_STREAM, 0), c = socket(AF_INET, SOCK_STREAM, 0), s = -1;
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof a;
	char msg[64] = "perfdata tracepoint fixture (tcp)";
	if (ls < 0 || c < 0)
		goto out;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(ls, (struct sockaddr *)&a, sizeof a) < 0 || listen(ls, 1) < 0 ||
	    getsockname(ls, (struct sockaddr *)&a, &len) < 0 ||
	    connect(c, (struct sockaddr *)&a, sizeof a) < 0 ||
	    (s = accept(ls, NULL, NULL)) < 0)
		goto out;
	for (int i = 0; i < 2; i++) {
		if (send(c, msg, sizeof msg, 0) < 0)
			break;
		size_t got = 0;
		while (got < sizeof msg) {
			ssize_t n = recv(s, msg + got, sizeof msg - got, 0);
			if (n <= 0)
				goto out;
			got += (size_t)n;
		}
	}
out:
	if (s >= 0)
		close(s);
	if (c >= 0)
		close(c);
	if (ls >= 0)
		close(ls);
}

__attribute__((noinline)) void do_signals(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGALRM, &sa, NULL);
	for (int i = 0; i < 3; i++)
		kill(getpid(), SIGUSR1);
	struct itimerval it = { .it_value = { 0, 2000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	while (nsig < 3 * SIGUSR1 + SIGALRM)
		pause();
}

__attribute__((noinline)) void do_sleep(void)
{
	struct timespec ts = { 0, 1000000 };
	for (int i = 0; i < 3; i++)
		nanosleep(&ts, NULL);
}

__attribute__((noinline)) void spin(int n)
{
	unsigned long x = sink;
	for (int i = 0; i < n; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	sink = x;
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void spinner(void)
{
	setpriority(PRIO_PROCESS, 0, 19);
	for (;;)
		spin(1000000);
}

__attribute__((noinline)) int child_main(void)
{
	int fd = open("/dev/null", O_WRONLY);
	spin(200000);
	for (int i = 0; i < 2; i++)
		if (write(fd, "child\n", 6) < 0)
			break;
	close(fd);
	return 0;
}

__attribute__((noinline)) void do_fork(const char *self)
{
	pid_t pid = fork();
	if (pid == 0) {
		execl(self, self, "-c", (char *)NULL);
		_exit(child_main());
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

int main(int argc, char **argv)
{
	int rounds = 1;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "-c"))
			return child_main();
		if (!strcmp(argv[i], "-n") && i + 1 < argc)
			rounds = atoi(argv[++i]);
	}
	do_rename();
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	pid_t spinners[64];
	int nspin = 0;
	for (; nspin < ncpu && nspin < 64; nspin++) {
		spinners[nspin] = fork();
		if (spinners[nspin] == 0)
			spinner();
		if (spinners[nspin] < 0)
			break;
	}
	for (int r = 0; r < rounds; r++) {
		do_memory();
		do_files();
		do_udp();
		do_tcp();
		do_signals();
		do_sleep();
		do_fork(argv[0]);
		nsig = 0;
	}
	for (int i = 0; i < nspin; i++) {
		kill(spinners[i], SIGKILL);
		waitpid(spinners[i], NULL, 0);
	}
	return 0;
}
