// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_records.c - host tests of the alert records generated from the
 * field tables (include/lt_records/): each tracker's generated alert_fmt
 * callback, fed a sample payload, must give exactly the record text of
 * docs/design.md (field names, order, escaping) that the hand-written
 * callbacks gave, with the fields added since (holder_* of wakeup, and
 * cgroup last in every record), and the custom trackers' record; the
 * cause names; a payload of the wrong size gets no field.
 */
#include <stdio.h>
#include <sys/types.h>

#include "lt_env.h"
#include "alert_fmt.h"
#include "tap.h"

/* What the kernel headers give the record tables (include/linux/kdev_t.h). */
#define TASK_COMM_LEN	16
#define MINORBITS	20
#define MINORMASK	((1U << MINORBITS) - 1)
#define MAJOR(dev)	((unsigned int)((dev) >> MINORBITS))
#define MINOR(dev)	((unsigned int)((dev) & MINORMASK))
#define MKDEV(ma, mi)	(((ma) << MINORBITS) | (mi))

#include <lt_records/block.h>
#include <lt_records/custom.h>
#include <lt_records/irq.h>
#include <lt_records/lock.h>
#include <lt_records/net.h>
#include <lt_records/offcpu.h>
#include <lt_records/syscalls.h>
#include <lt_records/wakeup.h>

/* The core's exported helpers (tracker/alerts.c), over the same formatter. */
void latency_tracker_fmt_u64(struct lt_fmt *f, const char *key, u64 v)
{
	lt_fmt_u64(f, key, v);
}

void latency_tracker_fmt_s64(struct lt_fmt *f, const char *key, s64 v)
{
	lt_fmt_s64(f, key, v);
}

void latency_tracker_fmt_str(struct lt_fmt *f, const char *key,
			     const char *s, size_t maxlen)
{
	lt_fmt_str(f, key, s, maxlen);
}

/* The core's (tracker/stack.c) without kallsyms: frame "f<hex>". */
static const char *frame_name(const void *ctx, unsigned int i, char *buf,
			      size_t len)
{
	snprintf(buf, len, "f%lx", ((const unsigned long *)ctx)[i]);
	return buf;
}

void latency_tracker_fmt_stack(struct lt_fmt *f, const char *key,
			       const struct lt_rec_stack *s)
{
	char name[32];

	if (s->nr != LT_REC_STACK_NONE)
		lt_fmt_frames(f, key, s->nr, frame_name, s->ip, name,
			      sizeof(name), 1024);
}

/* The core's (tracker/ustack.c) without a task: frame "u<hex>". */
static const char *uframe_name(const void *ctx, unsigned int i, char *buf,
			       size_t len)
{
	u64 ip = ((const u64 *)ctx)[i];

	if (ip == LT_REC_USTACK_BROKEN)
		return "[unknown]";
	snprintf(buf, len, "u%llx", (unsigned long long)ip);
	return buf;
}

void latency_tracker_fmt_ustack(struct lt_fmt *f, const char *key,
				const struct lt_rec_ustack *s)
{
	char name[32];

	if (s->nr != LT_REC_STACK_NONE)
		lt_fmt_frames(f, key, s->nr, uframe_name, s->ip, name,
			      sizeof(name), 1024);
}

static LT_RECORD_FMT(wakeup_fmt, struct lt_wakeup_record, LT_WAKEUP_RECORD)
static LT_RECORD_FMT(offcpu_fmt, struct lt_offcpu_record, LT_OFFCPU_RECORD)
static LT_RECORD_FMT(syscalls_fmt, struct lt_syscalls_record,
		     LT_SYSCALLS_RECORD)
static LT_RECORD_FMT(block_fmt, struct lt_block_record, LT_BLOCK_RECORD)
static LT_RECORD_FMT(custom_fmt, struct lt_custom_record, LT_CUSTOM_RECORD)
static LT_RECORD_FMT(irq_fmt, struct lt_irq_record, LT_IRQ_RECORD)
static LT_RECORD_FMT(lock_fmt, struct lt_lock_record, LT_LOCK_RECORD)
static LT_RECORD_FMT(ttfb_fmt, struct lt_ttfb_record, LT_TTFB_RECORD)
static LT_RECORD_FMT(netrx_fmt, struct lt_netrx_record, LT_NETRX_RECORD)

static char line[4096];

/* A whole line as tracker/alerts.c builds it: header, then the fields. */
static const char *fmt_line(latency_tracker_fmt_t fmt, const char *tracker,
			    u8 cause, const void *payload, size_t len)
{
	struct lt_fmt f;

	lt_fmt_init(&f, line, sizeof(line));
	lt_fmt_u64(&f, "ts", 1000);
	lt_fmt_raw(&f, "tracker", tracker);
	lt_fmt_raw(&f, "cause", lt_cause_name(cause));
	lt_fmt_u64(&f, "delay", 2000);
	fmt(&f, payload, len);
	lt_fmt_end(&f);
	return line;
}

static void check(const char *got, const char *want, const char *what)
{
	if (!tap_ok(!strcmp(got, want), "%s", what)) {
		tap_diag("got:  %s", got);
		tap_diag("want: %s", want);
	}
}

static void test_wakeup(void)
{
	struct lt_wakeup_record a = {
		.pid = 4242, .tgid = 4240, .comm = "lt victim", .prio = 98,
		.cpu = 1, .waker_pid = 0, .waker_comm = "swapper/1",
		.prev_pid = 77, .prev_comm = "a=b\\c\xe9",
		.holder_pid = 31, .holder_comm = "lt_hog", .holder_prio = 1,
		.irq_ns = 1, .softirq_ns = 2, .thread_ns = 1997, .idle_ns = 0,
		.other_cpu_ns = 0, .top_irq = "virtio0-input.0",
		.top_softirq = 6, .top_thread = "lt_hog:31", .migrated = 0,
		.cgroup = 4242424242ULL,
	};
	struct lt_wakeup_record t = {
		.pid = 1, .tgid = 1, .prio = 120, .cpu = -1,
		.waker_pid = 2147483647, .waker_comm = "w",
		.other_cpu_ns = 2000, .top_irq = "-", .top_softirq = U32_MAX,
		.top_thread = "-", .migrated = 1, .cgroup = U64_MAX,
	};

	check(fmt_line(wakeup_fmt, "wakeup", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=wakeup cause=threshold delay=2000 pid=4242 "
	      "tgid=4240 comm=lt\\x20victim prio=98 cpu=1 waker_pid=0 "
	      "waker_comm=swapper/1 prev_pid=77 prev_comm=a\\x3db\\x5cc\\xe9 "
	      "holder_pid=31 holder_comm=lt_hog holder_prio=1 irq_ns=1 "
	      "softirq_ns=2 thread_ns=1997 idle_ns=0 other_cpu_ns=0 "
	      "top_irq=virtio0-input.0 top_softirq=TASKLET top_thread=lt_hog:31 "
	      "migrated=0 cgroup=4242424242\n",
	      "wakeup: fields, order, escaping of ' ', '=', '\\' and a high byte; the breakdown");
	memcpy(t.comm, "0123456789abcdef", TASK_COMM_LEN);
	check(fmt_line(wakeup_fmt, "wakeup", LATENCY_TRACKER_CAUSE_TIMEOUT,
		       &t, sizeof(t)),
	      "ts=1000 tracker=wakeup cause=timeout delay=2000 pid=1 tgid=1 "
	      "comm=0123456789abcdef prio=120 cpu=-1 waker_pid=2147483647 "
	      "waker_comm=w prev_pid=0 prev_comm= holder_pid=0 holder_comm= "
	      "holder_prio=0 irq_ns=0 softirq_ns=0 thread_ns=0 idle_ns=0 "
	      "other_cpu_ns=2000 top_irq=- top_softirq=- top_thread=- migrated=1 "
	      "cgroup=18446744073709551615\n",
	      "wakeup timeout: cpu -1, no prev, a comm of 16 bytes without NUL; no top, a softirq out of range is -");
	check(fmt_line(wakeup_fmt, "wakeup", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a) - 1),
	      "ts=1000 tracker=wakeup cause=threshold delay=2000\n",
	      "wakeup: a payload of another size gets no field");
}

static void test_offcpu(void)
{
	struct lt_offcpu_record a = {
		.pid = 300, .tgid = 299, .comm = "kworker/0:1", .cpu = 0,
		.state = 'D', .waker_pid = 12, .waker_comm = "ksoftirqd/0",
		.cgroup = 1, .stack = { .nr = 2, .ip = { 0xa1, 0xa2 } },
		.waker_stack = { .nr = 3, .ip = { 0xb1, 0xb2, 0xb3 } },
		.ustack = { .nr = LT_REC_STACK_NONE },
	};
	struct lt_offcpu_record t = {
		.pid = 5, .tgid = 5, .comm = "tab\there", .cpu = -1,
		.state = '=', .ustack = { .nr = LT_REC_STACK_NONE },
	};

	check(fmt_line(offcpu_fmt, "offcpu", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=offcpu cause=threshold delay=2000 pid=300 "
	      "tgid=299 comm=kworker/0:1 cpu=0 state=D waker_pid=12 "
	      "waker_comm=ksoftirqd/0 cgroup=1 stack=fa1;fa2 "
	      "waker_stack=fb1;fb2;fb3\n",
	      "offcpu: fields and order, both stacks, no ustack field "
	      "without ustack=1");
	a.ustack.nr = 3;
	a.ustack.ip[0] = 0x401000;
	a.ustack.ip[1] = 0x401200;
	a.ustack.ip[2] = LT_REC_USTACK_BROKEN;
	check(fmt_line(offcpu_fmt, "offcpu", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=offcpu cause=threshold delay=2000 pid=300 "
	      "tgid=299 comm=kworker/0:1 cpu=0 state=D waker_pid=12 "
	      "waker_comm=ksoftirqd/0 cgroup=1 stack=fa1;fa2 "
	      "waker_stack=fb1;fb2;fb3 ustack=u401000;u401200;[unknown]\n",
	      "offcpu with ustack=1: the user stack last, a broken walk's "
	      "frame [unknown]");
	check(fmt_line(offcpu_fmt, "offcpu", LATENCY_TRACKER_CAUSE_TIMEOUT,
		       &t, sizeof(t)),
	      "ts=1000 tracker=offcpu cause=timeout delay=2000 pid=5 tgid=5 "
	      "comm=tab\\x09here cpu=-1 state=\\x3d waker_pid=0 waker_comm= "
	      "cgroup=0 stack= waker_stack=\n",
	      "offcpu timeout: state escaped, no waker yet, empty stacks");
	t.state = '\0';
	check(fmt_line(offcpu_fmt, "offcpu", LATENCY_TRACKER_CAUSE_TIMEOUT,
		       &t, sizeof(t)),
	      "ts=1000 tracker=offcpu cause=timeout delay=2000 pid=5 tgid=5 "
	      "comm=tab\\x09here cpu=-1 state= waker_pid=0 waker_comm= "
	      "cgroup=0 stack= waker_stack=\n",
	      "offcpu: a NUL state is an empty value");
}

static void test_syscalls(void)
{
	struct lt_syscalls_record a = {
		.pid = 1000, .tgid = 999, .comm = "poll-loop", .nr = 7,
		.on_cpu_ns = 100, .runnable_ns = 200, .blocked_ns = 1700,
		.cgroup = 77, .stack = { .nr = 1, .ip = { 0xc0 } },
	};

	check(fmt_line(syscalls_fmt, "syscalls",
		       LATENCY_TRACKER_CAUSE_THRESHOLD, &a, sizeof(a)),
	      "ts=1000 tracker=syscalls cause=threshold delay=2000 pid=1000 "
	      "tgid=999 comm=poll-loop nr=7 on_cpu_ns=100 runnable_ns=200 "
	      "blocked_ns=1700 cgroup=77 stack=fc0\n",
	      "syscalls: fields and order, the breakdown, the stack");
	a.nr = -1;
	a.on_cpu_ns = a.runnable_ns = a.blocked_ns = 0;
	check(fmt_line(syscalls_fmt, "syscalls",
		       LATENCY_TRACKER_CAUSE_TIMEOUT, &a, sizeof(a)),
	      "ts=1000 tracker=syscalls cause=timeout delay=2000 pid=1000 "
	      "tgid=999 comm=poll-loop nr=-1 on_cpu_ns=0 runnable_ns=0 "
	      "blocked_ns=0 cgroup=77 stack=fc0\n",
	      "syscalls: a negative number; a timeout has no parts");
}

static void test_block(void)
{
	struct lt_block_record a = {
		.dev = MKDEV(8, 16), .sector = 2048, .nr_sectors = 8,
		.op = LT_BLOCK_OP_WRITE, .cgroup = 8,
	};
	struct lt_block_record b = {
		.dev = MKDEV(259, MINORMASK), .sector = U64_MAX,
		.nr_sectors = U32_MAX, .op = 1000,
	};
	static const char *const ops[] = {
		"read", "write", "flush", "discard", "other",
	};
	char want[256];
	bool each = true;
	unsigned int i;

	check(fmt_line(block_fmt, "block", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=block cause=threshold delay=2000 dev=8:16 "
	      "sector=2048 nr_sectors=8 op=write cgroup=8\n",
	      "block: fields and order, dev as major:minor");
	check(fmt_line(block_fmt, "block", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &b, sizeof(b)),
	      "ts=1000 tracker=block cause=threshold delay=2000 dev=259:1048575 "
	      "sector=18446744073709551615 nr_sectors=4294967295 op=other "
	      "cgroup=0\n",
	      "block: extremes, an unknown op is other");
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		a.op = i;
		snprintf(want, sizeof(want),
			 "ts=1000 tracker=block cause=threshold delay=2000 "
			 "dev=8:16 sector=2048 nr_sectors=8 op=%s cgroup=8\n",
			 ops[i]);
		each &= !strcmp(fmt_line(block_fmt, "block", 0, &a, sizeof(a)),
				want);
	}
	tap_ok(each, "block: every op name");
}

static void test_custom(void)
{
	struct lt_custom_record a = {
		.pid = 812, .tgid = 800, .comm = "lt_fiford", .cpu = 1,
		.key = 0x32c, .cgroup = 5,
		.stack = { .nr = LT_REC_STACK_NONE, .ip = { 0xd0 } },
	};

	check(fmt_line(custom_fmt, "fiford", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=fiford cause=threshold delay=2000 pid=812 "
	      "tgid=800 comm=lt_fiford cpu=1 key=0x32c cgroup=5\n",
	      "custom: fields and order, the key in hex");
	a.cpu = -1;
	a.key = U64_MAX;
	check(fmt_line(custom_fmt, "blk", LATENCY_TRACKER_CAUSE_TIMEOUT,
		       &a, sizeof(a)),
	      "ts=1000 tracker=blk cause=timeout delay=2000 pid=812 "
	      "tgid=800 comm=lt_fiford cpu=-1 key=0xffffffffffffffff "
	      "cgroup=5\n",
	      "custom timeout: cpu -1, a key of 64 bits");
	a.stack.nr = 1;
	check(fmt_line(custom_fmt, "blk", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=blk cause=threshold delay=2000 pid=812 "
	      "tgid=800 comm=lt_fiford cpu=-1 key=0xffffffffffffffff "
	      "cgroup=5 stack=fd0\n",
	      "custom with stack=1: the stack field; without, none");
}

static void test_irq(void)
{
	struct lt_irq_record h = {
		.kind = LT_IRQ_KIND_HARDIRQ, .cpu = 1, .irq = 28,
		.name = "lt slow", .vec = LT_REC_NONE,
	};
	struct lt_irq_record v = {
		.kind = LT_IRQ_KIND_HARDIRQ, .cpu = 0, .irq = -1,
		.name = "local_timer", .vec = LT_REC_NONE,
	};
	struct lt_irq_record s = {
		.kind = LT_IRQ_KIND_SOFTIRQ_LATENCY, .cpu = 3, .irq = -1,
		.vec = 3,
	};

	check(fmt_line(irq_fmt, "irq", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &h, sizeof(h)),
	      "ts=1000 tracker=irq cause=threshold delay=2000 kind=hardirq "
	      "cpu=1 irq=28 name=lt\\x20slow\n",
	      "irq: a handler's record: irq and name, no vec, no cgroup");
	check(fmt_line(irq_fmt, "irq", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &v, sizeof(v)),
	      "ts=1000 tracker=irq cause=threshold delay=2000 kind=hardirq "
	      "cpu=0 name=local_timer\n",
	      "irq: a vector's: no irq number (OINT < 0)");
	check(fmt_line(irq_fmt, "irq", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &s, sizeof(s)),
	      "ts=1000 tracker=irq cause=threshold delay=2000 "
	      "kind=softirq_latency cpu=3 vec=NET_RX\n",
	      "irq: a softirq's: vec instead of irq and name (empty ONAME)");
	s.kind = 7;
	s.vec = 99;
	check(fmt_line(irq_fmt, "irq", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &s, sizeof(s)),
	      "ts=1000 tracker=irq cause=threshold delay=2000 kind=? cpu=3 "
	      "vec=-\n",
	      "irq: a kind and a vector out of range");
}

static void test_lock(void)
{
	struct lt_lock_record a = {
		.pid = 40, .tgid = 39, .comm = "bash", .cpu = 1, .cgroup = 7,
		.lock = "lt_lock_static+0x0", .kind = LT_LOCK_KIND_MUTEX,
		.owner_pid = 38, .owner_comm = "holder",
		.stack = { .nr = 1, .ip = { 0xc1 } },
	};
	struct lt_lock_record t = {
		.pid = 41, .tgid = 41, .comm = "w", .cpu = -1, .cgroup = 7,
		.lock = "id:00112233445566ff", .kind = LT_LOCK_KIND_RT,
		.owner_pid = -1, .stack = { 0 },
	};

	check(fmt_line(lock_fmt, "lock", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=lock cause=threshold delay=2000 pid=40 tgid=39 "
	      "comm=bash cpu=1 cgroup=7 lock=lt_lock_static+0x0 kind=mutex "
	      "owner_pid=38 owner_comm=holder stack=fc1\n",
	      "lock: fields and order, the owner, the stack");
	check(fmt_line(lock_fmt, "lock", LATENCY_TRACKER_CAUSE_TIMEOUT,
		       &t, sizeof(t)),
	      "ts=1000 tracker=lock cause=timeout delay=2000 pid=41 tgid=41 "
	      "comm=w cpu=-1 cgroup=7 lock=id:00112233445566ff kind=rt "
	      "stack=\n",
	      "lock: no owner_* fields without an owner, a hashed lock");
	a.kind = 10;
	check(fmt_line(lock_fmt, "lock", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &a, sizeof(a)),
	      "ts=1000 tracker=lock cause=threshold delay=2000 pid=40 tgid=39 "
	      "comm=bash cpu=1 cgroup=7 lock=lt_lock_static+0x0 kind=? "
	      "owner_pid=38 owner_comm=holder stack=fc1\n",
	      "lock: a kind out of range is ?");
}

/* An INET field's bytes from eight 16-bit groups. */
static void inet6(u8 *a, const unsigned int *g)
{
	int i;

	for (i = 0; i < 8; i++) {
		a[2 * i] = g[i] >> 8;
		a[2 * i + 1] = g[i] & 0xff;
	}
}

static void test_net(void)
{
	static const unsigned int lo6[8] = { 0, 0, 0, 0, 0, 0, 0, 1 };
	static const unsigned int doc[8] = {
		0x2001, 0xdb8, 0, 0, 1, 0, 0, 0xab
	};
	static const unsigned int two[8] = {
		0xfd00, 0, 0x200, 0, 0, 0, 0, 0
	};
	static const unsigned int all[8] = {
		0xfe80, 1, 2, 3, 4, 5, 6, 0xffff
	};
	struct lt_ttfb_record t = {
		.pid = 812, .tgid = 800, .comm = "httpd", .cgroup = 5,
		.saddr = { [10] = 0xff, [11] = 0xff, 127, 0, 0, 1 },
		.sport = 8080,
		.daddr = { [10] = 0xff, [11] = 0xff, 10, 200, 0, 2 },
		.dport = 43210, .proto = LT_NET_PROTO_TCP,
	};
	struct lt_netrx_record n = {
		.pid = 900, .tgid = 900, .comm = "dns", .cgroup = 7,
		.sport = 53, .dport = 40000, .proto = LT_NET_PROTO_UDP,
		.dev = "lo",
	};

	check(fmt_line(ttfb_fmt, "ttfb", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &t, sizeof(t)),
	      "ts=1000 tracker=ttfb cause=threshold delay=2000 pid=812 "
	      "tgid=800 comm=httpd cgroup=5 saddr=127.0.0.1 sport=8080 "
	      "daddr=10.200.0.2 dport=43210 proto=tcp\n",
	      "ttfb: process, IPv4 (v4-mapped) addresses, ports, proto");
	inet6(n.saddr, lo6);
	inet6(n.daddr, lo6);
	check(fmt_line(netrx_fmt, "netrx", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &n, sizeof(n)),
	      "ts=1000 tracker=netrx cause=threshold delay=2000 pid=900 "
	      "tgid=900 comm=dns cgroup=7 saddr=::1 sport=53 daddr=::1 "
	      "dport=40000 proto=udp dev=lo\n",
	      "netrx: IPv6 loopback, dev last");
	inet6(n.saddr, doc);
	inet6(n.daddr, two);
	n.sport = -1;
	n.dport = -1;
	n.proto = LT_NET_PROTO_ICMPV6;
	check(fmt_line(netrx_fmt, "netrx", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &n, sizeof(n)),
	      "ts=1000 tracker=netrx cause=threshold delay=2000 pid=900 "
	      "tgid=900 comm=dns cgroup=7 saddr=2001:db8::1:0:0:ab "
	      "daddr=fd00:0:200:: proto=icmpv6 dev=lo\n",
	      "netrx: no ports (OINT < 0); the first of the longest zero runs is ::");
	inet6(n.saddr, all);
	memset(n.daddr, 0, sizeof(n.daddr));
	n.proto = 99;
	check(fmt_line(netrx_fmt, "netrx", LATENCY_TRACKER_CAUSE_THRESHOLD,
		       &n, sizeof(n)),
	      "ts=1000 tracker=netrx cause=threshold delay=2000 pid=900 "
	      "tgid=900 comm=dns cgroup=7 saddr=fe80:1:2:3:4:5:6:ffff "
	      "daddr=:: proto=other dev=lo\n",
	      "netrx: no zero run, all zeros, a protocol out of range");
}

static void test_causes(void)
{
	tap_ok(!strcmp(lt_cause_name(LATENCY_TRACKER_CAUSE_THRESHOLD),
		       "threshold"), "cause 0 is threshold");
	tap_ok(!strcmp(lt_cause_name(LATENCY_TRACKER_CAUSE_TIMEOUT),
		       "timeout"), "cause 1 is timeout");
	tap_ok(!strcmp(lt_cause_name(7), "timeout"),
	       "any other cause reads as timeout, as the alerts file does");
}

int main(void)
{
	tap_plan(29);
	test_wakeup();
	test_offcpu();
	test_syscalls();
	test_block();
	test_custom();
	test_irq();
	test_lock();
	test_net();
	test_causes();
	return tap_done();
}
