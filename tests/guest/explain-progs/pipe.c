// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe.c - producer/consumer over a pipe: thread ex_consumer (CPU 1)
 * blocks in read() on the pipe's read end; thread ex_producer (CPU 0)
 * sleeps SLEEP_MS, then writes one record.  The pipe is created after
 * the trace session started (pipe2: no statedump names it).
 *
 * Usage: ex-pipe [SLEEP_MS]   (default 100)
 * Prints producer_tid, consumer_tid, read_fd, consumer_start,
 * consumer_end (CLOCK_MONOTONIC ns around the consumer's read).
 */
#include <fcntl.h>
#include <stdatomic.h>

#include "common.h"

static int fds[2];
static unsigned int sleep_for = 100;
static atomic_int reading;

static void *producer(void *arg)
{
	(void)arg;
	name_self("ex_producer");
	pin_self(0);
	out("producer_tid=%d", gettid_());
	while (!atomic_load(&reading))
		;
	sleep_ms(sleep_for);
	if (write(fds[1], "record\n", 7) != 7)
		perror("write");
	return NULL;
}

static void *consumer(void *arg)
{
	uint64_t start, end;
	char buf[16];
	ssize_t n;

	(void)arg;
	name_self("ex_consumer");
	pin_self(1);
	out("consumer_tid=%d", gettid_());
	(void)now_ns();
	atomic_store(&reading, 1);
	start = now_ns();
	n = read(fds[0], buf, sizeof(buf));
	end = now_ns();
	if (n != 7)
		perror("read");
	out("consumer_start=%llu", (unsigned long long)start);
	out("consumer_end=%llu", (unsigned long long)end);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t a, b;

	if (argc > 1)
		sleep_for = (unsigned int)strtoul(argv[1], NULL, 10);
	if (pipe2(fds, O_CLOEXEC)) {
		perror("pipe2");
		return 1;
	}
	out("read_fd=%d", fds[0]);
	pthread_create(&b, NULL, consumer, NULL);
	pthread_create(&a, NULL, producer, NULL);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
