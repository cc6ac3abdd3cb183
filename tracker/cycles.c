// SPDX-License-Identifier: GPL-2.0-only
/*
 * cycles.c - the cycle counter's state: whether the kernel keeps time with
 * it (decided once, at load), and its ns conversion, following its
 * frequency (latency_tracker_cycles_usable(), latency_tracker.h).
 */
#include <linux/export.h>
#include <linux/math64.h>
#include <linux/printk.h>

#include "core.h"

/* Below 4 MHz the multiplier for LT_CYCLES_SHIFT does not fit 32 bits. */
#define LT_CYCLES_MIN_KHZ	4000

bool latency_tracker_cycles_ok __read_mostly;
EXPORT_SYMBOL_GPL(latency_tracker_cycles_ok);
u64 latency_tracker_cycles_conv __read_mostly;
EXPORT_SYMBOL_GPL(latency_tracker_cycles_conv);

/**
 * latency_tracker_cycles_conv_update() - follow the counter's frequency
 *
 * Called by latency_tracker_cycles_to_ns() when the kHz it was computed
 * for is not the counter's any more (at the first conversion, and after
 * the kernel refined its calibration).  Any CPU may race another here:
 * each stores a word computed from one kHz reading, all of them right.
 *
 * Context: any.
 * Return: the new conversion word.
 */
u64 latency_tracker_cycles_conv_update(void)
{
	u32 khz = lt_cycles_khz();
	u64 mult = div_u64((u64)NSEC_PER_MSEC << LT_CYCLES_SHIFT,
			   max_t(u32, khz, LT_CYCLES_MIN_KHZ));
	u64 conv = mult << 32 | khz;

	WRITE_ONCE(latency_tracker_cycles_conv, conv);
	return conv;
}
EXPORT_SYMBOL_GPL(latency_tracker_cycles_conv_update);

/*
 * The kernel keeps time with the counter when its clocksource's reading
 * (a snapshot of the timekeeper) is a counter value read between two of
 * ours: no other clocksource's reading can fall there.
 */
void lt_cycles_init(void)
{
	u64 before, reading, after;

	if (!lt_cycles_stable() || lt_cycles_khz() < LT_CYCLES_MIN_KHZ)
		return;
	before = lt_cycles();
	reading = lt_clocksource_reading();
	after = lt_cycles();
	if (reading < before || reading > after)
		return;
	latency_tracker_cycles_conv_update();
	WRITE_ONCE(latency_tracker_cycles_ok, true);
	pr_info("latency_tracker: short intervals timed with the clocksource's counter (%u kHz)\n",
		lt_cycles_khz());
}
