/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ratelimit.h - the wakeup rate limiter of alert readers, as a pure state
 * machine: it decides, the caller acts (wakes readers, arms a timer).
 *
 * Contract: the first wakeup after a quiet period (none for at least
 * interval_ns) happens at once; a wakeup wanted sooner is delivered at the
 * next allowed time by a timer, and is never dropped; while that timer is
 * armed, further requests are covered by it.  interval_ns == 0 disables
 * the limit.
 *
 *   request(now):  interval 0                   -> WAKE_NOW
 *                  timer armed                  -> NOTHING
 *                  never woke, or
 *                  now - last_wake >= interval  -> WAKE_NOW  (last_wake = now)
 *                  otherwise                    -> ARM_TIMER (*delay =
 *                                  interval - (now - last_wake); armed)
 *   timer_fired(now): not armed; last_wake = now.
 *
 * Changing the interval does not move a timer already armed: its wakeup
 * still comes, at the time computed with the old interval.  A clock read
 * that goes backwards (now < last_wake) counts as no time elapsed, so the
 * delay never exceeds the interval.
 *
 * No locking inside: the caller serialises all calls on one instance with
 * its own lock; any context, no allocation, no sleeping.
 */
#ifndef _LT_RATELIMIT_H
#define _LT_RATELIMIT_H

#include "lt_env.h"

/**
 * struct lt_ratelimit - state of one rate limiter (zero it, then set the
 *	interval).
 * @interval_ns: minimum time between two wakeups, 0 = no limit.
 * @last_wake_ns: when the last wakeup was delivered.
 * @woke_once: @last_wake_ns is meaningful.
 * @timer_armed: a delayed wakeup is pending.
 */
struct lt_ratelimit {
	u64 interval_ns;
	u64 last_wake_ns;
	bool woke_once;
	bool timer_armed;
};

/* What the caller of lt_ratelimit_request() must do. */
enum lt_rl_action {
	LT_RL_WAKE_NOW,
	LT_RL_ARM_TIMER,
	LT_RL_NOTHING,
};

enum lt_rl_action lt_ratelimit_request(struct lt_ratelimit *rl, u64 now_ns,
				       u64 *delay_ns);
void lt_ratelimit_timer_fired(struct lt_ratelimit *rl, u64 now_ns);
void lt_ratelimit_set_interval(struct lt_ratelimit *rl, u64 interval_ns);

#endif /* _LT_RATELIMIT_H */
