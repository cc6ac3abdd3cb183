// SPDX-License-Identifier: GPL-2.0-only
/*
 * flock.c - a file lock between two processes (the lock case study of
 * DepGraph): process ex_fl_holder (CPU 0) takes an fcntl(F_SETLKW) write
 * lock on LOCKFILE and sleeps HOLD_MS in it; process ex_fl_waiter (CPU 1)
 * blocks on the same lock in fcntl(F_SETLKW).  The file is opened by both
 * after the trace session started; the waiter first opens and closes
 * /dev/null, so the lock file gets a reused fd number (the fd table must
 * follow the trace, not a statedump).
 *
 * Usage: ex-flock LOCKFILE [HOLD_MS]   (default 150)
 * Prints holder_tid, waiter_tid, waiter_fd, waiter_start, waiter_end
 * (CLOCK_MONOTONIC ns around the waiter's fcntl) and lock (the path).
 */
#include <fcntl.h>
#include <sys/wait.h>

#include "common.h"

static int lock_fd(int fd, short type, int cmd)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET };

	return fcntl(fd, cmd, &fl);
}

static int holder(const char *path, unsigned int hold_ms, int ready)
{
	int fd;

	name_self("ex_fl_holder");
	pin_self(0);
	out("holder_tid=%d", gettid_());
	fd = open(path, O_RDWR | O_CREAT, 0600);
	if (fd < 0 || lock_fd(fd, F_WRLCK, F_SETLKW)) {
		perror("holder: lock");
		return 1;
	}
	if (write(ready, "1", 1) != 1)
		return 1;
	sleep_ms(hold_ms);
	lock_fd(fd, F_UNLCK, F_SETLK);
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned int hold_ms = 150;
	uint64_t start, end;
	int p[2], fd, st;
	pid_t child;
	char c;

	if (argc < 2) {
		fprintf(stderr, "usage: ex-flock LOCKFILE [HOLD_MS]\n");
		return 2;
	}
	if (argc > 2)
		hold_ms = (unsigned int)strtoul(argv[2], NULL, 10);
	if (pipe(p))
		return 1;
	child = fork();
	if (child < 0)
		return 1;
	if (!child)
		return holder(argv[1], hold_ms, p[1]);
	name_self("ex_fl_waiter");
	pin_self(1);
	out("waiter_tid=%d", gettid_());
	out("lock=%s", argv[1]);
	/* An fd the lock file will reuse. */
	fd = open("/dev/null", O_RDONLY);
	if (fd >= 0)
		close(fd);
	/* The holder has the lock once it writes. */
	if (read(p[0], &c, 1) != 1)
		return 1;
	fd = open(argv[1], O_RDWR);
	if (fd < 0) {
		perror(argv[1]);
		return 1;
	}
	out("waiter_fd=%d", fd);
	start = now_ns();
	if (lock_fd(fd, F_WRLCK, F_SETLKW))
		perror("waiter: lock");
	end = now_ns();
	lock_fd(fd, F_UNLCK, F_SETLK);
	close(fd);
	out("waiter_start=%llu", (unsigned long long)start);
	out("waiter_end=%llu", (unsigned long long)end);
	waitpid(child, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}
