// SPDX-License-Identifier: GPL-2.0-only
/*
 * lt_core_test.c - in-guest test of latency_tracker.ko (test-only module,
 * never installed).
 *
 * At load time it runs self-tests against temporary trackers (ltt_*):
 * unique and duplicate keys, known delays against thresholds and timeouts,
 * pool exhaustion, the same key ended concurrently on every CPU, the API
 * driven at once from process, softirq (timer), hardirq (hrtimer) and
 * irq_work context on every CPU, stateful lookups, destroy with pending
 * events.  Each check is one line of
 *	/proc/latency_tracker/lt_core_test/results  (0400)
 * "PASS <what>" or "FAIL <what>", plus "# <diagnostic>" lines; the guest
 * script (tests/guest/core-api.sh) turns them into TAP.
 *
 * It also keeps one tracker, "lt_core_test", for the guest scripts, driven
 * through /proc/latency_tracker/lt_core_test/ctl (0200):
 *	alerts N	append N alert records from hardirq context (irq_work)
 *	pending N	start N events that nobody ends
 *	delay MS	an event of at least MS milliseconds on the tracker's
 *		clock (process context, sleeping); the write fails with
 *		EIO unless it was tracked and ended
 *	events N	emit each latency_tracker trace event N times
 *	unwind N	attach sched_switch, sched_waking and a tracepoint that
 *		does not exist (N times): the write fails with EIO unless
 *		the attach failed with ENOENT and unwound (core-load.sh
 *		checks the order of the unregistrations)
 * Its callback appends an alert for every threshold/timeout report.
 * Module parameters threshold, timeout, max_events (checked with
 * latency_tracker_check_param()), alert_records, selftest, and
 * init_sleep_ms: the init function sleeps that long first (a frame of
 * module init code in the stack of a slow finit_module call, stacks.sh).
 */
#include <linux/atomic.h>
#include <linux/cpumask.h>
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/kthread.h>
#include <linux/ktime.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timer.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <trace/events/sched.h>

#include <latency_tracker.h>
#include <latency_tracker_compat.h>
#include <lt_trace.h>

#define LTT_NAME		"lt_core_test"
#define LTT_RESULTS_SIZE	(64 * 1024)
/* Upper bound of a measured delay above the injected one (TCG is slow). */
#define LTT_SLACK_NS		(3ULL * NSEC_PER_SEC)

static unsigned long threshold = NSEC_PER_MSEC;
module_param(threshold, ulong, 0400);
MODULE_PARM_DESC(threshold, "threshold of the lt_core_test tracker (ns)");
static unsigned long timeout;
module_param(timeout, ulong, 0400);
MODULE_PARM_DESC(timeout, "timeout of the lt_core_test tracker (ns, 0 = off)");
static unsigned int max_events = 256;
module_param(max_events, uint, 0400);
MODULE_PARM_DESC(max_events, "max_events of the lt_core_test tracker");
static unsigned int alert_records = 64;
module_param(alert_records, uint, 0400);
MODULE_PARM_DESC(alert_records, "alert ring size of the lt_core_test tracker");
static bool selftest = true;
module_param(selftest, bool, 0400);
MODULE_PARM_DESC(selftest, "run the self-tests at load time");
#define LTT_INIT_SLEEP_MAX_MS	10000
static unsigned int init_sleep_ms;
module_param(init_sleep_ms, uint, 0400);
MODULE_PARM_DESC(init_sleep_ms, "sleep this long (ms, up to 10000) in the module's init function");

/* ---- results ---------------------------------------------------------- */

static char *ltt_res;
static size_t ltt_res_len;
static unsigned int ltt_failed;

/* One results line: TAG, a space, the formatted text. */
static __printf(2, 0) void ltt_vline(const char *tag, const char *fmt,
				     va_list ap)
{
	ltt_res_len += scnprintf(ltt_res + ltt_res_len,
				 LTT_RESULTS_SIZE - ltt_res_len, "%s ", tag);
	ltt_res_len += vscnprintf(ltt_res + ltt_res_len,
				  LTT_RESULTS_SIZE - ltt_res_len, fmt, ap);
	ltt_res_len += scnprintf(ltt_res + ltt_res_len,
				 LTT_RESULTS_SIZE - ltt_res_len, "\n");
}

static __printf(2, 3) void ltt_check(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (!ok)
		ltt_failed++;
	va_start(ap, fmt);
	ltt_vline(ok ? "PASS" : "FAIL", fmt, ap);
	va_end(ap);
}

/* An assertion this machine cannot make, as "SKIP why" (counted as run). */
static __printf(1, 2) void ltt_skip(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_vline("SKIP", fmt, ap);
	va_end(ap);
}

static __printf(1, 2) void ltt_diag(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_vline("#", fmt, ap);
	va_end(ap);
}

/* ---- a tracker with a callback that counts ---------------------------- */

struct ltt_state {
	atomic_t thr;
	atomic_t tmo;
	atomic_t preemptible;		/* callbacks run preemptible */
	atomic64_t thr_delay;		/* last reported, per cause */
	atomic64_t tmo_delay;
	bool alert;			/* append an alert for each report */
};

struct ltt_payload {
	u64 seq;
	char str[16];
};

static void ltt_cb(const struct latency_tracker_report *r)
{
	struct ltt_state *s = latency_tracker_owner_data(r->tracker);
	struct ltt_payload p = { .str = "a b=c\\" };

	/* The API's contract: callbacks run with preemption disabled. */
	if (preemptible())
		atomic_inc(&s->preemptible);
	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		atomic_inc(&s->thr);
		atomic64_set(&s->thr_delay, r->delay_ns);
	} else {
		atomic_inc(&s->tmo);
		atomic64_set(&s->tmo_delay, r->delay_ns);
	}
	if (s->alert) {
		p.seq = r->delay_ns;
		latency_tracker_alert(r->tracker, r->cause, r->end_ns,
				      r->delay_ns, &p, sizeof(p));
	}
}

static void ltt_fmt(struct lt_fmt *f, const void *payload, size_t len)
{
	const struct ltt_payload *p = payload;

	if (len != sizeof(*p))
		return;
	latency_tracker_fmt_u64(f, "seq", p->seq);
	latency_tracker_fmt_str(f, "str", p->str, sizeof(p->str));
}

static struct latency_tracker *ltt_create(const char *name,
					  struct ltt_state *s, u64 thr,
					  u64 tmo, u32 max, u32 priv)
{
	struct latency_tracker_params p = {
		.name = name,
		.threshold_ns = thr,
		.timeout_ns = tmo,
		.max_events = max,
		.key_size = sizeof(u64),
		.priv_size = priv,
		.callback = ltt_cb,
		.alert_fmt = ltt_fmt,
		.owner_data = s,
	};
	struct latency_tracker *t;

	memset(s, 0, sizeof(*s));
	t = latency_tracker_create(&p);
	ltt_check(!IS_ERR(t), "create tracker %s (%ld)", name,
		  IS_ERR(t) ? PTR_ERR(t) : 0L);
	return IS_ERR(t) ? NULL : t;
}

static enum latency_tracker_status ltt_in(struct latency_tracker *t, u64 key,
					  enum latency_tracker_mode mode)
{
	struct latency_tracker_in_opts o = { .mode = mode };

	return latency_tracker_event_in(t, &key, sizeof(key), &o);
}

static int ltt_out(struct latency_tracker *t, u64 key)
{
	return latency_tracker_event_out(t, &key, sizeof(key), 0, NULL);
}

/* Unique-mode event_in of keys @first..@first + @nr - 1: how many fit. */
static int ltt_in_many(struct latency_tracker *t, u64 first, int nr)
{
	int i, ok = 0;

	for (i = 0; i < nr; i++)
		ok += ltt_in(t, first + i, LATENCY_TRACKER_UNIQUE) ==
		      LATENCY_TRACKER_OK;
	return ok;
}

/*
 * Waits until the events ended so far are back in the pool: their
 * reclaim batches, up to two chained ones per CPU (the second submitted
 * by the first one's callback, or by its IPI), each after a grace period.
 */
static void ltt_reclaim_settle(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		synchronize_rcu();
		rcu_barrier();
	}
}

static u64 ltt_now(void)
{
	return ktime_get_mono_fast_ns();
}

/*
 * Injects a known latency: busy-waits until at least @ns have passed on
 * the tracker's clock (mdelay() is calibrated on another clock, which
 * drifts from it under emulation).  Called after event_in, so the event
 * is at least @ns old when it returns.
 */
static void ltt_spin_ns(u64 ns)
{
	u64 end = ltt_now() + ns;

	while (ltt_now() < end)
		cpu_relax();
}

/*
 * Injects a known latency by sleeping: at least @ns pass on the tracker's
 * clock before it returns.  msleep() counts jiffies, which drift from that
 * clock under emulation (the tracker measured an msleep(20) event at
 * 19.03 ms), so the sleep goes on until the tracker's clock says the delay
 * has passed; usleep_range() sleeps on a CLOCK_MONOTONIC hrtimer, which
 * does not expire early, so the loop rarely runs twice.  Process context.
 */
static void ltt_sleep_ns(u64 ns)
{
	u64 end = ltt_now() + ns;
	u64 now;

	while ((now = ltt_now()) < end) {
		unsigned long us = div_u64(end - now, NSEC_PER_USEC) + 1;

		usleep_range(us, us + 100);
	}
}

static struct latency_tracker_stats ltt_stats(struct latency_tracker *t)
{
	struct latency_tracker_stats s;

	latency_tracker_get_stats(t, &s);
	return s;
}

/* ---- parameters ------------------------------------------------------- */

static void ltt_test_params(void)
{
	struct latency_tracker_params p = {
		.name = "ltt_params", .threshold_ns = 1, .max_events = 4,
		.key_size = 8,
	};
	struct latency_tracker *t, *t2;

	p.name = NULL;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: NULL name refused");
	p.name = "a/b";
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: name with / refused");
	p.name = "ltt_params";
	p.key_size = 0;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: key_size 0 refused");
	p.key_size = 8;
	p.max_events = (1U << 22) + 1;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: max_events above 2^22 refused");
	p.max_events = 4;
	p.initial_events = 5;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: initial_events above max_events refused");
	p.initial_events = 0;
	p.threshold_ns = 0;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: threshold 0 refused");
	p.threshold_ns = 1;
	p.timeout_ns = 1000;
	ltt_check(PTR_ERR(latency_tracker_create(&p)) == -EINVAL,
		  "params: timeout below 1 ms refused");
	p.timeout_ns = 0;

	t = latency_tracker_create(&p);
	ltt_check(!IS_ERR(t), "params: valid parameters accepted");
	t2 = latency_tracker_create(&p);
	ltt_check(PTR_ERR(t2) == -EEXIST, "params: duplicate name refused");
	if (!IS_ERR(t2))
		latency_tracker_destroy(t2);
	latency_tracker_destroy(t);

	ltt_check(latency_tracker_check_param(LATENCY_TRACKER_PARAM_THRESHOLD,
					      LTT_NAME, 5000000) == 0,
		  "check_param: threshold=5000000 accepted");
	ltt_check(latency_tracker_check_param(LATENCY_TRACKER_PARAM_TIMEOUT,
					      LTT_NAME, 0) == 0,
		  "check_param: timeout=0 accepted");
	ltt_check(latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
					      LTT_NAME, 0) == 0,
		  "check_param: max_events=0 (from the machine) accepted");
	ltt_check(latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
					      LTT_NAME, (1U << 22) + 1) ==
		  -EINVAL,
		  "check_param: max_events above 2^22 refused");
}

/* ---- unique and duplicate keys ---------------------------------------- */

static void ltt_test_keys(void)
{
	struct latency_tracker_in_opts o = { };
	struct latency_tracker_stats st;
	struct latency_tracker *t;
	struct ltt_state s;
	u8 big[16] = { };
	int i, n;

	t = ltt_create("ltt_keys", &s, NSEC_PER_SEC, 0, 64, 0);
	if (!t)
		return;
	st = ltt_stats(t);
	ltt_diag("bytes per slot (8-byte key, no private data): %llu",
		 st.slot_bytes);
	ltt_check(st.slot_bytes <= 128, "bytes per slot %llu <= 128",
		  st.slot_bytes);
	ltt_check(ltt_in(t, 1, LATENCY_TRACKER_UNIQUE) == LATENCY_TRACKER_OK,
		  "unique: event_in ok");
	ltt_check(ltt_in(t, 1, LATENCY_TRACKER_UNIQUE) == LATENCY_TRACKER_OK,
		  "unique: second event_in on the same key ok");
	st = ltt_stats(t);
	ltt_check(st.pending == 1, "unique: replaced, 1 pending (%llu)",
		  st.pending);
	n = ltt_out(t, 1);
	ltt_check(n == 1, "unique: event_out ends 1 event (%d)", n);
	ltt_check(ltt_out(t, 1) == 0, "unique: second event_out finds none");

	for (i = 0; i < 3; i++)
		ltt_in(t, 2, LATENCY_TRACKER_DUPLICATE);
	st = ltt_stats(t);
	ltt_check(st.pending == 3, "duplicate: 3 pending (%llu)", st.pending);
	n = ltt_out(t, 2);
	ltt_check(n == 3, "duplicate: event_out ends all 3 (%d)", n);
	st = ltt_stats(t);
	ltt_check(st.pending == 0 && st.matched == 4,
		  "duplicate: 0 pending, 4 matched (%llu, %llu)", st.pending,
		  st.matched);
	ltt_check(atomic_read(&s.thr) == 0, "no callback below threshold");

	ltt_check(latency_tracker_event_in(t, big, sizeof(big), &o) ==
		  LATENCY_TRACKER_ERROR, "key longer than key_size refused");
	o.priv_len = 1;
	ltt_check(latency_tracker_event_in(t, big, 8, &o) ==
		  LATENCY_TRACKER_ERROR, "private data without priv_size refused");
	ltt_check(latency_tracker_event_out(t, big, 0, 0, NULL) == -EINVAL,
		  "event_out with an empty key refused");
	latency_tracker_destroy(t);
}

/* ---- thresholds with known delays ------------------------------------- */

static void ltt_test_threshold(void)
{
	struct latency_tracker_in_opts o = { };
	struct latency_tracker_stats st;
	struct latency_tracker *t;
	struct ltt_state s;
	u64 d, key = 7;
	int n;

	t = ltt_create("ltt_thr", &s, 2 * NSEC_PER_MSEC, 0, 64, 0);
	if (!t)
		return;
	ltt_in(t, key, LATENCY_TRACKER_UNIQUE);
	ltt_spin_ns(5 * NSEC_PER_MSEC);
	ltt_out(t, key);
	d = atomic64_read(&s.thr_delay);
	ltt_check(atomic_read(&s.thr) == 1,
		  "threshold: one callback for a 5 ms event over 2 ms");
	ltt_check(d >= 5 * NSEC_PER_MSEC && d < 5 * NSEC_PER_MSEC + LTT_SLACK_NS,
		  "threshold: measured %llu ns >= injected 5 ms", d);

	ltt_in(t, key, LATENCY_TRACKER_UNIQUE);
	ltt_out(t, key);
	ltt_check(atomic_read(&s.thr) == 1,
		  "threshold: no callback for an immediate event_out");

	/* Timestamp override: an event that started 50 ms ago. */
	o.ts_ns = ltt_now() - 50 * NSEC_PER_MSEC;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ltt_out(t, key);
	d = atomic64_read(&s.thr_delay);
	ltt_check(atomic_read(&s.thr) == 2 && d >= 50 * NSEC_PER_MSEC &&
		  d < 50 * NSEC_PER_MSEC + LTT_SLACK_NS,
		  "timestamp override: delay %llu ns >= 50 ms", d);

	/* Per-event threshold above the delay: no report. */
	o.ts_ns = 0;
	o.threshold_ns = 10 * NSEC_PER_SEC;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ltt_spin_ns(3 * NSEC_PER_MSEC);
	ltt_out(t, key);
	ltt_check(atomic_read(&s.thr) == 2,
		  "per-event threshold 10 s: no callback after 3 ms");
	/* Per-event threshold below the tracker's. */
	o.threshold_ns = 100 * NSEC_PER_USEC;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ltt_spin_ns(NSEC_PER_MSEC);
	n = ltt_out(t, key);
	ltt_check(n == 1 && atomic_read(&s.thr) == 3,
		  "per-event threshold 100 us: callback after 1 ms");

	st = ltt_stats(t);
	ltt_check(st.matched == 5 && st.over_threshold == 3,
		  "stats: matched 5 (%llu), over_threshold 3 (%llu)",
		  st.matched, st.over_threshold);
	ltt_check(st.max_ns >= 50 * NSEC_PER_MSEC && st.min_ns <= st.avg_ns &&
		  st.avg_ns <= st.max_ns,
		  "stats: min %llu <= avg %llu <= max %llu", st.min_ns,
		  st.avg_ns, st.max_ns);
	latency_tracker_destroy(t);
}

/* ---- intervals timed by the caller ------------------------------------ */

static void ltt_test_record(void)
{
	struct latency_tracker_stats st;
	struct latency_tracker *t;
	struct ltt_state s;
	bool ok;

	t = ltt_create("ltt_rec", &s, 2 * NSEC_PER_MSEC, 0, 4, 0);
	if (!t)
		return;
	ok = latency_tracker_event_record(t, NSEC_PER_MSEC);
	st = ltt_stats(t);
	ltt_check(ok && st.tracked == 1 && st.matched == 1 && !st.pending &&
		  st.min_ns == NSEC_PER_MSEC && st.max_ns == NSEC_PER_MSEC,
		  "record: 1 ms under 2 ms counted as tracked+matched (%llu %llu %llu)",
		  st.tracked, st.matched, st.min_ns);
	ok = latency_tracker_event_record(t, 3 * NSEC_PER_MSEC);
	st = ltt_stats(t);
	ltt_check(!ok && st.tracked == 1 && st.matched == 1 &&
		  !st.over_threshold && !atomic_read(&s.thr),
		  "record: 3 ms over 2 ms refused, nothing counted, no callback");
	ok = latency_tracker_event_record(t, 0);
	st = ltt_stats(t);
	ltt_check(ok && st.matched == 2 && st.min_ns == 0,
		  "record: 0 ns counted");
	latency_tracker_destroy(t);
}

/*
 * The cycle counter (latency_tracker_cycles_usable()), where there is one
 * (x86: the TSC): a second of cycles converts to a second, and an end
 * before its start is 0 ns, whether the counter is used or not.  While it
 * is used, an interval timed in cycles is the clock's interval (0.2 % and
 * 5 us of slack: the frequency the kernel calibrated, and a clock read
 * delayed by the emulator; the best of five tries).  Not while it is not:
 * a TSC the kernel's watchdog marked unstable may run at another rate than
 * the one calibrated (an emulated one under load), which is why the
 * trackers then time with the clock.
 */
static void ltt_test_cycles(void)
{
	u64 c0, c1, k0, k1, ns, best = U64_MAX, khz = lt_cycles_khz();
	unsigned long flags;
	int i;

	ltt_diag("cycle counter: %u kHz, %s", lt_cycles_khz(),
		 latency_tracker_cycles_usable() ? "used" : "not used");
	if (!khz)
		return;
	ns = latency_tracker_cycles_to_ns(0, khz * 1000);
	ltt_check(ns >= NSEC_PER_SEC - 1000 && ns <= NSEC_PER_SEC + 1000,
		  "cycles: %llu kHz * 1 s converts to 1 s (%llu ns)", khz, ns);
	for (i = 0; i < 5; i++) {
		local_irq_save(flags);
		c0 = latency_tracker_cycles();
		k0 = ktime_get_mono_fast_ns();
		mdelay(2);
		c1 = latency_tracker_cycles();
		k1 = ktime_get_mono_fast_ns();
		local_irq_restore(flags);
		ns = latency_tracker_cycles_to_ns(c0, c1);
		best = min(best, ns > k1 - k0 ? ns - (k1 - k0) : k1 - k0 - ns);
	}
	if (latency_tracker_cycles_usable())
		ltt_check(best <= (k1 - k0) / 500 + 5 * NSEC_PER_USEC,
			  "cycles: an interval in cycles is the clock's (%llu ns off of %llu)",
			  best, k1 - k0);
	else
		ltt_skip("cycles: counter not used, interval unchecked (%llu ns off of %llu)",
			 best, k1 - k0);
	ltt_check(latency_tracker_cycles_to_ns(c1, c0) == 0,
		  "cycles: an end before its start is 0 ns");
}

/* ---- timeouts --------------------------------------------------------- */

static void ltt_test_timeout(void)
{
	struct latency_tracker_event *ev;
	struct latency_tracker_stats st;
	struct latency_tracker *t;
	struct ltt_state s;
	u64 d, key = 9;
	int n;

	/* Why sleeps are timed on the tracker's clock (ltt_sleep_ns()). */
	d = ltt_now();
	msleep(20);
	ltt_diag("msleep(20) took %llu ns on the tracker's clock", ltt_now() - d);

	t = ltt_create("ltt_tmo", &s, NSEC_PER_MSEC, 20 * NSEC_PER_MSEC, 64, 0);
	if (!t)
		return;
	ltt_in(t, key, LATENCY_TRACKER_UNIQUE);
	ltt_sleep_ns(300 * NSEC_PER_MSEC);
	d = atomic64_read(&s.tmo_delay);
	ltt_check(atomic_read(&s.tmo) == 1,
		  "timeout: exactly one timeout callback (%d)",
		  atomic_read(&s.tmo));
	ltt_check(d >= 20 * NSEC_PER_MSEC && d < 20 * NSEC_PER_MSEC + LTT_SLACK_NS,
		  "timeout: reported after %llu ns >= 20 ms", d);
	ev = latency_tracker_get_event(t, &key, sizeof(key));
	ltt_check(!!ev, "timeout: event still pending after its timeout");
	if (ev)
		latency_tracker_put_event(ev);
	n = ltt_out(t, key);
	d = atomic64_read(&s.thr_delay);
	ltt_check(n == 1 && atomic_read(&s.thr) == 1 &&
		  d >= 300 * NSEC_PER_MSEC,
		  "timeout: later event_out still reports (%llu ns)", d);

	/* Ended before its timeout: no timeout report. */
	ltt_in(t, key + 1, LATENCY_TRACKER_UNIQUE);
	ltt_out(t, key + 1);
	msleep(100);
	ltt_check(atomic_read(&s.tmo) == 1,
		  "timeout: none for an event ended in time");

	/* Many at once: each reported once. */
	for (key = 100; key < 140; key++)
		ltt_in(t, key, LATENCY_TRACKER_UNIQUE);
	msleep(300);
	ltt_check(atomic_read(&s.tmo) == 41,
		  "timeout: 40 pending events, 40 more reports (%d)",
		  atomic_read(&s.tmo) - 1);
	st = ltt_stats(t);
	/* Every callback of this tracker ran with preemption disabled. */
	ltt_check(st.timeouts == 41 && st.pending == 40 &&
		  !atomic_read(&s.preemptible),
		  "timeout: stats timeouts %llu, pending %llu; callbacks run preemptible: %d",
		  st.timeouts, st.pending, atomic_read(&s.preemptible));
	latency_tracker_destroy(t);
}

/* ---- pool exhaustion and destroy with pending events ------------------ */

static void ltt_test_pool(void)
{
	struct latency_tracker_stats st;
	struct latency_tracker *t;
	struct ltt_state s;
	int i, ok;

	t = ltt_create("ltt_pool", &s, NSEC_PER_SEC, NSEC_PER_SEC, 16, 0);
	if (!t)
		return;
	ok = ltt_in_many(t, 0, 16);
	ltt_check(ok == 16, "pool: 16 events fit in 16 slots (%d)", ok);
	ltt_check(ltt_in(t, 99, LATENCY_TRACKER_UNIQUE) == LATENCY_TRACKER_FULL,
		  "pool: 17th event refused as full");
	st = ltt_stats(t);
	ltt_check(st.dropped == 1 && st.pending == 16,
		  "pool: dropped 1 (%llu), pending 16 (%llu)", st.dropped,
		  st.pending);
	ltt_out(t, 3);
	/* The slot comes back after a grace period. */
	ltt_reclaim_settle();
	ltt_check(ltt_in(t, 99, LATENCY_TRACKER_UNIQUE) == LATENCY_TRACKER_OK,
		  "pool: a slot is reusable after event_out");
	/* Destroy with 16 pending events and a timeout armed. */
	latency_tracker_destroy(t);
	ltt_check(true, "destroy with 16 pending events");

	t = ltt_create("ltt_pool", &s, NSEC_PER_SEC, NSEC_PER_MSEC, 256, 0);
	if (!t)
		return;
	for (i = 0; i < 200; i++)
		ltt_in(t, i % 50, LATENCY_TRACKER_DUPLICATE);
	msleep(20);
	latency_tracker_destroy(t);
	ltt_check(true, "destroy with 200 pending duplicates being timed out");
}

/* ---- private data kept at the end of a slot (priv_keep) -------------- */

/*
 * One slot, used twice: the bytes the first event left at the end of its
 * private area stay for the second with priv_keep, are zeroed without.
 */
static void ltt_test_priv_keep(void)
{
	struct latency_tracker_in_opts o = { .priv = "hello", .priv_len = 6 };
	struct latency_tracker_event *ev;
	struct latency_tracker *t;
	struct ltt_state s;
	u64 key = 9;
	char *priv;
	bool kept = false, zeroed = false;

	t = ltt_create("ltt_keep", &s, NSEC_PER_SEC, 0, 1, 16);
	if (!t)
		return;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ev = latency_tracker_get_event(t, &key, sizeof(key));
	if (ev) {
		memcpy((char *)latency_tracker_event_priv(ev) + 12, "KEEP", 4);
		latency_tracker_put_event(ev);
	}
	ltt_out(t, key);
	ltt_reclaim_settle();
	o.priv = "hi";
	o.priv_len = 3;
	o.priv_keep = 4;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ev = latency_tracker_get_event(t, &key, sizeof(key));
	if (ev) {
		priv = latency_tracker_event_priv(ev);
		kept = !memcmp(priv, "hi", 3) && !priv[3] && !priv[11] &&
		       !memcmp(priv + 12, "KEEP", 4);
		latency_tracker_put_event(ev);
	}
	ltt_out(t, key);
	ltt_reclaim_settle();
	o.priv_keep = 0;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ev = latency_tracker_get_event(t, &key, sizeof(key));
	if (ev) {
		priv = latency_tracker_event_priv(ev);
		zeroed = !memcmp(priv, "hi", 3) && !priv[12] && !priv[15];
		latency_tracker_put_event(ev);
	}
	ltt_out(t, key);
	ltt_check(kept, "priv_keep: the last bytes an earlier event left stay, the rest is zeroed");
	ltt_check(zeroed, "priv_keep 0: all but the copied bytes zeroed");
	ltt_reclaim_settle();
	latency_tracker_destroy(t);
}

/* ---- stateful lookups ------------------------------------------------- */

static void ltt_test_stateful(void)
{
	struct latency_tracker_in_opts o = { .priv = "hello", .priv_len = 6 };
	struct latency_tracker_event *ev, *ev2;
	struct latency_tracker *t;
	struct ltt_state s;
	u64 key = 5, missing = 6;
	const u64 *k;
	int i, n;
	u32 len;
	char *priv;

	t = ltt_create("ltt_state", &s, NSEC_PER_SEC, 0, 16, 16);
	if (!t)
		return;
	latency_tracker_event_in(t, &key, sizeof(key), &o);
	ev = latency_tracker_get_event(t, &key, sizeof(key));
	ltt_check(!!ev, "stateful: get_event finds the pending event");
	if (!ev)
		goto out;
	priv = latency_tracker_event_priv(ev);
	k = latency_tracker_event_key(ev, &len);
	ltt_check(priv && !memcmp(priv, "hello", 6) && !priv[15],
		  "stateful: private data copied, rest zeroed");
	ltt_check(len == 8 && *k == key && latency_tracker_event_start(ev),
		  "stateful: key and start time readable");
	ltt_check(!latency_tracker_get_event(t, &missing, 8),
		  "stateful: get_event of an absent key is NULL");
	rcu_read_lock_sched();
	ev2 = latency_tracker_find_event(t, &key, sizeof(key));
	rcu_read_unlock_sched();
	ltt_check(ev2 == ev, "stateful: find_event finds the same event");
	rcu_read_lock_sched();
	ev2 = latency_tracker_find_event(t, &missing, sizeof(missing));
	rcu_read_unlock_sched();
	ltt_check(!ev2, "stateful: find_event of an absent key is NULL");
	ltt_check(ltt_out(t, key) == 1, "stateful: event_out while referenced");
	ltt_check(!memcmp(priv, "hello", 6),
		  "stateful: data still readable while referenced");
	ev2 = latency_tracker_get_event(t, &key, sizeof(key));
	ltt_check(!ev2, "stateful: ended event no longer found");
	/*
	 * The reclaim callback runs a grace period after the end; the slot
	 * still referenced must not go back to the pool (16 slots: 15 free).
	 */
	ltt_reclaim_settle();
	n = ltt_in_many(t, 100, 16);
	ltt_check(n == 15 && !memcmp(priv, "hello", 6),
		  "stateful: a referenced slot outlives its grace period (%d of 16 taken)",
		  n);
	for (i = 0; i < 16; i++)
		ltt_out(t, 100 + i);
	ltt_reclaim_settle();
	/* The last reference gives the slot back at once. */
	latency_tracker_put_event(ev);
	n = ltt_in_many(t, 200, 16);
	ltt_check(n == 16, "stateful: put_event gives the slot back (%d of 16)",
		  n);
out:
	latency_tracker_destroy(t);
}

/* ---- one key ended on every CPU at once ------------------------------- */

struct ltt_race {
	struct latency_tracker *t;
	u64 key;
	atomic_t ended;
	atomic_t go;
	atomic_t arrived;
	atomic_t bad;
	atomic_t done;
	int rounds;
};

struct ltt_racer {
	struct ltt_race *r;
	int idx;
};

static void ltt_race_out_ipi(void *info)
{
	struct ltt_race *r = info;
	int n = ltt_out(r->t, r->key);

	if (n > 0)
		atomic_add(n, &r->ended);
}

/* Spins until @v >= @want; false if asked to stop. */
static bool ltt_spin_until(atomic_t *v, int want)
{
	unsigned int i = 0;

	while (atomic_read(v) < want) {
		if (kthread_should_stop())
			return false;
		if (!(++i & 1023))
			cond_resched();
		cpu_relax();
	}
	return true;
}

/*
 * Racer 0 starts event number "round", then both racers end it at the
 * same moment; each round, exactly one event_out must win.
 */
static int ltt_race_thread(void *arg)
{
	struct ltt_racer *me = arg;
	struct ltt_race *r = me->r;
	int round, n;

	for (round = 1; round <= r->rounds; round++) {
		if (me->idx == 0) {
			if (ltt_in(r->t, round, LATENCY_TRACKER_UNIQUE) !=
			    LATENCY_TRACKER_OK)
				atomic_inc(&r->bad);
			atomic_set(&r->go, round);
		} else if (!ltt_spin_until(&r->go, round)) {
			break;
		}
		n = ltt_out(r->t, round);
		if (n > 0)
			atomic_add(n, &r->ended);
		atomic_inc(&r->arrived);
		if (!ltt_spin_until(&r->arrived, 2 * round))
			break;
		if (me->idx == 0 && atomic_read(&r->ended) != round)
			atomic_inc(&r->bad);
	}
	atomic_inc(&r->done);
	while (!kthread_should_stop())
		schedule_timeout_interruptible(1);
	return 0;
}

static void ltt_test_race(void)
{
	struct ltt_racer racers[2];
	struct task_struct *th[2] = { };
	struct ltt_race r = { };
	struct ltt_state s;
	int i, bad = 0, cpu, nthreads = 0;
	unsigned long end;

	/*
	 * Slots come back one grace period after event_out: size the pool
	 * for every event of the test, as the loops do not wait for RCU.
	 */
	r.t = ltt_create("ltt_race", &s, 1, 0, 4096, 0);
	if (!r.t)
		return;
	ltt_diag("%u CPUs online", num_online_cpus());

	/* IPIs: every CPU ends the key in hardirq context at once. */
	for (i = 0; i < 1000; i++) {
		r.key = 1000000 + i;
		if (ltt_in(r.t, r.key, LATENCY_TRACKER_UNIQUE) !=
		    LATENCY_TRACKER_OK)
			bad++;
		atomic_set(&r.ended, 0);
		on_each_cpu(ltt_race_out_ipi, &r, 1);
		bad += atomic_read(&r.ended) != 1;
	}
	ltt_check(bad == 0, "race (IPI, all CPUs): each event ended once (%d bad)",
		  bad);
	ltt_check(atomic_read(&s.thr) == 1000,
		  "race (IPI): exactly one callback per event (%d/1000)",
		  atomic_read(&s.thr));

	/* Two kthreads bound to two CPUs end the same keys. */
	atomic_set(&s.thr, 0);
	atomic_set(&r.ended, 0);
	r.rounds = 2000;
	for_each_online_cpu(cpu) {
		if (nthreads == 2)
			break;
		racers[nthreads].r = &r;
		racers[nthreads].idx = nthreads;
		th[nthreads] = kthread_create(ltt_race_thread, &racers[nthreads],
					      "ltt_race/%d", cpu);
		if (IS_ERR(th[nthreads]))
			break;
		kthread_bind(th[nthreads], cpu);
		get_task_struct(th[nthreads]);
		nthreads++;
	}
	ltt_check(nthreads == 2, "race: 2 kthreads on 2 CPUs (%d)", nthreads);
	if (nthreads == 2) {
		wake_up_process(th[0]);
		wake_up_process(th[1]);
		end = jiffies + 60 * HZ;
		while (atomic_read(&r.done) < 2 && time_before(jiffies, end))
			msleep(20);
	}
	for (i = 0; i < nthreads; i++) {
		kthread_stop(th[i]);
		put_task_struct(th[i]);
	}
	ltt_check(nthreads == 2 && atomic_read(&r.done) == 2 &&
		  atomic_read(&r.bad) == 0 && atomic_read(&r.ended) == r.rounds,
		  "race (2 kthreads): %d events, each ended once (%d bad, %d ended)",
		  r.rounds, atomic_read(&r.bad), atomic_read(&r.ended));
	ltt_check(atomic_read(&s.thr) == r.rounds,
		  "race (2 kthreads): one callback per event (%d/%d)",
		  atomic_read(&s.thr), r.rounds);
	latency_tracker_destroy(r.t);
}

/* ---- every context on every CPU at once ------------------------------- */

enum {
	LTT_CTX_PROC,
	LTT_CTX_SOFTIRQ,
	LTT_CTX_HARDIRQ,
	LTT_CTX_IRQWORK,
	LTT_NR_CTX,
};

static const char *const ltt_ctx_names[LTT_NR_CTX] = {
	"process", "softirq", "hardirq", "irq_work"
};

#define LTT_SHARED_KEY	0xfeedULL
#define LTT_HRT_PERIOD_NS	(500 * NSEC_PER_USEC)

struct ltt_cpu {
	struct timer_list timer;
	struct hrtimer hrt;
	struct irq_work iw;
	struct task_struct *thread;
	int cpu;
	u32 seq[LTT_NR_CTX];
};

static struct {
	struct latency_tracker *t;
	struct ltt_state s;
	bool stop;
	atomic_t ops[LTT_NR_CTX];
	atomic_t bad[LTT_NR_CTX];
	atomic_t full;
	struct ltt_cpu __percpu *pcpu;
} ltt_mc;

static void ltt_mc_op(struct ltt_cpu *c, int ctx)
{
	struct latency_tracker *t = ltt_mc.t;
	struct latency_tracker_event *ev;
	enum latency_tracker_status st;
	u64 key = ((u64)ctx << 56) | ((u64)c->cpu << 40) | c->seq[ctx]++;
	int n;

	st = ltt_in(t, key, LATENCY_TRACKER_UNIQUE);
	if (st == LATENCY_TRACKER_FULL) {
		atomic_inc(&ltt_mc.full);
	} else if (st != LATENCY_TRACKER_OK) {
		atomic_inc(&ltt_mc.bad[ctx]);
	} else {
		ev = latency_tracker_get_event(t, &key, sizeof(key));
		if (!ev)
			atomic_inc(&ltt_mc.bad[ctx]);
		else
			latency_tracker_put_event(ev);
		n = ltt_out(t, key);
		if (n != 1)
			atomic_inc(&ltt_mc.bad[ctx]);
	}
	/* A key shared by everyone, in duplicate mode. */
	if (ltt_in(t, LTT_SHARED_KEY, LATENCY_TRACKER_DUPLICATE) ==
	    LATENCY_TRACKER_FULL)
		atomic_inc(&ltt_mc.full);
	if (!(c->seq[ctx] & 3))
		ltt_out(t, LTT_SHARED_KEY);
	atomic_inc(&ltt_mc.ops[ctx]);
}

static void ltt_mc_timer_fn(struct timer_list *tl)
{
	struct ltt_cpu *c = lt_timer_container_of(c, tl, timer);

	ltt_mc_op(c, LTT_CTX_SOFTIRQ);
	if (!READ_ONCE(ltt_mc.stop))
		mod_timer(tl, jiffies + 1);
}

static void ltt_mc_iw_fn(struct irq_work *w)
{
	ltt_mc_op(container_of(w, struct ltt_cpu, iw), LTT_CTX_IRQWORK);
}

static enum hrtimer_restart ltt_mc_hrt_fn(struct hrtimer *h)
{
	struct ltt_cpu *c = container_of(h, struct ltt_cpu, hrt);

	ltt_mc_op(c, LTT_CTX_HARDIRQ);
	if (!READ_ONCE(ltt_mc.stop))
		irq_work_queue(&c->iw);
	if (READ_ONCE(ltt_mc.stop))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(h, ns_to_ktime(LTT_HRT_PERIOD_NS));
	return HRTIMER_RESTART;
}

static int ltt_mc_thread(void *arg)
{
	struct ltt_cpu *c = arg;

	/* Pinned timers are started from their CPU. */
	hrtimer_start(&c->hrt, ns_to_ktime(LTT_HRT_PERIOD_NS),
		      HRTIMER_MODE_REL_PINNED_HARD);
	c->timer.expires = jiffies + 1;
	add_timer_on(&c->timer, c->cpu);
	while (!kthread_should_stop()) {
		if (!READ_ONCE(ltt_mc.stop)) {
			preempt_disable();
			ltt_mc_op(c, LTT_CTX_PROC);
			preempt_enable();
		}
		usleep_range(50, 100);
	}
	return 0;
}

static void ltt_test_contexts(void)
{
	struct latency_tracker_stats st;
	int cpu, i, nthreads = 0;
	bool ok;

	memset(&ltt_mc, 0, sizeof(ltt_mc));
	ltt_mc.pcpu = alloc_percpu(struct ltt_cpu);
	if (!ltt_mc.pcpu) {
		ltt_check(false, "contexts: allocation");
		return;
	}
	ltt_mc.t = ltt_create("ltt_ctx", &ltt_mc.s, 1, NSEC_PER_MSEC, 4096, 0);
	if (!ltt_mc.t)
		goto out_free;

	for_each_online_cpu(cpu) {
		struct ltt_cpu *c = per_cpu_ptr(ltt_mc.pcpu, cpu);

		c->cpu = cpu;
		timer_setup(&c->timer, ltt_mc_timer_fn, TIMER_PINNED);
		lt_hrtimer_setup(&c->hrt, ltt_mc_hrt_fn, CLOCK_MONOTONIC,
				 HRTIMER_MODE_REL_PINNED_HARD);
		init_irq_work(&c->iw, ltt_mc_iw_fn);
		c->thread = kthread_create(ltt_mc_thread, c, "ltt_ctx/%d", cpu);
		if (IS_ERR(c->thread)) {
			c->thread = NULL;
			continue;
		}
		kthread_bind(c->thread, cpu);
		wake_up_process(c->thread);
		nthreads++;
	}
	msleep(1500);
	WRITE_ONCE(ltt_mc.stop, true);
	for_each_online_cpu(cpu) {
		struct ltt_cpu *c = per_cpu_ptr(ltt_mc.pcpu, cpu);

		if (!c->thread)
			continue;
		kthread_stop(c->thread);
		hrtimer_cancel(&c->hrt);
		timer_shutdown_sync(&c->timer);
		irq_work_sync(&c->iw);
	}
	/* End what is left of the shared key, let the callbacks settle. */
	ltt_out(ltt_mc.t, LTT_SHARED_KEY);
	synchronize_rcu();

	ltt_check(nthreads == num_online_cpus(),
		  "contexts: one driver per CPU (%d)", nthreads);
	for (i = 0; i < LTT_NR_CTX; i++) {
		ltt_diag("contexts: %s: %d ops", ltt_ctx_names[i],
			 atomic_read(&ltt_mc.ops[i]));
		ltt_check(atomic_read(&ltt_mc.ops[i]) > 0 &&
			  atomic_read(&ltt_mc.bad[i]) == 0,
			  "contexts: %s on all CPUs: ops ran, no mismatch (%d bad)",
			  ltt_ctx_names[i], atomic_read(&ltt_mc.bad[i]));
	}
	st = ltt_stats(ltt_mc.t);
	ltt_diag("contexts: tracked %llu matched %llu timeouts %llu dropped %llu",
		 st.tracked, st.matched, st.timeouts, st.dropped);
	ok = st.pending == 0 && st.tracked == st.matched &&
	     st.dropped == (u64)atomic_read(&ltt_mc.full);
	ltt_check(ok, "contexts: nothing pending, tracked == matched, drops counted");
	ltt_check(atomic_read(&ltt_mc.s.thr) == st.over_threshold &&
		  atomic_read(&ltt_mc.s.tmo) == st.timeouts,
		  "contexts: callbacks == over_threshold (%d/%llu), == timeouts (%d/%llu)",
		  atomic_read(&ltt_mc.s.thr), st.over_threshold,
		  atomic_read(&ltt_mc.s.tmo), st.timeouts);
	latency_tracker_destroy(ltt_mc.t);
out_free:
	free_percpu(ltt_mc.pcpu);
}

/* ---- attaching to tracepoints by name --------------------------------- */

static atomic_t ltt_switches;

/* sched_switch prototype since v5.18 (prev_state argument). */
static void ltt_probe_switch(void *data, bool preempt,
			     struct task_struct *prev,
			     struct task_struct *next,
			     unsigned int prev_state)
{
	atomic_inc(data);
}

static void ltt_probe_waking(void *data, struct task_struct *p)
{
}

/*
 * Never called: attached by name (latency_tracker_tp_attach() takes the
 * probe as a plain pointer), the probes are checked here against their
 * tracepoints' prototypes; a kernel that changes one fails the build.
 */
static inline void __maybe_unused ltt_check_probe_types(void)
{
	check_trace_callback_type_sched_switch(ltt_probe_switch);
	check_trace_callback_type_sched_waking(ltt_probe_waking);
}

/*
 * An attach that fails at its third entry (ctl "unwind"): the two before
 * it are registered, then unregistered by the unwind.  0 when it failed
 * with -ENOENT and left nothing attached.
 */
static int ltt_tp_unwind(void)
{
	struct latency_tracker_tp tps[] = {
		{ "sched_switch", ltt_probe_switch, &ltt_switches },
		{ "sched_waking", ltt_probe_waking, NULL },
		{ "ltt_no_such_tracepoint", ltt_probe_switch, &ltt_switches },
	};
	int ret = latency_tracker_tp_attach(tps, ARRAY_SIZE(tps));

	return ret == -ENOENT && !tps[0].tp && !tps[1].tp ? 0 : -EIO;
}

static void ltt_test_tracepoints(void)
{
	struct latency_tracker_tp good[] = {
		{ "sched_switch", ltt_probe_switch, &ltt_switches },
	};
	struct latency_tracker_tp bad[] = {
		{ "sched_switch", ltt_probe_switch, &ltt_switches },
		{ "ltt_no_such_tracepoint", ltt_probe_switch, &ltt_switches },
	};
	int ret, n;

	ret = latency_tracker_tp_attach(good, ARRAY_SIZE(good));
	ltt_check(ret == 0 && good[0].tp, "tracepoint: attach sched_switch (%d)",
		  ret);
	msleep(50);
	latency_tracker_tp_detach(good, ARRAY_SIZE(good));
	n = atomic_read(&ltt_switches);
	ltt_check(n > 0, "tracepoint: probe ran (%d context switches)", n);
	msleep(50);
	ltt_check(atomic_read(&ltt_switches) == n,
		  "tracepoint: probe silent after detach");

	ret = latency_tracker_tp_attach(bad, ARRAY_SIZE(bad));
	ltt_check(ret == -ENOENT, "tracepoint: missing name refused (%d)", ret);
	ltt_check(!bad[0].tp && !bad[1].tp,
		  "tracepoint: earlier entries unwound");
	n = atomic_read(&ltt_switches);
	msleep(50);
	ltt_check(atomic_read(&ltt_switches) == n,
		  "tracepoint: no probe left registered after the failure");
}

/*
 * The clock of a context switch, shared by the probes of one switch
 * (latency_tracker_switch_ns()).
 *
 * Its key, on made-up tasks, interrupts off (no switch on this CPU can
 * touch the slot meanwhile): the same task and count give the value kept,
 * a new count (the next switch-out) or a new start_time (another task in
 * the same task_struct) a new read, and so does another task.
 *
 * On real switches: two probes on sched_switch, attached one after the
 * other, so the first runs first in every switch that runs both, and
 * detached in the reverse order, so the second never runs without the
 * first before it.  The first notes the value it got and the clock read
 * around it; the second must get the same value.  Per CPU, a switch's
 * value must be later than the previous switch's and between the reads
 * around the first probe's call (1 us of slack: the fast clock may step
 * back a little at a timekeeping update).  No other user of the switch
 * clock may be attached meanwhile (core-api loads no tracker module).
 */
static bool ltt_swclk_keys(void)
{
	struct task_struct *a, *b;
	unsigned long flags;
	u64 v[6];
	bool ok;

	a = kzalloc(sizeof(*a), GFP_KERNEL);
	b = kzalloc(sizeof(*b), GFP_KERNEL);
	ok = a && b;
	if (!ok)
		goto out;
	a->start_time = 1000;
	a->nvcsw = 5;
	b->start_time = 2000;
	b->nvcsw = 6;
	local_irq_save(flags);
	v[0] = latency_tracker_switch_ns(a);
	udelay(1);
	v[1] = latency_tracker_switch_ns(a);	/* same switch */
	a->nivcsw++;
	v[2] = latency_tracker_switch_ns(a);	/* a's next switch-out */
	udelay(1);
	a->start_time = 2000;
	v[3] = latency_tracker_switch_ns(a);	/* a new task, same count */
	udelay(1);
	v[4] = latency_tracker_switch_ns(b);	/* another task_struct */
	udelay(1);
	v[5] = latency_tracker_switch_ns(b);
	local_irq_restore(flags);
	ok = v[1] == v[0] && v[2] > v[1] && v[3] > v[2] && v[4] > v[3] &&
	     v[5] == v[4];
	if (!ok)
		ltt_diag("switch clock keys: %llu %llu %llu %llu %llu %llu",
			 v[0], v[1], v[2], v[3], v[4], v[5]);
out:
	kfree(a);
	kfree(b);
	return ok;
}

struct ltt_swclk {
	u64 last;		/* the first probe's value at this CPU's last switch */
};

static DEFINE_PER_CPU(struct ltt_swclk, ltt_swclk);
static atomic_t ltt_swclk_calls, ltt_swclk_calls2, ltt_swclk_same,
	ltt_swclk_stale, ltt_swclk_outside;

static void ltt_probe_swclk_first(void *data, bool preempt,
				  struct task_struct *prev,
				  struct task_struct *next,
				  unsigned int prev_state)
{
	struct ltt_swclk *c = this_cpu_ptr(&ltt_swclk);
	u64 before, ns, after, cyc_before, cyc, cyc_after;

	cyc_before = latency_tracker_cycles();
	before = ktime_get_mono_fast_ns();
	ns = latency_tracker_switch_ns(prev);
	after = ktime_get_mono_fast_ns();
	cyc = latency_tracker_switch_cycles(prev);
	cyc_after = latency_tracker_cycles();
	atomic_inc(&ltt_swclk_calls);
	if (c->last && ns <= c->last)
		atomic_inc(&ltt_swclk_stale);
	if (ns + NSEC_PER_USEC < before || ns > after + NSEC_PER_USEC)
		atomic_inc(&ltt_swclk_outside);
	/* The counter is read with the clock where it may be used. */
	if (latency_tracker_cycles_ok && (cyc < cyc_before || cyc > cyc_after))
		atomic_inc(&ltt_swclk_outside);
	c->last = ns;
}

static void ltt_probe_swclk_second(void *data, bool preempt,
				   struct task_struct *prev,
				   struct task_struct *next,
				   unsigned int prev_state)
{
	atomic_inc(&ltt_swclk_calls2);
	if (latency_tracker_switch_ns(prev) == this_cpu_read(ltt_swclk.last))
		atomic_inc(&ltt_swclk_same);
}

static inline void __maybe_unused ltt_check_swclk_types(void)
{
	check_trace_callback_type_sched_switch(ltt_probe_swclk_first);
	check_trace_callback_type_sched_switch(ltt_probe_swclk_second);
}

static void ltt_test_switch_clock(void)
{
	struct latency_tracker_tp first[] = {
		{ "sched_switch", ltt_probe_swclk_first, NULL },
	};
	struct latency_tracker_tp second[] = {
		{ "sched_switch", ltt_probe_swclk_second, NULL },
	};
	int ret, calls2, i;

	ltt_check(ltt_swclk_keys(),
		  "switch clock: one read per (task, start_time, switch count)");
	ret = latency_tracker_tp_attach(first, 1);
	if (!ret) {
		ret = latency_tracker_tp_attach(second, 1);
		if (ret)
			latency_tracker_tp_detach(first, 1);
	}
	ltt_check(ret == 0, "switch clock: two sched_switch probes attached (%d)",
		  ret);
	if (ret)
		return;
	/* Two switches per sleep at least, on an idle guest too. */
	for (i = 0; i < 100; i++)
		usleep_range(200, 400);
	latency_tracker_tp_detach(second, 1);
	latency_tracker_tp_detach(first, 1);
	calls2 = atomic_read(&ltt_swclk_calls2);
	ltt_check(calls2 >= 100 && atomic_read(&ltt_swclk_same) == calls2,
		  "switch clock: both probes of a switch got the same time (%d of %d)",
		  atomic_read(&ltt_swclk_same), calls2);
	ltt_check(!atomic_read(&ltt_swclk_stale) &&
		  !atomic_read(&ltt_swclk_outside),
		  "switch clock: read at the switch, later than the last one (%d not later, %d outside the reads around it, of %d)",
		  atomic_read(&ltt_swclk_stale),
		  atomic_read(&ltt_swclk_outside),
		  atomic_read(&ltt_swclk_calls));
}

/* Emits each of our trace events once (ctl "events"). */
static void ltt_emit_events(void)
{
	static const struct lt_wakeup_record w = {
		.pid = 1, .tgid = 1, .comm = "ltt_woken", .prio = 120,
		.cpu = 0, .waker_pid = 2, .waker_comm = "ltt_waker",
		.prev_pid = 3, .prev_comm = "ltt_prev", .holder_pid = 8,
		.holder_comm = "ltt_holder", .holder_prio = 49, .irq_ns = 1,
		.softirq_ns = 2, .thread_ns = 3, .idle_ns = 4,
		.other_cpu_ns = 5, .top_irq = "ltt_irq", .top_softirq = 6,
		.top_thread = "ltt_hog:9", .migrated = 1, .cgroup = 11,
	};
	static const struct lt_offcpu_record o = {
		.pid = 4, .tgid = 4, .comm = "ltt_off", .cpu = 1, .state = 'D',
		.waker_pid = 5, .waker_comm = "ltt_waker", .cgroup = 12,
	};
	static const struct lt_syscalls_record s = {
		.pid = 6, .tgid = 6, .comm = "ltt_sys", .nr = 7,
		.on_cpu_ns = 14, .runnable_ns = 15, .blocked_ns = 16,
		.cgroup = 13,
	};
	static const struct lt_irq_record q = {
		.kind = LT_IRQ_KIND_HARDIRQ, .cpu = 1, .irq = 28,
		.name = "ltt_handler", .vec = LT_REC_NONE,
	};
	static const struct lt_block_record b = {
		.dev = MKDEV(8, 16), .sector = 2048, .nr_sectors = 8,
		.op = LT_BLOCK_OP_WRITE, .cgroup = 14,
	};

	trace_wakeup(0, 1234, &w);
	trace_offcpu(1, 2345, &o, "ltt_frame_a\nltt_frame_b", "ltt_frame_w");
	trace_syscall(0, 3456, &s, "ltt_frame_c");
	trace_block(0, 4567, &b);
	trace_irq(0, 5678, &q);
}

/* ---- the tracker kept for the guest scripts --------------------------- */

static struct latency_tracker *ltt_main;
static struct ltt_state ltt_main_state;
static struct irq_work ltt_emit_work;
static atomic_t ltt_emit_left;
static u64 ltt_pending_key = 1ULL << 32;
static DEFINE_MUTEX(ltt_ctl_lock);

static void ltt_emit_fn(struct irq_work *w)
{
	struct ltt_payload p = { .str = "a b=c\\" };
	u64 now = ltt_now();

	while (atomic_dec_if_positive(&ltt_emit_left) >= 0) {
		p.seq++;
		latency_tracker_alert(ltt_main, LATENCY_TRACKER_CAUSE_THRESHOLD,
				      now, 1000 + p.seq, &p, sizeof(p));
	}
}

static ssize_t ltt_ctl_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	enum latency_tracker_status st;
	char buf[32], *arg;
	u64 n, i, key;
	int ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	arg = strchr(buf, ' ');
	if (!arg)
		return -EINVAL;
	*arg++ = '\0';
	ret = kstrtou64(strim(arg), 10, &n);
	if (ret)
		return ret;

	mutex_lock(&ltt_ctl_lock);
	if (!strcmp(buf, "alerts") && n <= 100000) {
		atomic_set(&ltt_emit_left, n);
		irq_work_queue(&ltt_emit_work);
		irq_work_sync(&ltt_emit_work);
	} else if (!strcmp(buf, "pending") && n <= 100000) {
		for (i = 0; i < n; i++) {
			key = ltt_pending_key++;
			ltt_in(ltt_main, key, LATENCY_TRACKER_UNIQUE);
		}
	} else if (!strcmp(buf, "events")) {
		for (i = 0; i < n && i < 100; i++)
			ltt_emit_events();
	} else if (!strcmp(buf, "unwind") && n <= 100) {
		for (i = 0; i < n && !ret; i++)
			ret = ltt_tp_unwind();
	} else if (!strcmp(buf, "delay") && n <= 10000) {
		/* -EIO unless exactly this one event was tracked and ended. */
		key = 1;
		st = ltt_in(ltt_main, key, LATENCY_TRACKER_UNIQUE);
		ltt_sleep_ns(n * NSEC_PER_MSEC);
		if (ltt_out(ltt_main, key) != 1 || st != LATENCY_TRACKER_OK)
			ret = -EIO;
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&ltt_ctl_lock);
	return ret ? ret : count;
}

static int ltt_ctl_open(struct inode *inode, struct file *file)
{
	return 0;
}

static const struct proc_ops ltt_ctl_ops = {
	.proc_open = ltt_ctl_open,
	.proc_write = ltt_ctl_write,
};

static int ltt_results_show(struct seq_file *m, void *v)
{
	seq_write(m, ltt_res, ltt_res_len);
	return 0;
}

static int ltt_results_open(struct inode *inode, struct file *file)
{
	return single_open(file, ltt_results_show, NULL);
}

static const struct proc_ops ltt_results_ops = {
	.proc_open = ltt_results_open,
	.proc_read = seq_read,
	.proc_lseek = seq_lseek,
	.proc_release = single_release,
};

static int ltt_main_create(void)
{
	struct latency_tracker_params p = {
		.name = LTT_NAME,
		.threshold_ns = threshold,
		.timeout_ns = timeout,
		.max_events = max_events,
		.key_size = sizeof(u64),
		.alert_records = alert_records,
		.callback = ltt_cb,
		.alert_fmt = ltt_fmt,
		.owner_data = &ltt_main_state,
	};
	struct proc_dir_entry *dir;

	ltt_main_state.alert = true;
	ltt_main = latency_tracker_create(&p);
	if (IS_ERR(ltt_main))
		return PTR_ERR(ltt_main);
	init_irq_work(&ltt_emit_work, ltt_emit_fn);
	dir = latency_tracker_proc_dir(ltt_main);
	if (!proc_create("ctl", 0200, dir, &ltt_ctl_ops) ||
	    !proc_create("results", 0400, dir, &ltt_results_ops)) {
		latency_tracker_destroy(ltt_main);
		return -ENOMEM;
	}
	return 0;
}

static int __init ltt_init(void)
{
	int ret;

	ret = latency_tracker_check_param(LATENCY_TRACKER_PARAM_THRESHOLD,
					  LTT_NAME, threshold) ?:
	      latency_tracker_check_param(LATENCY_TRACKER_PARAM_TIMEOUT,
					  LTT_NAME, timeout) ?:
	      latency_tracker_check_param(LATENCY_TRACKER_PARAM_MAX_EVENTS,
					  LTT_NAME, max_events);
	if (ret)
		return ret;
	if (init_sleep_ms > LTT_INIT_SLEEP_MAX_MS) {
		pr_err(LTT_NAME ": invalid init_sleep_ms=%u (accepted: 0..%u)\n",
		       init_sleep_ms, LTT_INIT_SLEEP_MAX_MS);
		return -EINVAL;
	}
	if (init_sleep_ms)	/* msleep(0) still sleeps a jiffy */
		msleep(init_sleep_ms);
	ltt_res = vzalloc(LTT_RESULTS_SIZE);
	if (!ltt_res)
		return -ENOMEM;
	if (selftest) {
		ltt_test_params();
		ltt_test_keys();
		ltt_test_threshold();
		ltt_test_record();
		ltt_test_cycles();
		ltt_test_timeout();
		ltt_test_pool();
		ltt_test_stateful();
		ltt_test_priv_keep();
		ltt_test_race();
		ltt_test_contexts();
		ltt_test_tracepoints();
		ltt_test_switch_clock();
		pr_info(LTT_NAME ": self-tests done, %u failed\n", ltt_failed);
	}
	ret = ltt_main_create();
	if (ret) {
		vfree(ltt_res);
		return ret;
	}
	return 0;
}

static void __exit ltt_exit(void)
{
	latency_tracker_destroy(ltt_main);
	irq_work_sync(&ltt_emit_work);
	vfree(ltt_res);
}

module_init(ltt_init);
module_exit(ltt_exit);

MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("latency_tracker core self-test (test-only, never installed)");
