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

/* The lock objects a wait edge waited on (ex_sync.h's labels: "futex
 * 0x7f..", "file lock /tmp/x (fcntl)", "semaphore 3"), each once. */
struct ex_locks {
	char **v;
	size_t n;
};

struct ex_edge {
	int from, to;
	enum ex_edge_kind kind;
	uint64_t weight;	/* ns */
	uint64_t count;		/* occurrences merged; a context: its calls */
	struct ex_locks locks;	/* E_WOKEN_BY on a lock */
};

/*
 * The graph along its paths from the root (the text tree): a tree edge is
 * one graph edge as reached under one parent tree edge, with the time of
 * that path only.  The graph merges a node reached along several paths
 * (a thread that woke us and also held our CPU; CPU 0 waited for by many
 * threads), so below a node the graph's edges are those of every path:
 * walked as a tree they would show a child larger than its parent.  Each
 * tree edge's time is within its parent's (ex_depgraph.c follows a thread
 * over the part of the parent's interval it explains), so a child is
 * never larger than its parent; children may overlap in time (a disk's
 * submitters have requests in flight together): their sum may be larger.
 */
struct ex_tedge {
	int parent;		/* the tree edge above, -1: leaves the root */
	int from, to;		/* graph nodes */
	enum ex_edge_kind kind;
	uint64_t weight, count;
	uint64_t run_ns;	/* to a context: running in it, on this path */
	struct ex_locks locks;
	int child, next;	/* first child, next sibling: -1 none */
};

struct ex_graph {
	struct ex_node *nodes;
	size_t nnodes, cap_nodes;
	struct ex_edge *edges;
	size_t nedges, cap_edges;
	int root;		/* the slow thread, -1 when empty */
	uint64_t total;		/* the root's interval length */
	bool by_comm;		/* identify threads by name (comparisons) */
	struct ex_tedge *tedges;	/* the paths (ex_graph_add_path) */
	size_t ntedges, cap_tedges;
	int troot;		/* first tree edge leaving the root, -1: none */
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
/*
 * The same along a path: also adds weight and count to the tree edge
 * from -> to under the tree edge parent (-1: from the root), and lock
 * (NULL: none) to both edges' locks.  Returns that tree edge, -1 when
 * nothing was added (no weight).
 */
int ex_graph_add_path(struct ex_graph *g, int parent, int from, int to,
		      enum ex_edge_kind kind, uint64_t weight, uint64_t count,
		      const char *lock);
/* Add every node and edge of src into dst (weights, counts and locks
 * summed; not its paths). */
void ex_graph_merge(struct ex_graph *dst, const struct ex_graph *src);

int ex_graph_edge(const struct ex_graph *g, int from, int to);
/* Sum of the incoming edge weights (the root: its total). */
uint64_t ex_graph_node_weight(const struct ex_graph *g, int n);
/* Edges leaving n, heaviest first; returns how many (caller frees *out). */
size_t ex_graph_out_edges(const struct ex_graph *g, int n, int **out);
/* Tree edges under tree edge t (-1: the root), heaviest first; returns
 * how many (caller frees *out). */
size_t ex_graph_tree_children(const struct ex_graph *g, int t, int **out);
/*
 * The nodes reached from the root over the edges of at least min_weight
 * ns into reach[] (g->nnodes entries): what a picture that leaves out the
 * lighter edges can show connected to the root.
 */
void ex_graph_reach(const struct ex_graph *g, double min_weight, bool *reach);

const char *ex_edge_kind_name(enum ex_edge_kind k);
const char *ex_node_type_name(enum ex_node_type t);

#endif /* LT_EX_GRAPH_H */
