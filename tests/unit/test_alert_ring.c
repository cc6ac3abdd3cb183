// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_alert_ring.c - host tests of tracker/alert_ring.c: cursors, exact
 * loss counting (also against a model under random operations), readers
 * starting at head, the cost of each operation whatever the number of
 * attached readers, and concurrent writers with a reader that must never
 * see a torn or out-of-order record.
 */
#include "lt_env.h"
#include "alert_ring.h"
#include "tap.h"

#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define RING_SIZE		8
#define CONC_RING_SIZE		64
#define CONC_WRITERS		2
#define CONC_PER_WRITER		50000
/* Writers yield now and then so that the reader runs in between. */
#define CONC_YIELD_EVERY	16
/* Payload maximum of the rings tested (below LT_ALERT_PAYLOAD_MAX). */
#define TEST_PAYLOAD		200
/* Model test: readers, operations, ring size. */
#define MODEL_READERS		6
#define MODEL_OPS		200000
/* Cost test: attached readers, reads timed per round, rounds (min kept). */
#define COST_RING_SIZE		1024
#define COST_READERS		4096
#define COST_ROUNDS		7
/* Per-operation cost with many readers, at most this times that with one. */
#define COST_RATIO_MAX		4
/*
 * Under ThreadSanitizer an access costs more the more sync objects the
 * thread has touched (4096 readers' cursors): the ratio measures TSan, not
 * the ring.  The costs are then only shown; the plain and ASan builds
 * assert them.
 */
#if defined(__SANITIZE_THREAD__)
#define COST_ASSERTS		0
#else
#define COST_ASSERTS		3
#endif

/*
 * A checkable record: delay_ns = writer << 32 | per-writer sequence, and
 * every other byte derived from it, so a mix of two records is detected.
 */
static u8 pattern_byte(u64 tag, unsigned int i)
{
	return (u8)(tag * 31 + i * 7 + (tag >> 32));
}

static void make_rec(struct lt_alert_buf *b, u64 tag)
{
	struct lt_alert_rec *r = &b->rec;
	unsigned int i;

	memset(b, 0, sizeof(*b));
	r->ts_ns = ~tag;
	r->delay_ns = tag;
	r->cause = (u8)(tag >> 32);
	r->payload_len = (u16)(tag % (TEST_PAYLOAD + 1));
	for (i = 0; i < TEST_PAYLOAD; i++)
		r->payload[i] = pattern_byte(tag, i);
}

/* The record of @tag, its payload_len bytes of payload and no more. */
static bool rec_ok(const struct lt_alert_buf *b)
{
	const struct lt_alert_rec *r = &b->rec;
	u64 tag = r->delay_ns;
	unsigned int i;

	if (r->ts_ns != ~tag || r->cause != (u8)(tag >> 32) ||
	    r->payload_len != (u16)(tag % (TEST_PAYLOAD + 1)))
		return false;
	for (i = 0; i < r->payload_len; i++)
		if (r->payload[i] != pattern_byte(tag, i))
			return false;
	return true;
}

static void push_tag(struct lt_alert_ring *ring, u64 tag)
{
	struct lt_alert_buf b;

	make_rec(&b, tag);
	lt_alert_ring_push(ring, &b.rec, b.rec.payload);
}

static void test_init(void)
{
	struct lt_alert_ring ring;

	tap_ok(lt_alert_ring_init(&ring, 0, TEST_PAYLOAD) == -EINVAL,
	       "init: 0 refused");
	tap_ok(lt_alert_ring_init(&ring, 16, LT_ALERT_PAYLOAD_MAX + 1) ==
	       -EINVAL, "init: a payload over LT_ALERT_PAYLOAD_MAX refused");
	tap_ok(lt_alert_ring_init(&ring, 6, TEST_PAYLOAD) == -EINVAL,
	       "init: 6 (not a power of two) refused");
	tap_ok(lt_alert_ring_init(&ring, 1U << 31, TEST_PAYLOAD) == -EINVAL,
	       "init: 2^31 records (> INT_MAX bytes) refused");
	lt_alert_ring_destroy(&ring);
	tap_ok(lt_alert_ring_init(&ring, 1, TEST_PAYLOAD) == 0,
	       "init: 1 record");
	push_tag(&ring, 1);
	push_tag(&ring, 2);
	tap_eq(lt_alert_ring_head(&ring), 2, "size 1: head counts pushes");
	lt_alert_ring_destroy(&ring);
}

static void test_cursors(void)
{
	struct lt_alert_ring ring;
	struct lt_alert_buf out;
	struct lt_alert_ring_reader a = { 0 }, b = { 0 }, c = { 0 };
	u64 lost = 12345;
	enum lt_ring_read r;
	unsigned int i;
	bool ok;

	tap_ok(lt_alert_ring_init(&ring, RING_SIZE, TEST_PAYLOAD) == 0,
	       "init %d",
	       RING_SIZE);
	a.cursor = lt_alert_ring_head(&ring);
	tap_eq(a.cursor, 0, "empty ring: head 0");
	tap_ok(!lt_alert_ring_has_data(&ring, a.cursor), "empty ring: no data");
	tap_eq(lt_alert_ring_read(&ring, &a, &out.rec, &lost), LT_RING_EMPTY,
	       "empty ring: read EMPTY");
	tap_eq(lost, 12345, "EMPTY leaves *lost untouched");

	for (i = 0; i < 3; i++)
		push_tag(&ring, 100 + i);
	b.cursor = lt_alert_ring_head(&ring);	/* a reader opened now */
	tap_eq(b.cursor, 3, "head after 3 pushes");
	tap_ok(lt_alert_ring_has_data(&ring, a.cursor), "cursor 0 has data");
	tap_ok(!lt_alert_ring_has_data(&ring, b.cursor), "new reader: no data yet");
	push_tag(&ring, 103);

	/* Reader a sees all four, in order. */
	for (i = 0, ok = true; i < 4; i++) {
		r = lt_alert_ring_read(&ring, &a, &out.rec, &lost);
		ok = ok && r == LT_RING_RECORD && out.rec.delay_ns == 100 + i &&
		     rec_ok(&out) && a.cursor == i + 1;
	}
	tap_ok(ok, "reader from 0 reads records 100..103 in order");
	tap_eq(lt_alert_ring_read(&ring, &a, &out.rec, &lost), LT_RING_EMPTY,
	       "then EMPTY");

	/* Reader b, opened at head, sees only the newer record. */
	r = lt_alert_ring_read(&ring, &b, &out.rec, &lost);
	tap_ok(r == LT_RING_RECORD && out.rec.delay_ns == 103,
	       "reader opened at head sees only the newer record");
	tap_eq(lt_alert_ring_read(&ring, &b, &out.rec, &lost), LT_RING_EMPTY,
	       "and nothing older");

	/* Overflow: 4 + 13 = 17 records, ring of 8 keeps 9..16. */
	c.cursor = 2;	/* a reader still at record 2 */
	for (i = 4; i < 17; i++)
		push_tag(&ring, 100 + i);
	tap_eq(lt_alert_ring_head(&ring), 17, "head 17");
	memset(&out, 0x5a, sizeof(out));
	r = lt_alert_ring_read(&ring, &c, &out.rec, &lost);
	tap_eq(r, LT_RING_LOST, "reader at 2 after overflow: LOST");
	tap_eq(lost, 7, "lost = 9 - 2 = 7 records");
	tap_eq(c.cursor, 9, "cursor moved to the oldest record held");
	tap_eq(out.rec.delay_ns, 0x5a5a5a5a5a5a5a5aULL, "LOST copies nothing");
	r = lt_alert_ring_read(&ring, &c, &out.rec, &lost);
	tap_ok(r == LT_RING_RECORD && out.rec.delay_ns == 109 && rec_ok(&out),
	       "then the oldest record held (109)");

	/* Reader a was at 4: lost 5, then 9..16. */
	r = lt_alert_ring_read(&ring, &a, &out.rec, &lost);
	tap_ok(r == LT_RING_LOST && lost == 5 && a.cursor == 9,
	       "second reader at 4: LOST 5, cursor 9");
	for (i = 9, ok = true; i < 17; i++) {
		r = lt_alert_ring_read(&ring, &a, &out.rec, &lost);
		ok = ok && r == LT_RING_RECORD && out.rec.delay_ns == 100 + i &&
		     rec_ok(&out);
	}
	tap_ok(ok, "then 109..116 in order");
	tap_eq(lt_alert_ring_read(&ring, &a, &out.rec, &lost), LT_RING_EMPTY,
	       "then EMPTY");

	/* Exactly full: a reader exactly one ring behind loses nothing. */
	b.cursor = lt_alert_ring_head(&ring) - RING_SIZE;
	r = lt_alert_ring_read(&ring, &b, &out.rec, &lost);
	tap_ok(r == LT_RING_RECORD && out.rec.delay_ns == 109,
	       "reader exactly %d behind: no loss", RING_SIZE);
	b.cursor = lt_alert_ring_head(&ring) - RING_SIZE - 1;
	r = lt_alert_ring_read(&ring, &b, &out.rec, &lost);
	tap_ok(r == LT_RING_LOST && lost == 1,
	       "reader %d behind: lost 1", RING_SIZE + 1);

	/* Payload length is clamped on push. */
	memset(&out, 0, sizeof(out));
	out.rec.payload_len = TEST_PAYLOAD + 1;
	lt_alert_ring_push(&ring, &out.rec, out.rec.payload);
	a.cursor = lt_alert_ring_head(&ring) - 1;
	lt_alert_ring_read(&ring, &a, &out.rec, &lost);
	tap_eq(out.rec.payload_len, TEST_PAYLOAD,
	       "payload_len clamped to the ring's %d", TEST_PAYLOAD);

	/* A cursor from the future reads as empty. */
	a.cursor = lt_alert_ring_head(&ring) + 5;
	tap_ok(lt_alert_ring_read(&ring, &a, &out.rec, &lost) == LT_RING_EMPTY &&
	       !lt_alert_ring_has_data(&ring, a.cursor), "future cursor: empty");
	lt_alert_ring_destroy(&ring);
}

struct conc {
	struct lt_alert_ring ring;
	pthread_barrier_t start;
	int writers_done;
};

struct writer {
	struct conc *c;
	u64 id;
};

static void *writer_fn(void *arg)
{
	struct writer *w = arg;
	u64 i;

	pthread_barrier_wait(&w->c->start);
	for (i = 0; i < CONC_PER_WRITER; i++) {
		push_tag(&w->c->ring, (w->id << 32) | i);
		if (i % CONC_YIELD_EVERY == 0)
			sched_yield();
	}
	__atomic_add_fetch(&w->c->writers_done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void test_concurrent(void)
{
	struct writer w[CONC_WRITERS];
	pthread_t tid[CONC_WRITERS];
	u64 next[CONC_WRITERS + 1] = { 0 };
	struct lt_alert_ring_reader rd = { 0 };
	u64 lost, total_lost = 0, records = 0;
	u64 torn = 0, disorder = 0, lost_events = 0;
	struct lt_alert_buf out;
	enum lt_ring_read r;
	struct conc c;
	u64 wid, seq;
	int i, done;

	memset(&c, 0, sizeof(c));
	tap_ok(lt_alert_ring_init(&c.ring, CONC_RING_SIZE, TEST_PAYLOAD) == 0,
	       "concurrent: init %d", CONC_RING_SIZE);
	pthread_barrier_init(&c.start, NULL, CONC_WRITERS + 1);
	for (i = 0; i < CONC_WRITERS; i++) {
		w[i] = (struct writer){ .c = &c, .id = (u64)i + 1 };
		pthread_create(&tid[i], NULL, writer_fn, &w[i]);
	}
	pthread_barrier_wait(&c.start);
	do {
		done = __atomic_load_n(&c.writers_done, __ATOMIC_ACQUIRE);
		while ((r = lt_alert_ring_read(&c.ring, &rd, &out.rec,
					       &lost)) != LT_RING_EMPTY) {
			if (r == LT_RING_LOST) {
				total_lost += lost;
				lost_events++;
				continue;
			}
			records++;
			if (!rec_ok(&out)) {
				torn++;
				continue;
			}
			/* Per writer, sequence numbers only grow. */
			wid = out.rec.delay_ns >> 32;
			seq = out.rec.delay_ns & 0xffffffffULL;
			if (wid < 1 || wid > CONC_WRITERS || seq < next[wid])
				disorder++;
			else
				next[wid] = seq + 1;
		}
	} while (done < CONC_WRITERS);
	for (i = 0; i < CONC_WRITERS; i++)
		pthread_join(tid[i], NULL);
	pthread_barrier_destroy(&c.start);

	tap_diag("concurrent: %llu records read, %llu lost in %llu losses",
		 (unsigned long long)records, (unsigned long long)total_lost,
		 (unsigned long long)lost_events);
	tap_eq(torn, 0, "concurrent: no torn record");
	tap_eq(disorder, 0, "concurrent: each writer's records in order");
	tap_eq(records + total_lost, CONC_WRITERS * CONC_PER_WRITER,
	       "concurrent: read + lost == pushed (exact loss count)");
	tap_eq(rd.cursor, lt_alert_ring_head(&c.ring),
	       "concurrent: reader caught up with head");
	lt_alert_ring_destroy(&c.ring);
}

/*
 * Losses counted once: three attached readers that all fall behind count
 * each overwritten record once, not three times; a record one reader got
 * and another missed counts once; a record no attached reader wanted (the
 * readers opened after it) does not count; detaching stops counting.
 */
static void test_lost_once(void)
{
	struct lt_alert_ring_reader rd[3];
	struct lt_alert_ring ring;
	struct lt_alert_buf out;
	u64 lost;
	int i;

	tap_ok(lt_alert_ring_init(&ring, RING_SIZE, TEST_PAYLOAD) == 0,
	       "lost once: init");
	for (i = 0; i < 5; i++)
		push_tag(&ring, 100 + i);	/* before any reader: not wanted */
	for (i = 0; i < 3; i++)
		lt_alert_ring_attach(&ring, &rd[i]);
	tap_eq(rd[0].cursor, 5, "attach: cursor at the head");
	for (i = 0; i < RING_SIZE; i++)
		push_tag(&ring, 200 + i);
	tap_eq(lt_alert_ring_lost(&ring), 0,
	       "records nobody attached wanted are not lost");
	for (i = 0; i < 3; i++)
		push_tag(&ring, 300 + i);	/* overwrite 3 wanted records */
	tap_eq(lt_alert_ring_lost(&ring), 3,
	       "3 records overwritten, 3 readers behind: lost 3, not 9");
	for (i = 0; i < 3; i++)
		tap_eq(lt_alert_ring_read(&ring, &rd[i], &out.rec, &lost),
		       LT_RING_LOST, "reader %d is told of its loss", i);
	tap_eq(lost, 3, "each reader's own loss line says 3");
	/* Reader 0 catches up; readers 1 and 2 stay behind. */
	while (lt_alert_ring_read(&ring, &rd[0], &out.rec, &lost) ==
	       LT_RING_RECORD)
		;
	for (i = 0; i < 2; i++)
		push_tag(&ring, 400 + i);
	tap_eq(lt_alert_ring_lost(&ring), 5,
	       "read by reader 0 but missed by 1 and 2: counted once each");
	lt_alert_ring_detach(&ring, &rd[1]);
	lt_alert_ring_detach(&ring, &rd[2]);
	while (lt_alert_ring_read(&ring, &rd[0], &out.rec, &lost) ==
	       LT_RING_RECORD)
		;
	for (i = 0; i < RING_SIZE; i++)
		push_tag(&ring, 500 + i);
	tap_eq(lt_alert_ring_lost(&ring), 5,
	       "reader 0 was up to date: nothing more lost");
	push_tag(&ring, 600);
	tap_eq(lt_alert_ring_lost(&ring), 6,
	       "one more overwrite while reader 0 is behind: lost 6");
	lt_alert_ring_detach(&ring, &rd[0]);
	push_tag(&ring, 700);
	tap_eq(lt_alert_ring_lost(&ring), 6, "no reader attached: not lost");
	lt_alert_ring_destroy(&ring);
}

/*
 * The ring against a model that keeps every attached reader's cursor and
 * counts a loss when a push overwrites a record some attached reader has
 * not read (the smallest cursor at or before it), under random pushes,
 * reads, attaches and detaches: the same read results, cursors and lost
 * total after every operation.
 */
struct model_reader {
	struct lt_alert_ring_reader rd;
	u64 cursor;			/* the model's */
	bool attached;
};

static u64 model_lost;
static u64 model_kept;		/* overwrites no attached reader wanted */
static u64 model_head;

static void model_push(struct model_reader *m, unsigned int n, u32 size)
{
	u64 min = U64_MAX;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (m[i].attached)
			min = min_t(u64, min, m[i].cursor);
	if (model_head >= size && min <= model_head - size)
		model_lost++;
	else if (model_head >= size && min != U64_MAX)
		model_kept++;
	model_head++;
}

static void test_model(void)
{
	struct model_reader m[MODEL_READERS];
	const u32 size = RING_SIZE;
	struct lt_alert_ring ring;
	u64 lost, want_lost, oldest, bad_read = 0, bad_lost = 0;
	struct lt_alert_buf out;
	enum lt_ring_read r, want;
	unsigned int op, i;

	srand(29);
	memset(m, 0, sizeof(m));
	model_lost = 0;
	model_kept = 0;
	model_head = 0;
	tap_ok(lt_alert_ring_init(&ring, size, TEST_PAYLOAD) == 0, "model: init");
	for (op = 0; op < MODEL_OPS; op++) {
		i = rand() % MODEL_READERS;
		switch (rand() % 16) {
		case 0:
			if (m[i].attached) {
				lt_alert_ring_detach(&ring, &m[i].rd);
				m[i].attached = false;
			} else {
				lt_alert_ring_attach(&ring, &m[i].rd);
				m[i].attached = true;
				m[i].cursor = model_head;
			}
			break;
		case 1: case 2: case 3: case 4:
			/* Pushes in bursts, so readers fall behind too. */
			do {
				push_tag(&ring, model_head);
				model_push(m, MODEL_READERS, size);
			} while (rand() % 4 == 0);
			break;
		default:
			if (!m[i].attached)
				m[i].rd.cursor = m[i].cursor;
			oldest = model_head > size ? model_head - size : 0;
			want = m[i].cursor < oldest ? LT_RING_LOST :
			       m[i].cursor >= model_head ? LT_RING_EMPTY :
			       LT_RING_RECORD;
			want_lost = oldest - m[i].cursor;
			r = lt_alert_ring_read(&ring, &m[i].rd, &out.rec, &lost);
			if (r != want ||
			    (r == LT_RING_LOST && lost != want_lost) ||
			    (r == LT_RING_RECORD &&
			     out.rec.delay_ns != m[i].cursor))
				bad_read++;
			if (want == LT_RING_LOST)
				m[i].cursor = oldest;
			else if (want == LT_RING_RECORD)
				m[i].cursor++;
			if (m[i].rd.cursor != m[i].cursor)
				bad_read++;
			break;
		}
		if (lt_alert_ring_lost(&ring) != model_lost)
			bad_lost++;
	}
	tap_diag("model: %llu pushed, %llu lost, %llu overwritten unwanted",
		 (unsigned long long)model_head,
		 (unsigned long long)model_lost,
		 (unsigned long long)model_kept);
	tap_eq(bad_read, 0, "model: every read as the model says");
	tap_eq(bad_lost, 0, "model: the lost total as the model says, always");
	tap_ok(model_lost > 1000 && model_kept > 1000,
	       "model: many overwrites of both kinds with readers attached");
	lt_alert_ring_destroy(&ring);
}

static u64 now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

struct cost {
	u64 read;			/* ns per read */
	u64 attach;			/* ns per attach + detach */
	u64 push;			/* ns per push */
};

/*
 * The cheapest of COST_ROUNDS rounds of each operation with @nr attached
 * readers (1 or COST_READERS): the measured reader is one of them.
 */
static struct cost measure(struct lt_alert_ring_reader *rds, unsigned int nr)
{
	struct cost c = { U64_MAX, U64_MAX, U64_MAX };
	struct lt_alert_ring_reader extra = { 0 };
	struct lt_alert_ring ring;
	struct lt_alert_buf out;
	unsigned int round, i;
	u64 t0, lost;

	if (lt_alert_ring_init(&ring, COST_RING_SIZE, TEST_PAYLOAD))
		return c;
	for (i = 0; i < nr; i++)
		lt_alert_ring_attach(&ring, &rds[i]);
	for (round = 0; round < COST_ROUNDS; round++) {
		t0 = now_ns();
		for (i = 0; i < COST_RING_SIZE; i++)
			push_tag(&ring, i);
		c.push = min_t(u64, c.push, (now_ns() - t0) / COST_RING_SIZE);
		t0 = now_ns();
		for (i = 0; i < COST_RING_SIZE; i++)
			lt_alert_ring_read(&ring, &rds[0], &out.rec, &lost);
		c.read = min_t(u64, c.read, (now_ns() - t0) / COST_RING_SIZE);
		t0 = now_ns();
		for (i = 0; i < COST_RING_SIZE; i++) {
			lt_alert_ring_attach(&ring, &extra);
			lt_alert_ring_detach(&ring, &extra);
		}
		c.attach = min_t(u64, c.attach,
				 (now_ns() - t0) / COST_RING_SIZE);
	}
	for (i = 0; i < nr; i++)
		lt_alert_ring_detach(&ring, &rds[i]);
	lt_alert_ring_destroy(&ring);
	return c;
}

/* Reads, attaches and pushes cost the same with one reader or thousands. */
static void test_cost(void)
{
	struct lt_alert_ring_reader *rds;
	struct cost one, many;

	rds = calloc(COST_READERS, sizeof(*rds));
	if (!rds)
		exit(1);
	one = measure(rds, 1);
	many = measure(rds, COST_READERS);
	free(rds);
	tap_diag("cost, 1 reader: read %llu ns, attach+detach %llu ns, push %llu ns",
		 (unsigned long long)one.read, (unsigned long long)one.attach,
		 (unsigned long long)one.push);
	tap_diag("cost, %d readers: read %llu ns, attach+detach %llu ns, push %llu ns",
		 COST_READERS, (unsigned long long)many.read,
		 (unsigned long long)many.attach,
		 (unsigned long long)many.push);
	if (!COST_ASSERTS)
		return;
	tap_ok(many.read <= COST_RATIO_MAX * (one.read + 1),
	       "a read with %d readers attached costs at most %dx one with 1",
	       COST_READERS, COST_RATIO_MAX);
	tap_ok(many.attach <= COST_RATIO_MAX * (one.attach + 1),
	       "an attach and detach, likewise");
	tap_ok(many.push <= COST_RATIO_MAX * (one.push + 1),
	       "a push, likewise");
}

int main(void)
{
	tap_plan(52 + COST_ASSERTS);
	test_init();
	test_cursors();
	test_lost_once();
	test_model();
	test_cost();
	test_concurrent();
	return tap_done();
}
