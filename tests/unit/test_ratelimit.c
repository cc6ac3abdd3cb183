// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ratelimit.c - host tests of tracker/ratelimit.c, the wakeup rate
 * limiter state machine.
 */
#include "lt_env.h"
#include "ratelimit.h"
#include "tap.h"

#define MS		1000000ULL
#define INTERVAL	(1000 * MS)	/* the procfs default: 1 s */
#define T0		(5000 * MS)	/* an arbitrary start time */
#define NO_DELAY	0xdeadbeefULL

static enum lt_rl_action req(struct lt_ratelimit *rl, u64 now, u64 *delay)
{
	*delay = NO_DELAY;
	return lt_ratelimit_request(rl, now, delay);
}

static void test_basic(void)
{
	struct lt_ratelimit rl = { 0 };
	u64 d;

	lt_ratelimit_set_interval(&rl, INTERVAL);
	tap_eq(req(&rl, T0, &d), LT_RL_WAKE_NOW, "first request: wake now");
	tap_eq(d, NO_DELAY, "WAKE_NOW leaves the delay untouched");
	tap_eq(req(&rl, T0 + 300 * MS, &d), LT_RL_ARM_TIMER,
	       "second within the interval: arm timer");
	tap_eq(d, 700 * MS, "delay until last wake + interval (700 ms)");
	tap_eq(req(&rl, T0 + 400 * MS, &d), LT_RL_NOTHING,
	       "third while armed: nothing (the timer delivers)");
	tap_eq(d, NO_DELAY, "NOTHING leaves the delay untouched");
	tap_eq(req(&rl, T0 + 999 * MS, &d), LT_RL_NOTHING,
	       "still nothing just before the timer");

	lt_ratelimit_timer_fired(&rl, T0 + INTERVAL);
	tap_eq(req(&rl, T0 + 1200 * MS, &d), LT_RL_ARM_TIMER,
	       "request 200 ms after the timer's wake: arm again");
	tap_eq(d, 800 * MS, "delay counted from the timer's wake (800 ms)");
	lt_ratelimit_timer_fired(&rl, T0 + 2000 * MS);

	tap_eq(req(&rl, T0 + 3000 * MS, &d), LT_RL_WAKE_NOW,
	       "after a quiet period of exactly one interval: wake now");
	tap_eq(req(&rl, T0 + 9000 * MS, &d), LT_RL_WAKE_NOW,
	       "after a long quiet period: wake now");
	tap_eq(req(&rl, T0 + 9000 * MS + 1, &d), LT_RL_ARM_TIMER,
	       "1 ns later: arm");
	tap_eq(d, INTERVAL - 1, "delay interval - 1 ns");
}

static void test_no_limit(void)
{
	struct lt_ratelimit rl = { 0 };
	bool all = true;
	u64 d, t;

	lt_ratelimit_set_interval(&rl, 0);
	for (t = T0; t < T0 + 1000; t++)
		all = all && req(&rl, t, &d) == LT_RL_WAKE_NOW;
	tap_ok(all, "interval 0: every request wakes now");
	tap_eq(req(&rl, T0, &d), LT_RL_WAKE_NOW,
	       "interval 0: even at the same instant twice");
}

static void test_interval_change(void)
{
	struct lt_ratelimit rl = { 0 };
	u64 d;

	lt_ratelimit_set_interval(&rl, INTERVAL);
	req(&rl, T0, &d);
	lt_ratelimit_set_interval(&rl, 100 * MS);
	tap_eq(req(&rl, T0 + 150 * MS, &d), LT_RL_WAKE_NOW,
	       "shorter interval applies to the next request");
	tap_eq(req(&rl, T0 + 170 * MS, &d), LT_RL_ARM_TIMER,
	       "20 ms later: arm");
	tap_eq(d, 80 * MS, "with the new interval (80 ms)");
	lt_ratelimit_set_interval(&rl, 10 * INTERVAL);
	tap_eq(req(&rl, T0 + 180 * MS, &d), LT_RL_NOTHING,
	       "an armed timer is kept across a change");
	lt_ratelimit_timer_fired(&rl, T0 + 250 * MS);
	tap_eq(req(&rl, T0 + 2250 * MS, &d), LT_RL_ARM_TIMER,
	       "longer interval: 2 s after the wake is still too soon");
	tap_eq(d, 8000 * MS, "delay with the new interval (8 s)");
	lt_ratelimit_timer_fired(&rl, T0 + 10250 * MS);
	lt_ratelimit_set_interval(&rl, 0);
	tap_eq(req(&rl, T0 + 10251 * MS, &d), LT_RL_WAKE_NOW,
	       "switched to 0: wake now");
}

static void test_edges(void)
{
	struct lt_ratelimit rl = { 0 };
	u64 d;

	lt_ratelimit_set_interval(&rl, U64_MAX);
	tap_eq(req(&rl, 0, &d), LT_RL_WAKE_NOW, "first request at time 0");
	tap_eq(req(&rl, U64_MAX - 1, &d), LT_RL_ARM_TIMER,
	       "huge interval: arm, no overflow");
	tap_eq(d, 1, "delay U64_MAX - (U64_MAX - 1) = 1");

	rl = (struct lt_ratelimit){ 0 };
	lt_ratelimit_set_interval(&rl, INTERVAL);
	req(&rl, T0, &d);
	tap_eq(req(&rl, T0 - 5, &d), LT_RL_ARM_TIMER,
	       "clock read going backwards: arm");
	tap_eq(d, INTERVAL, "counted as no time elapsed: delay = interval");
}

/*
 * Never dropped: a stream of requests at random times, simulating the
 * timer; every request must be followed by a wake no later than one
 * interval after it (or after the previous wake).
 */
static void test_never_dropped(void)
{
	struct lt_ratelimit rl = { 0 };
	u64 now = T0, timer_at = 0, last_wake = 0, pending_since = 0;
	bool armed = false, pending = false, ok = true, spaced = true;
	u32 rnd = 12345;
	int i;
	u64 d;

	lt_ratelimit_set_interval(&rl, INTERVAL);
	for (i = 0; i < 100000; i++) {
		rnd = rnd * 1103515245u + 12345u;
		now += (rnd >> 8) % (300 * MS);
		if (armed && timer_at <= now) {
			lt_ratelimit_timer_fired(&rl, timer_at);
			if (last_wake && timer_at - last_wake < INTERVAL)
				spaced = false;
			last_wake = timer_at;
			armed = false;
			if (pending && timer_at - pending_since > INTERVAL)
				ok = false;
			pending = false;
		}
		switch (req(&rl, now, &d)) {
		case LT_RL_WAKE_NOW:
			if (last_wake && now - last_wake < INTERVAL)
				spaced = false;
			last_wake = now;
			pending = false;
			break;
		case LT_RL_ARM_TIMER:
			if (armed)
				ok = false;
			armed = true;
			timer_at = now + d;
			if (!pending)
				pending_since = now;
			pending = true;
			break;
		case LT_RL_NOTHING:
			if (!armed)
				ok = false;	/* nobody would deliver it */
			if (!pending)
				pending_since = now;
			pending = true;
			break;
		}
	}
	tap_ok(ok, "random stream: every request delivered within an interval");
	tap_ok(spaced, "random stream: wakes at least one interval apart");
}

int main(void)
{
	tap_plan(29);
	test_basic();
	test_no_limit();
	test_interval_change();
	test_edges();
	test_never_dropped();
	return tap_done();
}
