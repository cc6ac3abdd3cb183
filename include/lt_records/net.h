/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lt_records/net.h - the alert records of latency_tracker_net's two
 * trackers (see record.h): ttfb, an accepted TCP connection's wait for
 * its first send, and netrx, a received packet's wait from the device
 * layer to its copy to user space.
 *
 * Both name a process (pid, tgid, comm, cgroup: the task that accepted
 * the connection; the task that copied the packet) and a connection from
 * the local side: saddr and sport are the local address and port, daddr
 * and dport the peer's (for netrx, the packet's destination and its
 * source), IPv4 or IPv6 (INET fields), and the transport protocol.
 * netrx adds the device the packet was received on; its ports are absent
 * for a packet that is neither TCP nor UDP (or a fragment after the
 * first), and a timeout record (no copy yet, so no process) has pid and
 * tgid -1, comm "-" and cgroup 0.
 */
#ifndef _LT_RECORDS_NET_H
#define _LT_RECORDS_NET_H

#include "record.h"

/* proto=: the transport protocols named; any other is "other". */
#define LT_NET_PROTO_TCP	0
#define LT_NET_PROTO_UDP	1
#define LT_NET_PROTO_ICMP	2
#define LT_NET_PROTO_ICMPV6	3
#define LT_NET_PROTO_OTHER	4

#define LT_NET_PROTOS(X)						\
	X(LT_NET_PROTO_TCP, "tcp")					\
	X(LT_NET_PROTO_UDP, "udp")					\
	X(LT_NET_PROTO_ICMP, "icmp")					\
	X(LT_NET_PROTO_ICMPV6, "icmpv6")				\
	X(LT_NET_PROTO_OTHER, "other")

LT_REC_ENUM_NAME_FN(lt_net_proto_name, LT_NET_PROTOS)

#define LT_TTFB_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(U64, cgroup)							\
	X(INET, saddr)							\
	X(U32, sport)							\
	X(INET, daddr)							\
	X(U32, dport)							\
	X(ENUM, proto, lt_net_proto_name)

/* Fields of the ttfb tracepoint that are not in the record. */
#define LT_TTFB_TRACE_ONLY(X)	/* none */

struct lt_ttfb_record {
	LT_TTFB_RECORD(LT_REC_MEMBER)
};

#define LT_NETRX_RECORD(X)						\
	X(PID, pid)							\
	X(PID, tgid)							\
	X(COMM, comm)							\
	X(U64, cgroup)							\
	X(INET, saddr)							\
	X(OINT, sport)							\
	X(INET, daddr)							\
	X(OINT, dport)							\
	X(ENUM, proto, lt_net_proto_name)				\
	X(NAME, dev)

/* Fields of the netrx tracepoint that are not in the record. */
#define LT_NETRX_TRACE_ONLY(X)	/* none */

struct lt_netrx_record {
	LT_NETRX_RECORD(LT_REC_MEMBER)
};

#endif /* _LT_RECORDS_NET_H */
