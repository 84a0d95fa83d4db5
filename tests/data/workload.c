/*
 * workload.c - tiny deterministic-ish workload used to record the perf.data
 * test fixtures in this directory (see record.sh).
 *
 * Build:  gcc -O1 -g -fno-omit-frame-pointer -o workload workload.c -lpthread
 *
 * Call tree (per round, work units in brackets):
 *
 *   main / thread_main / child
 *     run_for_ms
 *       compute
 *         hot_a            [3]
 *         helper
 *           hot_b          [2]
 *           hot_c          [1]
 *
 * so CPU samples should land in hot_a : hot_b : hot_c at roughly 3 : 2 : 1.
 *
 * Options:
 *   -d MS   busy-run for MS milliseconds in each task (default 30)
 *   -t N    additionally start N pthreads that run the same loop (default 0)
 *   -f N    additionally fork N child processes that run the same loop (default 0)
 *   -m KB   touch KB kibibytes of freshly malloc'ed memory first (page faults)
 *   -s MS   nanosleep MS milliseconds before exiting (context switches)
 *   -w N    write(2) a short line to /dev/null N times (syscall tracepoints)
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <sys/wait.h>

#define UNIT 2000

volatile unsigned long sink;

/*
 * The hot_* functions end with a call to publish() so that they are not leaf
 * functions: gcc omits the frame-pointer setup in leaf functions even with
 * -fno-omit-frame-pointer, which would make frame-pointer callchains skip
 * the caller of the sampled function.
 */
__attribute__((noinline)) void publish(unsigned long x)
{
	sink = x;
}

static double now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

__attribute__((noinline)) void hot_a(void)
{
	unsigned long x = sink;
	for (int i = 0; i < 3 * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	publish(x);
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

__attribute__((noinline)) void hot_b(void)
{
	unsigned long x = sink;
	for (int i = 0; i < 2 * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	publish(x);
	__asm__ volatile("" ::: "memory");	/* no tail call */
}

__attribute__((noinline)) void hot_c(void)
{
	unsigned long x = sink;
	for (int i = 0; i < 1 * UNIT; i++)
		x = x * 6364136223846793005UL + 1442695040888963407UL;
	publish(x);
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void helper(void)
{
	hot_b();
	hot_c();
	__asm__ volatile("" ::: "memory");	/* keep helper's frame */
}

__attribute__((noinline)) void compute(void)
{
	hot_a();
	helper();
	__asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void run_for_ms(int ms)
{
	double end = now_ms() + ms;
	do
		compute();
	while (now_ms() < end);
}

__attribute__((noinline)) void touch_memory(size_t kb)
{
	size_t len = kb * 1024;
	char *p = malloc(len);
	if (!p)
		return;
	for (size_t off = 0; off < len; off += 4096)
		p[off] = (char)off;
	sink += p[len / 2];
	free(p);
}

__attribute__((noinline)) void do_writes(int n)
{
	int fd = open("/dev/null", O_WRONLY);
	if (fd < 0)
		return;
	for (int i = 0; i < n; i++)
		if (write(fd, "perfdata\n", 9) != 9)
			break;
	close(fd);
}

static int opt_ms = 30;

static void *thread_main(void *arg)
{
	(void)arg;
	run_for_ms(opt_ms);
	return NULL;
}

int main(int argc, char **argv)
{
	int nthreads = 0, nforks = 0, mem_kb = 0, sleep_ms = 0, nwrites = 0, c;

	while ((c = getopt(argc, argv, "d:t:f:m:s:w:")) != -1) {
		switch (c) {
		case 'd': opt_ms = atoi(optarg); break;
		case 't': nthreads = atoi(optarg); break;
		case 'f': nforks = atoi(optarg); break;
		case 'm': mem_kb = atoi(optarg); break;
		case 's': sleep_ms = atoi(optarg); break;
		case 'w': nwrites = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: %s [-d ms] [-t threads] [-f forks] "
				"[-m kb] [-s sleep_ms] [-w writes]\n", argv[0]);
			return 2;
		}
	}

	if (mem_kb > 0)
		touch_memory(mem_kb);
	if (nwrites > 0)
		do_writes(nwrites);

	pid_t *kids = calloc(nforks > 0 ? nforks : 1, sizeof(*kids));
	for (int i = 0; i < nforks; i++) {
		kids[i] = fork();
		if (kids[i] == 0) {
			run_for_ms(opt_ms);
			_exit(0);
		}
	}

	pthread_t *tids = calloc(nthreads > 0 ? nthreads : 1, sizeof(*tids));
	for (int i = 0; i < nthreads; i++)
		pthread_create(&tids[i], NULL, thread_main, NULL);

	run_for_ms(opt_ms);

	for (int i = 0; i < nthreads; i++)
		pthread_join(tids[i], NULL);
	for (int i = 0; i < nforks; i++)
		if (kids[i] > 0)
			waitpid(kids[i], NULL, 0);

	if (sleep_ms > 0) {
		struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
		nanosleep(&ts, NULL);
	}
	free(tids);
	free(kids);
	return 0;
}
