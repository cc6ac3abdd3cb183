/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ex_depgraph.h - the waiting dependency graph of one thread over one
 * interval (DepGraph Algorithm 1) from the state model.
 */
#ifndef LT_EX_DEPGRAPH_H
#define LT_EX_DEPGRAPH_H

#include "ex_graph.h"
#include "ex_model.h"

/* Build into g (initialised, normally empty) the graph of tid over [s, e). */
void ex_depgraph(const struct ex_model *m, struct ex_graph *g, int tid,
		 uint64_t s, uint64_t e);

/* Node helpers shared with the classification. */
int ex_dg_thread_node(struct ex_graph *g, const struct ex_model *m, int tid);
int ex_dg_context_node(struct ex_graph *g, const struct ex_model *m,
		       const struct ex_thread *t, int sys);
/* A block request of tid completed while it was blocked in iv, if any. */
const struct ex_request *ex_dg_own_request(const struct ex_model *m, int tid,
					   const struct ex_interval *iv);

#endif /* LT_EX_DEPGRAPH_H */
