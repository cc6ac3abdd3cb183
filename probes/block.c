// SPDX-License-Identifier: GPL-2.0-only
/*
 * block.c - latency_tracker_block: block request latency, from the issue
 * of a request to the driver (block_rq_issue) to its completion
 * (block_rq_complete).
 *
 * Key: (device, start sector), duplicate mode: two requests on the same
 * sector may be in flight.  Passthrough requests (SCSI/NVMe commands from
 * userspace, no meaningful sector) are not tracked.  A requeued request
 * ends its measurement without a report and starts a new one when it is
 * issued again, so the time spent waiting for the requeue is no alert.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blk-mq.h>
#include <linux/blkdev.h>
#include <linux/kdev_t.h>
#include <linux/module.h>
#include <trace/events/block.h>

#include <lt_records/block.h>
#include "probe_common.h"
#include "lt_trace.h"

/*
 * 20 ms: several times a disk seek, hundreds of times an SSD access.  The
 * pool holds more than the queue depth of a few busy devices.
 */
LT_PROBE_MODULE_PARAMS(20000000, 0, 4096);

/* event_out ids: which tracepoint ended the request. */
enum lt_block_out {
	LT_BLOCK_OUT_COMPLETE,
	LT_BLOCK_OUT_REQUEUE,
};

struct lt_block_key {
	u64 sector;
	u32 dev;
	u32 pad;	/* zero: keys are compared as bytes */
};

struct lt_block_priv {
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
static bool lt_block_key(struct request *rq, struct lt_block_key *k)
{
	if (blk_rq_is_passthrough(rq) || !rq->q->disk)
		return false;
	k->sector = blk_rq_pos(rq);
	k->dev = disk_devt(rq->q->disk);
	k->pad = 0;
	return true;
}

static void lt_block_cb(const struct latency_tracker_report *r)
{
	const struct lt_block_priv *priv =
		latency_tracker_event_priv(r->event);
	const struct lt_block_key *k;
	struct lt_block_record a = { };
	u32 len;

	/* A requeue is not a completion: no alert. */
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD &&
	    r->out_id == LT_BLOCK_OUT_REQUEUE)
		return;
	k = latency_tracker_event_key(r->event, &len);
	a.sector = k->sector;
	a.dev = k->dev;
	a.nr_sectors = priv->nr_sectors;
	a.op = priv->op;
	lt_trace_block(r->cause, r->delay_ns, &a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
}

static LT_RECORD_FMT(lt_block_fmt, struct lt_block_record, LT_BLOCK_RECORD)

static void lt_block_probe_issue(void *data, struct request *rq)
{
	struct lt_block_priv priv;
	struct latency_tracker_in_opts opts = {
		.mode = LATENCY_TRACKER_DUPLICATE,
		.priv = &priv,
		.priv_len = sizeof(priv),
	};
	struct lt_block_key k;

	if (!lt_block_key(rq, &k))
		return;
	priv.nr_sectors = blk_rq_sectors(rq);
	priv.op = lt_block_op_of(rq);
	latency_tracker_event_in(lt_block.t, &k, sizeof(k), &opts);
}

static void lt_block_probe_complete(void *data, struct request *rq,
				    blk_status_t error, unsigned int nr_bytes)
{
	struct lt_block_key k;

	if (lt_block_key(rq, &k))
		latency_tracker_event_out(lt_block.t, &k, sizeof(k),
					  LT_BLOCK_OUT_COMPLETE, NULL);
}

static void lt_block_probe_requeue(void *data, struct request *rq)
{
	struct lt_block_key k;

	if (lt_block_key(rq, &k))
		latency_tracker_event_out(lt_block.t, &k, sizeof(k),
					  LT_BLOCK_OUT_REQUEUE, NULL);
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
};

static int __init lt_block_init(void)
{
	return lt_probe_start(&lt_block, threshold, timeout, max_events);
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
