// SPDX-License-Identifier: GPL-2.0-only
/*
 * ratelimit.c - the wakeup rate limiter state machine (see ratelimit.h).
 */
#include "lt_env.h"
#include "ratelimit.h"

/**
 * lt_ratelimit_request() - a wakeup is wanted now: decide how.
 * @rl: the limiter.
 * @now_ns: the current time.
 * @delay_ns: receives the timer delay on LT_RL_ARM_TIMER, untouched
 *	otherwise.
 *
 * Context: Any context; the caller serialises calls on @rl.
 * Return: LT_RL_WAKE_NOW (wake at once; recorded as the last wakeup),
 * LT_RL_ARM_TIMER (arm a timer for *@delay_ns and call
 * lt_ratelimit_timer_fired() when it wakes the readers), or LT_RL_NOTHING
 * (the timer already armed will deliver this wakeup).
 */
enum lt_rl_action lt_ratelimit_request(struct lt_ratelimit *rl, u64 now_ns,
				       u64 *delay_ns)
{
	u64 elapsed;

	if (!rl->interval_ns)
		goto wake;
	if (rl->timer_armed)
		return LT_RL_NOTHING;
	if (!rl->woke_once)
		goto wake;
	elapsed = now_ns >= rl->last_wake_ns ? now_ns - rl->last_wake_ns : 0;
	if (elapsed >= rl->interval_ns)
		goto wake;
	*delay_ns = rl->interval_ns - elapsed;
	rl->timer_armed = true;
	return LT_RL_ARM_TIMER;

wake:
	rl->last_wake_ns = now_ns;
	rl->woke_once = true;
	return LT_RL_WAKE_NOW;
}

/**
 * lt_ratelimit_timer_fired() - the armed timer woke the readers.
 * @rl: the limiter.
 * @now_ns: the current time, recorded as the last wakeup.
 *
 * Context: Any context; the caller serialises calls on @rl.
 */
void lt_ratelimit_timer_fired(struct lt_ratelimit *rl, u64 now_ns)
{
	rl->timer_armed = false;
	rl->last_wake_ns = now_ns;
	rl->woke_once = true;
}

/**
 * lt_ratelimit_set_interval() - change the minimum interval.
 * @rl: the limiter.
 * @interval_ns: the new interval, 0 = no limit.
 *
 * Applies from the next request; an armed timer is left alone.
 *
 * Context: Any context; the caller serialises calls on @rl.
 */
void lt_ratelimit_set_interval(struct lt_ratelimit *rl, u64 interval_ns)
{
	rl->interval_ns = interval_ns;
}
