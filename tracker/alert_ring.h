/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * alert_ring.h - bounded ring of alert records with per-reader cursors.
 *
 * Every record pushed gets the next sequence number (from 0); record s is
 * kept in slot s % nr_records until record s + nr_records overwrites it.
 * The ring holds the newest min(head, nr_records) records.  A reader is
 * just a u64 cursor (the sequence number it wants next) owned by the
 * reader, e.g. one per open file; the ring keeps no list of readers, so a
 * slow reader never holds writers back: it gets LT_RING_LOST with the
 * exact number of records it missed, then goes on from the oldest record
 * still held.
 *
 * Loss accounting, once per record: a reader that wants it attached
 * (lt_alert_ring_attach(), one per open file) has its cursor taken into
 * account: a record overwritten while some attached reader had not read
 * it yet counts once in the ring's lost total (lt_alert_ring_lost()),
 * however many readers missed it.  The ring keeps the smallest cursor of
 * the attached readers, recomputed under the lock after every move (there
 * are a handful), so the push only compares.
 *
 * Synchronisation: one raw spinlock taken with interrupts saved by the
 * writer and by every reader call.  Records are copied whole under the
 * lock, so a reader never sees a torn record.  Pushing is the slow path
 * (alerts only) and a record is 152 bytes, so the lock is held briefly.
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
 * struct lt_alert_ring_reader - a reader whose losses the ring counts.
 * @cursor: the sequence number it wants next (pass &@cursor to
 *	lt_alert_ring_read()); set to the head by lt_alert_ring_attach().
 * @next: next attached reader (the ring's list, under its lock).
 */
struct lt_alert_ring_reader {
	u64 cursor;
	struct lt_alert_ring_reader *next;
};

/**
 * struct lt_alert_ring - the ring; embeddable, fields private.
 * @lock: protects every other field.
 * @recs: nr_records records.
 * @head: sequence number of the next record to be written.
 * @readers: the attached readers.
 * @min_cursor: the smallest cursor of @readers, U64_MAX when none.
 * @lost: records overwritten before an attached reader read them.
 * @mask: nr_records - 1.
 */
struct lt_alert_ring {
	raw_spinlock_t lock;
	struct lt_alert_rec *recs;
	u64 head;
	struct lt_alert_ring_reader *readers;
	u64 min_cursor;
	u64 lost;
	u32 mask;
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
enum lt_ring_read lt_alert_ring_read(struct lt_alert_ring *ring, u64 *cursor,
				     struct lt_alert_rec *out, u64 *lost);
bool lt_alert_ring_has_data(struct lt_alert_ring *ring, u64 cursor);
void lt_alert_ring_attach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd);
void lt_alert_ring_detach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd);
u64 lt_alert_ring_lost(struct lt_alert_ring *ring);

#endif /* _LT_ALERT_RING_H */
