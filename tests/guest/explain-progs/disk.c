// SPDX-License-Identifier: GPL-2.0-only
/*
 * disk.c - disk contention (DepGraph V-C): two threads, ex_victim and
 * ex_other, write 4 KiB blocks with O_DIRECT to one (slow) block device,
 * WRITES times each, at the same time.
 *
 * Usage: ex-disk DEVICE [WRITES]   (default 3)
 * Prints victim_tid, other_tid, and for the victim's second write
 * write_start and write_end (CLOCK_MONOTONIC ns around pwrite).
 */
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>

#include "common.h"

#define BLOCK 4096

static const char *device;
static unsigned int writes = 3;
static atomic_int go;

struct writer {
	const char *name;
	int cpu;
	off_t base;
	int victim;
};

static void *writer(void *arg)
{
	struct writer *w = arg;
	void *buf;
	int fd;

	name_self(w->name);
	pin_self(w->cpu);
	out("%s_tid=%d", w->victim ? "victim" : "other", gettid_());
	if (posix_memalign(&buf, BLOCK, BLOCK))
		return NULL;
	memset(buf, 0x5a, BLOCK);
	fd = open(device, O_WRONLY | O_DIRECT);
	if (fd < 0) {
		perror(device);
		exit(1);
	}
	while (!atomic_load(&go))
		;
	for (unsigned int i = 0; i < writes; i++) {
		uint64_t start = now_ns(), end;

		if (pwrite(fd, buf, BLOCK, w->base + (off_t)i * BLOCK) != BLOCK)
			perror("pwrite");
		end = now_ns();
		if (w->victim && i == 1) {
			out("write_start=%llu", (unsigned long long)start);
			out("write_end=%llu", (unsigned long long)end);
		}
	}
	close(fd);
	free(buf);
	return NULL;
}

int main(int argc, char **argv)
{
	struct writer v = { "ex_victim", 1, 0, 1 };
	struct writer o = { "ex_other", 0, 1 << 20, 0 };
	pthread_t a, b;

	if (argc < 2) {
		fprintf(stderr, "usage: ex-disk DEVICE [WRITES]\n");
		return 2;
	}
	device = argv[1];
	if (argc > 2)
		writes = (unsigned int)strtoul(argv[2], NULL, 10);
	pthread_create(&a, NULL, writer, &v);
	pthread_create(&b, NULL, writer, &o);
	sleep_ms(50);
	atomic_store(&go, 1);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	return 0;
}
