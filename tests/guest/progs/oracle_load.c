// SPDX-License-Identifier: GPL-2.0-only
/*
 * oracle_load.c - the contended workloads of the accuracy oracle tests
 * (tests/guest/oracle-*.sh): each mode runs a set of tasks, each for SECS
 * seconds from its start, every task named (comm or_*) by its role, then
 * exits once all of them are done.  What they do is meant to be what users have, not a
 * single injected latency; the oracle compares what the trackers report
 * with the kernel's own trace of the same run.
 *
 *   sched SECS EXEC_PROG    scheduler mix: three fair tasks sharing CPU 1
 *                           with short work and short sleeps (the delayed
 *                           dequeue case of EEVDF), two tasks migrating
 *                           between CPUs at every sleep, a SCHED_FIFO task
 *                           on CPU 0, and churn: children blocked in a pipe
 *                           read then killed (woken, they exit), and
 *                           EXEC_PROG (thread_exec: an execve from a
 *                           non-leader thread while the leader blocks),
 *                           and a signal storm: a task on CPU 1 sleeping
 *                           and waking in a loop while another (on CPU 0)
 *                           sends it signals every 100 us (a signal that
 *                           comes as it enters schedule() keeps it
 *                           runnable, with its sleeping state in
 *                           sched_switch before Linux 6.16)
 *   syscalls SECS EXEC_PROG system-call mix: non-blocking calls (getppid,
 *                           small reads and writes, EAGAIN on an empty
 *                           non-blocking pipe, a 1 MiB read of /dev/zero
 *                           that lasts on the CPU) on CPU 1 against a fair
 *                           spinner, blocking calls (pipe reads woken after
 *                           random delays, poll and futex timeouts,
 *                           nanosleep), and the churn above
 *   block SECS DEV...       direct I/O: on each device two processes (one
 *                           per CPU, so one per submission queue) doing
 *                           random 4 KiB O_DIRECT reads and writes, and on
 *                           the first device two threads on different CPUs
 *                           writing sector 0 at the same time (requests the
 *                           trace cannot tell apart), round after round
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSEC_PER_USEC	1000LL
#define NSEC_PER_SEC	1000000000LL
#define BLOCK_SIZE	4096
/* Random I/O lands in the first GiB of a device, never on sector 0. */
#define BLOCK_SPAN	(1LL << 30)

static int64_t secs_ns;			/* how long each task runs */
static int64_t deadline;		/* CLOCK_MONOTONIC ns */
static const char *exec_prog;

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NSEC_PER_SEC + ts.tv_nsec;
}

static int running(void)
{
	return now_ns() < deadline;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void name(const char *n)
{
	prctl(PR_SET_NAME, n, 0, 0, 0);
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* Work on the CPU without a system call (the clock is the vDSO's). */
/*
 * Burn the CPU for about US microseconds.  The clock is read between
 * rounds of busy work, not in a tight loop: where the guest's clocksource
 * has no vDSO path (seen on 6.1 under TCG) every read is a system call,
 * and a spinner reading in a loop made 80 % of the syscalls oracle's
 * trace (40,000 clock_gettime in 2 s), and its analysis four times longer.
 */
static void spin_us(int64_t us)
{
	int64_t end = now_ns() + us * NSEC_PER_USEC;
	volatile unsigned int i;

	do {
		for (i = 0; i < 10000; i++)
			;
	} while (now_ns() < end);
}

static void sleep_us(int64_t us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };

	nanosleep(&ts, NULL);
}

/* A uniform value in [lo, hi]; each task has its own seed. */
static int64_t rnd(unsigned int *seed, int64_t lo, int64_t hi)
{
	return lo + rand_r(seed) % (hi - lo + 1);
}

/* Runs fn(arg) in a child process; returns its pid. */
static pid_t spawn(void (*fn)(long), long arg)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		/* Its SECS from now: a slow kernel may start it late. */
		deadline = now_ns() + secs_ns;
		fn(arg);
		_exit(0);
	}
	return pid;
}

static void wait_all(void)
{
	while (wait(NULL) > 0 || errno == EINTR)
		;
}

/* --- sched --- */

static void fair(long i)
{
	unsigned int seed = 100 + i;

	name("or_fair");
	pin(1);
	while (running()) {
		spin_us(rnd(&seed, 500, 2000));
		sleep_us(rnd(&seed, 200, 800));
	}
}

static void migrate(long i)
{
	unsigned int seed = 200 + i;
	long n = i;

	name("or_migr");
	while (running()) {
		pin(n++ % 2);
		spin_us(rnd(&seed, 100, 500));
		sleep_us(rnd(&seed, 300, 1000));
	}
}

static void fifo(long i)
{
	struct sched_param sp = { .sched_priority = 10 };

	(void)i;
	name("or_fifo");
	pin(0);
	if (sched_setscheduler(0, SCHED_FIFO, &sp))
		die("sched_setscheduler");
	while (running()) {
		spin_us(200);
		sleep_us(3000);
	}
}

/* The state letter of a task in /proc (0 if unknown). */
static char task_state(pid_t pid)
{
	char path[64], buf[512], *s;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	s = strrchr(buf, ')');
	return s && s[1] && s[2] ? s[2] : 0;
}

/*
 * A child blocked in a pipe read (seen asleep, at most 200 ms waited),
 * killed: woken by the kill, it exits.
 */
static void doomed(void)
{
	int p[2], i;
	pid_t pid;
	char c;

	if (pipe(p))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		name("or_doomed");
		close(p[1]);
		if (read(p[0], &c, 1) < 0)
			_exit(1);
		_exit(0);
	}
	close(p[0]);
	for (i = 0; i < 200 && task_state(pid) != 'S'; i++)
		sleep_us(1000);
	sleep_us(1000);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(p[1]);
}

/* EXEC_PROG 3: its second thread execs after 3 ms, the leader blocked. */
static void thread_exec(void)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		execl(exec_prog, "thread_exec", "3", (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

static void churn(long i)
{
	(void)i;
	name("or_churn");
	while (running()) {
		doomed();
		thread_exec();
		sleep_us(10000);
	}
}

static void on_signal(int sig)
{
	(void)sig;
}

/* Sleeps 200-800 us at a time, woken early by the storm's signals. */
static void sig_target(long i)
{
	unsigned int seed = 300 + i;
	struct sigaction sa = { .sa_handler = on_signal };

	name("or_sig");
	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	pin(1);
	while (running()) {
		spin_us(rnd(&seed, 20, 100));
		sleep_us(rnd(&seed, 200, 800));
	}
}

static void sig_storm(long target)
{
	name("or_sigstorm");
	pin(0);
	while (running() && !kill((pid_t)target, SIGUSR1))
		sleep_us(100);
}

static void mode_sched(void)
{
	pid_t target;
	int i;

	for (i = 0; i < 3; i++)
		spawn(fair, i);
	for (i = 0; i < 2; i++)
		spawn(migrate, i);
	spawn(fifo, 0);
	spawn(churn, 0);
	/* SIGUSR1 is caught before the storm starts (or it kills). */
	signal(SIGUSR1, on_signal);
	target = spawn(sig_target, 0);
	spawn(sig_storm, target);
	wait_all();
}

/* --- syscalls --- */

static void nonblock(long i)
{
	static char big[1 << 20];
	char buf[BLOCK_SIZE];
	int zero, null, p[2];
	long n = 0;

	(void)i;
	name("or_nonblock");
	pin(1);
	zero = open("/dev/zero", O_RDONLY);
	null = open("/dev/null", O_WRONLY);
	if (zero < 0 || null < 0 || pipe2(p, O_NONBLOCK))
		die("open");
	while (running()) {
		getppid();
		if (read(zero, buf, sizeof(buf)) < 0 ||
		    write(null, buf, sizeof(buf)) < 0)
			die("read/write");
		if (read(p[0], buf, 1) >= 0 || errno != EAGAIN)
			die("EAGAIN expected");
		if (++n % 8 == 0 && read(zero, big, sizeof(big)) < 0)
			die("read");
		if (n % 4 == 0)
			sleep_us(1000);
	}
}

static void spinner(long i)
{
	unsigned int seed = 300 + i;

	name("or_spin");
	pin(1);
	while (running()) {
		spin_us(rnd(&seed, 1000, 3000));
		sleep_us(rnd(&seed, 500, 2000));
	}
}

static int pp[2];

static void *pp_writer(void *arg)
{
	unsigned int seed = 400;
	char c = 'x';

	(void)arg;
	name("or_ppwriter");
	while (running()) {
		sleep_us(rnd(&seed, 500, 6000));
		if (write(pp[1], &c, 1) != 1)
			die("write");
	}
	close(pp[1]);
	return NULL;
}

static void pingpong(long i)
{
	pthread_t t;
	char c;

	(void)i;
	name("or_ppreader");
	if (pipe(pp))
		die("pipe");
	if (pthread_create(&t, NULL, pp_writer, NULL))
		die("pthread_create");
	while (read(pp[0], &c, 1) == 1)
		;
	pthread_join(t, NULL);
}

static void waiter(long i)
{
	unsigned int seed = 500 + i;
	struct pollfd pfd;
	uint32_t word = 0;
	struct timespec ts;
	int p[2];

	name("or_waiter");
	if (pipe(p))
		die("pipe");
	pfd.fd = p[0];
	pfd.events = POLLIN;
	while (running()) {
		poll(&pfd, 1, rnd(&seed, 1, 5));
		ts.tv_sec = 0;
		ts.tv_nsec = rnd(&seed, 500, 4000) * NSEC_PER_USEC;
		syscall(SYS_futex, &word, FUTEX_WAIT, 0, &ts, NULL, 0);
		sleep_us(rnd(&seed, 100, 3000));
	}
}

static void mode_syscalls(void)
{
	spawn(nonblock, 0);
	spawn(spinner, 0);
	spawn(pingpong, 0);
	spawn(waiter, 0);
	spawn(waiter, 1);
	spawn(churn, 0);
	wait_all();
}

/* --- block --- */

static char *const *block_devs;

static void *io_buf(void)
{
	void *buf;

	if (posix_memalign(&buf, BLOCK_SIZE, BLOCK_SIZE))
		die("posix_memalign");
	memset(buf, 0x5a, BLOCK_SIZE);
	return buf;
}

/* arg: device index * 2 + CPU. */
static void random_io(long arg)
{
	unsigned int seed = 600 + arg;
	void *buf = io_buf();
	off_t off;
	int fd;

	name("or_randio");
	pin(arg % 2);
	fd = open(block_devs[arg / 2], O_RDWR | O_DIRECT);
	if (fd < 0)
		die(block_devs[arg / 2]);
	while (running()) {
		off = rnd(&seed, 1, BLOCK_SPAN / BLOCK_SIZE - 1) * BLOCK_SIZE;
		if (rand_r(&seed) % 2) {
			if (pwrite(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE)
				die("pwrite");
		} else if (pread(fd, buf, BLOCK_SIZE, off) != BLOCK_SIZE) {
			die("pread");
		}
	}
}

static pthread_barrier_t same_bar;
static int same_fd;
static volatile int same_stop;

/* One write to sector 0 per round, both threads at once. */
static void *same_sector(void *arg)
{
	void *buf = io_buf();

	pin((long)arg);
	name("or_samesect");
	for (;;) {
		pthread_barrier_wait(&same_bar);
		if (same_stop)
			return NULL;
		if (pwrite(same_fd, buf, BLOCK_SIZE, 0) != BLOCK_SIZE)
			die("pwrite");
		pthread_barrier_wait(&same_bar);
	}
}

static void same(long i)
{
	pthread_t t;

	(void)i;
	same_fd = open(block_devs[0], O_RDWR | O_DIRECT);
	if (same_fd < 0)
		die(block_devs[0]);
	pthread_barrier_init(&same_bar, NULL, 3);
	if (pthread_create(&t, NULL, same_sector, (void *)0L) ||
	    pthread_create(&t, NULL, same_sector, (void *)1L))
		die("pthread_create");
	name("or_samelead");
	for (;;) {
		same_stop = !running();
		pthread_barrier_wait(&same_bar);
		if (same_stop)
			break;
		pthread_barrier_wait(&same_bar);
		sleep_us(2000);
	}
}

static void mode_block(int ndev)
{
	long d;

	for (d = 0; d < ndev; d++) {
		spawn(random_io, 2 * d);
		spawn(random_io, 2 * d + 1);
	}
	spawn(same, 0);
	wait_all();
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: oracle_load sched|syscalls SECS EXEC_PROG | block SECS DEV...\n");
		return 2;
	}
	secs_ns = (int64_t)(atof(argv[2]) * NSEC_PER_SEC);
	deadline = now_ns() + secs_ns;
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(argv[1], "block") && argc > 3) {
		block_devs = argv + 3;
		mode_block(argc - 3);
	} else if (argc == 4 && !strcmp(argv[1], "sched")) {
		exec_prog = argv[3];
		mode_sched();
	} else if (argc == 4 && !strcmp(argv[1], "syscalls")) {
		exec_prog = argv[3];
		mode_syscalls();
	} else {
		fprintf(stderr, "oracle_load: bad mode or arguments\n");
		return 2;
	}
	return 0;
}
