// SPDX-License-Identifier: GPL-2.0-only
/*
 * alert_ring.c - bounded ring of alert records with per-reader cursors.
 * See alert_ring.h for the design and the context table.
 */
#include "lt_env.h"
#include "alert_ring.h"

/* Largest ring: kvmalloc() refuses more than INT_MAX bytes. */
#define LT_ALERT_RING_BYTES_MAX	((u64)INT_MAX)

/* Sequence number of the oldest record held.  Called with the lock held. */
static u64 lt_alert_ring_oldest(const struct lt_alert_ring *ring)
{
	u64 nr = (u64)ring->mask + 1;

	return ring->head > nr ? ring->head - nr : 0;
}

/* The slot of record @seq. */
static struct lt_alert_rec *lt_alert_ring_slot(struct lt_alert_ring *ring,
					       u64 seq)
{
	return (struct lt_alert_rec *)(ring->recs +
				       (size_t)(seq & ring->mask) *
				       ring->rec_size);
}

/* The attached readers whose effective cursor is @v.  Lock held. */
static u32 *lt_alert_ring_waiting(struct lt_alert_ring *ring, u64 v)
{
	return &ring->waiting[v & ring->wmask];
}

/**
 * lt_alert_ring_init() - allocate an empty ring.
 * @ring: the ring to set up.
 * @nr_records: capacity, a power of two.
 * @payload_max: the largest payload a record may have, at most
 *	LT_ALERT_PAYLOAD_MAX bytes.
 *
 * Context: Process context; may sleep.
 * Return: 0, -EINVAL if @nr_records is not a power of two, @payload_max
 * is too large, or the ring would be too large, or -ENOMEM.
 */
int lt_alert_ring_init(struct lt_alert_ring *ring, u32 nr_records,
		       u32 payload_max)
{
	u32 rec_size = ALIGN(sizeof(struct lt_alert_rec) + payload_max, 8);

	memset(ring, 0, sizeof(*ring));
	if (!is_power_of_2(nr_records) || payload_max > LT_ALERT_PAYLOAD_MAX ||
	    (u64)rec_size * nr_records > LT_ALERT_RING_BYTES_MAX)
		return -EINVAL;
	ring->recs = lt_zalloc((size_t)rec_size * nr_records);
	if (!ring->recs)
		return -ENOMEM;
	ring->waiting = lt_zalloc(sizeof(*ring->waiting) * 2 * nr_records);
	if (!ring->waiting) {
		lt_free(ring->recs);
		ring->recs = NULL;
		return -ENOMEM;
	}
	raw_spin_lock_init(&ring->lock);
	ring->mask = nr_records - 1;
	ring->wmask = 2 * nr_records - 1;
	ring->payload_max = payload_max;
	ring->rec_size = rec_size;
	return 0;
}

/**
 * lt_alert_ring_destroy() - free a ring.
 * @ring: a ring set up by lt_alert_ring_init() (or zeroed by a failed one).
 *
 * Context: Process context; no other user of the ring may remain.
 */
void lt_alert_ring_destroy(struct lt_alert_ring *ring)
{
	lt_free(ring->waiting);
	ring->waiting = NULL;
	lt_free(ring->recs);
	ring->recs = NULL;
}

/**
 * lt_alert_ring_push() - append a record, overwriting the oldest when full.
 * @ring: the ring.
 * @hdr: the record's header, copied; its payload_len is clamped to the
 *	ring's payload maximum.
 * @payload: its payload_len bytes of payload, copied.
 *
 * Context: Any context except NMI; takes a raw spinlock with irqs saved.
 */
void lt_alert_ring_push(struct lt_alert_ring *ring,
			const struct lt_alert_rec *hdr, const void *payload)
{
	u16 len = min_t(u32, hdr->payload_len, ring->payload_max);
	struct lt_alert_rec *dst;
	unsigned long flags;
	u64 oldest;
	u32 *w;

	raw_spin_lock_irqsave(&ring->lock, flags);
	/*
	 * Overwriting the oldest record, head - nr: lost if an attached
	 * reader still wants it; those readers then wait at the next one.
	 */
	if (ring->head > ring->mask) {
		oldest = ring->head - ring->mask - 1;
		w = lt_alert_ring_waiting(ring, oldest);
		if (*w) {
			ring->lost++;
			*lt_alert_ring_waiting(ring, oldest + 1) += *w;
			*w = 0;
		}
	}
	dst = lt_alert_ring_slot(ring, ring->head);
	dst->ts_ns = hdr->ts_ns;
	dst->delay_ns = hdr->delay_ns;
	dst->cause = hdr->cause;
	dst->payload_len = len;
	memcpy(dst->payload, payload, len);
	ring->head++;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
}

/**
 * lt_alert_ring_head() - sequence number of the next record to be written.
 * @ring: the ring.
 *
 * A new reader starts its cursor here, so it sees only later records.
 *
 * Context: Any context except NMI.
 * Return: the head sequence number.
 */
u64 lt_alert_ring_head(struct lt_alert_ring *ring)
{
	unsigned long flags;
	u64 head;

	raw_spin_lock_irqsave(&ring->lock, flags);
	head = ring->head;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
	return head;
}

/**
 * lt_alert_ring_read() - read the record at a reader's cursor.
 * @ring: the ring.
 * @rd: the reader, attached or not; its cursor is advanced as described
 *	below.
 * @out: receives the record on LT_RING_RECORD, untouched otherwise; room
 *	for the ring's payload maximum after it (struct lt_alert_buf).
 * @lost: receives the number of missed records on LT_RING_LOST, untouched
 *	otherwise.
 *
 * A cursor beyond the head (never produced by this API) reads as empty.
 *
 * Context: Any context except NMI (meant for readers in process context).
 * Return: LT_RING_RECORD: *@out filled, the cursor advanced by one.
 * LT_RING_LOST: the records from the cursor on were overwritten; *@lost is
 * how many, the cursor moved to the oldest record still held, nothing
 * copied.  LT_RING_EMPTY: nothing new.
 */
enum lt_ring_read lt_alert_ring_read(struct lt_alert_ring *ring,
				     struct lt_alert_ring_reader *rd,
				     struct lt_alert_rec *out, u64 *lost)
{
	const struct lt_alert_rec *src;
	enum lt_ring_read ret;
	unsigned long flags;
	u64 oldest, c;

	raw_spin_lock_irqsave(&ring->lock, flags);
	oldest = lt_alert_ring_oldest(ring);
	c = rd->cursor;
	if (c < oldest) {
		/* Its effective cursor was the oldest already: no count moves. */
		*lost = oldest - c;
		rd->cursor = oldest;
		ret = LT_RING_LOST;
	} else if (c >= ring->head) {
		ret = LT_RING_EMPTY;
	} else {
		src = lt_alert_ring_slot(ring, c);
		memcpy(out, src, sizeof(*src) + src->payload_len);
		rd->cursor = c + 1;
		if (rd->attached) {
			(*lt_alert_ring_waiting(ring, c))--;
			(*lt_alert_ring_waiting(ring, c + 1))++;
		}
		ret = LT_RING_RECORD;
	}
	raw_spin_unlock_irqrestore(&ring->lock, flags);
	return ret;
}

/**
 * lt_alert_ring_has_data() - whether a read at @cursor would not be empty.
 * @ring: the ring.
 * @cursor: the reader's position.
 *
 * Context: Any context except NMI (meant for poll()).
 * Return: true if a record or a loss is waiting for this reader.
 */
bool lt_alert_ring_has_data(struct lt_alert_ring *ring, u64 cursor)
{
	unsigned long flags;
	bool ret;

	raw_spin_lock_irqsave(&ring->lock, flags);
	ret = cursor < ring->head;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
	return ret;
}

/**
 * lt_alert_ring_attach() - start a reader whose losses the ring counts.
 * @ring: the ring.
 * @rd: the reader; its cursor is set to the head (it sees later records).
 *
 * Context: Any context except NMI (meant for open()).
 */
void lt_alert_ring_attach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ring->lock, flags);
	rd->cursor = ring->head;
	rd->attached = true;
	(*lt_alert_ring_waiting(ring, rd->cursor))++;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
}

/**
 * lt_alert_ring_detach() - stop counting a reader's losses.
 * @ring: the ring.
 * @rd: a reader attached to @ring.
 *
 * Context: Any context except NMI (meant for release()).
 */
void lt_alert_ring_detach(struct lt_alert_ring *ring,
			  struct lt_alert_ring_reader *rd)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&ring->lock, flags);
	(*lt_alert_ring_waiting(ring, max_t(u64, rd->cursor,
					    lt_alert_ring_oldest(ring))))--;
	rd->attached = false;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
}

/**
 * lt_alert_ring_lost() - records lost to the attached readers, each once.
 * @ring: the ring.
 *
 * Context: Any context except NMI.
 * Return: how many records were overwritten while at least one attached
 * reader had not read them.
 */
u64 lt_alert_ring_lost(struct lt_alert_ring *ring)
{
	unsigned long flags;
	u64 lost;

	raw_spin_lock_irqsave(&ring->lock, flags);
	lost = ring->lost;
	raw_spin_unlock_irqrestore(&ring->lock, flags);
	return lost;
}
