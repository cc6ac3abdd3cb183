// SPDX-License-Identifier: GPL-2.0-only
/*
 * ex_graph.c - the waiting dependency graph structure: nodes identified by
 * a key string, weighted edges summed on insertion (DepGraph Algorithm 2)
 * and on merge.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ex_graph.h"
#include "ex_util.h"

static const char *const type_names[] = {
	[N_THREAD] = "thread", [N_SYSCALL] = "syscall", [N_USER] = "user",
	[N_CPU] = "cpu", [N_DISK] = "disk", [N_TIMER] = "timer",
	[N_IRQ] = "irq", [N_SOFTIRQ] = "softirq", [N_UNKNOWN] = "unknown",
	[N_IDLE] = "idle",
};

static const char *const kind_names[] = {
	[E_CONTEXT] = "context", [E_WOKEN_BY] = "woken_by",
	[E_WAIT_CPU] = "wait_cpu", [E_CPU_USED] = "cpu_used",
	[E_WAIT_DISK] = "wait_disk", [E_DISK_USED] = "disk_used",
	[E_WAIT_TIMER] = "wait_timer", [E_WAIT_IRQ] = "wait_irq",
	[E_WAIT_SOFTIRQ] = "wait_softirq", [E_WAIT_UNKNOWN] = "wait_unknown",
};

const char *ex_node_type_name(enum ex_node_type t)
{
	return type_names[t];
}

const char *ex_edge_kind_name(enum ex_edge_kind k)
{
	return kind_names[k];
}

void ex_graph_init(struct ex_graph *g, bool by_comm)
{
	memset(g, 0, sizeof(*g));
	g->root = -1;
	g->by_comm = by_comm;
}

void ex_graph_free(struct ex_graph *g)
{
	for (size_t i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].key);
		free(g->nodes[i].label);
	}
	free(g->nodes);
	free(g->edges);
	memset(g, 0, sizeof(*g));
	g->root = -1;
}

int ex_graph_find(const struct ex_graph *g, const char *key)
{
	for (size_t i = 0; i < g->nnodes; i++)
		if (!strcmp(g->nodes[i].key, key))
			return (int)i;
	return -1;
}

static int node_add(struct ex_graph *g, const char *key, const char *label,
		    enum ex_node_type type, int tid)
{
	int n = ex_graph_find(g, key);
	struct ex_node *nd;

	if (n >= 0)
		return n;
	nd = EX_PUSH(g->nodes, g->nnodes, g->cap_nodes);
	nd->key = ex_xstrdup(key);
	nd->label = ex_xstrdup(label);
	nd->type = type;
	nd->tid = tid;
	return (int)g->nnodes - 1;
}

int ex_graph_node(struct ex_graph *g, enum ex_node_type type, int tid,
		  const char *comm, const char *name)
{
	char key[256], label[256], who[64];

	if (g->by_comm)
		snprintf(who, sizeof(who), "%s", comm);
	else
		snprintf(who, sizeof(who), "%d", tid);
	switch (type) {
	case N_THREAD:
		snprintf(key, sizeof(key), "thread:%s", who);
		if (g->by_comm)
			snprintf(label, sizeof(label), "%s", comm);
		else
			snprintf(label, sizeof(label), "%s [%d]", comm, tid);
		break;
	case N_SYSCALL:
	case N_USER:
		snprintf(key, sizeof(key), "%s:%s:%s", type_names[type], who, name);
		snprintf(label, sizeof(label), "%s", name);
		break;
	default:
		snprintf(key, sizeof(key), "%s:%s", type_names[type], name);
		snprintf(label, sizeof(label), "%s", name);
		break;
	}
	return node_add(g, key, label, type, tid);
}

int ex_graph_edge(const struct ex_graph *g, int from, int to)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].from == from && g->edges[i].to == to)
			return (int)i;
	return -1;
}

static void edge_add(struct ex_graph *g, int from, int to,
		     enum ex_edge_kind kind, uint64_t weight, uint64_t count)
{
	int e = ex_graph_edge(g, from, to);
	struct ex_edge *ed;

	if (e >= 0) {
		g->edges[e].weight += weight;
		g->edges[e].count += count;
		return;
	}
	ed = EX_PUSH(g->edges, g->nedges, g->cap_edges);
	ed->from = from;
	ed->to = to;
	ed->kind = kind;
	ed->weight = weight;
	ed->count = count;
}

void ex_graph_add(struct ex_graph *g, int from, int to,
		  enum ex_edge_kind kind, uint64_t weight)
{
	if (from < 0 || to < 0 || from == to || !weight)
		return;
	edge_add(g, from, to, kind, weight, 1);
}

void ex_graph_merge(struct ex_graph *dst, const struct ex_graph *src)
{
	int *map = ex_xcalloc(src->nnodes, sizeof(*map));

	for (size_t i = 0; i < src->nnodes; i++) {
		const struct ex_node *n = &src->nodes[i];

		map[i] = node_add(dst, n->key, n->label, n->type, n->tid);
		dst->nodes[map[i]].run_ns += n->run_ns;
	}
	for (size_t i = 0; i < src->nedges; i++) {
		const struct ex_edge *e = &src->edges[i];

		edge_add(dst, map[e->from], map[e->to], e->kind, e->weight,
			 e->count);
	}
	if (dst->root < 0 && src->root >= 0)
		dst->root = map[src->root];
	dst->total += src->total;
	free(map);
}

uint64_t ex_graph_node_weight(const struct ex_graph *g, int n)
{
	uint64_t w = 0;

	if (n == g->root)
		return g->total;
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].to == n)
			w += g->edges[i].weight;
	return w;
}

static const struct ex_graph *sort_graph;

static int by_weight_desc(const void *a, const void *b)
{
	const struct ex_edge *x = &sort_graph->edges[*(const int *)a];
	const struct ex_edge *y = &sort_graph->edges[*(const int *)b];

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

size_t ex_graph_out_edges(const struct ex_graph *g, int n, int **out)
{
	size_t cnt = 0;

	*out = ex_xcalloc(g->nedges, sizeof(**out));
	for (size_t i = 0; i < g->nedges; i++)
		if (g->edges[i].from == n)
			(*out)[cnt++] = (int)i;
	sort_graph = g;
	if (cnt > 1)
		qsort(*out, cnt, sizeof(**out), by_weight_desc);
	return cnt;
}
