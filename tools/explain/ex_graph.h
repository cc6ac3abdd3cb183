/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_graph.h - the waiting dependency graph (DepGraph III-C): nodes are
 * threads, their contexts (a system call, or user space) and resources
 * (a CPU, a disk, timers, interrupts); an edge a -> b means "a waited for
 * (or spent time in) b", weighted by accumulated nanoseconds and the
 * number of merged occurrences.  Adding an edge that exists sums the
 * weights (Algorithm 2); merging two graphs does the same for every edge.
 */
#ifndef LT_EX_GRAPH_H
#define LT_EX_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ex_node_type {
	N_THREAD, N_SYSCALL, N_USER, N_CPU, N_DISK, N_TIMER, N_IRQ,
	N_SOFTIRQ, N_UNKNOWN,
	N_IDLE,		/* a CPU idle while we were runnable: its wake-up */
};

enum ex_edge_kind {
	E_CONTEXT,	/* thread -> its syscall / user space */
	E_WOKEN_BY,	/* context -> the thread that woke it (direct) */
	E_WAIT_CPU,	/* context -> CPU (runnable) */
	E_CPU_USED,	/* CPU -> a thread that ran on it meanwhile */
	E_WAIT_DISK,	/* context -> disk (own request in flight) */
	E_DISK_USED,	/* disk -> a thread with requests in flight */
	E_WAIT_TIMER,
	E_WAIT_IRQ,
	E_WAIT_SOFTIRQ,
	E_WAIT_UNKNOWN,
};

struct ex_node {
	char *key;		/* identity (merging) */
	char *label;		/* shown */
	enum ex_node_type type;
	int tid;		/* N_THREAD, and owner of N_SYSCALL/N_USER */
	uint64_t run_ns;	/* contexts: time spent running in it */
};

struct ex_edge {
	int from, to;
	enum ex_edge_kind kind;
	uint64_t weight;	/* ns */
	uint64_t count;		/* occurrences merged */
};

struct ex_graph {
	struct ex_node *nodes;
	size_t nnodes, cap_nodes;
	struct ex_edge *edges;
	size_t nedges, cap_edges;
	int root;		/* the slow thread, -1 when empty */
	uint64_t total;		/* the root's interval length */
	bool by_comm;		/* identify threads by name (comparisons) */
};

void ex_graph_init(struct ex_graph *g, bool by_comm);
void ex_graph_free(struct ex_graph *g);

/* Find or create a node.  tid/comm name a thread (N_THREAD) or the owner
 * of a context (N_SYSCALL, N_USER); name is the syscall, CPU, disk, ... */
int ex_graph_node(struct ex_graph *g, enum ex_node_type type, int tid,
		  const char *comm, const char *name);
int ex_graph_find(const struct ex_graph *g, const char *key);

/* Algorithm 2: add weight to edge from -> to, creating it if needed. */
void ex_graph_add(struct ex_graph *g, int from, int to,
		  enum ex_edge_kind kind, uint64_t weight);
/* Add every node and edge of src into dst (weights and counts summed). */
void ex_graph_merge(struct ex_graph *dst, const struct ex_graph *src);

int ex_graph_edge(const struct ex_graph *g, int from, int to);
/* Sum of the incoming edge weights (the root: its total). */
uint64_t ex_graph_node_weight(const struct ex_graph *g, int n);
/* Edges leaving n, heaviest first; returns how many (caller frees *out). */
size_t ex_graph_out_edges(const struct ex_graph *g, int n, int **out);

const char *ex_edge_kind_name(enum ex_edge_kind k);
const char *ex_node_type_name(enum ex_node_type t);

#endif /* LT_EX_GRAPH_H */
