// SPDX-License-Identifier: GPL-2.0-only
/*
 * block.c - latency_tracker_block: block request latency, from the issue
 * of a request to the driver (block_rq_issue) to its completion
 * (block_rq_complete).
 *
 * Each request is matched with its own final completion: the key is the
 * request (two requests in flight on one sector are two events), partial
 * completions do not end it, and a requeue cancels its measurement
 * (counted as cancelled, never as matched) -- the request is measured
 * anew from its next issue, so the time spent waiting in the queue after
 * a requeue is not a device latency.  Passthrough requests (SCSI/NVMe
 * commands from userspace, no meaningful sector) are not tracked.
 *
 * Requests are issued from dispatch context (often a kworker), not by the
 * task that wanted the I/O, so the filters look at the request:
 * filter_cgroup at its blkcg (the cgroup its bio is charged to, which
 * needs the io controller enabled for that cgroup's parent), filter_dev at
 * its disk; filter_tgid and kthreads do not apply (their files accept
 * only the defaults, empty and 1).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <trace/events/block.h>

#include <lt_records/block.h>
#include "common/probe.h"
#include "lt_trace.h"

/*
 * 20 ms: several times a disk seek, hundreds of times an SSD access.
 * max_events 0: the pool grows with the requests in flight (and those
 * ended within the last grace periods), whatever the devices' queues.
 */
LT_PROBE_MODULE_PARAMS(20000000, 0, 0, 1);
LT_PROBE_MODULE_PARAM_DEV();

/*
 * Key: the request itself.  A request is in flight from its issue to its
 * final completion (or a requeue), and its structure is not reused before
 * that, so two requests in flight on one (device, sector) are told apart.
 * The pointer is only a key: what records show comes from the private data.
 */
struct lt_block_key {
	const struct request *rq;
};

/* The request as issued (a partial completion advances its sector). */
struct lt_block_priv {
	u64 cgroup;
	u64 sector;
	u32 dev;
	u32 nr_sectors;
	u32 op;
};

static struct lt_probe lt_block;

static u32 lt_block_op_of(const struct request *rq)
{
	switch (req_op(rq)) {
	case REQ_OP_READ:
		return LT_BLOCK_OP_READ;
	case REQ_OP_WRITE:
		return LT_BLOCK_OP_WRITE;
	case REQ_OP_FLUSH:
		return LT_BLOCK_OP_FLUSH;
	case REQ_OP_DISCARD:
		return LT_BLOCK_OP_DISCARD;
	default:
		return LT_BLOCK_OP_OTHER;
	}
}

/* False for requests not tracked (passthrough, no disk). */
static bool lt_block_tracked(struct request *rq)
{
	return !blk_rq_is_passthrough(rq) && rq->q->disk;
}

static void lt_block_cb(const struct latency_tracker_report *r)
{
	const struct lt_block_priv *priv =
		latency_tracker_event_priv(r->event);
	struct lt_block_record a = { };

	a.sector = priv->sector;
	a.dev = priv->dev;
	a.nr_sectors = priv->nr_sectors;
	a.op = priv->op;
	a.cgroup = priv->cgroup;
	trace_block(r->cause, r->delay_ns, &a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
}

static LT_RECORD_FMT(lt_block_fmt, struct lt_block_record, LT_BLOCK_RECORD)

static void lt_block_probe_issue(void *data, struct request *rq)
{
	struct lt_block_key k = { .rq = rq };
	struct lt_block_priv priv;
	struct latency_tracker_in_opts opts = {
		.priv = &priv,
		.priv_len = sizeof(priv),
	};

	if (!lt_block_tracked(rq))
		return;
	priv.dev = disk_devt(rq->q->disk);
	if (!lt_probe_track_request(&lt_block, rq, priv.dev, &priv.cgroup))
		return;
	priv.sector = blk_rq_pos(rq);
	priv.nr_sectors = blk_rq_sectors(rq);
	priv.op = lt_block_op_of(rq);
	latency_tracker_event_in(lt_block.t, &k, sizeof(k), &opts);
}

/*
 * block_rq_complete fires in blk_update_request() before the request
 * advances, once per completed part: @nr_bytes less than what remains
 * (blk_rq_bytes()) is a partial completion, and the request goes on (more
 * completions, or a requeue of the rest).  Only the final one ends it.
 */
static void lt_block_probe_complete(void *data, struct request *rq,
				    blk_status_t error, unsigned int nr_bytes)
{
	struct lt_block_key k = { .rq = rq };

	if (nr_bytes < blk_rq_bytes(rq) || !lt_block_tracked(rq))
		return;
	latency_tracker_event_out(lt_block.t, &k, sizeof(k), 0, NULL);
}

/*
 * A requeued request goes back to the queue, to be issued again: its
 * measurement is cancelled (not matched, no alert, no histogram), and the
 * next issue starts a new one.
 */
static void lt_block_probe_requeue(void *data, struct request *rq)
{
	struct lt_block_key k = { .rq = rq };

	if (lt_block_tracked(rq))
		latency_tracker_event_cancel(lt_block.t, &k, sizeof(k));
}

#define LT_BLOCK_TPS(X)							\
	X(block_rq_issue, lt_block_probe_issue)				\
	X(block_rq_complete, lt_block_probe_complete)			\
	X(block_rq_requeue, lt_block_probe_requeue)
LT_PROBE_TPS(lt_block_tps, LT_BLOCK_TPS);

static struct lt_probe lt_block = {
	.params = {
		.name = "block",
		.key_size = sizeof(struct lt_block_key),
		.priv_size = sizeof(struct lt_block_priv),
		.callback = lt_block_cb,
		.alert_fmt = lt_block_fmt,
	},
	.tps = lt_block_tps,
	.nr_tps = ARRAY_SIZE(lt_block_tps),
	.requests = true,
};

static int __init lt_block_init(void)
{
	return lt_probe_start(&lt_block, &lt_mparams);
}

static void __exit lt_block_exit(void)
{
	lt_probe_stop(&lt_block);
}

module_init(lt_block_init);
module_exit(lt_block_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Block request latency, from issue to completion");
