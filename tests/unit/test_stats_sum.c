// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stats_sum.c - host tests of tracker/stats_sum.h, the exact sum of
 * matched delays: the 128-bit helpers (add, division with remainder,
 * decimal) against the compiler's unsigned __int128; sums far past 2^64
 * on one CPU and over every CPU, exact, and their average; delays on the
 * slow path; and a reader that never sees a half-folded value while a
 * writer and the shim's interrupts on the writer's CPU add and fold.
 */
#include "lt_env.h"
#include "stats_sum.h"
#include "tap.h"

#include <pthread.h>
#include <signal.h>
#include <stdio.h>

typedef unsigned __int128 u128;

#define RANDOM_CASES		200000
#define ADDS			40000
/* Concurrent part: the writer's adds, and the handler's per interrupt. */
#ifndef CONC_ADDS
#define CONC_ADDS		2000000
#endif
#define IRQ_ADDS		4

static u64 rnd_state = 0x2545f4914f6cdd1dULL;

static u64 rnd64(void)
{
	u64 x = rnd_state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return rnd_state = x;
}

/* A random value with a random number of significant bits. */
static u64 rnd_bits(void)
{
	unsigned int bits = (unsigned int)(rnd64() % 65);

	return bits == 64 ? rnd64() : rnd64() & ((1ULL << bits) - 1);
}

static u128 to_u128(struct lt_u128 a)
{
	return ((u128)a.hi << 64) | a.lo;
}

static struct lt_u128 from_u128(u128 v)
{
	return (struct lt_u128){ .hi = (u64)(v >> 64), .lo = (u64)v };
}

/* The oracle's decimal. */
static void dec(u128 v, char *buf)
{
	char tmp[LT_U128_DEC_SIZE];
	int n = 0, i;

	do {
		tmp[n++] = (char)('0' + (int)(v % 10));
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = '\0';
}

/* Compare two strings and show both on failure. */
static int tap_str(const char *got, const char *want, const char *fmt, ...)
{
	char what[160];
	va_list ap;
	int ok;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	ok = tap_ok(!strcmp(got, want), "%s", what);
	if (!ok)
		printf("#   got %s, want %s\n", got, want);
	return ok;
}

static u128 part_value(struct lt_sum *s)
{
	struct lt_u128 t = { 0, 0 };

	lt_sum_read(s, &t);
	return to_u128(t);
}

static void test_u128(void)
{
	char got[LT_U128_DEC_SIZE], want[LT_U128_DEC_SIZE];
	int bad_add = 0, bad_div = 0, bad_dec = 0, bad_len = 0, i, len;
	struct lt_u128 a, b;
	u128 x, y;
	u64 d, r;

	for (i = 0; i < RANDOM_CASES; i++) {
		x = ((u128)rnd_bits() << 64) | rnd_bits();
		y = ((u128)rnd_bits() << 64) | rnd_bits();
		a = from_u128(x);
		b = from_u128(y);
		lt_u128_add(&a, &b);
		if (to_u128(a) != x + y)
			bad_add++;
		a = from_u128(x);
		lt_u128_add_u64(&a, (u64)y);
		if (to_u128(a) != x + (u64)y)
			bad_add++;

		d = rnd_bits() | 1;
		a = from_u128(x);
		r = lt_u128_divmod(&a, d);
		if (to_u128(a) != x / d || r != x % d)
			bad_div++;
		if (lt_u128_div_u64(from_u128(x), d) !=
		    (x / d > U64_MAX ? U64_MAX : (u64)(x / d)))
			bad_div++;

		len = lt_u128_to_dec(from_u128(x), got);
		dec(x, want);
		if (strcmp(got, want))
			bad_dec++;
		if (len != (int)strlen(want))
			bad_len++;
	}
	tap_eq(bad_add, 0, "u128: %d random sums agree with unsigned __int128",
	       RANDOM_CASES);
	tap_eq(bad_div, 0,
	       "u128: %d random divisions (quotient, remainder, saturated u64 quotient) agree",
	       RANDOM_CASES);
	tap_eq(bad_dec, 0, "u128: %d random values in decimal agree",
	       RANDOM_CASES);
	tap_eq(bad_len, 0, "u128: the decimal's length is returned");

	lt_u128_to_dec(from_u128(0), got);
	tap_str(got, "0", "decimal: 0");
	lt_u128_to_dec(from_u128((u128)1 << 64), got);
	tap_str(got, "18446744073709551616", "decimal: 2^64");
	lt_u128_to_dec(from_u128(LT_U128_DEC_CHUNK), got);
	tap_str(got, "10000000000000000000", "decimal: 10^19 (one chunk)");
	lt_u128_to_dec(from_u128(~(u128)0), got);
	tap_str(got, "340282366920938463463374607431768211455",
		"decimal: 2^128 - 1 (39 digits)");
	/* 10^38 + 1: chunks 1, 0 and 1. */
	x = (u128)LT_U128_DEC_CHUNK * LT_U128_DEC_CHUNK + 1;
	lt_u128_to_dec(from_u128(x), got);
	tap_str(got, "100000000000000000000000000000000000001",
		"decimal: inner chunks zero-padded");
	tap_eq(lt_u128_div_u64(from_u128((u128)7 << 64), 7), U64_MAX,
	       "division: a quotient of 2^64 saturates to U64_MAX");
}

/*
 * One CPU: delays on the fast path near its limit, on the slow path, and
 * small ones, adding up far past 2^64; exact at every step.
 */
static void test_one_cpu(void)
{
	struct lt_sum *sum = alloc_percpu(struct lt_sum);
	int cpu, off_rest = 0, wrong = 0, i;
	u128 want = 0, got;
	char s_got[LT_U128_DEC_SIZE], s_want[LT_U128_DEC_SIZE];
	struct lt_sum *s;
	u64 d, avg;

	for_each_possible_cpu(cpu)
		lt_sum_init(per_cpu_ptr(sum, cpu));
	lt_shim_set_cpu(3);
	s = this_cpu_ptr(sum);
	for (i = 0; i < ADDS; i++) {
		switch (i % 5) {
		case 0:	/* just below the fast path's limit */
			d = LT_SUM_FAST_MAX - 1 - (rnd64() & 0xffff);
			break;
		case 1:	/* the slow path, up to 2^64 - 1 */
			d = LT_SUM_FAST_MAX + (rnd64() >> 4) * 15;
			break;
		case 2:
			d = rnd64() >> 5;
			break;
		case 3:
			d = U64_MAX;
			break;
		default:
			d = rnd64() & 0xfffff;
			break;
		}
		lt_sum_add(s, d);
		want += d;
		if ((u64)local64_read(&s->lo) >> LT_SUM_FOLD_SHIFT)
			off_rest++;
		if (i % 97 == 0 && part_value(s) != want)
			wrong++;
	}
	got = part_value(s);
	lt_u128_to_dec(from_u128(got), s_got);
	dec(want, s_want);
	tap_diag("one CPU: %d delays add up to %s ns (2^64 is 1.8e19)", ADDS,
		 s_want);
	tap_ok(want > ((u128)1 << 64) * ADDS / 8,
	       "one CPU: the delays add up far past 2^64");
	tap_str(s_got, s_want, "one CPU: the sum of %d delays is exact", ADDS);
	tap_eq(wrong, 0, "one CPU: exact at every step read");
	tap_eq(off_rest, 0, "one CPU: lo below 2^63 after every add");
	avg = lt_u128_div_u64(from_u128(got), ADDS);
	tap_ok(avg == (u64)(want / ADDS), "one CPU: average %llu exact",
	       (unsigned long long)avg);
	tap_eq(part_value(per_cpu_ptr(sum, 2)), 0,
	       "one CPU: the other CPUs' parts stay 0");
	lt_shim_set_cpu(0);
	free_percpu(sum);
}

/* Every CPU adds: the total of the parts is the sum of everything. */
static void test_all_cpus(void)
{
	struct lt_sum *sum = alloc_percpu(struct lt_sum);
	struct lt_u128 total = { 0, 0 };
	u128 want = 0;
	int cpu, i;
	u64 d;

	for_each_possible_cpu(cpu)
		lt_sum_init(per_cpu_ptr(sum, cpu));
	for (i = 0; i < ADDS; i++) {
		lt_shim_set_cpu(i % (int)nr_cpu_ids);
		d = i % 3 ? rnd64() >> 4 : rnd64();
		preempt_disable();
		lt_sum_add(this_cpu_ptr(sum), d);
		preempt_enable();
		want += d;
	}
	for_each_possible_cpu(cpu)
		lt_sum_read(per_cpu_ptr(sum, cpu), &total);
	tap_ok(to_u128(total) == want,
	       "%u CPUs: the parts add up to the exact total", nr_cpu_ids);
	lt_shim_set_cpu(0);
	free_percpu(sum);
}

/*
 * A writer on CPU 1 adds delays that fold every few adds, the shim's
 * interrupts add more on the same CPU (nested in the writer's adds), and
 * a reader on CPU 2 reads CPU 1's part all along: each value read must be
 * at least the one before (a half-folded read is 2^63 off) and at most
 * the final total, which must be exact.
 */
struct conc {
	struct lt_sum *sum;
	int started, done;
	u64 writer_sum_lo, writer_sum_hi;	/* writer's own total */
	long irq_runs, irq_nested;
	u128 irq_sum;			/* handler's total (its thread only) */
	u64 upper;		/* 2^32 units: at least everything added */
	long reads, backwards, above;
	u128 last_read;
};

static struct conc conc;
static __thread volatile sig_atomic_t in_add;

static u64 conc_delay(u64 *st)
{
	u64 x = *st;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*st = x;
	/* About 2^59: a fold every 8 to 16 adds. */
	return (1ULL << 59) + (x >> 6);
}

/*
 * Before each add, conc.upper grows by more than the delay (in units of
 * 2^32), so a value read (before reading upper) is at most upper * 2^32;
 * a half-folded read ((hi + 1) * 2^63 + the lo before the fold) is 2^63
 * above the true value, far above that bound.
 */
static void conc_add(u64 d)
{
	__atomic_add_fetch(&conc.upper, (d >> 32) + 1, __ATOMIC_SEQ_CST);
	smp_mb();
	preempt_disable();
	lt_sum_add(this_cpu_ptr(conc.sum), d);
	preempt_enable();
}

static void conc_irq(int sig)
{
	static __thread u64 st = 0x9e3779b97f4a7c15ULL;
	int i;

	(void)sig;
	conc.irq_runs++;
	if (in_add)
		conc.irq_nested++;
	for (i = 0; i < IRQ_ADDS; i++) {
		u64 d = conc_delay(&st);

		conc_add(d);
		conc.irq_sum += d;
	}
}

static void *conc_writer(void *arg)
{
	u64 st = 0x2545f4914f6cdd1dULL;
	u128 mine = 0;
	long i;

	(void)arg;
	lt_shim_set_cpu(1);
	/* Interrupts from now on: their handler adds to CPU 1's part. */
	__atomic_store_n(&conc.started, 1, __ATOMIC_RELEASE);
	for (i = 0; i < CONC_ADDS; i++) {
		u64 d = conc_delay(&st);

		in_add = 1;
		conc_add(d);
		in_add = 0;
		mine += d;
	}
	__atomic_store_n(&conc.writer_sum_lo, (u64)mine, __ATOMIC_RELAXED);
	__atomic_store_n(&conc.writer_sum_hi, (u64)(mine >> 64),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&conc.done, 1, __ATOMIC_RELEASE);
	return NULL;
}

static void *conc_reader(void *arg)
{
	u128 v;

	(void)arg;
	lt_shim_set_cpu(2);
	while (!__atomic_load_n(&conc.done, __ATOMIC_ACQUIRE)) {
		v = part_value(per_cpu_ptr(conc.sum, 1));
		smp_mb();
		if (v > (u128)__atomic_load_n(&conc.upper, __ATOMIC_SEQ_CST) << 32)
			conc.above++;
		if (v < conc.last_read)
			conc.backwards++;
		conc.last_read = v;
		conc.reads++;
	}
	return NULL;
}

static void test_concurrent(void)
{
	pthread_t writer, reader;
	struct sigaction sa;
	u128 total;
	int cpu, done;

	memset(&conc, 0, sizeof(conc));
	conc.sum = alloc_percpu(struct lt_sum);
	for_each_possible_cpu(cpu)
		lt_sum_init(per_cpu_ptr(conc.sum, cpu));
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = conc_irq;
	sigemptyset(&sa.sa_mask);
	sigaction(LT_SHIM_IRQ_SIGNAL, &sa, NULL);
	pthread_create(&writer, NULL, conc_writer, NULL);
	pthread_create(&reader, NULL, conc_reader, NULL);
	while (!__atomic_load_n(&conc.started, __ATOMIC_ACQUIRE))
		sched_yield();
	do {
		pthread_kill(writer, LT_SHIM_IRQ_SIGNAL);
		sched_yield();
		done = __atomic_load_n(&conc.done, __ATOMIC_ACQUIRE);
	} while (!done);
	pthread_join(writer, NULL);
	pthread_join(reader, NULL);
	signal(LT_SHIM_IRQ_SIGNAL, SIG_IGN);
	total = ((u128)conc.writer_sum_hi << 64) + conc.writer_sum_lo +
		conc.irq_sum;
	tap_diag("concurrent: %ld reads, %ld interrupts (%ld inside an add)",
		 conc.reads, conc.irq_runs, conc.irq_nested);
	tap_ok(total > ((u128)1 << 64), "concurrent: the total passes 2^64");
	tap_ok(conc.reads > 0 && conc.irq_runs > 0,
	       "concurrent: the reader read and interrupts added meanwhile");
	tap_eq(conc.backwards, 0, "concurrent: no value read went backwards");
	tap_eq(conc.above, 0,
	       "concurrent: no value read was above what was added (half folded)");
	tap_ok(conc.last_read <= total,
	       "concurrent: no value read was above the final total");
	tap_ok(part_value(per_cpu_ptr(conc.sum, 1)) == total,
	       "concurrent: the final sum is exact");
	free_percpu(conc.sum);
}

int main(void)
{
	tap_plan(23);
	test_u128();
	test_one_cpu();
	test_all_cpus();
	test_concurrent();
	return tap_done();
}
