// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_histogram.c - host tests of tracker/histogram.h: bucket boundaries
 * at every power of two and one either side, 0 and U64_MAX.
 */
#include "lt_env.h"
#include "histogram.h"
#include "tap.h"

int main(void)
{
	bool ok_low = true, ok_at = true, ok_high = true, ok_bounds = true;
	bool contiguous = true;
	unsigned int b;
	u64 p;

	tap_plan(15);
	tap_eq(LT_HIST_BUCKETS, 65, "65 buckets");
	tap_eq(lt_hist_bucket(0), 0, "0 ns -> bucket 0");
	tap_eq(lt_hist_low(0), 0, "bucket 0 low 0");
	tap_eq(lt_hist_high(0), 0, "bucket 0 high 0");
	tap_eq(lt_hist_bucket(1), 1, "1 ns -> bucket 1");
	tap_eq(lt_hist_low(1), 1, "bucket 1 low 1");
	tap_eq(lt_hist_high(1), 1, "bucket 1 high 1");
	tap_eq(lt_hist_bucket(U64_MAX), 64, "U64_MAX -> bucket 64");
	tap_eq(lt_hist_low(64), 1ULL << 63, "bucket 64 low 2^63");
	tap_eq(lt_hist_high(64), U64_MAX, "bucket 64 high U64_MAX");

	/* 2^k is the first value of bucket k + 1; 2^k - 1 the last of k. */
	for (b = 0; b < 64; b++) {
		p = 1ULL << b;
		if (lt_hist_bucket(p) != b + 1)
			ok_at = false;
		if (lt_hist_bucket(p - 1) != b)
			ok_low = false;
		if (b >= 1 && lt_hist_bucket(p + 1) != b + 1)
			ok_high = false;
	}
	tap_ok(ok_at, "2^k -> bucket k+1 for k = 0..63");
	tap_ok(ok_low, "2^k - 1 -> bucket k for k = 0..63");
	tap_ok(ok_high, "2^k + 1 -> bucket k+1 for k = 1..63");

	for (b = 0; b < LT_HIST_BUCKETS; b++) {
		if (lt_hist_bucket(lt_hist_low(b)) != b ||
		    lt_hist_bucket(lt_hist_high(b)) != b ||
		    lt_hist_low(b) > lt_hist_high(b))
			ok_bounds = false;
		if (b && lt_hist_low(b) != lt_hist_high(b - 1) + 1)
			contiguous = false;
		if (b >= 1 && (lt_hist_low(b) != 1ULL << (b - 1) ||
			       (b < 64 && lt_hist_high(b) != (1ULL << b) - 1)))
			ok_bounds = false;
	}
	tap_ok(ok_bounds, "low/high of every bucket fall in that bucket and "
	       "are [2^(b-1), 2^b - 1]");
	tap_ok(contiguous, "buckets are contiguous, no gap or overlap");
	return tap_done();
}
