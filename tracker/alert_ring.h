/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * alert_ring.h - bounded ring of alert records with per-reader cursors.
 *
 * Every record pushed gets the next sequence number (from 0); record s is
 * kept in slot s % nr_records until record s + nr_records overwrites it.
 * The ring holds the newest min(head, nr_records) records.  A reader
 * (struct lt_alert_ring_reader) is a cursor, the sequence number it wants
 * next, owned by the reader, e.g. one per open file; the ring keeps no
 * list of readers, so a slow reader never holds writers back: it gets
 * LT_RING_LOST with the exact number of records it missed, then goes on
 * from the oldest record still held.
 *
 * Loss accounting, once per record: a reader that wants it attached
 * (lt_alert_ring_attach(), one per open file) has its cursor taken into
 * account: a record overwritten while some attached reader had not read
 * it yet counts once in the ring's lost total (lt_alert_ring_lost()),
 * however many readers missed it.  For that the ring counts the attached
 * readers by effective cursor, max(cursor, oldest record held): those
 * values lie in [oldest, head], at most nr_records + 1 of them, so an
 * array of 2 * nr_records counters indexed by value modulo its size holds
 * them without collision.  The record a push overwrites is the oldest: it
 * is lost exactly when the counter of the oldest is not zero, and those
 * readers then wait at the new oldest (their counter moves up by one
 * slot).  Every operation, push, read, attach and detach, costs the same
 * whatever the number of attached readers; the lock protects no list.
 *
 * Records are stored in slots of one size per ring, a header and the
 * ring's largest payload (set at init: the tracker's record, at most
 * LT_ALERT_PAYLOAD_MAX bytes); only the bytes of a record in use are
 * copied in and out.
 *
 * Synchronisation: one raw spinlock taken with interrupts saved by the
 * writer and by every reader call.  Records are copied whole under the
 * lock, so a reader never sees a torn record.  Pushing is the slow path
 * (alerts only) and a record is at most a few hundred bytes (the off-CPU
 * one, with two stacks, the largest), so the lock is held briefly.
 * A reader's struct is its owner's: the calls on one reader are
 * serialised by that owner (alerts.c: the open file's mutex); an attached
 * reader's cursor is moved by the ring only.
 *
 * operation                  | process | softirq | hardirq | NMI
 * ---------------------------+---------+---------+---------+-----
 * lt_alert_ring_init/destroy |   yes   |   no    |   no    | no
 * lt_alert_ring_push         |   yes   |   yes   |   yes   | no (lock)
 * lt_alert_ring_head/read/   |   yes   |   yes   |   yes   | no (lock)
 *   has_data/attach/detach/  |         |         |         |
 *   lost                     |         |         |         |
 */
#ifndef _LT_ALERT_RING_H
#define _LT_ALERT_RING_H

#include "lt_env.h"

/* Largest payload of any ring; a ring's own is set at init. */
#define LT_ALERT_PAYLOAD_MAX	1024
/* A ring's payload when its tracker does not say. */
#define LT_ALERT_PAYLOAD_DEFAULT	128

/**
 * struct lt_alert_rec - one alert as stored in the ring.
 * @ts_ns: when it happened (CLOCK_MONOTONIC ns).
 * @delay_ns: the measured delay.
 * @cause: why it fired (the core's cause code).
 * @payload_len: bytes of @payload in use (clamped to the ring's maximum
 *	on push).
 * @payload: tracker-specific data, formatted at read time; a record read
 *	out of a ring needs room for the ring's payload maximum here
 *	(struct lt_alert_buf holds any).
 */
struct lt_alert_rec {
	u64 ts_ns;
	u64 delay_ns;
	u8 cause;
	u16 payload_len;
	u8 payload[] __aligned(8);
};

/* A record with room for any payload. */
struct lt_alert_buf {
	struct lt_alert_rec rec;
	u8 room[LT_ALERT_PAYLOAD_MAX];
};

/**
 * struct lt_alert_ring_reader - a reader of the ring.
 * @cursor: the sequence number it wants next.  Set to the head by
 *	lt_alert_ring_attach(); a reader that is not attached (zeroed, then
 *	its cursor set by its owner) reads from anywhere, its losses not
 *	counted.
 * @attached: counted by the ring (between attach and detach).
 */
struct lt_alert_ring_reader {
	u64 cursor;
	bool attached;
};

/**
 * struct lt_alert_ring - the ring; embeddable, fields private.
 * @lock: protects every other field.
 * @recs: nr_records slots of @rec_size bytes.
 * @waiting: 2 * nr_records counters: waiting[v & @wmask] is the number of
 *	attached readers whose effective cursor (see the top) is v.
 * @head: sequence number of the next record to be written.
 * @lost: records overwritten before an attached reader read them.
 * @mask: nr_records - 1.
 * @wmask: 2 * nr_records - 1.
 * @payload_max: largest payload of a record.
 * @rec_size: bytes of a slot: the header and @payload_max, aligned.
 */
struct lt_alert_ring {
	raw_spinlock_t lock;
	u8 *recs;
	u32 *waiting;
	u64 head;
	u64 lost;
	u32 mask;
	u32 wmask;
	u32 payload_max;
	u32 rec_size;
};

/* What lt_alert_ring_read() did. */
enum lt_ring_read {
	LT_RING_EMPTY,
	LT_RING_RECORD,
	LT_RING_LOST,
};

int lt_alert_ring_init(struct lt_alert_ring *ring, u32 nr_records,
		       u32 payload_max);
void lt_alert_ring_destroy(struct lt_alert_ring *ring);
void lt_alert_ring_push(struct lt_alert_ring *ring,
			const struct lt_alert_rec *hdr, const void *payload);
u64 lt_alert_ring_head(struct lt_alert_ring *ring);
enum lt_ring_read lt_alert_ring_read(struct lt_alert_ring *ring,
				     struct lt_alert_ring_reader *rd,
				     struct lt_alert_rec *out, u64 *lost);
bool lt_alert_ring_has_data(struct lt_alert_ring *ring, u64 cursor);
void lt_alert_ring_attach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd);
void lt_alert_ring_detach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd);
u64 lt_alert_ring_lost(struct lt_alert_ring *ring);

#endif /* _LT_ALERT_RING_H */
