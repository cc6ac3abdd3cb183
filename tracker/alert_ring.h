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
 * Synchronisation: one raw spinlock taken with interrupts saved by the
 * writer and by every reader call.  Records are copied whole under the
 * lock, so a reader never sees a torn record.  Pushing is the slow path
 * (alerts only) and a record is 152 bytes, so the lock is held briefly.
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

#define LT_ALERT_PAYLOAD_MAX	128

/**
 * struct lt_alert_rec - one alert as stored in the ring.
 * @ts_ns: when it happened (CLOCK_MONOTONIC ns).
 * @delay_ns: the measured delay.
 * @cause: why it fired (the core's cause code).
 * @payload_len: bytes of @payload in use (clamped to the maximum on push).
 * @payload: tracker-specific data, formatted at read time.
 */
struct lt_alert_rec {
	u64 ts_ns;
	u64 delay_ns;
	u8 cause;
	u8 payload_len;
	u8 payload[LT_ALERT_PAYLOAD_MAX];
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
 * @recs: nr_records records.
 * @waiting: 2 * nr_records counters: waiting[v & @wmask] is the number of
 *	attached readers whose effective cursor (see the top) is v.
 * @head: sequence number of the next record to be written.
 * @lost: records overwritten before an attached reader read them.
 * @mask: nr_records - 1.
 * @wmask: 2 * nr_records - 1.
 */
struct lt_alert_ring {
	raw_spinlock_t lock;
	struct lt_alert_rec *recs;
	u32 *waiting;
	u64 head;
	u64 lost;
	u32 mask;
	u32 wmask;
};

/* What lt_alert_ring_read() did. */
enum lt_ring_read {
	LT_RING_EMPTY,
	LT_RING_RECORD,
	LT_RING_LOST,
};

int lt_alert_ring_init(struct lt_alert_ring *ring, u32 nr_records);
void lt_alert_ring_destroy(struct lt_alert_ring *ring);
void lt_alert_ring_push(struct lt_alert_ring *ring,
			const struct lt_alert_rec *rec);
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
