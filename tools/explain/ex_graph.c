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
	g->troot = -1;
	g->by_comm = by_comm;
}

static void locks_add(struct ex_locks *l, const char *lock)
{
	if (!lock || !*lock)
		return;
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], lock))
			return;
	l->v = ex_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = ex_xstrdup(lock);
}

static void locks_free(struct ex_locks *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void ex_graph_free(struct ex_graph *g)
{
	for (size_t i = 0; i < g->nnodes; i++) {
		free(g->nodes[i].key);
		free(g->nodes[i].label);
	}
	for (size_t i = 0; i < g->nedges; i++)
		locks_free(&g->edges[i].locks);
	for (size_t i = 0; i < g->ntedges; i++)
		locks_free(&g->tedges[i].locks);
	free(g->nodes);
	free(g->edges);
	free(g->tedges);
	memset(g, 0, sizeof(*g));
	g->root = -1;
	g->troot = -1;
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

static struct ex_edge *edge_add(struct ex_graph *g, int from, int to,
				 enum ex_edge_kind kind, uint64_t weight,
				 uint64_t count)
{
	int e = ex_graph_edge(g, from, to);
	struct ex_edge *ed;

	if (e >= 0) {
		g->edges[e].weight += weight;
		g->edges[e].count += count;
		return &g->edges[e];
	}
	ed = EX_PUSH(g->edges, g->nedges, g->cap_edges);
	ed->from = from;
	ed->to = to;
	ed->kind = kind;
	ed->weight = weight;
	ed->count = count;
	return ed;
}

void ex_graph_add(struct ex_graph *g, int from, int to,
		  enum ex_edge_kind kind, uint64_t weight)
{
	if (from < 0 || to < 0 || from == to || !weight)
		return;
	edge_add(g, from, to, kind, weight, 1);
}

/* The tree edge to node to under parent (-1: the root), made if new. */
static int tedge_get(struct ex_graph *g, int parent, int from, int to,
		     enum ex_edge_kind kind)
{
	int *first = parent < 0 ? &g->troot : &g->tedges[parent].child;
	struct ex_tedge *t;

	for (int i = *first; i >= 0; i = g->tedges[i].next)
		if (g->tedges[i].to == to)
			return i;
	t = EX_PUSH(g->tedges, g->ntedges, g->cap_tedges);
	t->parent = parent;
	t->from = from;
	t->to = to;
	t->kind = kind;
	t->child = -1;
	/* first may have moved with the array: found again. */
	first = parent < 0 ? &g->troot : &g->tedges[parent].child;
	t->next = *first;
	*first = (int)g->ntedges - 1;
	return *first;
}

int ex_graph_add_path(struct ex_graph *g, int parent, int from, int to,
		      enum ex_edge_kind kind, uint64_t weight, uint64_t count,
		      const char *lock)
{
	int t;

	if (from < 0 || to < 0 || from == to || !weight)
		return -1;
	locks_add(&edge_add(g, from, to, kind, weight, count)->locks, lock);
	t = tedge_get(g, parent, from, to, kind);
	g->tedges[t].weight += weight;
	g->tedges[t].count += count;
	locks_add(&g->tedges[t].locks, lock);
	return t;
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

		struct ex_edge *d = edge_add(dst, map[e->from], map[e->to],
					     e->kind, e->weight, e->count);

		for (size_t k = 0; k < e->locks.n; k++)
			locks_add(&d->locks, e->locks.v[k]);
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

static const struct ex_tedge *sort_tedges;

static int by_tweight_desc(const void *a, const void *b)
{
	const struct ex_tedge *x = &sort_tedges[*(const int *)a];
	const struct ex_tedge *y = &sort_tedges[*(const int *)b];

	if (x->weight != y->weight)
		return x->weight < y->weight ? 1 : -1;
	return *(const int *)a - *(const int *)b;
}

size_t ex_graph_tree_children(const struct ex_graph *g, int t, int **out)
{
	size_t cnt = 0;

	*out = ex_xcalloc(g->ntedges + 1, sizeof(**out));
	for (int i = t < 0 ? g->troot : g->tedges[t].child; i >= 0;
	     i = g->tedges[i].next)
		(*out)[cnt++] = i;
	sort_tedges = g->tedges;
	if (cnt > 1)
		qsort(*out, cnt, sizeof(**out), by_tweight_desc);
	return cnt;
}

void ex_graph_reach(const struct ex_graph *g, double min_weight, bool *reach)
{
	int *queue, *first, *by_from;
	size_t head = 0, tail = 0;

	memset(reach, 0, g->nnodes * sizeof(*reach));
	if (g->root < 0 || (size_t)g->root >= g->nnodes)
		return;
	/* The edges by their from node (counting sort), then a BFS. */
	first = ex_xcalloc(g->nnodes + 1, sizeof(*first));
	by_from = ex_xcalloc(g->nedges + 1, sizeof(*by_from));
	for (size_t i = 0; i < g->nedges; i++)
		first[g->edges[i].from + 1]++;
	for (size_t n = 0; n < g->nnodes; n++)
		first[n + 1] += first[n];
	queue = ex_xcalloc(g->nnodes, sizeof(*queue));
	/* queue[] counts each node's edges placed, then serves the BFS. */
	for (size_t i = 0; i < g->nedges; i++) {
		int f = g->edges[i].from;

		by_from[first[f] + queue[f]++] = (int)i;
	}
	memset(queue, 0, g->nnodes * sizeof(*queue));
	reach[g->root] = true;
	queue[tail++] = g->root;
	while (head < tail) {
		int n = queue[head++];

		for (int k = first[n]; k < first[n + 1]; k++) {
			const struct ex_edge *e = &g->edges[by_from[k]];

			if (reach[e->to] || (double)e->weight < min_weight)
				continue;
			reach[e->to] = true;
			queue[tail++] = e->to;
		}
	}
	free(queue);
	free(first);
	free(by_from);
}
