/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * latency_tracker.h - in-kernel API of latency_tracker.ko.
 *
 * A tracker matches an "in" event with an "out" event carrying the same key
 * and measures the delay between them.  When the delay exceeds the
 * threshold, or when the out event has not come after the timeout, the
 * tracker's callback runs.  The callback typically appends an alert record
 * (latency_tracker_alert()) and emits one of our tracepoints.
 *
 * Typical use by a tracker module:
 *
 *	params.name = "block";
 *	params.key_size = sizeof(struct my_key);
 *	params.callback = my_cb;
 *	params.alert_fmt = my_fmt;
 *	t = latency_tracker_create(&params);
 *	...in a probe...	latency_tracker_event_in(t, &key, sizeof(key), NULL);
 *	...in a probe...	latency_tracker_event_out(t, &key, sizeof(key), 0, NULL);
 *
 * Contexts: unless a function says otherwise, "any context" below means
 * process, softirq and hardirq context, with or without preemption
 * disabled, including tracepoint probes, but not NMI.
 *
 * Concurrency with destroy: the owner of a tracker must stop every caller
 * of event_in/event_out/get_event/find_event/alert (unregister its probes
 * and wait for them), and drop every get_event() reference, before calling
 * latency_tracker_destroy().
 *
 * Clock: every timestamp is ktime_get_mono_fast_ns(), i.e. CLOCK_MONOTONIC
 * nanoseconds, the clock of LTTng's default channel and of userspace.  A
 * probe may time a short interval on one CPU with the cycle counter the
 * kernel keeps that clock with (latency_tracker_cycles_usable()).
 */
#ifndef _LATENCY_TRACKER_H
#define _LATENCY_TRACKER_H

#include <linux/types.h>

struct latency_tracker;
struct latency_tracker_event;
struct proc_dir_entry;
struct seq_file;
struct lt_fmt;
struct task_struct;
struct work_struct;

/** enum latency_tracker_cause - why a callback runs or an alert exists */
enum latency_tracker_cause {
	LATENCY_TRACKER_CAUSE_THRESHOLD = 0,
	LATENCY_TRACKER_CAUSE_TIMEOUT = 1,
};

/**
 * enum latency_tracker_status - result of latency_tracker_event_in()
 * @LATENCY_TRACKER_OK: the event is pending.
 * @LATENCY_TRACKER_FULL: no free slot; the event was counted as dropped.
 * @LATENCY_TRACKER_DISABLED: tracking is off (enable = 0).
 * @LATENCY_TRACKER_ERROR: bad arguments (key or private data too long).
 */
enum latency_tracker_status {
	LATENCY_TRACKER_OK = 0,
	LATENCY_TRACKER_FULL,
	LATENCY_TRACKER_DISABLED,
	LATENCY_TRACKER_ERROR,
};

/**
 * enum latency_tracker_mode - what event_in does with a key already pending
 * @LATENCY_TRACKER_UNIQUE: the new event replaces the pending one (which is
 *	freed without a callback).
 * @LATENCY_TRACKER_DUPLICATE: both are kept; event_out ends all of them.
 */
enum latency_tracker_mode {
	LATENCY_TRACKER_UNIQUE = 0,
	LATENCY_TRACKER_DUPLICATE,
};

/**
 * struct latency_tracker_report - what a callback is told
 * @tracker: the tracker.
 * @event: the event; valid during the callback only.  Its key and private
 *	data are reachable with latency_tracker_event_key() and
 *	latency_tracker_event_priv().
 * @cause: threshold (from event_out) or timeout (from the timeout timer,
 *	the event is still pending).
 * @start_ns: event_in timestamp.
 * @end_ns: event_out timestamp, or the time the timeout was detected.
 * @delay_ns: @end_ns - @start_ns.
 * @out_id: the value given to event_out, 0 for a timeout.
 * @ctx: the pointer given to event_out, NULL for a timeout.
 */
struct latency_tracker_report {
	struct latency_tracker *tracker;
	struct latency_tracker_event *event;
	enum latency_tracker_cause cause;
	u64 start_ns;
	u64 end_ns;
	u64 delay_ns;
	unsigned int out_id;
	void *ctx;
};

/*
 * The callback runs in the context of event_out (threshold) or of the
 * timeout timer (softirq; on PREEMPT_RT the timer softirq's thread), in
 * both cases with preemption disabled and inside an RCU read-side
 * critical section: it must not sleep, nor take a lock that sleeps on
 * PREEMPT_RT (spinlock_t, mutex; raw_spinlock_t is fine).
 */
typedef void (*latency_tracker_cb_t)(const struct latency_tracker_report *r);

/*
 * Appends tracker-specific fields of an alert record from its binary
 * payload; called when a reader reads the `alerts` file (process context).
 * Use the latency_tracker_fmt_*() helpers.
 */
typedef void (*latency_tracker_fmt_t)(struct lt_fmt *f, const void *payload,
				      size_t len);

/**
 * struct latency_tracker_params - creation parameters
 * @name: directory name under /proc/latency_tracker/ (copied).
 * @threshold_ns: report event_out when the delay exceeds this.
 * @timeout_ns: report pending events older than this; 0 = off.  A change
 *	applies to events started after it: an event started while the
 *	timeout was 0 is never reported as timed out (it is on no timeout
 *	FIFO, and putting it on one afterwards would race with its end);
 *	one started before a change to another non-zero value is reported
 *	at the new timeout.
 * @max_events: the most event slots the tracker may have (the ceiling of
 *	its pool), 1..2^22; 0 = one per kernel stack the machine's memory
 *	could hold (totalram_pages() / THREAD_SIZE, within 4096..2^22, and
 *	never below @initial_events: every pending event of a per-task
 *	tracker is a task), e.g. about 125000 with 2 GiB.  The pool starts
 *	with @initial_events slots and grows, outside the probe path, when
 *	fewer than half of them are left free (each growth at least doubles
 *	it, unless the pool's largest segment caps it), up to @max_events; it
 *	never shrinks.  The slots in use
 *	are the pending events plus the recently ended ones: an ended event's
 *	slot goes back to the pool with a per-CPU batch, one to two RCU grace
 *	periods after the event ended (at most one batch per CPU waits for a
 *	grace period while the next one fills), or when its last get_event()
 *	reference is dropped, if later.  Sizing rule: max_events >= peak
 *	pending events + peak ending rate (events/s) x 2 x the grace-period
 *	length.  A grace period takes a few ms on an idle machine and tens
 *	of ms on a busy one; the batches are queued with call_rcu_hurry(), so
 *	lazy RCU (CONFIG_RCU_LAZY, whose lazy callbacks may wait ~10 s on
 *	CPUs with offloaded callbacks, rcu_nocbs=) does not stretch it.  E.g.
 *	20000 ended events/s and 50 ms grace periods: pending + 2000 slots.
 *	A slot still waiting counts as in use: an event_in that finds no free
 *	slot (at the ceiling, or faster than the pool grows) is refused and
 *	counted as dropped.  The hash table has up to 4 buckets (8 bytes
 *	each) per slot of max_events (rounded up to a power of two); it
 *	starts smaller and follows the number of pending events.
 * @initial_events: slots allocated at creation, at most @max_events (when
 *	set; with @max_events 0, the ceiling is raised to it); 0 = 1024 per
 *	online CPU within 4096..65536, or @max_events if smaller.  Set it to
 *	@max_events to have every slot allocated at once.
 * @key_size: largest key, in bytes (1..LATENCY_TRACKER_KEY_MAX).
 * @priv_size: per-event private data, in bytes (0..LATENCY_TRACKER_PRIV_MAX).
 * @alert_records: capacity of the alert ring (rounded up to a power of
 *	two, at most 65536); 0 = the default, 1024.
 * @alert_payload: the largest payload latency_tracker_alert() will be
 *	given, in bytes (at most 1024, LT_ALERT_PAYLOAD_MAX); 0 = 128.
 *	The ring keeps this many bytes per record.
 * @callback: called on threshold/timeout; may be NULL (stats only).
 * @hash: optional key hash; default: for keys of up to 8 bytes a seeded
 *	64-bit mix of the key as one word (no collision between keys of one
 *	length), jhash of the key bytes for longer keys.
 * @match: optional key comparison; default: same length and same bytes.
 * @alert_fmt: formats tracker-specific alert fields; may be NULL.
 * @stats_show: appends tracker-specific `name value` lines to the `stats`
 *	file (process context, may sleep); may be NULL.
 * @owner_data: returned by latency_tracker_owner_data().
 */
struct latency_tracker_params {
	const char *name;
	u64 threshold_ns;
	u64 timeout_ns;
	u32 max_events;
	u32 initial_events;
	u32 key_size;
	u32 priv_size;
	u32 alert_records;
	u32 alert_payload;
	latency_tracker_cb_t callback;
	u32 (*hash)(const void *key, u32 len);
	bool (*match)(const void *key_a, const void *key_b, u32 len);
	latency_tracker_fmt_t alert_fmt;
	void (*stats_show)(struct seq_file *m, struct latency_tracker *t);
	void *owner_data;
};

#define LATENCY_TRACKER_KEY_MAX		128
/* The most event slots of a tracker (max_events, initial_events). */
#define LATENCY_TRACKER_EVENTS_MAX	4194304U	/* 2^22 */
#define LATENCY_TRACKER_PRIV_MAX	1024
#define LATENCY_TRACKER_NAME_MAX	32

/**
 * struct latency_tracker_in_opts - optional arguments of event_in
 * @ts_ns: start timestamp (ktime_get_mono_fast_ns() clock); 0 = now.
 * @threshold_ns: per-event threshold; 0 = the tracker's current one.
 * @mode: unique (default) or duplicate.
 * @priv: private data copied into the event (may be NULL).
 * @priv_len: its length, at most the tracker's priv_size; the rest of the
 *	event's private area is zeroed, but for its last @priv_keep bytes.
 * @priv_keep: bytes at the end of the private area neither copied nor
 *	zeroed: they hold what an earlier event of the slot left, for arrays
 *	whose used part a count in the copied or zeroed part says (a stack
 *	and its depth), so that no event pays for them until it fills them.
 *	Clamped to what @priv_len leaves.
 */
struct latency_tracker_in_opts {
	u64 ts_ns;
	u64 threshold_ns;
	enum latency_tracker_mode mode;
	const void *priv;
	u32 priv_len;
	u32 priv_keep;
};

/**
 * enum latency_tracker_param - the knobs whose bounds the core declares
 * @LATENCY_TRACKER_PARAM_THRESHOLD: threshold, 1 ns..1000 s.
 * @LATENCY_TRACKER_PARAM_TIMEOUT: timeout, 0 (off) or 1 ms..1000 s; see
 *	latency_tracker_params.timeout_ns for which events it applies to.
 * @LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL: minimum interval between reader
 *	wakeups, 0..60 s.
 * @LATENCY_TRACKER_PARAM_ENABLE: 0 or 1.
 * @LATENCY_TRACKER_PARAM_MAX_EVENTS: the most event slots, 1..2^22, or 0
 *	(sized from the machine's memory; see latency_tracker_params).
 * @LATENCY_TRACKER_PARAM_ALERT_RECORDS: capacity of the alert ring,
 *	16..65536 records (rounded up to a power of two); fixed at creation.
 * @LATENCY_TRACKER_NR_PARAMS: number of knobs.
 *
 * The same bounds apply to the procfs files and to the module parameters
 * of tracker modules (latency_tracker_check_param()).
 */
enum latency_tracker_param {
	LATENCY_TRACKER_PARAM_THRESHOLD,
	LATENCY_TRACKER_PARAM_TIMEOUT,
	LATENCY_TRACKER_PARAM_WAKEUP_INTERVAL,
	LATENCY_TRACKER_PARAM_ENABLE,
	LATENCY_TRACKER_PARAM_MAX_EVENTS,
	LATENCY_TRACKER_PARAM_ALERT_RECORDS,
	LATENCY_TRACKER_NR_PARAMS,
};

/**
 * struct latency_tracker_tp - one tracepoint to attach by name
 * @name: tracepoint name, e.g. "sched_switch".
 * @probe: probe function, with the tracepoint's prototype.
 * @data: first argument of the probe.
 * @tp: filled by latency_tracker_tp_attach().
 */
struct latency_tracker_tp {
	const char *name;
	void *probe;
	void *data;
	struct tracepoint *tp;
};

/**
 * struct latency_tracker_stats - a snapshot of a tracker's counters
 * @tracked: events started (event_in returned OK).
 * @matched: events ended by event_out.
 * @over_threshold: matched events whose delay exceeded their threshold.
 * @timeouts: timeout reports.
 * @dropped: event_in refused because every slot was in use.
 * @cancelled: events ended by event_cancel (not measured).
 * @filtered: events a tracker module's filter kept from starting
 *	(latency_tracker_count_filtered()).
 * @pending: events currently started and not ended.
 * @alerts: alert records appended.
 * @alerts_lost: records refused, plus records overwritten in the ring
 *	before an open reader read them (each counted once, however many
 *	readers missed it).
 * @min_ns: smallest matched delay.
 * @max_ns: largest matched delay.
 * @avg_ns: mean matched delay, from the exact sum.
 * @sum_ns_hi: high 64 bits of the sum of the matched delays.
 * @sum_ns_lo: its low 64 bits: the sum, exact for the tracker's life, is
 *	@sum_ns_hi * 2^64 + @sum_ns_lo ns.
 * @slot_bytes: memory of one event slot.
 * @alert_records: capacity of the alert ring, in records.
 * @capacity: event slots allocated now (free or in use).
 * @max_events: the most slots the pool may grow to (its ceiling).
 * @grown: times the pool grew since the tracker was created.
 *
 * The fields of the `stats` file, summed over all CPUs; min/max/avg are
 * over matched events (0 when none).  @slot_bytes is the memory of one
 * preallocated event slot (key and private data included), for sizing
 * max_events.
 */
struct latency_tracker_stats {
	u64 tracked;
	u64 matched;
	u64 over_threshold;
	u64 timeouts;
	u64 dropped;
	u64 cancelled;
	u64 filtered;
	u64 pending;
	u64 alerts;
	u64 alerts_lost;
	u64 min_ns;
	u64 max_ns;
	u64 avg_ns;
	u64 sum_ns_hi;
	u64 sum_ns_lo;
	u64 slot_bytes;
	u64 alert_records;
	u64 capacity;
	u64 max_events;
	u64 grown;
};

struct latency_tracker *
latency_tracker_create(const struct latency_tracker_params *params);
void latency_tracker_destroy(struct latency_tracker *t);

enum latency_tracker_status
latency_tracker_event_in(struct latency_tracker *t, const void *key, u32 len,
			 const struct latency_tracker_in_opts *opts);
int latency_tracker_event_out(struct latency_tracker *t, const void *key,
			      u32 len, unsigned int out_id, void *ctx);
int latency_tracker_event_out_switch(struct latency_tracker *t,
				     const void *key, u32 len,
				     const struct task_struct *prev,
				     unsigned int out_id, void *ctx);
int latency_tracker_event_cancel(struct latency_tracker *t, const void *key,
				 u32 len);
bool latency_tracker_event_record(struct latency_tracker *t, u64 delay_ns);
void latency_tracker_count_filtered(struct latency_tracker *t);

struct latency_tracker_event *
latency_tracker_get_event(struct latency_tracker *t, const void *key, u32 len);
void latency_tracker_put_event(struct latency_tracker_event *ev);
struct latency_tracker_event *
latency_tracker_find_event(struct latency_tracker *t, const void *key, u32 len);
void *latency_tracker_event_priv(struct latency_tracker_event *ev);
const void *latency_tracker_event_key(struct latency_tracker_event *ev,
				      u32 *len);
u64 latency_tracker_event_start(struct latency_tracker_event *ev);
struct task_struct *latency_tracker_event_task(pid_t pid, u64 start_ns);

int latency_tracker_alert(struct latency_tracker *t,
			  enum latency_tracker_cause cause, u64 ts_ns,
			  u64 delay_ns, const void *payload, size_t len);
void latency_tracker_fmt_u64(struct lt_fmt *f, const char *key, u64 v);
void latency_tracker_fmt_s64(struct lt_fmt *f, const char *key, s64 v);
void latency_tracker_fmt_str(struct lt_fmt *f, const char *key,
			     const char *s, size_t maxlen);
struct lt_rec_stack;
struct lt_rec_ustack;
void latency_tracker_fmt_stack(struct lt_fmt *f, const char *key,
			       const struct lt_rec_stack *s);
void latency_tracker_fmt_ustack(struct lt_fmt *f, const char *key,
				const struct lt_rec_ustack *s);
unsigned int latency_tracker_stack_first(const unsigned long *ips,
					 unsigned int nr);
const char *latency_tracker_frame_name(char *buf, size_t len,
				       unsigned long addr, u32 modgen);

extern atomic_t latency_tracker_modgen;

/**
 * latency_tracker_module_gen() - the generation of the kernel's modules
 *
 * Counts the modules that came, went live (their init text is freed
 * then) or went, since the core loaded.  Read it before saving a stack
 * (struct lt_rec_stack's modgen): a frame in module text is named later
 * only while the count has not moved, since an address freed meanwhile
 * may be named after another module's function by then.
 *
 * Context: any context.
 * Return: the count.
 */
static inline u32 latency_tracker_module_gen(void)
{
	u32 gen = atomic_read(&latency_tracker_modgen);

	/* Read before the stack it is saved with. */
	smp_rmb();
	return gen;
}

void latency_tracker_get_stats(struct latency_tracker *t,
			       struct latency_tracker_stats *s);
u64 latency_tracker_threshold(struct latency_tracker *t);
bool latency_tracker_enabled(struct latency_tracker *t);
u64 latency_tracker_timeout(struct latency_tracker *t);
u32 latency_tracker_run(struct latency_tracker *t);
void *latency_tracker_owner_data(struct latency_tracker *t);
struct proc_dir_entry *latency_tracker_proc_dir(struct latency_tracker *t);
bool latency_tracker_queue_work(struct work_struct *work);
int latency_tracker_check_param(enum latency_tracker_param param,
				const char *who, u64 value);
void latency_tracker_set_enable(struct latency_tracker *t, bool on);

int latency_tracker_tp_attach(struct latency_tracker_tp *tps, unsigned int n);
void latency_tracker_tp_detach(struct latency_tracker_tp *tps, unsigned int n);

#ifdef __KERNEL__
#include <linux/math64.h>
#include <linux/percpu.h>
#include <linux/sched.h>
#include <linux/timekeeping.h>

#include <latency_tracker_compat.h>

/**
 * struct latency_tracker_switch_clock - the clock of one context switch
 * @prev: the task switched out.
 * @prev_start: its start_time (fork time, ns): tells apart two tasks that
 *	had the same task_struct, one after the other.
 * @nr: its switch count (nvcsw + nivcsw) at the switch.
 * @ns: the clock, read once for that switch.
 *
 * One per CPU.  The probes that several tracker modules attach to
 * sched_switch all time the same instant, the switch: the first of them
 * that needs the time reads the clock and keeps it here under the
 * switch's key (@prev, @prev_start, @nr); the others, in the same module
 * or another, find the key and take the value instead of reading the
 * clock again.  A probe asks only when it needs the time, so the slot
 * may hold the key of any earlier switch on this CPU.
 *
 * The key names one switch: __schedule() adds one to prev's switch count
 * each time it switches prev out (just before it emits sched_switch), a
 * task starts with a count of 0, and a task_struct freed and reused holds
 * a task with another start_time (fork times of two tasks that had one
 * task_struct after the other differ).  So a key found in the slot is
 * this switch's, never an older one's.
 *
 * Synchronisation: written and read only by sched_switch probes, on their
 * own CPU.  __schedule() emits sched_switch with interrupts disabled (on
 * PREEMPT_RT too), so the probes of one switch run one after the other on
 * its CPU and nothing else touches the slot meanwhile (sched_switch is
 * never emitted from NMI).
 */
struct latency_tracker_switch_clock {
	const struct task_struct *prev;
	u64 prev_start;
	unsigned long nr;
	u64 ns;
	u64 cycles;
};

DECLARE_PER_CPU(struct latency_tracker_switch_clock,
		latency_tracker_switch_clock);

/*
 * The cycle counter (see latency_tracker_cycles_usable()).  Read-mostly,
 * written only by the core module: latency_tracker_cycles_ok once at its
 * load; latency_tracker_cycles_conv (cycles -> ns: the counter's kHz in
 * the low 32 bits, the multiplier for LT_CYCLES_SHIFT in the high ones,
 * one word so that a reader never sees one without the other) whenever a
 * conversion finds that the kHz changed.
 */
#define LT_CYCLES_SHIFT		24
extern bool latency_tracker_cycles_ok;
extern u64 latency_tracker_cycles_conv;
u64 latency_tracker_cycles_conv_update(void);

/**
 * latency_tracker_cycles_usable() - may an interval be timed in cycles now?
 *
 * The tracker's clock (ktime_get_mono_fast_ns()) costs a sequence-count
 * loop and a clocksource call; the cycle counter it reads (the TSC, the
 * only one supported: latency_tracker_compat.h) costs one instruction.
 * A probe may time an interval whose two ends it reads on one CPU, with
 * preemption disabled in between, in cycles (latency_tracker_cycles(),
 * latency_tracker_cycles_to_ns()) when this returns true at its start:
 * the core module found at its load that the kernel keeps CLOCK_MONOTONIC
 * with that counter (the clocksource's reading lies between two reads of
 * the counter), and the kernel has not marked the counter unstable since
 * (the clocksource watchdog, a frequency change).  Such an interval is
 * the monotonic clock's interval without NTP's frequency correction (at
 * most 500 ppm).  Every timestamp a tracker keeps stays on the tracker's
 * clock: a probe that needs the start of such an interval reads the
 * counter, then the clock, and subtracts (so the start it derives is
 * never earlier than the true one).
 *
 * Context: any.
 * Return: true when the cycle counter may be used.
 */
static __always_inline bool latency_tracker_cycles_usable(void)
{
	return READ_ONCE(latency_tracker_cycles_ok) && lt_cycles_stable();
}

/**
 * latency_tracker_cycles() - read the cycle counter
 *
 * Context: any; meaningful only while latency_tracker_cycles_usable().
 * Return: the counter.
 */
static __always_inline u64 latency_tracker_cycles(void)
{
	return lt_cycles();
}

/**
 * latency_tracker_cycles_to_ns() - the length of an interval in cycles
 * @start: the counter at its start.
 * @end: the counter at its end, read later on the same CPU.
 *
 * Context: any.
 * Return: the interval in ns (0 if @end is before @start).
 */
static __always_inline u64 latency_tracker_cycles_to_ns(u64 start, u64 end)
{
	u64 conv = READ_ONCE(latency_tracker_cycles_conv);

	if (unlikely((u32)conv != lt_cycles_khz()))
		conv = latency_tracker_cycles_conv_update();
	if ((s64)(end - start) <= 0)
		return 0;
	return mul_u64_u32_shr(end - start, conv >> 32, LT_CYCLES_SHIFT);
}

/**
 * latency_tracker_switch_ns() - the time of the context switch in progress
 * @prev: sched_switch's prev.
 *
 * The clock (ktime_get_mono_fast_ns()) read once per switch, shared by
 * every sched_switch probe that asks (struct latency_tracker_switch_clock).
 *
 * Context: a sched_switch probe only, with the tracepoint's own @prev
 * (interrupts disabled).
 * Return: the time of the switch, in ns.
 */
static __always_inline u64
latency_tracker_switch_ns(const struct task_struct *prev)
{
	struct latency_tracker_switch_clock *c =
		this_cpu_ptr(&latency_tracker_switch_clock);
	unsigned long nr = prev->nvcsw + prev->nivcsw;

	if (c->prev != prev || c->nr != nr ||
	    c->prev_start != prev->start_time) {
		c->prev = prev;
		c->prev_start = prev->start_time;
		c->nr = nr;
		/* First the counter: see latency_tracker_switch_cycles(). */
		if (READ_ONCE(latency_tracker_cycles_ok))
			c->cycles = lt_cycles();
		c->ns = ktime_get_mono_fast_ns();
	}
	return c->ns;
}

/**
 * latency_tracker_switch_cycles() - the cycle counter at the switch
 * @prev: sched_switch's prev.
 *
 * Read just before the time of latency_tracker_switch_ns(): an interval
 * that began at cycle count C began at latency_tracker_switch_ns() less
 * latency_tracker_cycles_to_ns(C, this), or earlier by at most the time
 * between the two reads (never later).
 *
 * Context: as latency_tracker_switch_ns(), and only where an interval was
 * started while latency_tracker_cycles_usable().
 * Return: the counter at the switch.
 */
static __always_inline u64
latency_tracker_switch_cycles(const struct task_struct *prev)
{
	latency_tracker_switch_ns(prev);
	return this_cpu_read(latency_tracker_switch_clock.cycles);
}
#endif /* __KERNEL__ */

#endif /* _LATENCY_TRACKER_H */
