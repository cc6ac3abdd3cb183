// SPDX-License-Identifier: GPL-2.0-only
/*
 * aio_burst DEV INFLIGHT ROUNDS - bursts of direct I/O: each round submits
 * INFLIGHT direct 4 KiB reads of DEV at once, none adjacent to another
 * (so none is merged: one request each; Linux AIO, io_submit() in
 * batches of AIO_BATCH), then reaps them all; a submission that finds the
 * device's queue full waits for a tag inside io_submit(), so the device
 * holds as many requests as its queues take.  Prints "done N" (the reads
 * completed) and exits 0 when every read succeeded.  Raw system calls:
 * no libaio needed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/aio_abi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define AIO_BATCH	256
#define AIO_BLOCK	4096
#define MAX_INFLIGHT	65536

static long io_setup(unsigned int nr, aio_context_t *ctx)
{
	return syscall(SYS_io_setup, nr, ctx);
}

static long io_submit(aio_context_t ctx, long nr, struct iocb **iocbs)
{
	return syscall(SYS_io_submit, ctx, nr, iocbs);
}

static long io_getevents(aio_context_t ctx, long min, long max,
			 struct io_event *events)
{
	return syscall(SYS_io_getevents, ctx, min, max, events, NULL);
}

int main(int argc, char **argv)
{
	struct io_event *events;
	struct iocb *cbs, **ptrs;
	long inflight, rounds, r, i, n, got, done = 0;
	aio_context_t ctx = 0;
	void *buf;
	int fd;

	if (argc != 4)
		goto usage;
	inflight = strtol(argv[2], NULL, 10);
	rounds = strtol(argv[3], NULL, 10);
	if (inflight < 1 || inflight > MAX_INFLIGHT || rounds < 1)
		goto usage;
	fd = open(argv[1], O_RDONLY | O_DIRECT);
	if (fd < 0) {
		perror("aio_burst: open");
		return 1;
	}
	if (io_setup((unsigned int)inflight, &ctx)) {
		perror("aio_burst: io_setup");
		return 1;
	}
	cbs = calloc((size_t)inflight, sizeof(*cbs));
	ptrs = calloc((size_t)inflight, sizeof(*ptrs));
	events = calloc((size_t)inflight, sizeof(*events));
	if (!cbs || !ptrs || !events ||
	    posix_memalign(&buf, AIO_BLOCK, AIO_BLOCK)) {
		fputs("aio_burst: out of memory\n", stderr);
		return 1;
	}
	/*
	 * One buffer for every read: null_blk moves no data by default.  A
	 * block between two reads: adjacent ones would be merged into one
	 * request.
	 */
	for (i = 0; i < inflight; i++) {
		cbs[i].aio_fildes = (uint32_t)fd;
		cbs[i].aio_lio_opcode = IOCB_CMD_PREAD;
		cbs[i].aio_buf = (uint64_t)(uintptr_t)buf;
		cbs[i].aio_nbytes = AIO_BLOCK;
		cbs[i].aio_offset = (int64_t)i * 2 * AIO_BLOCK;
		ptrs[i] = &cbs[i];
	}
	for (r = 0; r < rounds; r++) {
		for (i = 0; i < inflight; i += n) {
			n = inflight - i < AIO_BATCH ? inflight - i : AIO_BATCH;
			n = io_submit(ctx, n, ptrs + i);
			if (n < 1) {
				perror("aio_burst: io_submit");
				return 1;
			}
		}
		for (got = 0; got < inflight; got += n) {
			n = io_getevents(ctx, 1, inflight - got, events);
			if (n < 1) {
				perror("aio_burst: io_getevents");
				return 1;
			}
			for (i = 0; i < n; i++) {
				if (events[i].res != AIO_BLOCK) {
					fprintf(stderr, "aio_burst: read: %s\n",
						strerror((int)-events[i].res));
					return 1;
				}
			}
			done += n;
		}
	}
	printf("done %ld\n", done);
	return 0;

usage:
	fprintf(stderr, "usage: aio_burst DEV INFLIGHT(1..%d) ROUNDS\n",
		MAX_INFLIGHT);
	return 2;
}
