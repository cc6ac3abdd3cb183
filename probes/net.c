// SPDX-License-Identifier: GPL-2.0-only
/*
 * net.c - latency_tracker_net: two trackers of the network stack.
 *
 * ttfb (time to first byte): an accepted TCP connection, from accept()'s
 * return to the first send on its socket, keyed by the socket; the record
 * names the process that accepted it and the connection (lt_records/net.h).
 *
 *	start	the return of inet_csk_accept() (a kretprobe): the accepted
 *		socket (its return value) in the accepting task.  No
 *		tracepoint is there: sock:inet_sock_set_state tells the
 *		handshake's end, in softirq context, before any accept() and
 *		without the accepting process.  Every accept() of TCP over
 *		IPv4 and IPv6 goes through it (tcp_prot and tcpv6_prot).
 *	end	the entry of tcp_sendmsg() (a kprobe: no tracepoint of the
 *		send path exists on every kernel line; sock:sock_send_length
 *		came in 6.4 and fires after the send), and of tcp_sendpage()
 *		on kernels that have it (sendfile(), latency_tracker_compat.h).
 *	cancel	sock:inet_sock_set_state to a state in which the local side
 *		can send no more (FIN_WAIT1: it closed or shut down writing;
 *		LAST_ACK: it closed after the peer; CLOSE: a reset, or the
 *		end): a connection closed before any send ends unmeasured.
 *
 * netrx (receive to user): a packet, from the device layer to its first
 * copy to user space, keyed by the skb; the record names the process that
 * copied it, the connection (for TCP and UDP) and the device.
 *
 *	start	net:netif_receive_skb: __netif_receive_skb_core(), where every
 *		packet enters the protocols, whatever the driver (NAPI with or
 *		without GRO, netif_rx(), the loopback's backlog), once per skb
 *		and per device it is received on (a veth or tunnel
 *		packet is received again on the inner device: the event
 *		restarts there, a key already pending being replaced).
 *		napi_gro_receive_entry would come earlier, but only for NAPI
 *		drivers, and for packets that GRO then merges into another
 *		skb and frees without a tracepoint: their events would never
 *		end.  IPv4 and IPv6 packets only: nothing else reaches a
 *		process's copy but through packet sockets, which get clones.
 *	end	skb:skb_copy_datagram_iovec, in skb_copy_datagram_iter(),
 *		the copy of TCP, raw and ping sockets' recvmsg() and of a
 *		non-linear UDP skb: the first copy of the skb (a read of
 *		part of a TCP segment ends it; the rest of it is copied
 *		later).  UDP copies a linear skb (the usual one) with
 *		copy_linear_skb(), which has no tracepoint: there the end is
 *		the entry of skb_consume_udp() (a kprobe), which udp_recvmsg()
 *		and udpv6_recvmsg() (its only callers in 6.1) call right
 *		after the copy, with the skb (MSG_PEEK too).
 *	cancel	skb:kfree_skb (dropped) and skb:consume_skb (freed after use)
 *		of an skb not copied yet.
 *
 * What the pair misses is in docs/design.md ("The trackers", net): the
 * time before GRO, packets TCP coalesces into an earlier skb of the queue
 * or collapses (freed without a tracepoint: their events stay pending
 * until the address is reused or the timeout), copies that verify the
 * checksum (skb_copy_and_csum_datagram_msg(), no tracepoint) and zero-copy
 * receives, which end at the free, cancelled.
 *
 * Keys are the socket's and the skb's addresses, inside the table only:
 * no record, tracepoint or file shows them.  A socket or an skb freed
 * without our end (the skb paths above, a socket never sent on and not
 * seen closing) may give its address to a new one: a new start replaces
 * the pending event (unique mode), which ends without a record.
 *
 * Cost.  netrx runs for every received IPv4/IPv6 packet: at the receive,
 * the headers read (skb_header_pointer(), no copy for a linear skb) and
 * one event_in; at the copy (a UDP one: a kprobe hit through ftrace),
 * the filters then one event_out; at each
 * free of a received skb, one event_cancel (usually a lookup that finds
 * nothing).  Skbs never received (skb_iif 0: sent from this host) are
 * skipped before any table work at the copy and the free.  No
 * allocation, no lock but RCU, no printing.  docs/performance.md measures
 * it per packet.
 *
 * Filters.  ttfb filters the accepting task at accept(), before any table
 * work (the kretprobe's entry handler: a call of a task kept out is not
 * even hooked at its return).  netrx knows its process only at the copy:
 * a copy by a task the filters keep out is counted in `filtered` and its
 * packet's event is cancelled.
 *
 * Module parameters: one set for both trackers (LT_PROBE_MODULE_PARAMS),
 * each tracker then has its own /proc/latency_tracker/{ttfb,netrx}/ files.
 *
 * Synchronisation.  The probes and handlers run concurrently on any CPU
 * and share nothing but the trackers (the core's own synchronisation).
 * kprobe and kretprobe handlers run with preemption disabled; tracepoint
 * probes within the tracepoint's RCU read side.  The socket read at
 * accept is the accepted one, not yet installed in a file descriptor,
 * so held by the accepting call; the skbs are the tracepoints' own,
 * referenced at those points.  The init registers the ends before the
 * starts (but for netrx's UDP kprobe, which needs the tracker that
 * lt_probe_start() creates with the tracepoints: a UDP packet received
 * before it ends at its free, cancelled) and the exit unregisters in
 * the reverse order; each unregister
 * waits for the running handlers (unregister_kprobe() and
 * unregister_kretprobe() a grace period; a kretprobe's pending return
 * trampolines call nothing once it is unregistered), so that nothing
 * runs when lt_probe_stop() destroys a tracker.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/if_ether.h>
#include <linux/in.h>
#include <linux/ip.h>
#include <linux/ipv6.h>
#include <linux/kprobes.h>
#include <linux/module.h>
#include <linux/netdevice.h>
#include <linux/proc_fs.h>
#include <linux/ptrace.h>
#include <linux/seq_file.h>
#include <linux/skbuff.h>
#include <net/inet_sock.h>
#include <net/ip.h>
#include <net/ipv6.h>
#include <net/sock.h>
#include <net/tcp_states.h>
#include <trace/events/net.h>
#include <trace/events/skb.h>
#include <trace/events/sock.h>

#include <lt_records/net.h>
#include "common/probe.h"
#include "lt_trace.h"

#if !defined(CONFIG_KRETPROBES) || !defined(CONFIG_HAVE_FUNCTION_ARG_ACCESS_API)
#error "latency_tracker_net needs kretprobes and regs_get_kernel_argument()"
#endif

/*
 * 1 ms for both trackers: a connection that waits that long for its first
 * byte, or a packet that long in the stack and its socket's queue.
 */
LT_PROBE_MODULE_PARAMS(1000000, 0, 0, 1);

/*
 * Instances of the accept kretprobe: accept() calls of tracked tasks in
 * progress at once, blocked ones included (a server's threads waiting in
 * accept()).  More are missed (ttfb's net_stats: accept_missed).
 */
#define LT_TTFB_ACCEPTS		512

static struct lt_probe lt_ttfb;
static struct lt_probe lt_netrx;

/* What netrx knows of a packet at its receipt (the event's data). */
struct lt_netrx_in {
	u8 saddr[LT_REC_INET_LEN];
	u8 daddr[LT_REC_INET_LEN];
	s32 sport;
	s32 dport;
	u32 proto;
	char dev[IFNAMSIZ];
};

static u32 lt_net_proto(u8 ipproto)
{
	switch (ipproto) {
	case IPPROTO_TCP:
		return LT_NET_PROTO_TCP;
	case IPPROTO_UDP:
		return LT_NET_PROTO_UDP;
	case IPPROTO_ICMP:
		return LT_NET_PROTO_ICMP;
	case IPPROTO_ICMPV6:
		return LT_NET_PROTO_ICMPV6;
	default:
		return LT_NET_PROTO_OTHER;
	}
}

/* An IPv4 address as an INET field (v4-mapped). */
static __always_inline void lt_net_addr4(u8 *dst, __be32 addr)
{
	ipv6_addr_set_v4mapped(addr, (struct in6_addr *)dst);
}

/* ttfb */

static void lt_ttfb_cb(const struct latency_tracker_report *r)
{
	const struct lt_ttfb_record *a = latency_tracker_event_priv(r->event);

	trace_ttfb(r->cause, r->delay_ns, a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      a, sizeof(*a));
}

static LT_RECORD_FMT(lt_ttfb_fmt, struct lt_ttfb_record, LT_TTFB_RECORD)

/*
 * The connection of an accepted socket, read as the kernel's sock
 * tracepoints read it (inet_sock_set_state): local address and port
 * first.  An IPv6 socket may carry an IPv4 connection (v4-mapped).
 */
static void lt_ttfb_sock(const struct sock *sk, struct lt_ttfb_record *a)
{
	const struct inet_sock *inet = inet_sk(sk);

	a->sport = ntohs(inet->inet_sport);
	a->dport = ntohs(inet->inet_dport);
	a->proto = LT_NET_PROTO_TCP;
#if IS_ENABLED(CONFIG_IPV6)
	if (sk->sk_family == AF_INET6) {
		memcpy(a->saddr, &sk->sk_v6_rcv_saddr, LT_REC_INET_LEN);
		memcpy(a->daddr, &sk->sk_v6_daddr, LT_REC_INET_LEN);
		return;
	}
#endif
	lt_net_addr4(a->saddr, inet->inet_saddr);
	lt_net_addr4(a->daddr, inet->inet_daddr);
}

/* The accept kretprobe's instance data: the filters' cgroup id. */
struct lt_ttfb_call {
	u64 cgroup;
};

static atomic_long_t lt_ttfb_nmi_missed = ATOMIC_LONG_INIT(0);

/*
 * Entry of inet_csk_accept(): only a call of a task the filters keep has
 * its return hooked (non-zero: not hooked).  In NMI context (an int3
 * kprobe: never the case at a function's ftrace site, where kprobes use
 * ftrace) the core cannot run: counted, not hooked.
 */
static int lt_ttfb_accept_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct lt_ttfb_call *call = (struct lt_ttfb_call *)ri->data;

	if (unlikely(in_nmi())) {
		atomic_long_inc(&lt_ttfb_nmi_missed);
		return 1;
	}
	return lt_probe_track_task(&lt_ttfb, current, &call->cgroup) ? 0 : 1;
}

/*
 * Return of inet_csk_accept(): the accepted socket, or NULL.  The event's
 * data is its whole record, all known here.
 */
static int lt_ttfb_accept_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	const struct lt_ttfb_call *call = (const struct lt_ttfb_call *)ri->data;
	struct sock *sk = (struct sock *)regs_return_value(regs);
	struct latency_tracker_in_opts opts = { };
	struct lt_ttfb_record a;
	u64 key;

	if (!sk || sk->sk_protocol != IPPROTO_TCP)
		return 0;
	/* Reset before accept(): it will never send. */
	if (READ_ONCE(sk->sk_state) == TCP_CLOSE)
		return 0;
	a.pid = current->pid;
	a.tgid = current->tgid;
	lt_comm_get(a.comm, current);
	a.cgroup = call->cgroup;
	lt_ttfb_sock(sk, &a);
	opts.priv = &a;
	opts.priv_len = sizeof(a);
	key = (unsigned long)sk;
	latency_tracker_event_in(lt_ttfb.t, &key, sizeof(key), &opts);
	return 0;
}

static struct kretprobe lt_ttfb_accept_rp = {
	.kp.symbol_name = "inet_csk_accept",
	.entry_handler = lt_ttfb_accept_entry,
	.handler = lt_ttfb_accept_ret,
	.data_size = sizeof(struct lt_ttfb_call),
	.maxactive = LT_TTFB_ACCEPTS,
};

/* A send on a socket (the first argument): ends its event, if any. */
static int lt_ttfb_send_pre(struct kprobe *kp, struct pt_regs *regs)
{
	u64 key = regs_get_kernel_argument(regs, 0);

	if (unlikely(in_nmi())) {
		atomic_long_inc(&lt_ttfb_nmi_missed);
		return 0;
	}
	latency_tracker_event_out(lt_ttfb.t, &key, sizeof(key), 0, NULL);
	return 0;
}

static struct kprobe lt_ttfb_sends[] = {
	{ .symbol_name = "tcp_sendmsg", .pre_handler = lt_ttfb_send_pre },
#if LT_HAVE_TCP_SENDPAGE
	{ .symbol_name = "tcp_sendpage", .pre_handler = lt_ttfb_send_pre },
#endif
};

static void lt_ttfb_probe_state(void *data, const struct sock *sk,
				const int oldstate, const int newstate)
{
	u64 key = (unsigned long)sk;

	if (newstate != TCP_FIN_WAIT1 && newstate != TCP_LAST_ACK &&
	    newstate != TCP_CLOSE)
		return;
	if (sk->sk_protocol != IPPROTO_TCP)
		return;
	latency_tracker_event_cancel(lt_ttfb.t, &key, sizeof(key));
}

#define LT_TTFB_TPS(X)							\
	X(inet_sock_set_state, lt_ttfb_probe_state)
LT_PROBE_TPS(lt_ttfb_tps, LT_TTFB_TPS);

static int lt_ttfb_stats_show(struct seq_file *m, void *v)
{
	seq_printf(m, "accept_missed %d\nnmi_missed %ld\n",
		   lt_ttfb_accept_rp.nmissed,
		   atomic_long_read(&lt_ttfb_nmi_missed));
	return 0;
}

/* lt_probe.setup: the tracker's own counters, next to the standard files. */
static int lt_ttfb_setup(struct latency_tracker *t)
{
	if (!proc_create_single_data("net_stats", 0400,
				     latency_tracker_proc_dir(t),
				     lt_ttfb_stats_show, NULL))
		return -ENOMEM;
	return 0;
}

static struct lt_probe lt_ttfb = {
	.params = {
		.name = "ttfb",
		.key_size = sizeof(u64),
		.priv_size = sizeof(struct lt_ttfb_record),
		.alert_payload = sizeof(struct lt_ttfb_record),
		.callback = lt_ttfb_cb,
		.alert_fmt = lt_ttfb_fmt,
	},
	.tps = lt_ttfb_tps,
	.nr_tps = ARRAY_SIZE(lt_ttfb_tps),
	.setup = lt_ttfb_setup,
};

/* netrx */

/*
 * The record: the packet's data from its receipt, the process that
 * copied it (current: the callback runs inside the copy's event_out), or
 * none for a timeout.
 */
static void lt_netrx_cb(const struct latency_tracker_report *r)
{
	const struct lt_netrx_in *in = latency_tracker_event_priv(r->event);
	struct lt_netrx_record a = { };

	if (r->cause == LATENCY_TRACKER_CAUSE_THRESHOLD) {
		a.pid = current->pid;
		a.tgid = current->tgid;
		lt_comm_get(a.comm, current);
		a.cgroup = lt_task_cgroup_id(current);
	} else {
		a.pid = -1;
		a.tgid = -1;
		strscpy(a.comm, "-", sizeof(a.comm));
	}
	memcpy(a.saddr, in->saddr, LT_REC_INET_LEN);
	memcpy(a.daddr, in->daddr, LT_REC_INET_LEN);
	a.sport = in->sport;
	a.dport = in->dport;
	a.proto = in->proto;
	strscpy(a.dev, in->dev, min(sizeof(a.dev), sizeof(in->dev)));
	trace_netrx(r->cause, r->delay_ns, &a);
	latency_tracker_alert(r->tracker, r->cause, r->end_ns, r->delay_ns,
			      &a, sizeof(a));
}

static LT_RECORD_FMT(lt_netrx_fmt, struct lt_netrx_record, LT_NETRX_RECORD)

/*
 * A received packet's addresses, ports and protocol, from the local
 * side (saddr: its destination).  skb->data is its network header here
 * (the device layer pulled the link header); skb_header_pointer() copies
 * only from a non-linear skb.  IPv6 extension headers are not walked: a
 * packet with any has no ports.  False for a packet that is not IP.
 */
static __always_inline bool lt_netrx_parse(const struct sk_buff *skb,
					   struct lt_netrx_in *in)
{
	const struct ipv6hdr *ip6;
	const struct iphdr *ip4;
	const __be16 *ports;
	unsigned int thoff;
	/* Read only where skb_header_pointer() filled them. */
	__be16 pbuf[2] __uninitialized;
	bool first;
	u8 proto;
	union {
		struct iphdr v4;
		struct ipv6hdr v6;
	} hbuf __uninitialized;

	switch (skb->protocol) {
	case htons(ETH_P_IP):
		ip4 = skb_header_pointer(skb, 0, sizeof(*ip4), &hbuf.v4);
		if (!ip4 || ip4->ihl < 5)
			return false;
		lt_net_addr4(in->saddr, ip4->daddr);
		lt_net_addr4(in->daddr, ip4->saddr);
		proto = ip4->protocol;
		thoff = ip4->ihl * 4;
		first = !(ip4->frag_off & htons(IP_OFFSET));
		break;
	case htons(ETH_P_IPV6):
		ip6 = skb_header_pointer(skb, 0, sizeof(*ip6), &hbuf.v6);
		if (!ip6)
			return false;
		memcpy(in->saddr, &ip6->daddr, LT_REC_INET_LEN);
		memcpy(in->daddr, &ip6->saddr, LT_REC_INET_LEN);
		proto = ip6->nexthdr;
		thoff = sizeof(*ip6);
		first = true;
		break;
	default:
		return false;
	}
	in->proto = lt_net_proto(proto);
	in->sport = -1;
	in->dport = -1;
	if (first && (proto == IPPROTO_TCP || proto == IPPROTO_UDP)) {
		/* Both have the source port, then the destination port. */
		ports = skb_header_pointer(skb, thoff, sizeof(pbuf), pbuf);
		if (ports) {
			in->sport = ntohs(ports[1]);
			in->dport = ntohs(ports[0]);
		}
	}
	memcpy(in->dev, skb->dev->name, IFNAMSIZ);
	return true;
}

static void lt_netrx_probe_receive(void *data, struct sk_buff *skb)
{
	/* Every byte is written by lt_netrx_parse() or not used. */
	struct lt_netrx_in in __uninitialized;
	struct latency_tracker_in_opts opts = {
		.priv = &in,
		.priv_len = sizeof(in),
	};
	u64 key = (unsigned long)skb;

	if (!lt_netrx_parse(skb, &in))
		return;
	latency_tracker_event_in(lt_netrx.t, &key, sizeof(key), &opts);
}

/*
 * An skb that went through the device layer has skb_iif set (just after
 * netif_receive_skb is emitted, before any protocol sees it); one that
 * did not was never tracked: no table work for it.
 */
static __always_inline bool lt_netrx_received(const struct sk_buff *skb)
{
	return READ_ONCE(skb->skb_iif) != 0;
}

static void lt_netrx_probe_copy(void *data, const struct sk_buff *skb,
				int len)
{
	u64 key = (unsigned long)skb;

	if (!lt_netrx_received(skb))
		return;
	if (!lt_probe_track_task(&lt_netrx, current, NULL)) {
		latency_tracker_event_cancel(lt_netrx.t, &key, sizeof(key));
		return;
	}
	latency_tracker_event_out(lt_netrx.t, &key, sizeof(key), 0, NULL);
}

/*
 * UDP's end: skb_consume_udp(sk, skb, len), right after udp_recvmsg()
 * copied the skb (see the top of this file).  The kprobe is at the
 * function's ftrace site: never in NMI context.
 */
static int lt_netrx_udp_pre(struct kprobe *kp, struct pt_regs *regs)
{
	lt_netrx_probe_copy(NULL, (const struct sk_buff *)
			    regs_get_kernel_argument(regs, 1), 0);
	return 0;
}

static struct kprobe lt_netrx_udp_kp = {
	.symbol_name = "skb_consume_udp",
	.pre_handler = lt_netrx_udp_pre,
};

static __always_inline void lt_netrx_free(const struct sk_buff *skb)
{
	u64 key = (unsigned long)skb;

	if (!lt_netrx_received(skb))
		return;
	latency_tracker_event_cancel(lt_netrx.t, &key, sizeof(key));
}

static void lt_netrx_probe_kfree(void *data, LT_KFREE_SKB_PARAMS)
{
	lt_netrx_free(skb);
}

static void lt_netrx_probe_consume(void *data, LT_CONSUME_SKB_PARAMS)
{
	lt_netrx_free(skb);
}

/* The ends before the start, so that no event misses its end. */
#define LT_NETRX_TPS(X)							\
	X(skb_copy_datagram_iovec, lt_netrx_probe_copy)			\
	X(kfree_skb, lt_netrx_probe_kfree)				\
	X(consume_skb, lt_netrx_probe_consume)				\
	X(netif_receive_skb, lt_netrx_probe_receive)
LT_PROBE_TPS(lt_netrx_tps, LT_NETRX_TPS);

static struct lt_probe lt_netrx = {
	.params = {
		.name = "netrx",
		.key_size = sizeof(u64),
		.priv_size = sizeof(struct lt_netrx_in),
		.alert_payload = sizeof(struct lt_netrx_record),
		.callback = lt_netrx_cb,
		.alert_fmt = lt_netrx_fmt,
	},
	.tps = lt_netrx_tps,
	.nr_tps = ARRAY_SIZE(lt_netrx_tps),
};

/* One dmesg line for a probe that did not register. */
static void lt_net_probe_failed(const char *sym, int ret)
{
	pr_err("cannot probe %s: %d\n", sym, ret);
}

static int __init lt_net_init(void)
{
	unsigned int i;
	int ret;

	ret = lt_probe_start(&lt_ttfb, &lt_mparams);
	if (ret)
		return ret;
	ret = lt_probe_start(&lt_netrx, &lt_mparams);
	if (ret)
		goto err_ttfb;
	ret = register_kprobe(&lt_netrx_udp_kp);
	if (ret) {
		lt_net_probe_failed(lt_netrx_udp_kp.symbol_name, ret);
		goto err_netrx;
	}
	for (i = 0; i < ARRAY_SIZE(lt_ttfb_sends); i++) {
		ret = register_kprobe(&lt_ttfb_sends[i]);
		if (ret) {
			lt_net_probe_failed(lt_ttfb_sends[i].symbol_name, ret);
			goto err_sends;
		}
	}
	ret = register_kretprobe(&lt_ttfb_accept_rp);
	if (ret) {
		lt_net_probe_failed(lt_ttfb_accept_rp.kp.symbol_name, ret);
		goto err_sends;
	}
	return 0;

err_sends:
	while (i--)
		unregister_kprobe(&lt_ttfb_sends[i]);
	unregister_kprobe(&lt_netrx_udp_kp);
err_netrx:
	lt_probe_stop(&lt_netrx);
err_ttfb:
	lt_probe_stop(&lt_ttfb);
	return ret;
}

static void __exit lt_net_exit(void)
{
	unsigned int i;

	unregister_kretprobe(&lt_ttfb_accept_rp);
	for (i = ARRAY_SIZE(lt_ttfb_sends); i--; )
		unregister_kprobe(&lt_ttfb_sends[i]);
	unregister_kprobe(&lt_netrx_udp_kp);
	lt_probe_stop(&lt_netrx);
	lt_probe_stop(&lt_ttfb);
}

module_init(lt_net_init);
module_exit(lt_net_exit);

MODULE_LICENSE("GPL");
MODULE_AUTHOR("latency-tracker project");
MODULE_DESCRIPTION("Time to first byte of accepted connections and received packets' wait for a reader");
