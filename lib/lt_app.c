// SPDX-License-Identifier: MIT
/*
 * lt_app.c - liblatency-tracker: <latency-tracker.h> over the transport
 * of lt_app_abi.h: one open file per struct lt_app, its region mapped; a
 * begin written in the calling thread's block of the region (no system
 * call once the thread has a block), or one ioctl when it has none or it
 * is full; an end one ioctl.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "latency-tracker.h"
#include "lt_app_abi.h"

/*
 * @id: unique among the handles of the process (a thread's cached block
 * names its handle by it: a later handle at the same address is another).
 * @region: the mapped region, or NULL (every begin is an ioctl).
 */
struct lt_app {
	int fd;
	uint64_t id;
	struct lt_app_req *region;
};

static atomic_uint_fast64_t lt_app_ids;
/* Bumped in a forked child: its threads' cached blocks are the parent's. */
static atomic_uint lt_app_gen;
static pthread_once_t lt_app_once = PTHREAD_ONCE_INIT;

/*
 * A thread's blocks, per handle it used last (a few): @blk NULL when the
 * kernel gave it none (its begins are ioctls, and it asks again after
 * LT_APP_RETRY of them).  The library is built with TLS descriptors
 * where the compiler has them (lib/Makefile): an access costs about an
 * initial-exec one, and dlopen() (Python's ctypes) still works.
 */
#define LT_APP_WAYS	4
#define LT_APP_RETRY	1024
static __thread struct {
	uint64_t id;
	unsigned int gen;
	unsigned int refused;
	struct lt_app_req *blk;
} lt_app_tls[LT_APP_WAYS];
static __thread unsigned int lt_app_tls_next;

static void lt_app_forked(void)
{
	atomic_fetch_add(&lt_app_gen, 1);
}

static void lt_app_init_once(void)
{
	pthread_atfork(NULL, NULL, lt_app_forked);
}

struct lt_app *lt_app_open(const char *name, uint64_t threshold_ns,
			   uint64_t timeout_ns)
{
	struct lt_app_attach arg = {
		.threshold_ns = threshold_ns,
		.timeout_ns = timeout_ns,
	};
	struct lt_app *app;
	int err;

	if (!name || strlen(name) >= sizeof(arg.name)) {
		errno = EINVAL;
		return NULL;
	}
	strcpy(arg.name, name);
	pthread_once(&lt_app_once, lt_app_init_once);
	app = malloc(sizeof(*app));
	if (!app)
		return NULL;
	app->fd = open(LT_APP_FILE, O_RDWR | O_CLOEXEC);
	if (app->fd < 0)
		goto fail;
	if (ioctl(app->fd, LT_APP_IOC_ATTACH, &arg) < 0)
		goto fail_close;
	app->id = atomic_fetch_add(&lt_app_ids, 1) + 1;
	/* Without the region (an older module), every begin is an ioctl. */
	err = errno;
	app->region = mmap(NULL, LT_APP_REGION_SIZE, PROT_READ | PROT_WRITE,
			   MAP_SHARED, app->fd, 0);
	if (app->region == MAP_FAILED)
		app->region = NULL;
	errno = err;
	return app;

fail_close:
	err = errno;
	close(app->fd);
	errno = err;
fail:
	err = errno;
	free(app);
	errno = err;
	return NULL;
}

/* One ioctl; errno left as it was. */
static int lt_app_call(struct lt_app *app, unsigned long cmd, uint64_t cookie)
{
	int saved = errno, ret = 0;

	if (!app)
		return -EINVAL;
#if ULONG_MAX < UINT64_MAX
	if (cookie > ULONG_MAX)
		return -EOVERFLOW;	/* a 32-bit process: 32-bit cookies */
#endif
	if (ioctl(app->fd, cmd, (unsigned long)cookie) < 0)
		ret = -errno;
	errno = saved;
	return ret;
}

/* The calling thread's block in @app's region, or NULL. */
static struct lt_app_req *lt_app_block(struct lt_app *app)
{
	unsigned int gen = atomic_load_explicit(&lt_app_gen,
						memory_order_relaxed);
	unsigned int w;
	int saved, idx;

	for (w = 0; w < LT_APP_WAYS; w++) {
		if (lt_app_tls[w].id != app->id || lt_app_tls[w].gen != gen)
			continue;
		if (lt_app_tls[w].blk ||
		    ++lt_app_tls[w].refused % LT_APP_RETRY)
			return lt_app_tls[w].blk;
		break;	/* refused a while ago: ask again */
	}
	if (!app->region)
		return NULL;
	saved = errno;
	idx = ioctl(app->fd, LT_APP_IOC_REGISTER);
	errno = saved;
	if (w == LT_APP_WAYS)
		w = lt_app_tls_next++ % LT_APP_WAYS;
	lt_app_tls[w].id = app->id;
	lt_app_tls[w].gen = gen;
	lt_app_tls[w].refused = 0;
	lt_app_tls[w].blk = idx >= 0 && idx < LT_APP_BLOCKS ?
			    app->region + idx * LT_APP_BLOCK_REQS : NULL;
	return lt_app_tls[w].blk;
}

static _Atomic uint32_t *lt_app_state(struct lt_app_req *r)
{
	return (_Atomic uint32_t *)&r->state;
}

/* @r is the caller's, state BEGIN: stamp it and open it. */
static void lt_app_stamp(struct lt_app_req *r)
{
	uint32_t begin = LT_APP_REQ_BEGIN;
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	r->ts_ns = (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
	/* Fails when the kernel took it meanwhile (timed from then). */
	atomic_compare_exchange_strong_explicit(lt_app_state(r), &begin,
						LT_APP_REQ_OPEN,
						memory_order_release,
						memory_order_relaxed);
}

int lt_app_begin(struct lt_app *app, uint64_t cookie)
{
	struct lt_app_req *blk, *free = NULL;
	unsigned int i;

	if (!app)
		return -EINVAL;
#if ULONG_MAX < UINT64_MAX
	if (cookie > ULONG_MAX)
		return -EOVERFLOW;	/* its end could not name it */
#endif
	blk = lt_app_block(app);
	if (!blk)
		return lt_app_call(app, LT_APP_IOC_BEGIN, cookie);
	for (i = 0; i < LT_APP_BLOCK_REQS; i++) {
		uint32_t st = atomic_load_explicit(lt_app_state(&blk[i]),
						   memory_order_acquire);

		/* A live request of this cookie begins again. */
		if (st == LT_APP_REQ_OPEN && blk[i].cookie == cookie &&
		    atomic_compare_exchange_strong_explicit(
				lt_app_state(&blk[i]), &st, LT_APP_REQ_BEGIN,
				memory_order_acq_rel, memory_order_relaxed)) {
			lt_app_stamp(&blk[i]);
			return 0;
		}
		if (st == LT_APP_REQ_FREE && !free)
			free = &blk[i];
	}
	/*
	 * Claimed, not stored: a signal handler of this thread may begin a
	 * request between the look and the claim (it takes another entry).
	 */
	for (; free && free < blk + LT_APP_BLOCK_REQS; free++) {
		uint32_t st = LT_APP_REQ_FREE;

		if (!atomic_compare_exchange_strong_explicit(
				lt_app_state(free), &st, LT_APP_REQ_CLAIMED,
				memory_order_acquire, memory_order_relaxed))
			continue;
		free->cookie = cookie;
		/* The cookie before the kernel may take the entry. */
		atomic_store_explicit(lt_app_state(free), LT_APP_REQ_BEGIN,
				      memory_order_release);
		lt_app_stamp(free);
		return 0;
	}
	/* The block is full: the kernel's table. */
	return lt_app_call(app, LT_APP_IOC_BEGIN, cookie);
}

int lt_app_end(struct lt_app *app, uint64_t cookie)
{
	return lt_app_call(app, LT_APP_IOC_END, cookie);
}

void lt_app_close(struct lt_app *app)
{
	if (!app)
		return;
	if (app->region)
		munmap(app->region, LT_APP_REGION_SIZE);
	close(app->fd);
	free(app);
}
